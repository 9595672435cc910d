/**
 * An image XObject's samples read, resampled and written again (compress's medium and high).
 * MuPDF has no resampling call and keeps no image here: samples are read into JavaScript, area-
 * averaged, and encoded by a Pixmap made for the purpose and dropped at once (one image at a time:
 * WASM memory never shrinks).
 */
import type * as Mupdf from 'mupdf';
import type { PDFDocument } from './pdf';
import { deflateSmall } from '../codecs/deflate-small';
import { flateRows, type FlateParams } from '../codecs/flate-rows';

type PDFObject = ReturnType<PDFDocument['getTrailer']>;

/** 1 or 3 for grey and RGB spaces (device, calibrated or ICC), undefined for the rest (CMYK, Indexed, Lab, …). */
export function componentsOf(space: PDFObject): 1 | 3 | undefined {
  const name = space.isName() ? space.asName() : space.isArray() ? space.get(0).asName() : '';
  if (name === 'DeviceGray' || name === 'CalGray') return 1;
  if (name === 'DeviceRGB' || name === 'CalRGB') return 3;
  if (name === 'ICCBased') {
    const n = space.get(1).get('N').asNumber();
    return n === 1 || n === 3 ? n : undefined;
  }
  return undefined;
}

function filtersOf(dict: PDFObject): string[] {
  const filter = dict.get('Filter');
  if (filter.isName()) return [filter.asName()];
  return filter.isArray() ? Array.from({ length: filter.length }, (_, i) => filter.get(i).asName()) : [];
}

/** Whether the stream is a JPEG (DCTDecode alone). */
export function isJpeg(dict: PDFObject): boolean {
  const filters = filtersOf(dict);
  return filters.length === 1 && filters[0] === 'DCTDecode';
}

/**
 * Whether the image's samples can be read here and written again as 8-bit grey or RGB: no stencil,
 * no colour-key or stencil /Mask (a key matches exact sample values, which JPEG does not keep), no
 * bilevel or JPEG 2000 coding MuPDF would have to decode into its own heap. /Decode is kept: it maps
 * samples linearly, so it maps averaged samples the same way. `colours` = 1 for soft masks.
 */
export function recodable(dict: PDFObject, colours?: 1): boolean {
  if (!dict.isStream() || (dict.get('ImageMask').isBoolean() && dict.get('ImageMask').asBoolean())) return false;
  if (dict.get('BitsPerComponent').asNumber() !== 8 || !dict.get('Mask').isNull()) return false;
  if (filtersOf(dict).some((f) => f === 'JBIG2Decode' || f === 'CCITTFaxDecode' || f === 'JPXDecode')) return false;
  const n = componentsOf(dict.get('ColorSpace'));
  return colours ? n === colours : n !== undefined;
}

/** Whether the image is a stencil mask or a 1-bit grey image MuPDF can draw: no mask of its own to keep in step. */
export function bilevel(dict: PDFObject): boolean {
  if (!dict.isStream() || dict.get('BitsPerComponent').asNumber() !== 1 && !dict.get('ImageMask').isBoolean()) return false;
  if (!dict.get('Mask').isNull() || !dict.get('SMask').isNull()) return false;
  const stencil = dict.get('ImageMask').isBoolean() && dict.get('ImageMask').asBoolean();
  return stencil || (dict.get('BitsPerComponent').asNumber() === 1 && componentsOf(dict.get('ColorSpace')) === 1);
}

/** 8-bit samples, `n` per pixel, rows packed: a JPEG's decoded by MuPDF, other filters' as the stream reads; undefined when unreadable. */
export function decodedSamples(mupdf: typeof Mupdf, ref: PDFObject, w: number, h: number, n: number): Uint8Array | undefined {
  if (isJpeg(ref)) return decodedJpeg(mupdf, ref, w, h, n);
  try {
    const buf = ref.readStream();
    const data = buf.asUint8Array().slice(0, w * h * n);
    buf.destroy();
    return data.length === w * h * n ? data : undefined;
  } catch {
    return undefined;
  }
}

