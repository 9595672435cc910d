import * as mupdf from 'mupdf';
const doc = new mupdf.PDFDocument();
const font = doc.addSimpleFont(new mupdf.Font('Helvetica'));
const res = doc.newDictionary(); const fonts = doc.newDictionary(); fonts.put('F', font); res.put('Font', fonts);
doc.insertPage(-1, doc.addPage([0, 0, 400, 400], 0, res, 'BT /F 12 Tf 3 Tr 150 Tz 0 1 -1 0 200 100 Tm (Hello world again) Tj ET'));
const p = doc.loadPage(0);
console.log(p.toStructuredText('preserve-whitespace').asJSON(1).slice(0, 400));
