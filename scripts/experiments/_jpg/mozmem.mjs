import * as mupdf from 'mupdf';
import { readFileSync } from 'node:fs';
import factory from '@jsquash/jpeg/codec/enc/mozjpeg_enc.js';
import { initEmscriptenModule } from '@jsquash/jpeg/utils.js';
import { defaultOptions } from '@jsquash/jpeg/meta.js';
const { JpegBandEncoder } = await import('./bundle.mjs');
const wasm = await WebAssembly.compile(readFileSync('node_modules/@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm'));
const pix = new mupdf.Image(readFileSync('/work/shared/corpus/images/' + process.argv[2])).toPixmap();
const w = pix.getWidth(), h = pix.getHeight(), n = pix.getNumberOfComponents(), s = pix.getStride(), px = pix.getPixels();
const rgba = new Uint8ClampedArray(w * h * 4); const rgb = new Uint8Array(w * h * 3);
for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let c = 0; c < 3; c++) { rgba[(y * w + x) * 4 + c] = px[y * s + x * n + (n === 1 ? 0 : c)]; rgb[(y * w + x) * 3 + c] = px[y * s + x * n + (n === 1 ? 0 : c)]; rgba[(y * w + x) * 4 + 3] = 255; }
const enc = new JpegBandEncoder(w, h, 3, 80, 200); enc.addRows(rgb, h); console.log(`${w}x${h} ours baseline ${enc.take().reduce((a, c) => a + c.length, 0)}`);
for (const [name, o] of Object.entries({ progressive: {}, baselineOpt: { baseline: true, progressive: false }, baselineNoOpt: { baseline: true, progressive: false, optimize_coding: false } })) {
  const m = await initEmscriptenModule(factory, wasm, {});
  const before = m.HEAPU8.length;
  const t = performance.now();
  const out = m.encode(rgba, w, h, { ...defaultOptions, quality: 80, quant_table: 0, auto_subsample: false, chroma_subsample: 2, ...o });
  console.log(name, out.length, 'heap', before / 1e6, '->', m.HEAPU8.length / 1e6, 'MB', (performance.now() - t).toFixed(0), 'ms');
}