function decodedJpeg(mupdf: typeof Mupdf, ref: PDFObject, w: number, h: number, n: number): Uint8Array | undefined {
  const raw = ref.readRawStream();
  let image: Mupdf.Image | undefined;
  let pix: Mupdf.Pixmap | undefined;
  try {
    image = new mupdf.Image(raw.asUint8Array().slice());
    pix = image.toPixmap();
    if (pix.getNumberOfComponents() !== n || pix.getAlpha() || pix.getWidth() !== w || pix.getHeight() !== h) return undefined;
    return packedPixels(pix);
  } catch {
    return undefined;
  } finally {
    pix?.destroy();
    image?.destroy();
    raw.destroy();
  }
}

/**
 * Box-filter downsampling fed one source row at a time: each new pixel the mean of the source
 * pixels it covers. Holds the output and one row of sums, never the source image.
 */
export class RowAverager {
  readonly pixels: Uint8Array;
  private readonly sums: Float64Array;
  private readonly counts: Float64Array;
  private readonly column: Uint32Array;
  private y = 0;
  private row = 0;

  constructor(private readonly w: number, private readonly h: number, private readonly n: number, private readonly nw: number, private readonly nh: number) {
    this.pixels = new Uint8Array(nw * nh * n);
    this.sums = new Float64Array(nw * n);
    this.counts = new Float64Array(nw);
    this.column = Uint32Array.from({ length: w }, (_, x) => Math.min(nw - 1, Math.floor((x * nw) / w)));
  }

  /** Adds the next source row (w × n samples); rows past the last are ignored. */
  push(src: Uint8Array): void {
    if (this.y >= this.h) return;
    const target = Math.min(this.nh - 1, Math.floor((this.y * this.nh) / this.h));
    if (target !== this.row) this.flush(target);
    const { n, sums, counts, column } = this;
    for (let x = 0; x < this.w; x++) {
      const t = column[x]!;
      counts[t]!++;
      for (let c = 0; c < n; c++) sums[t * n + c] = sums[t * n + c]! + src[x * n + c]!;
    }
    if (++this.y === this.h) this.flush(this.nh);
  }

  /** Whether every source row has been pushed. */
  get complete(): boolean {
    return this.y === this.h;
  }

  private flush(next: number): void {
    const { n, nw, sums, counts } = this;
    for (let x = 0; x < nw; x++) for (let c = 0; c < n; c++) this.pixels[(this.row * nw + x) * n + c] = counts[x] ? Math.round(sums[x * n + c]! / counts[x]!) : 255;
    sums.fill(0);
    counts.fill(0);
    this.row = next;
  }
}

/** Packed samples (w × h × n) box-filtered down to nw × nh. */
export function areaAverage(src: Uint8Array, w: number, h: number, n: number, nw: number, nh: number): Uint8Array {
  const averager = new RowAverager(w, h, n, nw, nh);
  for (let y = 0; y < h; y++) averager.push(src.subarray(y * w * n, (y + 1) * w * n));
  return averager.pixels;
}

/** libjpeg's luminance quantization table at quality 50 (ITU T.81 Annex K), whose scalings make every quality. */
const STANDARD_LUMINANCE_SUM = [16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99].reduce((a, b) => a + b, 0);

/**
 * The libjpeg quality (1-100) a JPEG's first quantization table corresponds to, as ImageMagick
 * estimates it, read from the header alone; undefined when there is none. A JPEG already at or
 * below a quality gains little from being encoded at it again.
 */
export function jpegQuality(data: Uint8Array): number | undefined {
  let at = 2;
  while (at + 4 <= data.length && data[at] === 0xff) {
    const marker = data[at + 1]!;
    const length = (data[at + 2]! << 8) | data[at + 3]!;
    if (marker === 0xdb && at + 5 + 64 <= data.length) {
      const wide = data[at + 4]! >> 4 === 1;
      let sum = 0;
      for (let i = 0; i < 64; i++) sum += wide ? (data[at + 5 + 2 * i]! << 8) | data[at + 6 + 2 * i]! : data[at + 5 + i]!;
      const scale = (sum * 100) / STANDARD_LUMINANCE_SUM;
      return Math.max(1, Math.min(100, Math.round(scale <= 100 ? (200 - scale) / 2 : 5000 / scale)));
    }
    if (marker === 0xda) return undefined; // image data begins: no table before it
    at += 2 + length;
  }
  return undefined;
}

