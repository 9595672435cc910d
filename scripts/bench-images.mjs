#!/usr/bin/env node
// npm run bench:images: jpg-to-pdf and photo-to-pdf through the service (npm start, HTTP API) on the
// images of ../shared/corpus/images, beside img2pdf (Debian) on the same files in the same run;
// then photo-to-pdf's scan mode on photographed pages: the OCR pages of ../shared/corpus/ocr that
// have ground truth, made to look photographed here (light falling off across the sheet, a warm
// tint, JPEG), read by native tesseract before and after, character error rate against the truth.
// Prints a line and exits 0 without ../shared; a tool that is not installed is reported missing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import * as mupdf from 'mupdf';
import { root } from './lib/word-converter.mjs';
import { startService, stopAll } from './bench/service.mjs';
import * as api from './bench/api.mjs';
import { cer } from './lib/cer.mjs';

const SHARED = join(root, '..', 'shared', 'corpus');
if (!existsSync(SHARED)) {
  console.log(`bench:images: ${SHARED} is not here; nothing to do.`);
  process.exit(0);
}
const work = mkdtempSync(join(tmpdir(), 'bench-images-'));
const has = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const kb = (n) => (n / 1000).toFixed(0);

/** The PDF's first page image stream: raw bytes and filter. */
function firstImage(pdf) {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf').asPDF();
  let found = null;
  doc.findPage(0).get('Resources').get('XObject').forEach((ref) => {
    found ??= { raw: ref.readRawStream().asUint8Array().slice(), filter: ref.get('Filter').toString(), width: ref.get('Width').asNumber(), height: ref.get('Height').asNumber() };
  });
  return found;
}

/** A page image made to look photographed: light falls from 100% to 55% across the sheet, a warm tint, JPEG 85. */
function photographed(bytes) {
  // Drawn onto white RGB: the pages come grey, RGB and with alpha.
  const image = new mupdf.Image(bytes);
  const [w, h] = [image.getWidth(), image.getHeight()];
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, w, h], false);
  pix.clear(255);
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pix);
  device.fillImage(image, [w, 0, 0, h, 0, 0], 1);
  device.close();
  const [stride, px] = [pix.getStride(), pix.getPixels()];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const light = 1 - 0.45 * ((x / w + y / h) / 2);
      const at = y * stride + x * 3;
      px[at] = px[at] * light;
      px[at + 1] = px[at + 1] * light * 0.95;
      px[at + 2] = px[at + 2] * light * 0.82;
    }
  }
  return pix.asJPEG(85).slice();
}

function tesseract(imagePath, lang) {
  const r = spawnSync('tesseract', [imagePath, 'stdout', '-l', lang], { encoding: 'utf8', timeout: 300_000 });
  return r.status === 0 ? r.stdout : '';
}

const svc = await startService({ root, logPath: join(work, 'service.log'), extraArgs: ['--persist-to', join(work, 'state')] });
const { apiKey } = await api.createAccount(svc, `images-${Date.now()}@example.com`, { balance: '1000.00' });
const run = async (op, path, body = {}) => {
  const t = Date.now();
  const rec = await api.waitTask(svc, apiKey, await api.submit(svc, apiKey, op, { file_ids: [(await api.upload(svc, apiKey, path)).file_id], ...body }));
  if (rec.status !== 'done') return { error: rec.error_message, ms: Date.now() - t };
  return { bytes: await api.download(rec.download_url), ms: Date.now() - t };
};

