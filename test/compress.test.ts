/** compress: never larger; medium and high resample images above 150 and 100 dpi as drawn; low keeps the pixels. */
import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { download, inspect, markerPdf, newAccount, runOp, uploadOk } from './helpers';
import { expectProblem, savedAndFreed } from './fixtures';

/** One A4 page showing a 1,500 px noisy photo over 2.5 inches: 600 dpi as drawn. */
async function photoPdf(): Promise<Uint8Array> {
  const mupdf = await loadMupdf();
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 1500, 1500], false);
  const px = pix.getPixels();
  let seed = 99;
  for (let i = 0; i < px.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    px[i] = ((i % 4500) / 18 + (seed >>> 24) / 4) & 255;
  }
  const jpeg = pix.asJPEG(92).slice();
  pix.destroy();
  const doc = new mupdf.PDFDocument();
  try {
    const image = new mupdf.Image(jpeg);
    const ref = doc.addImage(image);
    image.destroy();
    doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, { XObject: { Im0: ref } }, 'q 180 0 0 180 72 590 cm /Im0 Do Q'));
    return savedAndFreed(doc, 'compress');
  } catch (e) {
    doc.destroy();
    throw e;
  }
}

async function firstImageWidth(bytes: Uint8Array): Promise<number> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF()!;
  try {
    let width = 0;
    doc.findPage(0).get('Resources', 'XObject').forEach((ref) => (width = ref.get('Width').asNumber()));
    return width;
  } finally {
    doc.destroy();
  }
}

describe('compress', () => {
  it('low keeps the pixels, medium 150 dpi, high 100 dpi (180 pt wide: 375 and 250 px); each smaller than the input', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const input = await photoPdf();
    const up = await uploadOk(acct, input, 'photo.pdf');
    const widths: Record<string, number> = {};
    for (const level of ['low', 'medium', 'high', undefined]) {
      const rec = await runOp(acct, 'compress', { file_id: up.file_id, ...(level ? { level } : {}) });
      expect(rec.status, rec.error_message ?? '').toBe('done');
      expect(rec.operation_type).toBe('compress_pdf');
      const out = await download(rec);
      expect(out.length).toBeLessThanOrEqual(input.length);
      widths[level ?? 'default'] = await firstImageWidth(out);
      if (level === 'medium') expect(out.length).toBeLessThan(input.length / 4);
    }
    expect(widths).toEqual({ low: 1500, medium: 375, high: 250, default: 375 });
  });

  it('a small text-only file comes back no larger than it was', async () => {
    const acct = await newAccount();
    const input = await markerPdf(1, 'Z');
    const rec = await runOp(acct, 'compress', { file_id: (await uploadOk(acct, input, 'z.pdf')).file_id, level: 'high' });
    const out = await download(rec);
    expect(out.length).toBeLessThanOrEqual(input.length);
  });

  it('low packs objects into object streams behind a cross-reference stream; another reader finds every page', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let i = 0; i < 250; i++) doc.addPage([300, 400]).drawText(`MARK-OS-${i + 1}`, { x: 20, y: 360, size: 14, font });
    const input = await doc.save({ useObjectStreams: false });
    const acct = await newAccount({ balance: '20.00' });
    const rec = await runOp(acct, 'compress', { file_id: (await uploadOk(acct, input, 'many.pdf')).file_id, level: 'low' });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    const out = await download(rec);
    const text = new TextDecoder('latin1').decode(out);
    expect(text).toContain('/Type/ObjStm');
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
    expect(text.slice(startxref, startxref + 40)).toMatch(/^\d+ 0 obj\n<<\/Type\/XRef\/Size \d+\/W\[1 4 2\]/);
    expect(out.length).toBeLessThan(input.length * 0.7);
    expect((await PDFDocument.load(out)).getPageCount()).toBe(250);
    expect((await inspect(out)).markers).toEqual(Array.from({ length: 250 }, (_, i) => `MARK-OS-${i + 1}`));
  });

  it('an unknown level is 422 naming the levels', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(1, 'L'), 'l.pdf');
    const problem = await expectProblem(await acct.json('/v1/pdf/compress', { file_id: up.file_id, level: 'extreme' }), 422, 'validation_error');
    expect(problem.errors).toContainEqual({ path: 'level', message: 'level must be one of "low", "medium", "high"' });
  });
});
