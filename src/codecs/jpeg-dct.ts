/** The 8 × 8 block transforms of the JPEG encoder (engines/jpeg-encoder.ts), in floating point. */

/** Whether the 8 × 8 block at plane[at] (rows `stride` apart) holds one value throughout. */
export function isFlat(plane: Float64Array, at: number, stride: number): boolean {
  const first = plane[at]!;
  for (let row = 0; row < 8; row++) {
    const from = at + row * stride;
    for (let col = 0; col < 8; col++) if (plane[from + col] !== first) return false;
  }
  return true;
}

/**
 * The AAN forward DCT of the 8 × 8 block at plane[at] (rows `stride` apart) into `d`: rows from
 * the plane, then columns in place; outputs scaled as AAN leaves them.
 */
export function fdct(plane: Float64Array, at: number, stride: number, d: Float64Array): void {
  for (let k = 0; k < 8; k++) {
    const s = at + k * stride;
    const o = k * 8;
    const t0 = plane[s]! + plane[s + 7]!, t7 = plane[s]! - plane[s + 7]!;
    const t1 = plane[s + 1]! + plane[s + 6]!, t6 = plane[s + 1]! - plane[s + 6]!;
    const t2 = plane[s + 2]! + plane[s + 5]!, t5 = plane[s + 2]! - plane[s + 5]!;
    const t3 = plane[s + 3]! + plane[s + 4]!, t4 = plane[s + 3]! - plane[s + 4]!;
    butterfly(d, o, 1, t0, t1, t2, t3, t4, t5, t6, t7);
  }
  for (let k = 0; k < 8; k++) {
    const t0 = d[k]! + d[k + 56]!, t7 = d[k]! - d[k + 56]!;
    const t1 = d[k + 8]! + d[k + 48]!, t6 = d[k + 8]! - d[k + 48]!;
    const t2 = d[k + 16]! + d[k + 40]!, t5 = d[k + 16]! - d[k + 40]!;
    const t3 = d[k + 24]! + d[k + 32]!, t4 = d[k + 24]! - d[k + 32]!;
    butterfly(d, k, 8, t0, t1, t2, t3, t4, t5, t6, t7);
  }
}

/** The rest of one 8-point AAN DCT from its sums and differences, written to d[o], d[o + step], … */
function butterfly(d: Float64Array, o: number, step: number, t0: number, t1: number, t2: number, t3: number, t4: number, t5: number, t6: number, t7: number): void {
  const t10 = t0 + t3, t13 = t0 - t3, t11 = t1 + t2, t12 = t1 - t2;
  d[o] = t10 + t11;
  d[o + 4 * step] = t10 - t11;
  const z1 = (t12 + t13) * 0.707106781;
  d[o + 2 * step] = t13 + z1;
  d[o + 6 * step] = t13 - z1;
  const u10 = t4 + t5, u11 = t5 + t6, u12 = t6 + t7;
  const z5 = (u10 - u12) * 0.382683433;
  const z2 = 0.5411961 * u10 + z5;
  const z4 = 1.306562965 * u12 + z5;
  const z3 = u11 * 0.707106781;
  const z11 = t7 + z3, z13 = t7 - z3;
  d[o + 5 * step] = z13 + z2;
  d[o + 3 * step] = z13 - z2;
  d[o + step] = z11 + z4;
  d[o + 7 * step] = z11 - z4;
}