const lines = [];
try {
  const images = readdirSync(join(SHARED, 'images')).sort();
  lines.push(`${'image'.padEnd(44)} ${'KB'.padStart(6)} | jpg-to-pdf KB  same bytes  img2pdf KB | photo-to-pdf KB  px        ms`);
  for (const name of images) {
    const path = join(SHARED, 'images', name);
    const size = readFileSync(path).length;
    const ours = await run('jpg-to-pdf', path);
    const photo = await run('photo-to-pdf', path);
    let anchor = '-';
    if (has('img2pdf') && !name.endsWith('.webp')) {
      const out = join(work, 'img2pdf.pdf');
      rmSync(out, { force: true });
      if (spawnSync('img2pdf', [path, '-o', out]).status === 0) anchor = kb(readFileSync(out).length);
    }
    const image = ours.bytes ? firstImage(ours.bytes) : null;
    const same = image && name.endsWith('.jpg') ? (Buffer.compare(Buffer.from(image.raw), readFileSync(path)) === 0 ? 'yes' : 'NO') : '-';
    const photoImage = photo.bytes ? firstImage(photo.bytes) : null;
    lines.push(
      `${name.padEnd(44)} ${kb(size).padStart(6)} | ${(ours.bytes ? kb(ours.bytes.length) : `failed: ${ours.error}`).padStart(13)}  ${same.padStart(10)}  ${anchor.padStart(10)} | ${(photo.bytes ? kb(photo.bytes.length) : 'failed').padStart(15)}  ${photoImage ? `${photoImage.width}×${photoImage.height}`.padEnd(10) : '-'.padEnd(10)} ${String(photo.ms).padStart(5)}`,
    );
  }

  lines.push('', 'scan mode on photographed OCR pages (tesseract, same language model; CER = edit distance / ground-truth characters)');
  if (!has('tesseract')) lines.push('tesseract is not installed: apt-get install tesseract-ocr tesseract-ocr-rus tesseract-ocr-fra');
  else {
    lines.push(`${'page'.padEnd(44)} lang | CER photo  CER scan | photo KB  scan PDF KB`);
    const langs = { en: 'eng', ru: 'rus', fr: 'fra', de: 'deu' };
    const scores = [];
    for (const [dir, lang] of Object.entries(langs)) {
      const folder = join(SHARED, 'ocr', dir);
      if (!existsSync(folder)) continue;
      for (const file of readdirSync(folder).filter((f) => /\.(png|jpg)$/.test(f) && !f.includes('.photo.')).sort()) {
        const stem = file.replace(/(\.bin)?\.(png|jpg)$/, '');
        const truthFile = readdirSync(folder).find((f) => f === `${stem}.gt.txt` || f === `${stem}.txt`);
        if (!truthFile) continue;
        const truth = readFileSync(join(folder, truthFile), 'utf8');
        const photoPath = join(work, `${stem}.photo.jpg`);
        writeFileSync(photoPath, photographed(readFileSync(join(folder, file))));
        // Requests come fast here: one retry after a pause rides out the per-key rate limit.
        const scan = await run('photo-to-pdf', photoPath, { mode: 'scan' }).catch(() => new Promise((r) => setTimeout(r, 2000)).then(() => run('photo-to-pdf', photoPath, { mode: 'scan' }))).catch((e) => ({ error: e.message }));
        if (!scan.bytes) {
          lines.push(`${stem.padEnd(44)} ${lang}  | scan failed: ${scan.error}`);
          continue;
        }
        const scanPath = join(work, `${stem}.scan.jpg`);
        writeFileSync(scanPath, firstImage(scan.bytes).raw);
        const [before, after] = [cer(tesseract(photoPath, lang), truth), cer(tesseract(scanPath, lang), truth)];
        scores.push([before, after]);
        lines.push(`${basename(stem).slice(0, 43).padEnd(44)} ${lang}  | ${before.toFixed(3).padStart(9)} ${after.toFixed(3).padStart(9)} | ${kb(readFileSync(photoPath).length).padStart(8)} ${kb(scan.bytes.length).padStart(12)}`);
      }
    }
    if (scores.length) {
      const mean = (i) => (scores.reduce((n, s) => n + s[i], 0) / scores.length).toFixed(3);
      lines.push(`mean CER over ${scores.length} pages: photo ${mean(0)}, after scan mode ${mean(1)}; scan at least as good on ${scores.filter(([b, a]) => a <= b + 0.005).length}/${scores.length}`);
    }
  }
} catch (e) {
  console.error(`bench:images: ${e.message}; the service's log: ${join(work, 'service.log')}`);
  throw e;
} finally {
  await svc.stop();
  await stopAll();
}
rmSync(work, { recursive: true, force: true });
console.log(lines.join('\n'));
