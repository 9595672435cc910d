import { deflateSync, inflateSync } from 'node:zlib';

/**
 * A PNG with an alpha channel, split for PDF: colour samples in one image, alpha samples in a soft
 * mask, or no mask when every pixel is opaque (most screenshots are saved as RGBA and are).
 *
 * MuPDF's image writer did this before, in WASM: decode, premultiply, split, deflate at a high
 * level; it was half of a picture-heavy document's time (diploma.docx). Here the runtime's own
 * zlib (node:zlib, native in workerd and Node) inflates and deflates, and one pass of JavaScript
 * splits the channels.
 *
 * The colour samples keep the PNG's filters: its filters work channel by channel (a byte is
 * predicted from the same channel of the pixels left of and above it), so without the alpha byte
 * a row is a valid filtered row of the colours alone, which PDF's PNG predictor undoes. Only the
 * alpha samples are unfiltered, to tell whether every pixel is opaque. On diploma.docx's eleven
 * RGBA screenshots (26 MB of pixels) this took the split from 240 to about 150 ms, and the colour
 * data from 3.26 to 2.58 MB, as its filters suit the colours better than none.
 */

/** Inflated scanlines bigger than this go to MuPDF's decoder: the split holds them in the JS heap about twice over. */
const MAX_SCANLINE_BYTES = 16 * 1024 * 1024;
/** zlib level for the samples. On diploma.docx's filtered colours level 1 took 82 ms for 2.58 MB, level 3 101 ms for 2.48 MB. */
const DEFLATE_LEVEL = 1;

export interface SplitPng {
  /** Deflated colour samples (1 or 3 per pixel), each row after its PNG filter type byte, as PDF's predictor 15 reads them. */
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

  const color = new Uint8Array(height * (width * colors + 1));
  const alpha = new Uint8Array(width * height);
  let all = 0xff;
  let out = 0;
  for (let y = 0; y < height; y++) {
    let i = y * stride;
    const filter = raw[i++]!;
    if (filter > 4) return undefined;
    color[out++] = filter;
    const a0 = y * width;
    let a = a0;
    if (colors === 3) {
      for (let x = 0; x < width; x++) {
        color[out] = raw[i]!;
        color[out + 1] = raw[i + 1]!;
        color[out + 2] = raw[i + 2]!;
        out += 3;
        alpha[a++] = raw[i + 3]!;
        i += 4;
      }
    } else {
      for (let x = 0; x < width; x++) {
        color[out++] = raw[i]!;
        alpha[a++] = raw[i + 1]!;
        i += 2;
      }
    }
    const row = alpha.subarray(a0, a0 + width);
    unfilter(filter, row, y ? alpha.subarray(a0 - width, a0) : undefined, 1);
    for (let x = 0; x < width; x++) all &= row[x]!;
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
