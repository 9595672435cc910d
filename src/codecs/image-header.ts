/**
 * What an image file says about itself in its header, read without decoding it: size, colour
 * components, resolution and EXIF orientation. Images are placed on pages (jpg-to-pdf, photo-to-
 * pdf) and budgeted from this before any pixel is decoded.
 */

import { LimitExceeded } from '../lib/limits';

/**
 * The most pixels an image may have that is decoded into memory here (by MuPDF, by libwebp, by the
 * Word converter's PNG paths): a 12-megapixel camera picture, 48 MB as RGBA, which with the file
 * and its PDF still fits the 128 MB a Worker has. The one limit every reader checks a declared
 * size against, before decoding (image-pages.ts's MAX_DECODED_PIXELS, which jpg-to-pdf and
 * photo-to-pdf check, has the same value: test/codec-limits.test.ts keeps them together).
 */
export const MAX_DECODED_PIXELS = 12_000_000;

/**
 * LimitExceeded ('image_pixels') when an image of `width` × `height` is past `max` pixels: checked
 * on the size the file declares, before anything is decoded. `what` names the image ("the logo").
 */
export function requireDecodablePixels(width: number, height: number, what: string, max = MAX_DECODED_PIXELS): void {
  if (!(width * height <= max)) throw new LimitExceeded('image_pixels', `${what} is ${width} × ${height} pixels: more than the ${max / 1e6} million this service decodes`);
}

/**
 * Deflate's best case: 258 bytes from 2 bits (a longest match whose length and distance codes are
 * one bit each), about 1032 bytes from one; zlib's documentation gives the same 1032:1.
 */
const MAX_DEFLATE_RATIO = 1032;

/**
 * Why a PNG's zlib data cannot hold the pixels its header declares, or undefined when it can: its
 * rows (at `depth` bits a sample, `channels` samples a pixel, a filter byte each) would need more
 * than deflate can pack into `idatBytes`. A header claiming 100000 × 100000 pixels over 1 KB of
 * data is damage, told before anything is decoded or passed on.
 */
export function pngDataProblem(width: number, height: number, channels: number, depth: number, idatBytes: number): string | undefined {
  const rows = height * (1 + Math.ceil((width * channels * depth) / 8));
  if (rows <= MAX_DEFLATE_RATIO * idatBytes + 1024) return undefined;
  return `its header declares ${width} × ${height} pixels, ${sizeText(rows)} of rows, which its ${sizeText(idatBytes)} of compressed data cannot hold`;
}

const sizeText = (n: number): string => (n >= 1e9 ? `${(n / 1e9).toFixed(1)} GB` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : n >= 1e4 ? `${Math.round(n / 1e3)} KB` : `${n} bytes`);

/** Samples a pixel by PNG colour type (grey, RGB, palette, grey+alpha, RGBA). */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** EXIF orientations 1-8 (TIFF 6.0 tag 274): how the stored pixels must be turned to be seen upright. */
export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

export interface ImageHeader {
  width: number;
  height: number;
  /** Dots per inch the file declares (JFIF, EXIF or pHYs), when it declares a plausible one. */
  dpi?: number;
  orientation: Orientation;
}

export interface JpegHeader extends ImageHeader {
  components: 1 | 3 | 4;
  /** An Adobe APP14 marker: a 4-component JPEG with it stores inverted CMYK (Photoshop's convention). */
  adobe: boolean;
  /** Baseline or progressive Huffman coding at 8 bits: what every PDF reader's DCTDecode reads. */
  plain: boolean;
}

const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
/** Resolutions outside this range are treated as absent: cameras write 1 or 0, some tools 2400. */
const PLAUSIBLE_DPI = [50, 1200];

const plausible = (dpi: number) => (dpi >= PLAUSIBLE_DPI[0]! && dpi <= PLAUSIBLE_DPI[1]! ? Math.round(dpi * 100) / 100 : undefined);

