/** flatten: fields and annotations burnt into the page, no form left, the page as it looked, links kept. */
import { describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { loadMupdf } from '../src/pdf/mupdf';
import { download, newAccount, runOp, uploadOk } from './helpers';
import { savedAndFreed } from './fixtures';

/** A page with a filled text field (pdf-lib), a red square annotation and a link (MuPDF). */
async function formWithAnnotations(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText('Application form', { x: 50, y: 780, size: 18, font });
  const field = pdf.getForm().createTextField('applicant');
  field.setText('Flattened value 42');
  field.addToPage(page, { x: 50, y: 680, width: 300, height: 30 });
  pdf.getForm().updateFieldAppearances(font);
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(await pdf.save(), 'application/pdf').asPDF()!;
  try {
    const p = doc.loadPage(0) as InstanceType<typeof mupdf.PDFPage>;
    const square = p.createAnnotation('Square');
    square.setRect([400, 100, 500, 200]);
    square.setColor([1, 0, 0]);
    square.setInteriorColor([1, 0, 0]);
    square.update();
    p.createLink([50, 300, 250, 320], 'https://example.com/terms').destroy();
    p.update();
    return savedAndFreed(doc, '');
  } catch (e) {
    doc.destroy();
    throw e;
  }
}

async function look(bytes: Uint8Array) {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF()!;
  try {
    const page = doc.loadPage(0) as InstanceType<typeof mupdf.PDFPage>;
    const pix = page.toPixmap(mupdf.Matrix.scale(0.5, 0.5), mupdf.ColorSpace.DeviceGray, false, true);
    const pixels = pix.getPixels().slice();
    pix.destroy();
    return {
      widgets: page.getWidgets().length,
      annotations: page.getAnnotations().filter((a) => !['Link', 'Widget'].includes(a.getType())).length,
      links: page.getLinks().map((l) => l.getURI()),
      acroForm: !doc.getTrailer().get('Root').get('AcroForm').isNull(),
      text: page.toStructuredText('preserve-whitespace').asText(),
      pixels,
    };
  } finally {
    doc.destroy();
  }
}

describe('flatten', () => {
  it('burns the field and the annotation into the page: no widgets, no AcroForm, same look, the value is text, the link stays', async () => {
    const input = await formWithAnnotations();
    const before = await look(input);
    expect(before).toMatchObject({ widgets: 1, annotations: 1, acroForm: true });
    const acct = await newAccount();
    const rec = await runOp(acct, 'flatten', { file_id: (await uploadOk(acct, input, 'form.pdf')).file_id });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    expect(rec.operation_type).toBe('flatten_pdf');
    const after = await look(await download(rec));
    expect(after).toMatchObject({ widgets: 0, annotations: 0, acroForm: false, links: ['https://example.com/terms'] });
    expect(after.text).toContain('Flattened value 42');
    const changed = after.pixels.filter((v, i) => Math.abs(v - before.pixels[i]!) > 32).length;
    expect(changed / after.pixels.length).toBeLessThan(0.01);
  });
});
