import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as mupdf from 'mupdf';
const require = createRequire(import.meta.url);
const TesseractCore = require('tesseract.js-core/tesseract-core-simd-lstm.js');
const wasm = await WebAssembly.compile(readFileSync('/work/main/node_modules/tesseract.js-core/tesseract-core-simd-lstm.wasm'));
let memory;
const t0 = performance.now();
const M = await TesseractCore({
  instantiateWasm(imports, receive) { WebAssembly.instantiate(wasm, imports).then((inst) => { memory = Object.values(inst.exports).find((e) => e instanceof WebAssembly.Memory); receive(inst); }); return {}; },
  print: () => {}, printErr: () => {},
});
const langs = (process.argv[3] ?? 'rus+eng').split('+');
for (const l of langs) M.FS.writeFile(`/${l}.traineddata`, readFileSync(`/usr/share/tesseract-ocr/5/tessdata/${l}.traineddata`));
const api = new M.TessBaseAPI();
const rc = api.Init('/', langs.join('+'), 1);
console.log('init rc', rc, (performance.now() - t0).toFixed(0), 'ms heap', memory.buffer.byteLength / 1e6);
// the page as grey PGM at 300 dpi
const file = process.argv[2];
let pgm, w, h;
if (file.endsWith('.pdf')) {
  const doc = mupdf.Document.openDocument(readFileSync(file), 'application/pdf');
  const pix = doc.loadPage(0).toPixmap(mupdf.Matrix.scale(300 / 72, 300 / 72), mupdf.ColorSpace.DeviceGray, false);
  w = pix.getWidth(); h = pix.getHeight(); const s = pix.getStride(); const px = pix.getPixels();
  const head = new TextEncoder().encode(`P5\n${w} ${h}\n255\n`);
  pgm = new Uint8Array(head.length + w * h); pgm.set(head); for (let y = 0; y < h; y++) pgm.set(px.subarray(y * s, y * s + w), head.length + y * w);
} else pgm = readFileSync(file);
M.FS.writeFile('/input', pgm);
const t1 = performance.now();
api.SetImageFile(0, 0);
api.SetVariable('user_defined_dpi', '300');
const r = api.Recognize(null);
const tsv = api.GetTSVText(0);
console.log('recognize rc', r, (performance.now() - t1).toFixed(0), 'ms heap', memory.buffer.byteLength / 1e6, 'MB');
console.log(tsv.split('\n').filter((l) => l.startsWith('5\t')).slice(0, 8).join('\n'));
console.log(tsv.split('\n').filter((l) => l.startsWith('5\t')).map((l) => l.split('\t')[11]).join(' ').slice(0, 500));
