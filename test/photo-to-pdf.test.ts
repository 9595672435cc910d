/** photo-to-pdf through the service: A4 pages, upright pictures, the 200 dpi cap, grayscale and a scan's clean paper. */
import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { download, newAccount, runOp, uploadOk, type TestAccount } from './helpers';
import { BLUE, GREEN, RED, WHITE, near, quadrantJpeg, renderedPage, withOrientation } from './image-fixtures';
import { skewAngle } from '../src/pdf/deskew';

async function pdfOf(acct: TestAccount, bytes: Uint8Array, name: string, params: Record<string, unknown> = {}): Promise<Uint8Array> {
  const up = await uploadOk(acct, bytes, name);
  const rec = await runOp(acct, 'photo-to-pdf', { file_ids: [up.file_id], ...params });
  expect(rec.status, rec.error_message ?? '').toBe('done');
  expect(rec.operation_type).toBe('photo_to_pdf');
  return download(rec);
}

async function imageOf(pdf: Uint8Array): Promise<{ width: number; height: number; space: string; page: number[] }> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf').asPDF()!;
  try {
    const page = doc.findPage(0);
    const image = page.get('Resources').get('XObject').get('Im0');
    const box = page.get('MediaBox');
    return { width: image.get('Width').asNumber(), height: image.get('Height').asNumber(), space: image.get('ColorSpace').toString(), page: [2, 3].map((i) => Math.round(box.get(i).asNumber())) };
  } finally {
    doc.destroy();
  }
}

describe('photo-to-pdf', () => {
  it('a camera picture stored sideways (EXIF 6) comes out upright on a portrait A4 page, at most 200 dpi', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const pdf = await pdfOf(acct, withOrientation(await quadrantJpeg(4000, 3000, 80), 6), 'camera.jpg');
    const image = await imageOf(pdf);
    expect(image.page).toEqual([595, 842]);
    // 3000 × 4000 upright in 538.6 × 785.2 pt: the width limits, 538.6 pt at 200 dpi = 1496 px.
    expect([image.width, image.height]).toEqual([1496, 1995]);
    const shown = await renderedPage(pdf);
    const quadrants = [shown.at(0.3, 0.3), shown.at(0.7, 0.3), shown.at(0.3, 0.7), shown.at(0.7, 0.7)];
    expect(quadrants.map((c, i) => near(c, [BLUE, RED, WHITE, GREEN][i]!)), JSON.stringify(quadrants)).toEqual([true, true, true, true]);
  });

  it('a JPEG already within 200 dpi goes in as it is, byte for byte', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const jpeg = withOrientation(await quadrantJpeg(300, 200), 6);
    const pdf = await pdfOf(acct, jpeg, 'small.jpg');
    const mupdf = await loadMupdf();
    const doc = mupdf.Document.openDocument(pdf, 'application/pdf').asPDF()!;
    const raw = doc.findPage(0).get('Resources').get('XObject').get('Im0').readRawStream().asUint8Array().slice();
    doc.destroy();
    expect(raw).toEqual(jpeg);
    const shown = await renderedPage(pdf); // portrait: turned upright by the page
    expect(shown.height).toBeGreaterThan(shown.width);
    expect(near(shown.at(0.3, 0.3), BLUE)).toBe(true);
  });

  it('a small picture is not enlarged; grayscale stores grey samples', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const image = await imageOf(await pdfOf(acct, await quadrantJpeg(300, 200), 'small.jpg', { grayscale: true }));
    expect([image.width, image.height, image.space, ...image.page]).toEqual([300, 200, '/DeviceGray', 842, 595]);
  });

  it('scan mode turns unevenly lit paper white and keeps the text dark', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const page = await photographedPage(1200, 1600);
    const shown = await renderedPage(await pdfOf(acct, page, 'page.jpg', { mode: 'scan' }));
    const before = await renderedPage(await pdfOf(acct, page, 'page.jpg'));
    // Paper at the dim left and the bright right edge, and a text stroke in between.
    const [dimPaper, brightPaper, ink] = [shown.at(0.12, 0.5), shown.at(0.88, 0.5), shown.at(0.5, 0.5)];
    expect(before.at(0.12, 0.5)[0]!, 'the photo is dim on the left').toBeLessThan(150);
    expect(Math.min(...dimPaper, ...brightPaper), `paper ${dimPaper} / ${brightPaper}`).toBeGreaterThan(235);
    expect(Math.max(...ink), `ink ${ink}`).toBeLessThan(70);
  });
  it('scan mode turns a page photographed 3 degrees askew back level', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const mupdf = await loadMupdf();
    const [w, h] = [1000, 1400];
    const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [0, 0, w, h], false);
    const px = pix.getPixels();
    const t = Math.tan((3 * Math.PI) / 180);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const level = y + x * t;
      px[y * pix.getStride() + x] = level % 36 < 5 && level > 80 && level < h - 80 && x > 60 && x < w - 60 && x % 13 ? 30 : 200;
    }
    const jpeg = pix.asJPEG(90).slice();
    pix.destroy();
    const pdf = await pdfOf(acct, jpeg, 'askew.jpg', { mode: 'scan', grayscale: true });
    const doc = mupdf.Document.openDocument(pdf, 'application/pdf').asPDF()!;
    const image = doc.loadImage(doc.findPage(0).get('Resources').get('XObject').get('Im0'));
    const out = image.toPixmap();
    const [ow, oh, stride, samples] = [out.getWidth(), out.getHeight(), out.getStride(), out.getPixels()];
    const luma = new Uint8Array(ow * oh);
    for (let y = 0; y < oh; y++) luma.set(samples.subarray(y * stride, y * stride + ow), y * ow);
    expect(skewAngle(luma, ow, oh)).toBe(0);
    doc.destroy();
  });
});

/** A grey "photo" of a page: light falling from right to left (paper 110 → 215), a dark horizontal stroke across the middle. */
async function photographedPage(width: number, height: number): Promise<Uint8Array> {
  const mupdf = await loadMupdf();
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, width, height], false);
  const [px, stride] = [pix.getPixels(), pix.getStride()];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const paper = 110 + (105 * x) / width;
      const stroke = Math.abs(y - height / 2) < 6 && x > width * 0.3 && x < width * 0.7;
      const v = stroke ? paper * 0.25 : paper;
      px.set([v, v * 0.97, v * 0.9], y * stride + x * 3);
    }
  }
  const jpeg = pix.asJPEG(90).slice();
  pix.destroy();
  return jpeg;
}
