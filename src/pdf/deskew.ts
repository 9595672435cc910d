/**
 * A photographed or scanned page turned by a few degrees, found and turned back (photo-to-pdf's
 * scan mode). The angle is the one at which the page's dark pixels line up best in rows: the
 * projection profile of a reduced, thresholded copy, summed along each candidate slope, has the
 * largest variance when text lines run along it. Pages with too little ink to tell stay as they are.
 */

/** Angles tried, in degrees either way, and the step between them. */
const MAX_DEGREES = 5;
const STEP_DEGREES = 0.25;
/** Below this the page is left as it is: a turn costs a resampling. */
const MIN_DEGREES = 0.3;
/** Width of the copy the angle is measured on (pixels): enough for text lines, cheap to project. */
const PROBE_WIDTH = 600;
/** Share of dark pixels below which a page has too little text to measure. */
const MIN_INK = 0.002;

/** The page's skew in degrees (positive: its lines climb to the right), or 0 when there is none to correct. */
export function skewAngle(luma: Uint8Array, w: number, h: number): number {
  const scale = Math.min(1, PROBE_WIDTH / w);
  const [pw, ph] = [Math.max(1, Math.round(w * scale)), Math.max(1, Math.round(h * scale))];
  const dark: number[] = [];
  for (let y = 0; y < ph; y++) {
    const sy = Math.min(h - 1, Math.floor(y / scale));
    for (let x = 0; x < pw; x++) if (luma[sy * w + Math.min(w - 1, Math.floor(x / scale))]! < 110) dark.push(x, y);
  }
  if (dark.length / 2 < pw * ph * MIN_INK) return 0;
  let [best, bestScore] = [0, -1];
  const bins = new Float64Array(ph * 2 + 4);
  for (let deg = -MAX_DEGREES; deg <= MAX_DEGREES + 1e-9; deg += STEP_DEGREES) {
    const slope = Math.tan((deg * Math.PI) / 180);
    bins.fill(0);
    // Each dark pixel counted in the row its line would have at the left edge, had the page this slope.
    for (let i = 0; i < dark.length; i += 2) {
      const row = Math.round(dark[i + 1]! + dark[i]! * slope) + ph;
      if (row >= 0 && row < bins.length) bins[row]!++;
    }
    let [sum, squares] = [0, 0];
    for (const v of bins) (sum += v, (squares += v * v));
    const score = squares - (sum * sum) / bins.length;
    if (score > bestScore) [best, bestScore] = [deg, score];
  }
  return Math.abs(best) < MIN_DEGREES ? 0 : best;
}

/**
 * The pixels turned by `degrees` about the centre (bilinear), into a new buffer of the same size:
 * what turns in from outside is white, as paper is.
 */
export function rotated(px: Uint8Array, w: number, h: number, n: number, degrees: number): Uint8Array {
  const out = new Uint8Array(px.length).fill(255);
  const [cos, sin] = [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
  const [cx, cy] = [(w - 1) / 2, (h - 1) / 2];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      // Where this output pixel comes from in the input.
      const sx = cos * (x - cx) - sin * (y - cy) + cx;
      const sy = sin * (x - cx) + cos * (y - cy) + cy;
      const [x0, y0] = [Math.floor(sx), Math.floor(sy)];
      if (x0 < 0 || y0 < 0 || x0 >= w - 1 || y0 >= h - 1) continue;
      const [fx, fy] = [sx - x0, sy - y0];
      for (let c = 0; c < n; c++) {
        const at = (y0 * w + x0) * n + c;
        const top = px[at]! * (1 - fx) + px[at + n]! * fx;
        const bottom = px[at + w * n]! * (1 - fx) + px[at + w * n + n]! * fx;
        out[(y * w + x) * n + c] = top * (1 - fy) + bottom * fy;
      }
    }
  }
  return out;
}