/** Packed 8-bit grey or RGB samples as a baseline JPEG at `quality` (libjpeg's scale, 4:2:0 for colour). */
export function jpegOf(mupdf: typeof Mupdf, samples: Uint8Array, w: number, h: number, n: number, quality: number): Uint8Array {
  const pix = new mupdf.Pixmap(n === 1 ? mupdf.ColorSpace.DeviceGray : mupdf.ColorSpace.DeviceRGB, [0, 0, w, h], false);
  try {
    const stride = pix.getStride();
    const px = pix.getPixels();
    for (let y = 0; y < h; y++) px.set(samples.subarray(y * w * n, (y + 1) * w * n), y * stride);
    return pix.asJPEG(quality).slice();
  } finally {
    pix.destroy();
  }
}

/** Packed samples as zlib data (FlateDecode, no predictor). */
export function flateOf(samples: Uint8Array): Uint8Array {
  return deflateSmall(samples);
}

/**
 * Whether the samples look like a photograph rather than drawn graphics: enough different colours.
 * Screenshots, charts and text drawn as pictures use few colours with hard edges that JPEG blurs
 * and rings around; photographs use thousands. Fed row by row; stops counting at the threshold.
 */
export class ColourCount {
  private readonly seen = new Set<number>();
  private readonly threshold: number;

  constructor(private readonly n: number) {
    // Grey has 256 levels at most: a grey photograph or scan uses most of them.
    this.threshold = n === 1 ? 192 : 1024;
  }

  add(samples: Uint8Array): void {
    const { n, seen } = this;
    for (let i = 0; i + n <= samples.length && seen.size < this.threshold; i += n) seen.add(n === 1 ? samples[i]! : (samples[i]! << 16) | (samples[i + 1]! << 8) | samples[i + 2]!);
  }

  get photographic(): boolean {
    return this.seen.size >= this.threshold;
  }
}

/** The /DecodeParms of a stream whose only filter is FlateDecode, defaults filled in; undefined for other filters. */
export function flateParams(dict: PDFObject): FlateParams | undefined {
  const filters = filtersOf(dict);
  if (filters.length !== 1 || filters[0] !== 'FlateDecode') return undefined;
  let parms = dict.get('DecodeParms');
  if (parms.isArray()) parms = parms.get(0);
  const num = (key: string, fallback: number) => (parms.isDictionary() && parms.get(key).isNumber() ? parms.get(key).asNumber() : fallback);
  return { predictor: num('Predictor', 1), colors: num('Colors', 1), bitsPerComponent: num('BitsPerComponent', 8), columns: num('Columns', 1) };
}

/** Pixels of an image at a new size, whether it looks like a photograph, and whether they were converted to a device space. */
export interface Resampled {
  pixels: Uint8Array;
  photographic: boolean;
  deviceSpace: boolean;
}

/**
 * The image (8-bit grey or RGB, `n` samples per pixel) resampled to nw × nh without decoding more
 * than `budget` pixels at once: Flate data row by row through our inflater, JPEGs too big to
 * decode whole drawn by MuPDF (its JPEG decoder scales down by 2, 4 or 8 while decoding; the
 * pixels come out in DeviceGray or DeviceRGB). Undefined when it cannot be read within that.
 */
export function resampled(mupdf: typeof Mupdf, doc: PDFDocument, ref: PDFObject, size: { w: number; h: number; nw: number; nh: number }, n: number, budget: number): Resampled | undefined {
  const { w, h, nw, nh } = size;
  const params = flateParams(ref);
  if (params) {
    const averager = new RowAverager(w, h, n, nw, nh);
    const colours = new ColourCount(n);
    const raw = ref.readRawStream();
    const data = raw.asUint8Array().slice();
    raw.destroy();
    const whole = flateRows(data, w, h, n, params, (row) => {
      averager.push(row);
      colours.add(row);
    });
    return whole ? { pixels: averager.pixels, photographic: colours.photographic, deviceSpace: false } : undefined;
  }
  if (w * h <= budget) {
    const samples = decodedSamples(mupdf, ref, w, h, n);
    if (!samples) return undefined;
    const colours = new ColourCount(n);
    colours.add(samples);
    return { pixels: areaAverage(samples, w, h, n, nw, nh), photographic: colours.photographic || isJpeg(ref), deviceSpace: false };
  }
  if (!isJpeg(ref) || !ref.get('SMask').isNull() || nw * nh > budget) return undefined;
  const pixels = drawn(mupdf, doc, ref, nw, nh, n === 1 ? mupdf.ColorSpace.DeviceGray : mupdf.ColorSpace.DeviceRGB, false);
  return pixels && { pixels, photographic: true, deviceSpace: true };
}

