import { describe, expect, it } from 'vitest';
import type * as Mupdf from 'mupdf';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { zlibSync } from 'fflate';
import { assemblePng } from '../src/codecs/png';
import { renderWordDocument, renderWordDocumentChunks } from '../src/convert/word/layout/render';
import type { Inline, Paragraph, WordDocument } from '../src/convert/word/model/index';

// Pictures reach the PDF after it is written (layout/picture-passthrough.ts): these check what
// each kind becomes in the file and that it is drawn where the layout put its placeholder.

const page = { width: 612, height: 792, marginTop: 72, marginRight: 72, marginBottom: 72, marginLeft: 72, header: 36, footer: 36 };
const text = (t: string): Inline => ({ kind: 'text', text: t, style: { font: 'Calibri', size: 11 } });
const picture = (data: Uint8Array, contentType: string): Inline => ({ kind: 'image', data, contentType, width: 80, height: 40 });
const docOf = (paragraphs: Inline[][]): WordDocument => ({
  sections: [{ page, headers: {}, footers: {}, blocks: paragraphs.map((inlines): Paragraph => ({ kind: 'paragraph', props: {}, inlines })) }],
  notes: new Map(),
  defaultFont: 'Calibri',
  defaultSize: 11,
});

/** A 40×20 RGBA PNG: opaque red on the left half, fully transparent on the right. */
function halfTransparentPng(): Uint8Array {
  const width = 40;
  const raw = new Uint8Array(20 * (1 + width * 4));
  for (let y = 0; y < 20; y++)
    for (let x = 0; x < width; x++) raw.set(x < 20 ? [255, 0, 0, 255] : [0, 0, 255, 0], y * (1 + width * 4) + 1 + x * 4);
  return assemblePng(width, 20, 6, raw);
}

/** Adam7's passes: first column and row, and the steps between the pixels each takes. */
const ADAM7 = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]];

/**
 * An Adam7-interlaced 8-bit PNG of these pixels (`channels` bytes each, colour type `colorType`):
 * each pass's rows filtered in turn with None, Sub, Up, Average and Paeth, as encoders mix them.
 */
function interlacedPng(pixels: Uint8Array, width: number, height: number, channels: number, colorType: 2 | 6): Uint8Array {
  const rows: number[] = [];
  let k = 0;
  for (const [x0, y0, dx, dy] of ADAM7) {
    const w = Math.ceil((width - x0!) / dx!);
    const h = Math.ceil((height - y0!) / dy!);
    if (w <= 0 || h <= 0) continue;
    let prior = new Uint8Array(w * channels);
    for (let y = 0; y < h; y++) {
      const row = new Uint8Array(w * channels);
      for (let x = 0; x < w; x++) row.set(pixels.subarray(((y0! + y * dy!) * width + x0! + x * dx!) * channels, ((y0! + y * dy!) * width + x0! + x * dx!) * channels + channels), x * channels);
      const filter = k++ % 5;
      rows.push(filter);
      for (let i = 0; i < row.length; i++) {
        const a = i >= channels ? row[i - channels]! : 0;
        const b = prior[i]!;
        const c = i >= channels ? prior[i - channels]! : 0;
        const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
        const predicted = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][filter]!;
        rows.push((row[i]! - predicted) & 0xff);
      }
      prior = row;
    }
  }
  const png = assemblePng(width, height, colorType, new Uint8Array(rows));
  png[28] = 1; // IHDR's interlace method (its CRC is not checked by the readers here)
  return png;
}

/** A 40×20 JPEG filled with one colour, made by MuPDF. */
function jpeg(mupdf: typeof Mupdf, rgb: [number, number, number]): Uint8Array {
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 40, 20], false);
  const samples = pix.getPixels();
  for (let i = 0; i < samples.length; i += 3) samples.set(rgb, i);
  const bytes = pix.asJPEG(95).slice();
  pix.destroy();
  return bytes;
}

