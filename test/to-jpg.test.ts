/** to-jpg through the service: page pictures upright, cropped, at the asked dpi, and as MuPDF draws them (bands leave no seams). */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:test';
import { PDFDocument, StandardFonts, cmyk, degrees, rgb } from 'pdf-lib';
import { loadMupdf } from '../src/pdf/mupdf';
import { download, newAccount, runOp, uploadOk, type TestAccount } from './helpers';
import { savedAndFreed, unzip } from './fixtures';
import { zlibSync } from 'fflate';
import { planSteps, STEP_PIXELS } from '../src/operations/to-jpg';

async function pictures(acct: TestAccount, pdf: Uint8Array, params: Record<string, unknown>): Promise<Record<string, Uint8Array>> {
  const up = await uploadOk(acct, pdf, 'doc.pdf');
  const rec = await runOp(acct, 'to-jpg', { file_id: up.file_id, ...params });
  expect(rec.status, rec.error_message ?? '').toBe('done');
  expect(rec.content_type).toBe('application/zip');
  return unzip(await download(rec)).files;
}

/** A JPEG decoded: its size and RGB samples. */
async function decoded(jpeg: Uint8Array): Promise<{ w: number; h: number; at: (x: number, y: number) => number[]; px: Uint8Array }> {
  const mupdf = await loadMupdf();
  const image = new mupdf.Image(jpeg);
  const pix = image.toPixmap();
  const [w, h, stride, px] = [pix.getWidth(), pix.getHeight(), pix.getStride(), pix.getPixels().slice()];
  pix.destroy();
  image.destroy();
  return { w, h, px: Uint8Array.from(px), at: (x, y) => Array.from(px.subarray(y * stride + x * 3, y * stride + x * 3 + 3)) };
}

describe('to-jpg', () => {
  it('a page turned by /Rotate 90 comes out upright and landscape; a black square drawn top-left ends top-right', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    page.drawRectangle({ x: 0, y: 742, width: 100, height: 100, color: rgb(0, 0, 0) });
    page.setRotation(degrees(90));
    const files = await pictures(await newAccount({ balance: '20.00' }), await doc.save(), { dpi: 72 });
    const shown = await decoded(files['page-1.jpg']!);
    expect([shown.w, shown.h]).toEqual([842, 595]);
    expect(Math.max(...shown.at(842 - 50, 50))).toBeLessThan(40);
    expect(Math.min(...shown.at(50, 50))).toBeGreaterThan(215);
  });

  it('CMYK colours come out as RGB: pure cyan ink is cyan, not its inverse', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([72, 72]).drawRectangle({ x: 0, y: 0, width: 72, height: 72, color: cmyk(1, 0, 0, 0) });
    const shown = await decoded((await pictures(await newAccount({ balance: '20.00' }), await doc.save(), { dpi: 72 }))['page-1.jpg']!);
    const [r, g, b] = shown.at(36, 36);
    expect(r!, `${[r, g, b]}`).toBeLessThan(60);
    expect(Math.min(g!, b!)).toBeGreaterThan(140);
  });

  it('a crop box not at the origin: the picture is the crop box, with what it shows', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([600, 800]);
    page.drawRectangle({ x: 100, y: 100, width: 50, height: 50, color: rgb(1, 0, 0) });
    page.setCropBox(100, 100, 300, 400);
    const files = await pictures(await newAccount({ balance: '20.00' }), await doc.save(), { dpi: 150 });
    const shown = await decoded(files['page-1.jpg']!);
    expect([shown.w, shown.h]).toEqual([625, 834]); // 300 × 400 pt at 150 dpi, rounded up as MuPDF does
    const red = shown.at(50, 834 - 50); // the red square sits at the crop box's bottom-left
    expect(red[0]!).toBeGreaterThan(200);
    expect(Math.max(red[1]!, red[2]!)).toBeLessThan(60);
  });

  it('at 300 dpi the picture matches MuPDF drawing the page whole (bands meet without seams)', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([300, 200]);
    for (let i = 0; i < 12; i++) page.drawText(`Line ${i} of text crossing bands`, { x: 10, y: 190 - i * 15, size: 12, font, color: rgb(i / 12, 0.2, 0.6) });
    page.drawCircle({ x: 220, y: 100, size: 60, color: rgb(0.1, 0.7, 0.3), opacity: 0.5 });
    const pdf = await doc.save();
    const shown = await decoded((await pictures(await newAccount({ balance: '20.00' }), pdf, { dpi: 300, pages: [1] }))['page-1.jpg']!);
    const mupdf = await loadMupdf();
    const whole = mupdf.Document.openDocument(pdf, 'application/pdf').loadPage(0).toPixmap(mupdf.Matrix.scale(300 / 72, 300 / 72), mupdf.ColorSpace.DeviceRGB, false, true);
    expect([shown.w, shown.h]).toEqual([whole.getWidth(), whole.getHeight()]);
    const [ref, stride] = [whole.getPixels(), whole.getStride()];
    let sum = 0;
    for (let y = 0; y < shown.h; y++) for (let x = 0; x < shown.w * 3; x++) sum += Math.abs(ref[y * stride + x]! - shown.px[y * shown.w * 3 + x]!);
    expect(sum / (shown.w * shown.h * 3)).toBeLessThan(2.5);
  });
});