/**
 * A 1-bit image or stencil mask drawn by MuPDF at nw × nh (it decodes CCITT and JBIG2 a band at a
 * time, scaling as it goes: a 93-megapixel stencil took 16 MB) and thresholded at half coverage;
 * rows packed 8 pixels a byte, 0 = dark, so that both a stencil's default /Decode (0 paints) and
 * DeviceGray (0 is black) read it right.
 */
export function bilevelResampled(mupdf: typeof Mupdf, doc: PDFDocument, ref: PDFObject, nw: number, nh: number): Uint8Array | undefined {
  const stencil = ref.get('ImageMask').isBoolean() && ref.get('ImageMask').asBoolean();
  const grey = drawn(mupdf, doc, ref, nw, nh, mupdf.ColorSpace.DeviceGray, stencil);
  if (!grey) return undefined;
  const rowBytes = Math.ceil(nw / 8);
  const packed = new Uint8Array(rowBytes * nh).fill(0xff);
  for (let y = 0; y < nh; y++) {
    for (let x = 0; x < nw; x++) if (grey[y * nw + x]! < 128) packed[y * rowBytes + (x >> 3)]! &= ~(0x80 >> (x & 7));
  }
  return packed;
}

/** The image object drawn by MuPDF into a white nw × nh pixmap of `space`, rows packed; a stencil is painted black. */
function drawn(mupdf: typeof Mupdf, doc: PDFDocument, ref: PDFObject, nw: number, nh: number, space: Mupdf.ColorSpace, stencil: boolean): Uint8Array | undefined {
  let image: Mupdf.Image | undefined;
  try {
    image = doc.loadImage(ref);
    // The image's unit square onto the whole pixmap, top row first (MuPDF's device space runs downwards).
    return drawnPixels(mupdf, image, [nw, 0, 0, nh, 0, 0], nw, nh, space, stencil);
  } catch {
    return undefined;
  } finally {
    image?.destroy();
    mupdf.emptyStore();
  }
}

/** `image` drawn with `ctm` into a white nw × nh pixmap of `space` (a stencil painted black), rows packed. */
export function drawnPixels(mupdf: typeof Mupdf, image: Mupdf.Image, ctm: Mupdf.Matrix, nw: number, nh: number, space: Mupdf.ColorSpace, stencil = false): Uint8Array {
  const pix = new mupdf.Pixmap(space, [0, 0, nw, nh], false);
  let device: Mupdf.DrawDevice | undefined;
  try {
    pix.clear(255);
    device = new mupdf.DrawDevice(mupdf.Matrix.identity, pix);
    if (stencil) device.fillImageMask(image, ctm, mupdf.ColorSpace.DeviceGray, [0], 1);
    else device.fillImage(image, ctm, 1);
    device.close();
    return packedPixels(pix);
  } finally {
    device?.destroy();
    pix.destroy();
  }
}

/** A pixmap's samples with its rows packed (no stride padding), copied out of MuPDF's heap. */
export function packedPixels(pix: Mupdf.Pixmap): Uint8Array {
  const [w, h, n, stride, px] = [pix.getWidth(), pix.getHeight(), pix.getNumberOfComponents() + (pix.getAlpha() ? 1 : 0), pix.getStride(), pix.getPixels()];
  const out = new Uint8Array(w * h * n);
  for (let y = 0; y < h; y++) out.set(px.subarray(y * stride, y * stride + w * n), y * w * n);
  return out;
}
