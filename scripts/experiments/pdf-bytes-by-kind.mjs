// node scripts/experiments/pdf-bytes-by-kind.mjs a.pdf b.pdf …: where a PDF's bytes go (stream bytes by kind:
// content, font, image, form, object streams, other; "rest" = everything that is not stream data).
// Used to see what Ghostscript or qpdf saves that compress does not.
import * as mupdf from 'mupdf';
import { readFileSync } from 'node:fs';
for (const f of process.argv.slice(2)) {
  const bytes = readFileSync(f);
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF();
  const fontFiles = new Set(), contents = new Set();
  for (let i = 0; i < doc.countPages(); i++) { const c = doc.findPage(i).get('Contents'); if (c.isArray()) for (let k=0;k<c.length;k++) contents.add(c.get(k).asIndirect()); else if (c.isIndirect()) contents.add(c.asIndirect()); }
  const t = {};
  const add = (k, n) => { t[k] = (t[k] ?? 0) + n; };
  for (let n = 1; n < doc.countObjects(); n++) {
    const o = doc.newIndirect(n, 0);
    try {
      if (o.isDictionary()) { for (const k of ['FontFile','FontFile2','FontFile3']) { const ff = o.get(k); if (ff.isIndirect()) fontFiles.add(ff.asIndirect()); } }
    } catch {}
  }
  for (let n = 1; n < doc.countObjects(); n++) {
    const o = doc.newIndirect(n, 0);
    try {
      if (!o.isStream()) continue;
      const len = o.readRawStream().getLength();
      const type = o.get('Type').isName() ? o.get('Type').asName() : '';
      const sub = o.get('Subtype').isName() ? o.get('Subtype').asName() : '';
      const k = fontFiles.has(n) ? 'font' : contents.has(n) ? 'content' : sub === 'Image' ? 'image' : sub === 'Form' ? 'form' : type === 'ObjStm' || type === 'XRef' ? 'objstm/xref' : `other:${type||sub||'-'}`;
      add(k, len);
    } catch {}
  }
  const streams = Object.values(t).reduce((a,b)=>a+b,0);
  console.log(f.split('/').pop().slice(0,40).padEnd(40), String(bytes.length).padStart(8), Object.entries(t).sort().map(([k,v])=>`${k}=${v}`).join(' '), `rest=${bytes.length-streams}`);
}
