/**
 * Pictures for the image operations' tests, made with MuPDF: four-colour JPEGs whose quadrants
 * show how they were turned, EXIF orientation spliced in, CMYK JPEGs the way Photoshop writes them,
 * PNGs with transparency; and a rendered page to read colours from.
 */
import { loadMupdf } from '../src/pdf/mupdf';

export const RED = [255, 0, 0];
export const GREEN = [0, 255, 0];
export const BLUE = [0, 0, 255];
export const WHITE = [255, 255, 255];

/** Stored pixels in quadrants: top-left red, top-right green, bottom-left blue, bottom-right white. */
export async function quadrantJpeg(width: number, height: number, quality = 92): Promise<Uint8Array> {
  const mupdf = await loadMupdf();
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, width, height], false);
  const [px, stride] = [pix.getPixels(), pix.getStride()];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const colour = y < height / 2 ? (x < width / 2 ? RED : GREEN) : x < width / 2 ? BLUE : WHITE;
      px.set(colour, y * stride + x * 3);
    }
  }
  const jpeg = pix.asJPEG(quality).slice();
  pix.destroy();
  return jpeg;
}

/** The JPEG with an EXIF APP1 segment carrying `orientation` inserted after SOI (big-endian TIFF). */
export function withOrientation(jpeg: Uint8Array, orientation: number): Uint8Array {
  const tiff = [0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0];
  const body = [...'Exif'].map((c) => c.charCodeAt(0)).concat([0, 0], tiff);
  const app1 = [0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 255, ...body];
  return Uint8Array.from([...jpeg.subarray(0, 2), ...app1, ...jpeg.subarray(2)]);
}

/** A CMYK JPEG of one ink colour as Photoshop writes it: an Adobe marker and inverted samples. */
export async function adobeCmykJpeg(cmyk: [number, number, number, number], size = 32): Promise<Uint8Array> {
  const mupdf = await loadMupdf();
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceCMYK, [0, 0, size, size], false);
  const px = pix.getPixels();
  for (let i = 0; i < px.length; i += 4) px.set(cmyk, i);
  const jpeg = pix.asJPEG(95, true).slice();
  pix.destroy();
  return jpeg;
}

/** A PNG whose left half is transparent and right half opaque `rgb`. */
export async function halfTransparentPng(width: number, height: number, rgb: number[]): Promise<Uint8Array> {
  const mupdf = await loadMupdf();
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, width, height], true);
  const [px, stride] = [pix.getPixels(), pix.getStride()];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) px.set(x < width / 2 ? [0, 0, 0, 0] : [...rgb, 255], y * stride + x * 4);
  const png = pix.asPNG().slice();
  pix.destroy();
  return png;
}

/** Page `index` rendered at 72 dpi: its size and the colour at a point given as fractions from the top-left. */
export async function renderedPage(bytes: Uint8Array, index = 0): Promise<{ width: number; height: number; at: (fx: number, fy: number) => number[] }> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  try {
    const pix = doc.loadPage(index).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false, true);
    const [w, h, stride, px] = [pix.getWidth(), pix.getHeight(), pix.getStride(), pix.getPixels().slice()];
    pix.destroy();
    return { width: w, height: h, at: (fx, fy) => Array.from(px.subarray(Math.floor(fy * h) * stride + Math.floor(fx * w) * 3, Math.floor(fy * h) * stride + Math.floor(fx * w) * 3 + 3)) };
  } finally {
    doc.destroy();
  }
}

/** Whether two colours are within `by` on every channel. */
export const near = (got: number[], want: number[], by = 40): boolean => got.every((v, i) => Math.abs(v - want[i]!) <= by);