/** A 40×20 PNG (RGBA, or grey+alpha) whose every pixel is opaque, optionally with an iCCP chunk. */
function opaqueAlphaPng(colorType: 4 | 6, icc?: Uint8Array): Uint8Array {
  const width = 40;
  const bytes = colorType === 6 ? 4 : 2;
  const raw = new Uint8Array(20 * (1 + width * bytes));
  for (let y = 0; y < 20; y++)
    for (let x = 0; x < width; x++) raw.set(colorType === 6 ? [0, 0, 200, 255] : [60, 255], y * (1 + width * bytes) + 1 + x * bytes);
  const png = assemblePng(width, 20, colorType as 6, raw);
  if (!icc) return png;
  // The iCCP chunk goes right after IHDR (8-byte signature + 25-byte IHDR chunk); its CRC is not checked by readers here.
  const chunk = new Uint8Array(12 + icc.length + 6);
  const body = new Uint8Array([...new TextEncoder().encode('ICC'), 0, 0, ...zlibSync(icc)]);
  const out = new Uint8Array(chunk.length);
  new DataView(out.buffer).setUint32(0, body.length);
  out.set(new TextEncoder().encode('iCCP'), 4);
  out.set(body, 8);
  return new Uint8Array([...png.subarray(0, 33), ...out.subarray(0, 12 + body.length), ...png.subarray(33)]);
}

/** The smallest well-formed-looking ICC header for an RGB profile: 128 bytes, 'RGB ' at 16, 'acsp' at 36. */
function rgbProfileHeader(): Uint8Array {
  const p = new Uint8Array(128);
  new DataView(p.buffer).setUint32(0, 128);
  p.set(new TextEncoder().encode('RGB '), 16);
  p.set(new TextEncoder().encode('acsp'), 36);
  return p;
}

interface Rendered {
  images: { filter: string; width: number; smask: boolean; colorSpace: string }[];
  /** The RGB at a point of page 1 (in points, 1 px per pt). */
  at(x: number, y: number): number[];
  text: string;
}

async function render(model: WordDocument): Promise<Rendered> {
  const mupdf = await loadMupdf();
  const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf') as Mupdf.PDFDocument;
  try {
    const images: Rendered['images'] = [];
    pdf.findPage(0).get('Resources', 'XObject').forEach((ref) => {
      if (ref.get('Subtype').asName() !== 'Image') return;
      const filter = ref.get('Filter');
      const space = ref.get('ColorSpace');
      // DeviceN (a PNG with alpha, read without it): the space its colours go to.
      const named = (s: Mupdf.PDFObject): string => (s.isName() ? s.asName() : s.isArray() ? (s.get(0).asName() === 'DeviceN' ? `DeviceN ${named(s.get(2))}` : s.get(0).asName()) : '');
      const colorSpace = named(space);
      images.push({ filter: filter.isName() ? filter.asName() : '', width: ref.get('Width').asNumber(), smask: ref.get('SMask').isStream(), colorSpace });
    });
    const p = pdf.loadPage(0);
    const pix = p.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false, true);
    const samples = pix.getPixels().slice();
    const stride = pix.getStride();
    pix.destroy();
    const stext = p.toStructuredText('preserve-whitespace');
    const all = stext.asText();
    stext.destroy();
    p.destroy();
    return { images, at: (x, y) => Array.from(samples.subarray(y * stride + x * 3, y * stride + x * 3 + 3)), text: all };
  } finally {
    pdf.destroy();
  }
}

const near = (rgb: number[], want: number[]) => rgb.every((v, i) => Math.abs(v - want[i]!) <= 40);

