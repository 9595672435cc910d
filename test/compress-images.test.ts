/**
 * compress medium on the images it rewrites, through the service: soft-masked images resampled with
 * their masks, PNG-predicted Flate read row by row, stencils resampled, photographs stored as JPEG
 * and drawn graphics left lossless. Each checked by what the page shows, rendered by MuPDF.
 */
import { describe, expect, it } from 'vitest';
import { zlibSync } from 'fflate';
import type * as Mupdf from 'mupdf';
import { loadMupdf } from '../src/pdf/mupdf';
import { download, newAccount, runOp, uploadOk } from './helpers';
import { savedAndFreed } from './fixtures';

type Doc = InstanceType<typeof Mupdf.PDFDocument>;
type Obj = ReturnType<Doc['newDictionary']>;

/** An image XObject of raw (already filtered) data with the given entries; names start with '/'. */
function imageObject(doc: Doc, data: Uint8Array, entries: Record<string, number | string | boolean | Obj>): Obj {
  const dict = doc.newDictionary();
  dict.put('Type', doc.newName('XObject'));
  dict.put('Subtype', doc.newName('Image'));
  for (const [key, value] of Object.entries(entries)) {
    if (typeof value === 'string') dict.put(key, doc.newName(value.slice(1)));
    else if (typeof value === 'number') dict.put(key, doc.newInteger(value));
    else if (typeof value === 'boolean') dict.put(key, doc.newBoolean(value));
    else dict.put(key, value);
  }
  return doc.addRawStream(data, dict);
}

/** A one-page PDF drawing `image` 1 inch square at (72, 72) of a 288 pt page after `paint` (a colour for stencils). */
async function onePage(build: (doc: Doc) => Obj, paint = ''): Promise<Uint8Array> {
  const mupdf = await loadMupdf();
  const doc = new mupdf.PDFDocument();
  try {
    const image = build(doc);
    doc.insertPage(-1, doc.addPage([0, 0, 288, 288], 0, { XObject: { Im0: image } }, `q ${paint} 72 0 0 72 72 144 cm /Im0 Do Q`));
    return savedAndFreed(doc, '');
  } catch (e) {
    doc.destroy();
    throw e;
  }
}

/** PNG "Up"-filtered rows (type byte 2) of packed samples, as a PDF writer with Predictor 15 stores them. */
function upFiltered(samples: Uint8Array, rowBytes: number): Uint8Array {
  const rows = samples.length / rowBytes;
  const out = new Uint8Array(rows * (rowBytes + 1));
  for (let y = 0; y < rows; y++) {
    out[y * (rowBytes + 1)] = 2;
    for (let i = 0; i < rowBytes; i++) out[y * (rowBytes + 1) + 1 + i] = (samples[y * rowBytes + i]! - (y ? samples[(y - 1) * rowBytes + i]! : 0)) & 255;
  }
  return out;
}

async function compressed(input: Uint8Array, level = 'medium'): Promise<Uint8Array> {
  const acct = await newAccount({ balance: '20.00' });
  const rec = await runOp(acct, 'compress', { file_id: (await uploadOk(acct, input, 'images.pdf')).file_id, level });
  expect(rec.status, rec.error_message ?? '').toBe('done');
  return download(rec);
}

/** The page's image entries and the page rendered at 72 dpi (RGB), to read colours at points from the top-left. */
async function look(bytes: Uint8Array): Promise<{ image: Record<string, string>; mask: Record<string, string> | null; rgbAt: (x: number, y: number) => number[] }> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF()!;
  try {
    const entries = (obj: Obj) => Object.fromEntries(['Width', 'Height', 'Filter', 'BitsPerComponent', 'ImageMask', 'ColorSpace'].map((k) => [k, obj.get(k).toString()]));
    let image: Obj | undefined;
    doc.findPage(0).get('Resources', 'XObject').forEach((ref) => (image = ref));
    const mask = image!.get('SMask');
    const pix = doc.loadPage(0).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false, true);
    const [px, stride] = [pix.getPixels().slice(), pix.getStride()];
    pix.destroy();
    return { image: entries(image!), mask: mask.isNull() ? null : entries(mask), rgbAt: (x, y) => Array.from(px.subarray(y * stride + x * 3, y * stride + x * 3 + 3)) };
  } finally {
    doc.destroy();
  }
}

const near = (got: number[], want: number[], by: number) => got.every((v, i) => Math.abs(v - want[i]!) <= by);