describe('to-jpg refusals', () => {
  it('a page with a picture too large to decode fails with a message pointing at compress, refunded; the other pages convert', async () => {
    const mupdf = await loadMupdf();
    const doc = new mupdf.PDFDocument();
    const dict = doc.newDictionary();
    for (const [k, v] of [['Type', 'XObject'], ['Subtype', 'Image'], ['ColorSpace', 'DeviceRGB'], ['Filter', 'FlateDecode']] as const) dict.put(k, doc.newName(v));
    for (const [k, v] of [['Width', 4200], ['Height', 4200], ['BitsPerComponent', 8]] as const) dict.put(k, doc.newInteger(v));
    const image = doc.addRawStream(zlibSync(new Uint8Array(4200 * 4200 * 3).fill(200)), dict);
    doc.insertPage(-1, doc.addPage([0, 0, 200, 200], 0, {}, 'q 1 0 0 1 0 0 cm Q'));
    doc.insertPage(-1, doc.addPage([0, 0, 200, 200], 0, { XObject: { Im0: image } }, 'q 200 0 0 200 0 0 cm /Im0 Do Q'));
    const pdf = savedAndFreed(doc, 'compress');
    const acct = await newAccount({ balance: '20.00' });
    const up = await uploadOk(acct, pdf, 'poster.pdf');
    const rec = await runOp(acct, 'to-jpg', { file_id: up.file_id, dpi: 72 });
    expect(rec.status).toBe('failed');
    expect(rec.refunded).toBe(true);
    expect(rec.error_message).toMatch(/^Page 2 holds a 4200 × 4200 picture that takes 53 MB to draw.*POST \/v1\/pdf\/compress/);
    const first = await runOp(acct, 'to-jpg', { file_id: up.file_id, dpi: 72, pages: [1] });
    expect(first.status).toBe('done');
  });
});

describe('to-jpg in steps', () => {
  it('501 pages run as two steps (500 pages, then 1 and the ZIP): every page, in order, and no scratch left', async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 501; i++) doc.addPage([36, 36]).drawRectangle({ x: 0, y: 0, width: 18, height: 36, color: rgb((i % 5) / 4, 0, 0) });
    const acct = await newAccount({ balance: '20.00' });
    const up = await uploadOk(acct, await doc.save(), 'many.pdf');
    const rec = await runOp(acct, 'to-jpg', { file_id: up.file_id, dpi: 72 });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    expect(rec.charge_units).toBe(11); // 501 pages at 50 a unit
    const { names, files } = unzip(await download(rec));
    expect(names).toEqual(Array.from({ length: 501 }, (_, i) => `page-${i + 1}.jpg`));
    for (const i of [0, 499, 500]) {
      const shown = await decoded(files[`page-${i + 1}.jpg`]!);
      expect([shown.w, shown.h]).toEqual([36, 36]);
      expect(Math.abs(shown.at(6, 18)[0]! - Math.round((255 * (i % 5)) / 4))).toBeLessThan(12);
    }
    const view = await env.TASK.get(env.TASK.idFromName(rec.task_id)).view();
    expect(view!.state.step).toBe(1);
    expect((await env.FILES.list({ prefix: `scratch/${rec.task_id}/` })).objects).toEqual([]);
  });

  it('steps are planned by pixels: 137 A4 pages at 300 dpi make one step, 140 two; a page over the budget is a step alone', () => {
    const a4 = 2481 * 3508;
    expect(planSteps(Array(137).fill(a4))).toEqual([[0, 137]]);
    expect(planSteps(Array(140).fill(a4))).toEqual([[0, 137], [137, 140]]);
    expect(planSteps([10, STEP_PIXELS + 1, 10])).toEqual([[0, 1], [1, 2], [2, 3]]);
    expect(planSteps(Array(1001).fill(1))).toEqual([[0, 500], [500, 1000], [1000, 1001]]);
  });
});
