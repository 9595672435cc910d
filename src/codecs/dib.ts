import { assemblePng } from './png';
export { base64 } from './png';

/** A decoded bitmap: 8-bit RGB rows, top row first. */
export interface Rgb {
  width: number;
  height: number;
  rgb: Uint8Array;
  /** Straight alpha per pixel, when the bitmap has one. */
  alpha?: Uint8Array;
}

const MAX_PIXELS = 16_000_000;

/**
 * Decodes a device-independent bitmap (BITMAPINFOHEADER or BITMAPCOREHEADER, BI_RGB or
 * BI_BITFIELDS; 1/4/8/16/24/32 bits) given its header+palette and its bits; without `bits`, a packed
 * DIB (header, palette and bits in one array, as WMF records hold it).
 */
export function decodeDib(bmi: Uint8Array, bits: Uint8Array | undefined, premultipliedAlpha = false): Rgb | undefined {
  if (bmi.length < 12) return undefined;
  const dv = new DataView(bmi.buffer, bmi.byteOffset, bmi.byteLength);
  const hsize = dv.getUint32(0, true);
  let width: number, height: number, bpp: number, compression = 0, clrUsed = 0, palEntry = 4;
  if (hsize === 12) {
    width = dv.getUint16(4, true);
    height = dv.getInt16(6, true);
    bpp = dv.getUint16(10, true);
    palEntry = 3;
  } else if (hsize >= 40 && bmi.length >= 40) {
    width = dv.getInt32(4, true);
    height = dv.getInt32(8, true);
    bpp = dv.getUint16(14, true);
    compression = dv.getUint32(16, true);
    clrUsed = dv.getUint32(32, true);
  } else return undefined;
  const topDown = height < 0;
  height = Math.abs(height);
  if (width <= 0 || height <= 0 || width * height > MAX_PIXELS) return undefined;
  if (compression !== 0 && compression !== 3) return undefined;
  let masks = [0xff0000, 0xff00, 0xff];
  let palOff = hsize;
  if (compression === 3) {
    if (hsize === 40) {
      if (bmi.length < 52) return undefined;
      masks = [dv.getUint32(40, true), dv.getUint32(44, true), dv.getUint32(48, true)];
      palOff = 52;
    } else masks = [dv.getUint32(40, true), dv.getUint32(44, true), dv.getUint32(48, true)];
  } else if (bpp === 16) masks = [0x7c00, 0x3e0, 0x1f];
  const palette: number[][] = [];
  if (bpp <= 8) {
    const n = Math.min(clrUsed || 1 << bpp, 256);
    for (let i = 0; i < n; i++) {
      const o = palOff + i * palEntry;
      palette.push([bmi[o + 2] ?? 0, bmi[o + 1] ?? 0, bmi[o] ?? 0]);
    }
  } else if (bpp !== 16 && bpp !== 24 && bpp !== 32) return undefined;
  // A packed DIB's bits follow its palette (with more than 8 bits a pixel, an optional one of clrUsed entries).
  bits ??= bmi.subarray(palOff + (bpp <= 8 ? palette.length : Math.min(clrUsed, 256)) * palEntry);
  const stride = Math.floor((width * bpp + 31) / 32) * 4;
  if (stride * height > bits.length + stride) return undefined;
  const rgb = new Uint8Array(width * height * 3);
  const alpha = premultipliedAlpha && bpp === 32 && compression === 0 ? new Uint8Array(width * height) : undefined;
  const shifts = masks.map((m) => {
    let s = 0;
    while (m && !((m >>> s) & 1)) s++;
    const max = m >>> s;
    return { m, s, max: max || 1 };
  });
  for (let row = 0; row < height; row++) {
    const src = (topDown ? row : height - 1 - row) * stride;
    let o = row * width * 3;
    for (let x = 0; x < width; x++, o += 3) {
      let r = 0, g = 0, b = 0;
      if (bpp <= 8) {
        const bit = x * bpp;
        const byte = bits[src + (bit >> 3)] ?? 0;
        const idx = (byte >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1);
        const c = palette[idx];
        if (c) [r, g, b] = c as [number, number, number];
      } else if (bpp === 24) {
        const p = src + x * 3;
        b = bits[p] ?? 0; g = bits[p + 1] ?? 0; r = bits[p + 2] ?? 0;
      } else {
        const p = src + (x * bpp) / 8;
        const v = bpp === 16 ? (bits[p] ?? 0) | ((bits[p + 1] ?? 0) << 8) : ((bits[p] ?? 0) | ((bits[p + 1] ?? 0) << 8) | ((bits[p + 2] ?? 0) << 16) | ((bits[p + 3] ?? 0) << 24)) >>> 0;
        [r, g, b] = shifts.map((s) => Math.round((((v & s.m) >>> s.s) * 255) / s.max)) as [number, number, number];
      }
      if (alpha) {
        const a = bits[src + x * 4 + 3] ?? 0;
        alpha[row * width + x] = a;
        if (a > 0 && a < 255) [r, g, b] = [r, g, b].map((c) => Math.min(255, Math.round((c * 255) / a))) as [number, number, number];
      }
      rgb[o] = r; rgb[o + 1] = g; rgb[o + 2] = b;
    }
  }
  return { width, height, rgb, alpha };
}

/** The part of a bitmap inside a source rectangle (the whole bitmap when the rectangle is odd). */
export function crop(img: Rgb, x: number, y: number, w: number, h: number): Rgb {
  if (x < 0 || y < 0 || w <= 0 || h <= 0 || x + w > img.width || y + h > img.height || (w === img.width && h === img.height)) return img;
  const rgb = new Uint8Array(w * h * 3);
  const alpha = img.alpha && new Uint8Array(w * h);
  for (let r = 0; r < h; r++) {
    const from = (y + r) * img.width + x;
    rgb.set(img.rgb.subarray(from * 3, (from + w) * 3), r * w * 3);
    alpha?.set(img.alpha!.subarray(from, from + w), r * w);
  }
  return { width: w, height: h, rgb, alpha };
}

/** An 8-bit RGB (or RGBA) PNG of the bitmap. */
export function encodePng(img: Rgb): Uint8Array {
  const { alpha } = img;
  const rowLen = img.width * (alpha ? 4 : 3);
  const raw = new Uint8Array((rowLen + 1) * img.height);
  for (let y = 0; y < img.height; y++) {
    const o = y * (rowLen + 1) + 1;
    if (!alpha) raw.set(img.rgb.subarray(y * rowLen, (y + 1) * rowLen), o);
    else
      for (let x = 0, p = y * img.width; x < img.width; x++, p++) {
        raw[o + x * 4] = img.rgb[p * 3]!;
        raw[o + x * 4 + 1] = img.rgb[p * 3 + 1]!;
        raw[o + x * 4 + 2] = img.rgb[p * 3 + 2]!;
        raw[o + x * 4 + 3] = alpha[p]!;
      }
  }
  return assemblePng(img.width, img.height, alpha ? 6 : 2, raw);
}

/** The average colour of a bitmap (pattern brushes are drawn as a flat fill). */
export function averageColor(img: Rgb): [number, number, number] {
  let r = 0, g = 0, b = 0;
  const n = img.width * img.height;
  for (let i = 0; i < n * 3; i += 3) {
    r += img.rgb[i]!;
    g += img.rgb[i + 1]!;
    b += img.rgb[i + 2]!;
  }
  return [Math.round(r / n), Math.round(g / n), Math.round(b / n)];
}

