import * as mupdf from 'mupdf';
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import encode, { init } from '@jsquash/jpeg/encode.js';
const wasm = await WebAssembly.compile(readFileSync(new URL('../../../node_modules/@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm', import.meta.url)));
await init(wasm);
const doc = mupdf.Document.openDocument(readFileSync(process.argv[2]), 'application/pdf');
const dpi = Number(process.argv[3] ?? 150), N = Number(process.argv[4] ?? 5);
const variants = {
  baseline_noopt: { quality: 85, baseline: true, progressive: false, optimize_coding: false, quant_table: 0, auto_subsample: false, chroma_subsample: 2 },
  baseline_opt: { quality: 85, baseline: true, progressive: false, optimize_coding: true, quant_table: 0, auto_subsample: false },
  moz_default: { quality: 85 },
};
const pages = [];
for (let i = 0; i < N; i++) {
  const pix = doc.loadPage(i).toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, true);
  pix.clear?.(255);
  const p = doc.loadPage(i).toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false);
  const w = p.getWidth(), h = p.getHeight(), s = p.getPixels(), st = p.getStride();
  const rgba = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) { const a = y * st + x * 3, b = (y * w + x) * 4; rgba[b] = s[a]; rgba[b + 1] = s[a + 1]; rgba[b + 2] = s[a + 2]; rgba[b + 3] = 255; }
  pages.push({ data: rgba, width: w, height: h });
}
for (const [name, o] of Object.entries(variants)) {
  let t = 0, bytes = 0;
  for (let rep = 0; rep < 2; rep++) { t = 0; bytes = 0; for (const p of pages) { const s = performance.now(); const out = await encode(p, o); t += performance.now() - s; bytes += out.byteLength; if (rep && p === pages[0]) writeFileSync(`/tmp/moz-${name}-${dpi}.jpg`, new Uint8Array(out)); } }
  console.log(`${dpi} ${name}: ${(t / N).toFixed(1)} ms/page ${(bytes / N / 1000).toFixed(0)} KB/page`);
}