describe('compress medium: the images it rewrites', () => {
  it('a soft-masked photo stored as PNG-predicted Flate at 600 dpi: image and mask both 150 px, transparent half still shows the page', async () => {
    const size = 600;
    const photo = Uint8Array.from({ length: size * size * 3 }, (_, i) => {
      const [p, c] = [Math.floor(i / 3), i % 3];
      const [x, y] = [p % size, Math.floor(p / size)];
      return c === 0 ? 40 + (x * 180) / size : c === 1 ? 200 - (y * 150) / size : 90 + ((x * y) % 23);
    });
    const alpha = Uint8Array.from({ length: size * size }, (_, p) => (p % size < size / 2 ? 0 : 255));
    const input = await onePage((doc) => {
      const mask = imageObject(doc, zlibSync(alpha), { Width: size, Height: size, BitsPerComponent: 8, ColorSpace: '/DeviceGray', Filter: '/FlateDecode' });
      const parms = doc.newDictionary();
      for (const [k, v] of [['Predictor', 15], ['Colors', 3], ['Columns', size]] as const) parms.put(k, doc.newInteger(v));
      return imageObject(doc, zlibSync(upFiltered(photo, size * 3)), { Width: size, Height: size, BitsPerComponent: 8, ColorSpace: '/DeviceRGB', Filter: '/FlateDecode', DecodeParms: parms, SMask: mask });
    });
    const out = await compressed(input);
    expect(out.length).toBeLessThan(input.length / 4);
    const { image, mask, rgbAt } = await look(out);
    expect([image.Width, image.Height, mask?.Width, mask?.Height]).toEqual(['150', '150', '150', '150']);
    expect(image.Filter).toBe('/DCTDecode'); // thousands of colours: a photograph
    expect(rgbAt(72 + 18, 72 + 36)).toEqual([255, 255, 255]); // the transparent left half
    // Right half, 3/4 across and halfway down the image: the photo's colour there, JPEG-near.
    expect(near(rgbAt(72 + 54, 72 + 36), [40 + 180 * 0.75, 200 - 150 * 0.5, 101], 12), String(rgbAt(126, 108))).toBe(true);
  });

  it('a stencil mask drawn at 1200 dpi becomes 300 dpi, still a stencil, still painting its half in the fill colour', async () => {
    const size = 1200;
    const rowBytes = size / 8;
    // Sample 0 paints: the left half of each row painted, the right half not.
    const bits = Uint8Array.from({ length: rowBytes * size }, (_, i) => (i % rowBytes < rowBytes / 2 ? 0x00 : 0xff));
    const input = await onePage((doc) => imageObject(doc, zlibSync(bits), { Width: size, Height: size, ImageMask: true, Filter: '/FlateDecode' }), '0 0 1 rg');
    const out = await compressed(input);
    const { image, rgbAt } = await look(out);
    expect([image.Width, image.Height, image.ImageMask, image.BitsPerComponent]).toEqual(['300', '300', 'true', '1']);
    expect(rgbAt(72 + 10, 72 + 36)).toEqual([0, 0, 255]);
    expect(rgbAt(72 + 62, 72 + 36)).toEqual([255, 255, 255]);
  });

  it('at its own 100 dpi a Flate photograph becomes JPEG while a few-colour chart stays lossless and untouched', async () => {
    const size = 100;
    let seed = 7;
    const noise = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 29) - 4;
    const photo = Uint8Array.from({ length: size * size * 3 }, (_, i) => 60 + ((i % 3) + 1) * ((Math.floor(i / 3) % size) + Math.floor(i / 300) / 2) / 2 + noise());
    const chart = Uint8Array.from({ length: size * size * 3 }, (_, i) => ((Math.floor(i / 3) % size) < 50 ? [200, 30, 30] : [30, 30, 200])[i % 3]!);
    const photoOut = await look(await compressed(await onePage((doc) => imageObject(doc, zlibSync(photo), { Width: size, Height: size, BitsPerComponent: 8, ColorSpace: '/DeviceRGB', Filter: '/FlateDecode' }))));
    expect([photoOut.image.Width, photoOut.image.Filter]).toEqual(['100', '/DCTDecode']);
    const chartOut = await look(await compressed(await onePage((doc) => imageObject(doc, zlibSync(chart), { Width: size, Height: size, BitsPerComponent: 8, ColorSpace: '/DeviceRGB', Filter: '/FlateDecode' }))));
    expect([chartOut.image.Width, chartOut.image.Filter]).toEqual(['100', '/FlateDecode']);
    expect(chartOut.rgbAt(72 + 10, 72 + 36)).toEqual([200, 30, 30]);
    expect(chartOut.rgbAt(72 + 62, 72 + 36)).toEqual([30, 30, 200]);
  });
});
