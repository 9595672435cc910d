import * as mupdf from 'mupdf';
import { readFileSync, readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import encode, { init } from '@jsquash/jpeg/encode.js';
import { ssim } from '../../lib/ssim.mjs';
const { encodeJpeg } = await import('./bundle.mjs');
await init(await WebAssembly.compile(readFileSync(new URL('../../../node_modules/@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm', import.meta.url))));
const dir = '/work/shared/corpus/images/';
const grey = (px, w, h, n) => { const g = new Uint8Array(w * h); for (let i = 0; i < w * h; i++) g[i] = n === 1 ? px[i] : Math.round(0.299 * px[i * n] + 0.587 * px[i * n + 1] + 0.114 * px[i * n + 2]); return g; };
const decodeGrey = (jpeg) => { const p = new mupdf.Image(jpeg).toPixmap(); const w = p.getWidth(), h = p.getHeight(), n = p.getNumberOfComponents(); const s = p.getStride(), px = p.getPixels(); const out = new Uint8Array(w * h * n); for (let y = 0; y < h; y++) out.set(px.subarray(y * s, y * s + w * n), y * w * n); return grey(out, w, h, n); };
const variants = process.argv.slice(2);
for (const f of readdirSync(dir).filter((f) => /\.(jpg|png)$/.test(f))) {
  const img = new mupdf.Image(readFileSync(dir + f));
  let pix = img.toPixmap(); if (pix.getColorSpace()?.isCMYK?.() || pix.getNumberOfComponents() === 4) pix = pix.convertToColorSpace(mupdf.ColorSpace.DeviceRGB);
  if (pix.getAlpha()) continue;
  const w = pix.getWidth(), h = pix.getHeight(), n = pix.getNumberOfComponents();
  const s = pix.getStride(), px = pix.getPixels();
  const packed = new Uint8Array(w * h * n); for (let y = 0; y < h; y++) packed.set(px.subarray(y * s, y * s + w * n), y * w * n);
  const rgba = new Uint8ClampedArray(w * h * 4); for (let i = 0; i < w * h; i++) { for (let c = 0; c < 3; c++) rgba[i * 4 + c] = packed[i * n + (n === 1 ? 0 : c)]; rgba[i * 4 + 3] = 255; }
  const ref = grey(packed, w, h, n);
  const row = [f.slice(0, 28).padEnd(28), `${w}x${h}`.padEnd(10)];
  for (const q of [75, 80]) {
    let t = performance.now(); const ours = encodeJpeg(packed, w, h, n === 1 ? 1 : 3, q, 200); const to = performance.now() - t;
    t = performance.now(); const moz = new Uint8Array(await encode({ data: rgba, width: w, height: h }, { quality: q, color_space: n === 1 ? 1 : 3 })); const tm = performance.now() - t;
    t = performance.now(); const moz2 = new Uint8Array(await encode({ data: rgba, width: w, height: h }, { quality: q, color_space: n === 1 ? 1 : 3, quant_table: 0, auto_subsample: false, chroma_subsample: 2 })); const tm2 = performance.now() - t;
    row.push(`q${q} ours ${(ours.length / 1000).toFixed(0)}KB ${ssim({ w, h, px: ref }, { w, h, px: decodeGrey(ours) }).toFixed(3)} ${to.toFixed(0)}ms | moz ${(moz.length / 1000).toFixed(0)}KB ${ssim({ w, h, px: ref }, { w, h, px: decodeGrey(moz) }).toFixed(3)} ${tm.toFixed(0)}ms | mozStdQ ${(moz2.length / 1000).toFixed(0)}KB ${ssim({ w, h, px: ref }, { w, h, px: decodeGrey(moz2) }).toFixed(3)} ${tm2.toFixed(0)}ms`);
  }
  console.log(row.join(' '));
}
