/** Our streaming baseline JPEG encoder (src/codecs/jpeg-encoder.ts): any size, fed in bands, decodes to what it was given. */
import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { JpegBandEncoder, encodeJpeg } from '../src/codecs/jpeg-encoder';

/** Encodes `pixels` in bands of `band` rows and decodes the JPEG with MuPDF: size, density and mean error. */
async function roundTrip(w: number, h: number, n: 1 | 3, band: number, pixels: Uint8Array, quality = 90) {
  const encoder = new JpegBandEncoder(w, h, n, quality, 300);
  for (let top = 0; top < h; top += band) encoder.addRows(pixels.subarray(top * w * n, Math.min(h, top + band) * w * n), Math.min(band, h - top));
  const chunks = encoder.take();
  const jpeg = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0));
  chunks.reduce((at, c) => (jpeg.set(c, at), at + c.length), 0);
  const mupdf = await loadMupdf();
  const image = new mupdf.Image(jpeg);
  const pix = image.toPixmap();
  const [stride, px] = [pix.getStride(), pix.getPixels()];
  let error = 0;
  for (let y = 0; y < h; y++) for (let x = 0; x < w * n; x++) error += Math.abs(px[y * stride + x]! - pixels[(y * w) * n + x]!);
  // The error of the left and right halves apart (the noise test's halves differ).
  const half = (from: number, to: number) => {
    let e = 0;
    for (let y = 0; y < h; y++) for (let x = from * n; x < to * n; x++) e += Math.abs(px[y * stride + x]! - pixels[y * w * n + x]!);
    return e / (h * (to - from) * n);
  };
  return { size: [pix.getWidth(), pix.getHeight(), pix.getNumberOfComponents()], dpi: image.getXResolution(), meanError: error / (w * h * n), left: half(0, w >> 1), right: half(w >> 1, w), bytes: jpeg.length, last: [jpeg[jpeg.length - 2], jpeg[jpeg.length - 1]] };
}

const gradient = (w: number, h: number, n: number) => Uint8Array.from({ length: w * h * n }, (_, i) => {
  const [p, c] = [Math.floor(i / n), i % n];
  const [x, y] = [p % w, Math.floor(p / w)];
  return Math.round((c === 0 ? x / w : c === 1 ? y / h : (x + y) / (w + h)) * 255);
});

describe('JpegBandEncoder', () => {
  it('colour of a size no MCU divides, fed 16 rows at a time: same size, 300 dpi, close to the input, ends with EOI', async () => {
    const got = await roundTrip(37, 23, 3, 16, gradient(37, 23, 3));
    expect(got.size).toEqual([37, 23, 3]);
    expect(got.dpi).toBe(300);
    expect(got.meanError).toBeLessThan(3);
    expect(got.last).toEqual([0xff, 0xd9]);
  });

  it('grey in 8-row bands, and colour in one band, both close to the input', async () => {
    expect((await roundTrip(101, 67, 1, 8, gradient(101, 67, 1))).meanError).toBeLessThan(2);
    const colour = await roundTrip(640, 480, 3, 480, gradient(640, 480, 3));
    expect(colour.size).toEqual([640, 480, 3]);
    expect(colour.meanError).toBeLessThan(2);
  });

  // Noise codes to the longest Huffman codes (16 bits, then 10 value bits) and both signs; flat
  // areas skip the DCT. Each half must come back as it went in, at high quality and at low.
  it('white left half, random noise right half: the white exact, the noise close, at quality 100 and 50', async () => {
    const [w, h] = [96, 64];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
    for (const n of [3, 1] as const) {
      // Grey noise in colour too (R = G = B): 4:2:0 would blur noise in the colour differences.
      const values = Array.from({ length: w * h }, (_, p) => (p % w < w / 2 ? 255 : random()));
      const pixels = Uint8Array.from({ length: w * h * n }, (_, i) => values[Math.floor(i / n)]!);
      const fine = await roundTrip(w, h, n, 16, pixels, 100);
      expect(fine.left).toBeLessThan(0.5);
      expect(fine.right).toBeLessThan(0.5);
      const coarse = await roundTrip(w, h, n, 16, pixels, 50);
      expect(coarse.left).toBeLessThan(0.5);
      expect(coarse.right).toBeLessThan(25);
      expect(coarse.bytes).toBeLessThan(fine.bytes);
    }
  });

  it('encodeJpeg fits its Huffman tables to the picture: the same pixels decoded, in fewer bytes', async () => {
    const [w, h] = [200, 120];
    let seed = 3;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0x3f;
    const pixels = Uint8Array.from(gradient(w, h, 3), (v) => Math.min(255, v + random()));
    const band = new JpegBandEncoder(w, h, 3, 80, 150);
    band.addRows(pixels, h);
    const standard = Uint8Array.from(band.take().flatMap((c) => Array.from(c)));
    const fitted = encodeJpeg(pixels, w, h, 3, 80, 150);
    expect(fitted.length).toBeLessThan(standard.length);
    const mupdf = await loadMupdf();
    const samples = (jpeg: Uint8Array) => new mupdf.Image(jpeg).toPixmap().getPixels().slice();
    expect(samples(fitted)).toEqual(samples(standard)); // only the entropy coding differs
  });
});
