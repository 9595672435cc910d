import { deflateSync } from 'node:zlib';
import { inflateKnownSize } from './native-zlib';
import { requireDecodablePixels } from './image-header';

/**
 * The alpha samples of a PNG with an alpha channel, for PDF's soft mask: PDF has no colour space
 * with alpha, so a picture's colour and alpha are two images. The colour image is the PNG's own
 * compressed data, read through a DeviceN space that ignores its alpha component (see
 * picture-passthrough.ts); only the alpha samples are taken out here, or none when every pixel is
 * opaque (most screenshots are saved as RGBA and are).
 *
 * MuPDF's image writer did the split before, in WASM: decode, premultiply, split, deflate at a high
 * level; it was half of a picture-heavy document's time (diploma.docx). Then the runtime's own
 * zlib (node:zlib, native in workerd and Node) inflated the data and deflated colour and alpha
 * apart: 166 ms on diploma.docx's ten non-interlaced RGBA screenshots (7.5 million pixels), 90 of
 * them deflating the colours again. Inflating and taking the alpha out is what is left.
 */

/** Inflated scanlines bigger than this go to MuPDF's decoder: the split holds them in the JS heap. */
const MAX_SCANLINE_BYTES = 16 * 1024 * 1024;
/** zlib level for the alpha samples (mostly runs of 0 and 255: level 1 already packs them tight). */
const DEFLATE_LEVEL = 1;

export interface PngAlpha {
  /** Deflated alpha samples, unfiltered, one byte per pixel; absent when every pixel is opaque. */
  alpha?: Uint8Array;
}

/** A PNG's zlib data inflated by the runtime's zlib: at least the `expected` bytes of scanlines, or undefined (damaged, or short). */
export function inflateScanlines(idat: Uint8Array, expected: number): Uint8Array | undefined {
  let raw: Uint8Array;
  try {
    raw = inflateKnownSize(idat, expected + 1);
  } catch {
    return undefined;
  }
  return raw.length < expected ? undefined : raw;
}

/**
 * The alpha samples of the zlib stream (the IDAT data) of an 8-bit non-interlaced grey+alpha
 * (colors 1) or RGBA (colors 3) PNG. Undefined when the data is damaged (short, bad filter type)
 * or too big to split here: the caller decodes it the slow way, which reads what a damaged file
 * still has. LimitExceeded, before anything is inflated, past the pixels any decoder here is
 * given (MAX_DECODED_PIXELS, image-header.ts): the slow way would decode it whole into MuPDF's heap.
 */
export function pngAlpha(idat: Uint8Array, width: number, height: number, colors: 1 | 3): PngAlpha | undefined {
  requireDecodablePixels(width, height, 'a picture with transparency');
  const pixelBytes = colors + 1;
  const stride = width * pixelBytes + 1;
  const expected = stride * height;
  if (expected > MAX_SCANLINE_BYTES) return undefined;
  const raw = inflateScanlines(idat, expected);
  if (!raw) return undefined;

  // Most RGBA screenshots are opaque: a read-only pass tells so without unfiltering anything.
  if (filteredOpaque(raw, height, stride, pixelBytes)) return {};

  // PNG's filters work channel by channel (a byte is predicted from the same channel of the pixels
  // left of and above it), so the alpha bytes alone, with their row's filter type, unfilter as a
  // one-channel image: taken out and unfiltered in one pass per row.
  const alpha = new Uint8Array(width * height);
  let all = 0xff;
  for (let y = 0; y < height; y++) {
    const filter = raw[y * stride]!;
    if (filter > 4) return undefined;
    all &= unfilterAlphaRow(filter, raw, y * stride + pixelBytes, pixelBytes, alpha, y * width, y ? (y - 1) * width : -1, width);
  }
  return { alpha: all === 0xff ? undefined : deflateSync(alpha, { level: DEFLATE_LEVEL }) };
}

/**
 * Whether every alpha sample is 255, told from the filtered bytes alone: given the rows above all
 * opaque, a row is opaque exactly when each of its filtered alpha bytes is what that filter makes
 * of 255 (the prediction is 255, 127 or 0 by the filter and by whether it is the row's first
 * sample or the image's first row), as unfiltering is one to one. A row that differs, or has an
 * unknown filter type, ends the pass: the caller unfilters the samples (or refuses the data).
 */
function filteredOpaque(raw: Uint8Array, height: number, stride: number, pixelBytes: number): boolean {
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    const filter = raw[row]!;
    const top = y === 0;
    // [the first sample's filtered byte, every later one's]
    let first: number;
    let rest: number;
    if (filter === 0) [first, rest] = [255, 255];
    else if (filter === 1) [first, rest] = [255, 0];
    else if (filter === 2) [first, rest] = top ? [255, 255] : [0, 0];
    else if (filter === 3) [first, rest] = top ? [255, 128] : [128, 0];
    else if (filter === 4) [first, rest] = top ? [255, 0] : [0, 0];
    else return false;
    const end = row + stride;
    let i = row + pixelBytes;
    if (raw[i] !== first) return false;
    for (i += pixelBytes; i < end; i += pixelBytes) if (raw[i] !== rest) return false;
  }
  return true;
}

/**
 * Unfilters one row of alpha samples: from `raw` (filtered, every `step`th byte from `from`) into
 * `alpha` at `at`, the row above at `above` (-1: none, zeros). Returns the AND of the row's samples.
 */
function unfilterAlphaRow(filter: number, raw: Uint8Array, from: number, step: number, alpha: Uint8Array, at: number, above: number, width: number): number {
  let all = 0xff;
  let i = from;
  const end = at + width;
  // One loop per filter type, none of them branching per sample on the type. An assignment's value
  // is what was assigned, not what the Uint8Array stored: sums carried to the next sample are wrapped.
  if (filter === 0 || (filter === 2 && above < 0)) {
    for (let o = at; o < end; o++, i += step) all &= alpha[o] = raw[i]!;
  } else if (filter === 1 || (filter === 4 && above < 0)) {
    // Paeth with nothing above predicts from the left, as Sub does.
    let left = 0;
    for (let o = at; o < end; o++, i += step) all &= left = alpha[o] = (raw[i]! + left) & 0xff;
  } else if (filter === 2) {
    for (let o = at, u = above; o < end; o++, u++, i += step) all &= alpha[o] = raw[i]! + alpha[u]!;
  } else if (filter === 3 && above < 0) {
    let left = 0;
    for (let o = at; o < end; o++, i += step) all &= left = alpha[o] = (raw[i]! + (left >> 1)) & 0xff;
  } else if (filter === 3) {
    let left = 0;
    for (let o = at, u = above; o < end; o++, u++, i += step) all &= left = alpha[o] = (raw[i]! + ((left + alpha[u]!) >> 1)) & 0xff;
  } else {
    let left = 0;
    let corner = 0;
    for (let o = at, u = above; o < end; o++, u++, i += step) {
      const up = alpha[u]!;
      const p = left + up - corner;
      const pl = Math.abs(p - left);
      const pu = Math.abs(p - up);
      const pc = Math.abs(p - corner);
      all &= left = alpha[o] = (raw[i]! + (pl <= pu && pl <= pc ? left : pu <= pc ? up : corner)) & 0xff;
      corner = up;
    }
  }
  return all;
}