/** A JPEG's header, or undefined when its markers do not read up to a frame header. */
export function jpegHeader(b: Uint8Array): JpegHeader | undefined {
  if (b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let adobe = false;
  let orientation: Orientation = 1;
  let dpi: number | undefined;
  for (let at = 2; at + 4 <= b.length; ) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += marker === 0xff ? 1 : 2; // fill byte, or a marker without a length
      continue;
    }
    const length = (b[at + 2]! << 8) | b[at + 3]!;
    const body = b.subarray(at + 4, at + 2 + length);
    if (length < 2 || at + 2 + length > b.length) return undefined;
    if (marker === 0xe0 && ascii(body, 0, 5) === 'JFIF\0' && body.length >= 12) {
      const [unit, x] = [body[7]!, (body[8]! << 8) | body[9]!];
      dpi ??= unit === 1 ? plausible(x) : unit === 2 ? plausible(x * 2.54) : undefined;
    } else if (marker === 0xe1 && ascii(body, 0, 6) === 'Exif\0\0') {
      const exif = exifOf(body.subarray(6));
      orientation = exif.orientation ?? orientation;
      dpi = exif.dpi ?? dpi;
    } else if (marker === 0xee && ascii(body, 0, 5) === 'Adobe') adobe = true;
    else if (SOF.has(marker) && body.length >= 6) {
      const components = body[5]!;
      const [height, width] = [(body[1]! << 8) | body[2]!, (body[3]! << 8) | body[4]!];
      if (!width || !height || (components !== 1 && components !== 3 && components !== 4)) return undefined;
      const plain = (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) && body[0] === 8;
      return { width, height, components, adobe, plain, orientation, dpi };
    } else if (marker === 0xda || marker === 0xd9) return undefined;
    at += 2 + length;
  }
  return undefined;
}

/** The orientation and resolution of an EXIF block (a TIFF structure), as far as IFD0 gives them. */
function exifOf(tiff: Uint8Array): { orientation?: Orientation; dpi?: number } {
  if (tiff.length < 8) return {};
  const little = tiff[0] === 0x49;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const u16 = (at: number) => view.getUint16(at, little);
  const u32 = (at: number) => view.getUint32(at, little);
  const out: { orientation?: Orientation; dpi?: number } = {};
  try {
    const ifd = u32(4);
    let unit = 2;
    let x: number | undefined;
    for (let i = 0, n = u16(ifd); i < n; i++) {
      const entry = ifd + 2 + i * 12;
      const tag = u16(entry);
      if (tag === 0x0112) {
        const value = u16(entry + 8);
        if (value >= 1 && value <= 8) out.orientation = value as Orientation;
      } else if (tag === 0x011a) {
        const at = u32(entry + 8);
        x = u32(at) / (u32(at + 4) || 1);
      } else if (tag === 0x0128) unit = u16(entry + 8);
    }
    if (x !== undefined) out.dpi = unit === 2 ? plausible(x) : unit === 3 ? plausible(x * 2.54) : undefined;
  } catch {
    // An EXIF block cut short: what was read stands.
  }
  return out;
}

/**
 * A PNG's size and declared resolution (pHYs), or undefined when it has no IHDR, or its data
 * cannot hold the pixels it declares (pngProblem says why).
 */
export function pngHeader(b: Uint8Array): ImageHeader | undefined {
  return pngRead(b).header;
}

/** Why a PNG is refused before decoding (no IHDR, data that cannot hold its pixels), or undefined when it reads. */
export function pngProblem(b: Uint8Array): string | undefined {
  return pngRead(b).problem;
}

function pngRead(b: Uint8Array): { header?: ImageHeader; problem?: string } {
  if (b.length < 33 || ascii(b, 1, 4) !== 'PNG' || ascii(b, 12, 16) !== 'IHDR') return { problem: 'it has no PNG header' };
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const header: ImageHeader = { width: view.getUint32(16), height: view.getUint32(20), orientation: 1 };
  const [depth, colorType] = [b[24]!, b[25]!];
  let idat = 0;
  // Every chunk's header is read (not its data): the IDAT chunks' lengths, as far as the file holds them.
  for (let at = 8; at + 12 <= b.length; ) {
    const length = view.getUint32(at);
    const type = ascii(b, at + 4, at + 8);
    if (type === 'pHYs' && length >= 9 && at + 17 <= b.length && b[at + 16] === 1) header.dpi = plausible(view.getUint32(at + 8) * 0.0254);
    if (type === 'IDAT') idat += Math.min(length, b.length - at - 8);
    if (type === 'IEND') break;
    at += 12 + length;
  }
  if (!header.width || !header.height || header.width > 0x7fffffff || header.height > 0x7fffffff) return { problem: `its header declares ${header.width} × ${header.height} pixels` };
  const channels = PNG_CHANNELS[colorType];
  if (channels === undefined || ![1, 2, 4, 8, 16].includes(depth)) return { problem: `its header declares colour type ${colorType} at ${depth} bits` };
  const problem = pngDataProblem(header.width, header.height, channels, depth, idat);
  return problem ? { problem } : { header };
}

function ascii(b: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...b.subarray(from, to));
}
