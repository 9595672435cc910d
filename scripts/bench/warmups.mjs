// The other kinds of work a production isolate serves besides large PDFs, for npm run bench's
// shared service: OCR (MuPDF draws the page on the API side, Tesseract reads it in the OCR Worker),
// pictures to PDF (PNG decoding), HTML and Word conversion. They run before the PDF operations are
// measured there, so each measured task starts from whatever heap these left.
// Files are made with MuPDF in Node and cached under bench-out/.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as mupdf from 'mupdf';

const A4 = [0, 0, 595, 842];

/** A one-page PDF whose only content is a 300 dpi grey picture of a page of text: what OCR gets. */
function scanPdf(path) {
  const text = new mupdf.PDFDocument();
  const font = text.addSimpleFont(new mupdf.Font('Times-Roman'));
  const lines = Array.from({ length: 40 }, (_, i) => `BT /F1 12 Tf 60 ${780 - i * 18} Td (Line ${i + 1}: the quarterly report of the isolate heap and its queue.) Tj ET`);
  text.insertPage(-1, text.addPage(A4, 0, text.addObject({ Font: { F1: font } }), lines.join('\n')));
  const page = text.loadPage(0);
  const pix = page.toPixmap(mupdf.Matrix.scale(300 / 72, 300 / 72), mupdf.ColorSpace.DeviceGray, false);
  const scan = new mupdf.PDFDocument();
  const image = scan.addImage(new mupdf.Image(pix));
  scan.insertPage(-1, scan.addPage(A4, 0, scan.addObject({ XObject: { I: image } }), 'q 595 0 0 842 0 0 cm /I Do Q'));
  writeFileSync(path, scan.saveToBuffer('compress').asUint8Array());
}

/** A 4000 × 3000 photo-like PNG (gradient and noise), 36 MB of RGB once decoded. */
function photoPng(path) {
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 4000, 3000], false);
  const px = pix.getPixels();
  let s = 12345;
  for (let i = 0; i < px.length; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    px[i] = ((i % 12000) / 47 + (s & 63)) & 0xff;
  }
  writeFileSync(path, pix.asPNG());
}

/** A 40-page HTML report: headings, paragraphs and a 1,500-row table. */
function reportHtml(path) {
  const rows = Array.from({ length: 1500 }, (_, i) => `<tr><td>${i + 1}</td><td>Item ${i * 7}</td><td style="text-align:right">${(i * 13.37).toFixed(2)}</td></tr>`).join('');
  const paras = Array.from({ length: 60 }, (_, i) => `<h2>Section ${i + 1}</h2><p>${'The isolate keeps its heap for the next task. '.repeat(20)}</p>`).join('');
  writeFileSync(path, `<!doctype html><html><head><meta charset="utf-8"><style>body{font-family:Arial}table{border-collapse:collapse}td{border:1px solid #999;padding:2px 6px}</style></head><body>${paras}<table>${rows}</table></body></html>`);
}

export function warmupFiles(out) {
  const files = { scan: join(out, 'warmup-scan.pdf'), photo: join(out, 'warmup-photo.png'), html: join(out, 'warmup-report.html') };
  if (!existsSync(files.scan)) scanPdf(files.scan);
  if (!existsSync(files.photo)) photoPng(files.photo);
  if (!existsSync(files.html)) reportHtml(files.html);
  return files;
}

/** The warm-up tasks: path → request body, given the uploaded file ids. */
export const WARMUPS = [
  { name: 'ocr (300 dpi scan, eng)', op: 'ocr', file: 'scan', body: (id) => ({ file_id: id, languages: ['eng'] }) },
  { name: 'jpg-to-pdf (4000 × 3000 PNG)', op: 'jpg-to-pdf', file: 'photo', body: (id) => ({ file_ids: [id] }) },
  { name: 'photo-to-pdf scan mode', op: 'photo-to-pdf', file: 'photo', body: (id) => ({ file_ids: [id], mode: 'scan' }) },
  { name: 'html-to-pdf (40-page report)', op: 'html-to-pdf', file: 'html', body: (id) => ({ file_id: id }) },
];
