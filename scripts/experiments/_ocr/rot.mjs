import * as mupdf from 'mupdf';
const doc = new mupdf.PDFDocument();
doc.insertPage(-1, doc.addPage([0, 0, 420, 595], 0, doc.newDictionary(), ''));
const p = doc.loadPage(0);
for (const t of [0, 90, 180]) { const pix = p.toPixmap(mupdf.Matrix.concat(mupdf.Matrix.rotate(t), mupdf.Matrix.scale(200 / 72, 200 / 72)), mupdf.ColorSpace.DeviceGray, false, true); console.log(t, pix.getWidth(), pix.getHeight(), JSON.stringify(mupdf.Matrix.rotate(t))); }
