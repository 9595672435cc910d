// SSIM (Wang et al. 2004) of two grey images { w, h, px } over 8 × 8 windows every 4 pixels:
// 1 = identical, 0 when the sizes differ. Shared by the benches that compare renderings.
export function ssim(a, b) {
  if (!a || !b || a.w !== b.w || a.h !== b.h) return 0;
  const [C1, C2] = [(0.01 * 255) ** 2, (0.03 * 255) ** 2];
  let total = 0;
  let windows = 0;
  for (let y = 0; y + 8 <= a.h; y += 4) {
    for (let x = 0; x + 8 <= a.w; x += 4) {
      let [sa, sb, saa, sbb, sab] = [0, 0, 0, 0, 0];
      for (let j = 0; j < 8; j++) {
        for (let i = 0; i < 8; i++) {
          const k = (y + j) * a.w + x + i;
          const [p, q] = [a.px[k], b.px[k]];
          sa += p; sb += q; saa += p * p; sbb += q * q; sab += p * q;
        }
      }
      const [ma, mb] = [sa / 64, sb / 64];
      const [va, vb, cov] = [saa / 64 - ma * ma, sbb / 64 - mb * mb, sab / 64 - ma * mb];
      total += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      windows++;
    }
  }
  return windows ? total / windows : 1;
}
