import { deflateSync, inflateSync } from 'node:zlib';

/**
 * A PNG with an alpha channel, split for PDF: colour samples in one image, alpha samples in a soft
 * mask, or no mask when every pixel is opaque (most screenshots are saved as RGBA and are).
 *
 * MuPDF's image writer did this before, in WASM: decode, premultiply, split, deflate at a high
 * level; it was half of a picture-heavy document's time (diploma.docx). Here the runtime's own
 * zlib (node:zlib, native in workerd and Node) inflates and deflates, and one pass of JavaScript
 * unfilters the scanlines and splits the channels.
 *
 * The colour samples are written unfiltered: keeping the PNG's filtered bytes (its filters are per
 * channel, so dropping the alpha byte leaves valid filtered rows) was 5% faster but 8% bigger,
 * as the filters were chosen for RGBA and flat screenshot colours deflate better raw.
 */

/** Inflated scanlines bigger than this go to MuPDF's decoder: the split holds them in the JS heap about twice over. */
const MAX_SCANLINE_BYTES = 16 * 1024 * 1024;
/** zlib level for the samples. On diploma.docx's RGBA screenshots level 3 was 3% smaller than level 1 for the same time (with filtered samples, 6 was 5% smaller than 3 for 100 ms more). */
const DEFLATE_LEVEL = 3;

export interface SplitPng {
  /** Deflated colour samples (1 or 3 per pixel), unfiltered. */
  color: Uint8Array;
  /** Deflated alpha samples, unfiltered, one byte per pixel; absent when every pixel is opaque. */
  alpha?: Uint8Array;
}

/**
 * Splits the zlib stream (the IDAT data) of an 8-bit non-interlaced grey+alpha (colors 1) or RGBA (colors 3) PNG.
 * Undefined when the data is damaged (short, bad filter type) or too big: the caller decodes it
 * the slow way, which reads what a damaged file still has.
 */
export function splitAlphaPng(idat: Uint8Array, width: number, height: number, colors: 1 | 3): SplitPng | undefined {
  const pixelBytes = colors + 1;
  const stride = width * pixelBytes + 1;
  const expected = stride * height;
  if (expected > MAX_SCANLINE_BYTES) return undefined;
  let raw: Uint8Array;
  try {
    raw = inflateSync(idat, { maxOutputLength: expected + 1 });
  } catch {
    return undefined;
  }
  if (raw.length < expected) return undefined;

  const color = new Uint8Array(height * width * colors);
  const alpha = new Uint8Array(width * height);
  let all = 0xff;
  let out = 0;
  const rowBytes = stride - 1;
  for (let y = 0; y < height; y++) {
    const at = y * stride;
    const filter = raw[at]!;
    if (filter > 4) return undefined;
    const row = raw.subarray(at + 1, at + stride);
    unfilter(filter, row, y ? raw.subarray(at - rowBytes, at) : undefined, pixelBytes);
    let a = y * width;
    if (colors === 3) {
      for (let i = 0; i < rowBytes; i += 4) {
        color[out] = row[i]!;
        color[out + 1] = row[i + 1]!;
        color[out + 2] = row[i + 2]!;
        out += 3;
        all &= alpha[a++] = row[i + 3]!;
      }
    } else {
      for (let i = 0; i < rowBytes; i += 2) {
        color[out++] = row[i]!;
        all &= alpha[a++] = row[i + 1]!;
      }
    }
  }
  return {
    color: deflateSync(color, { level: DEFLATE_LEVEL }),
    alpha: all === 0xff ? undefined : deflateSync(alpha, { level: DEFLATE_LEVEL }),
  };
}

/** Undoes a PNG filter on one row in place (bpp: bytes per pixel; Uint8Array arithmetic wraps mod 256). */
function unfilter(filter: number, row: Uint8Array, above: Uint8Array | undefined, bpp: number): void {
  const n = row.length;
  if (!above) {
    // The first row: nothing above counts as zeros.
    if (filter === 1 || filter === 4) for (let x = bpp; x < n; x++) row[x] = row[x]! + row[x - bpp]!;
    else if (filter === 3) for (let x = bpp; x < n; x++) row[x] = row[x]! + (row[x - bpp]! >> 1);
    return;
  }
  switch (filter) {
    case 1:
      for (let x = bpp; x < n; x++) row[x] = row[x]! + row[x - bpp]!;
      break;
    case 2:
      for (let x = 0; x < n; x++) row[x] = row[x]! + above[x]!;
      break;
    case 3:
      for (let x = 0; x < bpp; x++) row[x] = row[x]! + (above[x]! >> 1);
      for (let x = bpp; x < n; x++) row[x] = row[x]! + ((row[x - bpp]! + above[x]!) >> 1);
      break;
    case 4:
      for (let x = 0; x < bpp; x++) row[x] = row[x]! + above[x]!; // Paeth with nothing to the left picks the byte above
      for (let x = bpp; x < n; x++) {
        const left = row[x - bpp]!;
        const up = above[x]!;
        const corner = above[x - bpp]!;
        const p = left + up - corner;
        const pl = Math.abs(p - left);
        const pu = Math.abs(p - up);
        const pc = Math.abs(p - corner);
        row[x] = row[x]! + (pl <= pu && pl <= pc ? left : pu <= pc ? up : corner);
      }
      break;
  }
}
