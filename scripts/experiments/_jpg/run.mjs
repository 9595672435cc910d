import * as mupdf from 'mupdf';
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
const { JpegBandEncoder, packedPixels } = await import('./bundle.mjs');
const doc = mupdf.Document.openDocument(readFileSync(process.argv[2]), 'application/pdf');
const dpi = Number(process.argv[3] ?? 150);
const N = Number(process.argv[4] ?? 10);
let tr = 0, te = 0, bytes = 0;
for (let rep = 0; rep < 2; rep++) { tr = 0; te = 0; bytes = 0;
for (let i = 0; i < N; i++) {
  const page = doc.loadPage(i);
  const list = page.toDisplayList(true);
  const ctm = mupdf.Matrix.scale(dpi / 72, dpi / 72);
  const [fx0, fy0, fx1, fy1] = mupdf.Rect.transform(page.getBounds(), ctm);
  const [x0, y0, x1, y1] = [Math.floor(fx0 + 0.001), Math.floor(fy0 + 0.001), Math.ceil(fx1 - 0.001), Math.ceil(fy1 - 0.001)];
  const width = x1 - x0, height = y1 - y0;
  const enc = new JpegBandEncoder(width, height, 3, 85, dpi);
  const chunks = [];
  for (let top = 0; top < height; top += 512) {
    const rows = Math.min(512, height - top);
    let t = performance.now();
    const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [x0, y0 + top, x0 + width, y0 + top + rows], false);
    const dev = new mupdf.DrawDevice(mupdf.Matrix.identity, pix);
    pix.clear(255); list.run(dev, ctm); dev.close();
    const px = packedPixels(pix); dev.destroy(); pix.destroy();
    tr += performance.now() - t; t = performance.now();
    enc.addRows(px, rows); for (const c of enc.take()) { chunks.push(c); bytes += c.length; }
    te += performance.now() - t;
  }
  if (i === 0 && rep === 1) writeFileSync(`/tmp/p1-${dpi}.jpg`, Buffer.concat(chunks));
  list.destroy(); page.destroy();
}}
console.log(`dpi ${dpi}: render ${(tr / N).toFixed(1)} ms/page, encode ${(te / N).toFixed(1)} ms/page, ${(bytes / N / 1000).toFixed(0)} KB/page`);
