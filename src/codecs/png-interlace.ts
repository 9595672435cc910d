import { inflateScanlines } from './png-alpha';
import { requireDecodablePixels } from './image-header';

/** Adam7's seven passes: first column and row, and the steps between the pixels each takes. */
const PASSES = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/**
 * Decoded images bigger than this (bytes) are left to MuPDF's decoder, as png-alpha.ts leaves them:
 * the inflated rows and the samples are held together, about twice this, a quarter of the isolate.
 */
const MAX_PIXEL_BYTES = 32 * 1024 * 1024;

/**
 * The pixels of an interlaced 8-bit PNG (Adam7), row after row: its colour samples (`colors` bytes
 * a pixel) and, when it has them, its alpha samples apart (a soft mask's). Its zlib data is
 * inflated by the runtime's native zlib, each pass's rows unfiltered and its pixels put in their
 * places. MuPDF decoded it in WASM and the samples were deflated again (diploma.docx's
 * 1282 × 713 screenshot: 77 ms of its conversion). Undefined for data that does not decode, or
 * is too big to decode here.
 */
export function deinterlace(idat: Uint8Array, width: number, height: number, colors: number, hasAlpha: boolean): { samples: Uint8Array; alpha?: Uint8Array } | undefined {
  // Past what any decoder here is given (MuPDF's, the fallback, included): LimitExceeded, before inflating.
  requireDecodablePixels(width, height, 'an interlaced picture');
  const channels = colors + (hasAlpha ? 1 : 0);
  if (width * height * channels > MAX_PIXEL_BYTES) return undefined;
  let expected = 0;
  for (const [x0, y0, dx, dy] of PASSES) {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    if (w > 0 && h > 0) expected += h * (1 + w * channels);
  }
  const raw = inflateScanlines(idat, expected);
  if (!raw) return undefined;
  const samples = new Uint8Array(width * height * colors);
  const alpha = hasAlpha ? new Uint8Array(width * height) : undefined;
  let at = 0;
  for (const [x0, y0, dx, dy] of PASSES) {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    if (w <= 0 || h <= 0) continue;
    const stride = w * channels;
    for (let y = 0; y < h; y++) {
      const filter = raw[at]!;
      const row = at + 1;
      const above = y > 0 ? row - stride - 1 : -1;
      if (!unfilter(raw, filter, row, above, stride, channels)) return undefined;
      place(raw, row, w, (y0 + y * dy) * width + x0, dx, colors, samples, alpha);
      at = row + stride;
    }
  }
  return { samples, alpha };
}

/**
 * Puts a pass row's `w` pixels (from `raw` at `src`) to their places in the image, the first at
 * `pixel` and then every `dx`th. RGB and RGBA, nearly every screenshot, have loops of their own:
 * the general one's inner loop over the channels took two thirds of the decode's time.
 */
function place(raw: Uint8Array, src: number, w: number, pixel: number, dx: number, colors: number, samples: Uint8Array, alpha: Uint8Array | undefined): void {
  if (colors === 3 && alpha) {
    for (let x = 0, dst = pixel * 3, step = dx * 3; x < w; x++, pixel += dx, dst += step, src += 4) {
      samples[dst] = raw[src]!;
      samples[dst + 1] = raw[src + 1]!;
      samples[dst + 2] = raw[src + 2]!;
      alpha[pixel] = raw[src + 3]!;
    }
  } else if (colors === 3) {
    for (let x = 0, dst = pixel * 3, step = dx * 3; x < w; x++, dst += step, src += 3) {
      samples[dst] = raw[src]!;
      samples[dst + 1] = raw[src + 1]!;
      samples[dst + 2] = raw[src + 2]!;
    }
  } else {
    for (let x = 0; x < w; x++, pixel += dx) {
      for (let c = 0, dst = pixel * colors; c < colors; c++) samples[dst + c] = raw[src++]!;
      if (alpha) alpha[pixel] = raw[src++]!;
    }
  }
}

/** Undoes a row's filter in place (`above`: the previous row's first byte in the same pass, or -1). */
function unfilter(b: Uint8Array, filter: number, row: number, above: number, stride: number, bpp: number): boolean {
  switch (filter) {
    case 0:
      return true;
    case 1:
      for (let i = bpp; i < stride; i++) b[row + i] = (b[row + i]! + b[row + i - bpp]!) & 0xff;
      return true;
    case 2:
      if (above >= 0) for (let i = 0; i < stride; i++) b[row + i] = (b[row + i]! + b[above + i]!) & 0xff;
      return true;
    case 3:
      for (let i = 0; i < stride; i++) {
        const left = i >= bpp ? b[row + i - bpp]! : 0;
        const up = above >= 0 ? b[above + i]! : 0;
        b[row + i] = (b[row + i]! + ((left + up) >> 1)) & 0xff;
      }
      return true;
    case 4:
      for (let i = 0; i < stride; i++) {
        const a = i >= bpp ? b[row + i - bpp]! : 0;
        const u = above >= 0 ? b[above + i]! : 0;
        const c = i >= bpp && above >= 0 ? b[above + i - bpp]! : 0;
        const p = a + u - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - u);
        const pc = Math.abs(p - c);
        b[row + i] = (b[row + i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? u : c)) & 0xff;
      }
      return true;
    default:
      return false;
  }
}
