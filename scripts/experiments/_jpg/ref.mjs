// writes (or compares with) the encoder's bytes for a few pages of corpus PDFs, colour and grey
import * as mupdf from 'mupdf';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
const { encodeJpeg, packedPixels } = await import('./bundle.mjs');
const files = ['/work/main/bench-out/big-500p-48mb.pdf', ...readFileSync('/work/shared/corpus/MANIFEST.tsv', 'utf8').split('\n').map((l) => l.split('\t')[0]).filter((f) => f.endsWith('.pdf')).slice(0, 12).map((f) => `/work/shared/corpus/${f}`)];
const out = {};
for (const f of files) {
  let doc; try { doc = mupdf.Document.openDocument(readFileSync(f), 'application/pdf'); if (doc.needsPassword()) continue; } catch { continue; }
  for (const cs of ['rgb', 'grey']) {
    try {
      const pix = doc.loadPage(0).toPixmap(mupdf.Matrix.scale(100 / 72, 100 / 72), cs === 'rgb' ? mupdf.ColorSpace.DeviceRGB : mupdf.ColorSpace.DeviceGray, false);
      const j = encodeJpeg(packedPixels(pix), pix.getWidth(), pix.getHeight(), cs === 'rgb' ? 3 : 1, 85, 100);
      out[`${f}:${cs}`] = createHash('sha1').update(j).digest('hex');
    } catch (e) { out[`${f}:${cs}`] = 'error ' + e.message; }
  }
}
if (!existsSync('/tmp/jpg-ref.json')) { writeFileSync('/tmp/jpg-ref.json', JSON.stringify(out, null, 1)); console.log('wrote', Object.keys(out).length); }
else { const ref = JSON.parse(readFileSync('/tmp/jpg-ref.json', 'utf8')); let same = 0, diff = 0; for (const k in ref) { if (ref[k] === out[k]) same++; else { diff++; console.log('DIFF', k); } } console.log({ same, diff }); }
