/**
 * photo-to-pdf's `scan` mode: a phone photo of a page made to read like a scan. The paper's
 * brightness is estimated across the picture (uneven light, shadows, a yellowish sheet) and divided
 * out, so paper becomes white wherever it is; then the levels are stretched so that ink is dark.
 * An unsharp mask on top made tesseract read photographed pages worse (`npm run bench:images`: mean
 * character error rate 0.139 with it, 0.091 without), so strokes are left as the camera drew them.
 * Works in place on packed 8-bit samples (grey or RGB).
 */

/** The background grid: about this many cells across the shorter side (a cell well larger than a letter). */
const CELLS_ACROSS = 24;
/** Normalised brightness from which everything counts as paper (white). */
const PAPER = 0.9;
/** The darkest share of pixels that maps to black after normalising. */
const INK_PERCENTILE = 0.01;
/** The black point never goes above this (a blank page must not turn its paper grey or black). */
const MAX_BLACK_POINT = 128;

export function scanLook(px: Uint8Array, w: number, h: number, n: 1 | 3): void {
  const luma = lumaOf(px, n);
  const paper = paperBrightness(luma, w, h);
  // Each pixel's gain brings its paper to full white; the same gain on every channel keeps colours.
  const gains = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) gains[i] = 255 / Math.max(16, paper[i]!);
  const normalised = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) normalised[i] = Math.min(255, luma[i]! * gains[i]!);
  // A page with little or no ink has its darkest percent near white: the black point stays at most mid-grey.
  const black = Math.min(percentile(normalised, INK_PERCENTILE), MAX_BLACK_POINT);
  const white = 255 * PAPER;
  const level = (v: number) => Math.max(0, Math.min(255, ((v - black) / (white - black)) * 255));
  for (let i = 0; i < w * h; i++) for (let c = 0; c < n; c++) px[i * n + c] = level(px[i * n + c]! * gains[i]!);
}

/** Packed samples' luma (Rec. 601 weights), one byte a pixel. */
export function lumaOf(px: Uint8Array, n: 1 | 3): Uint8Array {
  if (n === 1) return px.slice();
  const out = new Uint8Array(px.length / 3);
  for (let i = 0; i < out.length; i++) out[i] = (px[i * 3]! * 77 + px[i * 3 + 1]! * 150 + px[i * 3 + 2]! * 29) >> 8;
  return out;
}

/**
 * The paper's brightness at every pixel: the bright end (90th percentile) of each grid cell, so
 * that text does not darken it, smoothed over neighbouring cells and interpolated bilinearly.
 */
function paperBrightness(luma: Uint8Array, w: number, h: number): Float32Array {
  const cell = Math.max(8, Math.floor(Math.min(w, h) / CELLS_ACROSS));
  const [gw, gh] = [Math.ceil(w / cell), Math.ceil(h / cell)];
  const grid = new Float32Array(gw * gh);
  const histogram = new Uint32Array(256);
  for (let gy = 0; gy < gh; gy++) {
    for (let gx = 0; gx < gw; gx++) {
      histogram.fill(0);
      let count = 0;
      for (let y = gy * cell; y < Math.min(h, (gy + 1) * cell); y++) {
        for (let x = gx * cell; x < Math.min(w, (gx + 1) * cell); x++) (histogram[luma[y * w + x]!]!++, count++);
      }
      let v = 255;
      for (let seen = 0; v > 0 && seen < count * 0.1; v--) seen += histogram[v]!;
      grid[gy * gw + gx] = v;
    }
  }
  const smooth = new Float32Array(gw * gh);
  for (let gy = 0; gy < gh; gy++) {
    for (let gx = 0; gx < gw; gx++) {
      let [sum, k] = [0, 0];
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const [x, y] = [gx + dx, gy + dy];
        if (x >= 0 && y >= 0 && x < gw && y < gh) (sum += grid[y * gw + x]!, k++);
      }
      // A cell darker than its neighbours is more likely a picture or a shadow edge than paper: the brighter estimate wins.
      smooth[gy * gw + gx] = Math.max(grid[gy * gw + gx]!, sum / k);
    }
  }
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const fy = Math.min(gh - 1, Math.max(0, (y + 0.5) / cell - 0.5));
    const [y0, ty] = [Math.floor(fy), fy - Math.floor(fy)];
    const y1 = Math.min(gh - 1, y0 + 1);
    for (let x = 0; x < w; x++) {
      const fx = Math.min(gw - 1, Math.max(0, (x + 0.5) / cell - 0.5));
      const [x0, tx] = [Math.floor(fx), fx - Math.floor(fx)];
      const x1 = Math.min(gw - 1, x0 + 1);
      const top = smooth[y0 * gw + x0]! * (1 - tx) + smooth[y0 * gw + x1]! * tx;
      const bottom = smooth[y1 * gw + x0]! * (1 - tx) + smooth[y1 * gw + x1]! * tx;
      out[y * w + x] = top * (1 - ty) + bottom * ty;
    }
  }
  return out;
}

function percentile(values: Uint8Array, share: number): number {
  const histogram = new Uint32Array(256);
  for (const v of values) histogram[v]!++;
  let v = 0;
  for (let seen = 0; v < 255 && seen + histogram[v]! < values.length * share; v++) seen += histogram[v]!;
  return v;
}