describe('pictures in the written PDF', () => {
  it('a JPEG keeps its own data (DCTDecode) and is drawn in its box', async () => {
    const mupdf = await loadMupdf();
    const r = await render(docOf([[picture(jpeg(mupdf, [0, 160, 0]), 'image/jpeg')]]));
    expect(r.images).toHaveLength(1);
    expect(r.images[0]).toMatchObject({ filter: 'DCTDecode', width: 40, smask: false });
    // The box is 80 × 40 pt at the top-left of the text area (72, 72).
    expect(near(r.at(112, 92), [0, 160, 0])).toBe(true);
    expect(near(r.at(200, 92), [255, 255, 255])).toBe(true);
  });

  it('a large JPEG goes from the document into the PDF byte for byte, kept out of MuPDF\'s heap', async () => {
    const mupdf = await loadMupdf();
    // 400 × 300 of noise over blue: well over the 64 KB from which JPEGs stay out of MuPDF.
    const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 400, 300], false);
    const samples = pix.getPixels();
    let seed = 7;
    for (let i = 0; i < samples.length; i += 3) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      samples.set([seed & 63, (seed >>> 8) & 63, 192 + ((seed >>> 16) & 63)], i);
    }
    const photo = pix.asJPEG(90).slice();
    pix.destroy();
    expect(photo.length).toBeGreaterThan(64 * 1024);
    const model = docOf([[picture(photo, 'image/jpeg')]]);
    const chunks = renderWordDocumentChunks(model, mupdf, bundledFonts);
    // The photo is one of the chunks as it is: not copied, not re-encoded.
    expect(chunks.some((c) => c.length === photo.length && c.every((b, i) => b === photo[i]))).toBe(true);
    const r = await render(model);
    expect(r.images[0]).toMatchObject({ filter: 'DCTDecode', width: 400, colorSpace: 'DeviceRGB' });
    expect(near(r.at(112, 92), [32, 32, 224])).toBe(true);
  });

  it('a PNG with transparency gets a soft mask: its transparent half shows the page', async () => {
    const r = await render(docOf([[picture(halfTransparentPng(), 'image/png')]]));
    expect(r.images).toHaveLength(1);
    expect(r.images[0]).toMatchObject({ width: 40, smask: true });
    expect(near(r.at(90, 92), [255, 0, 0])).toBe(true);
    expect(near(r.at(135, 92), [255, 255, 255])).toBe(true);
  });

  it('an interlaced PNG is decoded here: its pixels in their places, its transparent half a soft mask', async () => {
    // 40 × 20: left half opaque, red rising to the right and green down the rows; right half transparent.
    const pixels = new Uint8Array(40 * 20 * 4);
    for (let y = 0; y < 20; y++) for (let x = 0; x < 40; x++) pixels.set(x < 20 ? [100 + x * 5, y * 10, 0, 255] : [0, 0, 255, 0], (y * 40 + x) * 4);
    const r = await render(docOf([[picture(interlacedPng(pixels, 40, 20, 4, 6), 'image/png')]]));
    expect(r.images).toEqual([{ filter: 'FlateDecode', width: 40, smask: true, colorSpace: 'DeviceRGB' }]);
    // The box is 80 × 40 pt at (72, 72): picture pixel (x, y) at page (72 + 2x + 1, 72 + 2y + 1).
    // (Within the blending of neighbours that scaling the picture up draws: a pixel out of place would be 20 or more off.)
    for (const [x, y] of [[0, 0], [7, 3], [13, 19], [17, 10], [4, 6], [11, 5]]) {
      const got = r.at(72 + 2 * x! + 1, 72 + 2 * y! + 1);
      const want = [100 + x! * 5, y! * 10, 0];
      expect(got.every((v, i) => Math.abs(v - want[i]!) <= 12), `pixel ${x},${y}: ${got} for ${want}`).toBe(true);
    }
    expect(r.at(72 + 2 * 30, 92)).toEqual([255, 255, 255]);
    // An opaque one: no soft mask.
    const rgb = new Uint8Array(13 * 11 * 3).map((_, i) => (i * 37) & 0xff);
    const opaque = await render(docOf([[picture(interlacedPng(rgb, 13, 11, 3, 2), 'image/png')]]));
    expect(opaque.images).toEqual([{ filter: 'FlateDecode', width: 13, smask: false, colorSpace: 'DeviceRGB' }]);
  });

  it('an RGBA or grey+alpha PNG whose pixels are all opaque gets no soft mask', async () => {
    const rgba = await render(docOf([[picture(opaqueAlphaPng(6), 'image/png')]]));
    expect(rgba.images).toEqual([{ filter: 'FlateDecode', width: 40, smask: false, colorSpace: 'DeviceN DeviceRGB' }]);
    expect(near(rgba.at(112, 92), [0, 0, 200])).toBe(true);
    const grey = await render(docOf([[picture(opaqueAlphaPng(4), 'image/png')]]));
    expect(grey.images).toEqual([{ filter: 'FlateDecode', width: 40, smask: false, colorSpace: 'DeviceN DeviceGray' }]);
    expect(near(grey.at(112, 92), [60, 60, 60])).toBe(true);
  });

  it("a PNG's embedded ICC profile becomes its colour space; a profile for other colours is left out", async () => {
    const tagged = await render(docOf([[picture(opaqueAlphaPng(6, rgbProfileHeader()), 'image/png')]]));
    expect(tagged.images[0]?.colorSpace).toBe('DeviceN ICCBased');
    const wrong = await render(docOf([[picture(opaqueAlphaPng(4, rgbProfileHeader()), 'image/png')]]));
    expect(wrong.images[0]?.colorSpace).toBe('DeviceN DeviceGray');
  });

  it('a picture alone in its paragraph that does not fit at the foot of a page goes whole to the next page, not shrunk', async () => {
    const mupdf = await loadMupdf();
    const figure: Inline = { kind: 'image', data: jpeg(mupdf, [0, 160, 0]), contentType: 'image/jpeg', width: 200, height: 125 };
    const filler = (n: number) => Array.from({ length: n }, (_, i): Inline[] => [text(`Line ${i}`)]);
    // Filler lines that leave less than the picture's height at the foot of page 1, for some count of them.
    for (const n of [38, 40, 42]) {
      const pdf = mupdf.Document.openDocument(renderWordDocument(docOf([...filler(n), [figure], [text('After')]]), mupdf, bundledFonts), 'application/pdf');
      const drawn: { page: number; w: number; h: number }[] = [];
      for (let i = 0; i < pdf.countPages(); i++) pdf.loadPage(i).run(new mupdf.Device({ fillImage: (_img, ctm) => void drawn.push({ page: i, w: ctm[0], h: ctm[3] }) }), mupdf.Matrix.identity);
      pdf.destroy();
      expect(drawn).toHaveLength(1);
      expect(drawn[0]!.w).toBeCloseTo(200, 0);
      expect(drawn[0]!.h).toBeCloseTo(125, 0);
    }
  });

  it('one picture used twice is one image object', async () => {
    const mupdf = await loadMupdf();
    const data = jpeg(mupdf, [0, 0, 200]);
    const r = await render(docOf([[picture(data, 'image/jpeg')], [picture(data, 'image/jpeg')]]));
    expect(r.images).toHaveLength(1);
  });

  it('a picture no decoder reads leaves its space blank and the document converts', async () => {
    const garbage = new Uint8Array(300).map((_, i) => (i * 37) & 0xff);
    const r = await render(docOf([[text('Before '), picture(garbage, 'image/jpeg'), text(' after')], [text('Next paragraph')]]));
    expect(r.text).toContain('Before');
    expect(r.text).toContain('after');
    expect(r.text).toContain('Next paragraph');
    // Nothing is drawn where the picture would be (no stretched placeholder colours).
    for (let x = 120; x < 150; x += 5) expect(near(r.at(x, 80), [255, 255, 255])).toBe(true);
  });
});
