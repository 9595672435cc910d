// Pictures with huge declared dimensions for the poison suite: PNG (IHDR says W×H, a small IDAT),
// JPEG (a real small JPEG with its SOF frame size patched), WebP (VP8L and VP8X headers that declare
// more than the data holds), and a small normal PNG. Pure JavaScript with fflate.
import { zlibSync } from 'fflate';
import { concat, crc32, u16be, u32be, u32le, utf8 } from './common.mjs';

function pngChunk(type, data) {
  const td = concat([utf8(type), data]);
  return concat([u32be(data.length), td, u32be(crc32(td))]);
}

const PNG_SIG = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** A PNG of the given RGB pixels (filter 0 on each row). */
export function png(width, height, pixel = (x, y) => [(x * 40) & 255, (y * 40) & 255, 128]) {
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0, at = 0; y < height; y++) {
    raw[at++] = 0;
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      raw[at++] = r;
      raw[at++] = g;
      raw[at++] = b;
    }
  }
  const ihdr = concat([u32be(width), u32be(height), Uint8Array.of(8, 2, 0, 0, 0)]);
  return concat([PNG_SIG, pngChunk('IHDR', ihdr), pngChunk('IDAT', zlibSync(raw)), pngChunk('IEND', new Uint8Array(0))]);
}

export const normalPng = () => png(64, 48);

/**
 * A PNG whose IHDR declares width × height (RGB, 8 bits) while its IDAT holds only `idatBytes`
 * bytes: the zlib stream of as many zero rows as fit (a truncated picture, not a damaged header).
 */
export function declaredPng(width, height, idatBytes = 1024) {
  const ihdr = concat([u32be(width), u32be(height), Uint8Array.of(8, 2, 0, 0, 0)]);
  // Zeros compress about 1000:1: inflate enough zero bytes to fill roughly idatBytes.
  let z = zlibSync(new Uint8Array(Math.min(64 << 20, Math.max(1024, idatBytes * 1000))), { level: 9 });
  if (z.length > idatBytes) z = z.subarray(0, idatBytes);
  return concat([PNG_SIG, pngChunk('IHDR', ihdr), pngChunk('IDAT', z), pngChunk('IEND', new Uint8Array(0))]);
}

/** The JPEG with the frame size of its SOFn segment replaced (a real, small JPEG in; the scan data as it was). */
export function withJpegSize(jpeg, width, height) {
  const out = jpeg.slice();
  for (let i = 2; i + 9 < out.length; ) {
    if (out[i] !== 0xff) throw new Error('withJpegSize: not at a marker');
    const marker = out[i + 1];
    const len = (out[i + 2] << 8) | out[i + 3];
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      out.set(u16be(height), i + 5);
      out.set(u16be(width), i + 7);
      return out;
    }
    i += 2 + len;
  }
  throw new Error('withJpegSize: no SOF segment');
}

function riff(chunks) {
  const body = concat([utf8('WEBP'), ...chunks]);
  return concat([utf8('RIFF'), u32le(body.length), body]);
}

function webpChunk(tag, data) {
  const pad = data.length & 1 ? Uint8Array.of(0) : new Uint8Array(0);
  return concat([utf8(tag), u32le(data.length), data, pad]);
}

/** A lossless WebP header declaring width × height (at most 16384 each) over a few bytes of data. */
export function declaredWebpLossless(width, height, dataBytes = 64) {
  const w = width - 1;
  const h = height - 1;
  const bits = (w & 0x3fff) | ((h & 0x3fff) << 14); // alpha 0, version 0
  const head = Uint8Array.of(0x2f, bits & 255, (bits >>> 8) & 255, (bits >>> 16) & 255, (bits >>> 24) & 255);
  const data = new Uint8Array(dataBytes).fill(0x55);
  return riff([webpChunk('VP8L', concat([head, data]))]);
}

/** An extended WebP (VP8X) whose canvas declares width × height (up to 2^24 each) with a 1×1-sized lossless frame. */
export function declaredWebpCanvas(width, height) {
  const w = width - 1;
  const h = height - 1;
  const vp8x = Uint8Array.of(0, 0, 0, 0, w & 255, (w >>> 8) & 255, (w >>> 16) & 255, h & 255, (h >>> 8) & 255, (h >>> 16) & 255);
  const frame = declaredWebpLossless(16, 16, 32).subarray(12); // its VP8L chunk
  return riff([webpChunk('VP8X', vp8x), frame]);
}
