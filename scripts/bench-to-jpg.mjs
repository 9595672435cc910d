#!/usr/bin/env node
// npm run bench:to-jpg: to-jpg through the service (npm start, HTTP API) on the first 3 pages of each
// PDF of ../shared/corpus/pdf at 150 dpi, beside `mutool draw -r 150` (Debian mupdf-tools, the
// reference rendering, PNG) and `pdftoppm -jpeg -r 150` (poppler: JPEGs like ours). Per file: our
// JPEG bytes against pdftoppm's, and SSIM of our pages against mutool's (grey, 8 × 8 windows).
// Prints a line and exits 0 without ../shared; files the service refuses are listed with its message.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import * as mupdf from 'mupdf';
import { root } from './lib/word-converter.mjs';
import { ssim } from './lib/ssim.mjs';
import { startService, stopAll } from './bench/service.mjs';
import * as api from './bench/api.mjs';

const CORPUS = join(root, '..', 'shared', 'corpus', 'pdf');
if (!existsSync(CORPUS)) {
  console.log(`bench:to-jpg: ${CORPUS} is not here; nothing to do.`);
  process.exit(0);
}
const DPI = 150;
const PAGES = 3;
const work = mkdtempSync(join(tmpdir(), 'bench-to-jpg-'));

/** Grey samples of an image file (JPEG or PNG) decoded by MuPDF. */
function grey(bytes) {
  const pix = new mupdf.Image(bytes).toPixmap().convertToColorSpace(mupdf.ColorSpace.DeviceGray, false);
  return { w: pix.getWidth(), h: pix.getHeight(), px: pix.getPixels().slice() };
}

const svc = await startService({ root, logPath: join(work, 'service.log'), extraArgs: ['--persist-to', join(work, 'state')] });
const { apiKey } = await api.createAccount(svc, `to-jpg-${Date.now()}@example.com`, { balance: '1000.00' });
const lines = [`${'file'.padEnd(44)} pages | ours KB  pdftoppm KB | SSIM vs mutool (mean, min)`];
const all = [];
let [oursTotal, popplerTotal] = [0, 0];
try {
  for (const name of readdirSync(CORPUS).filter((f) => f.endsWith('.pdf')).sort()) {
    const path = join(CORPUS, name);
    let rec;
    try {
      const up = await api.upload(svc, apiKey, path);
      if (!up.pages) throw new Error('no page count (encrypted or unreadable)');
      const pages = Array.from({ length: Math.min(PAGES, up.pages) }, (_, i) => i + 1);
      rec = await api.waitTask(svc, apiKey, await api.submit(svc, apiKey, 'to-jpg', { file_id: up.file_id, dpi: DPI, pages }));
      if (rec.status !== 'done') throw new Error(rec.error_message);
      const files = unzipSync(await api.download(rec.download_url));
      const scores = [];
      let [ours, poppler] = [0, 0];
      for (const n of pages) {
        const jpeg = files[`page-${n}.jpg`];
        ours += jpeg.length;
        const png = join(work, `m-${n}.png`);
        spawnSync('mutool', ['draw', '-q', '-r', String(DPI), '-o', png, path, String(n)]);
        const stem = join(work, `p-${n}`);
        spawnSync('pdftoppm', ['-jpeg', '-jpegopt', 'quality=85', '-r', String(DPI), '-f', String(n), '-l', String(n), '-singlefile', path, stem]);
        if (existsSync(`${stem}.jpg`)) poppler += readFileSync(`${stem}.jpg`).length;
        if (existsSync(png)) scores.push(ssim(grey(jpeg), grey(readFileSync(png))));
        rmSync(png, { force: true });
        rmSync(`${stem}.jpg`, { force: true });
      }
      oursTotal += ours;
      popplerTotal += poppler;
      all.push(...scores);
      const mean = scores.reduce((a, b) => a + b, 0) / Math.max(1, scores.length);
      lines.push(`${name.slice(0, 43).padEnd(44)} ${String(pages.length).padStart(5)} | ${(ours / 1000).toFixed(0).padStart(7)}  ${(poppler / 1000).toFixed(0).padStart(11)} | ${mean.toFixed(3)}, ${Math.min(...scores).toFixed(3)}`);
    } catch (e) {
      lines.push(`${name.slice(0, 43).padEnd(44)} refused: ${String(e.message).slice(0, 100)}`);
    }
  }
} finally {
  await svc.stop();
  await stopAll();
  rmSync(work, { recursive: true, force: true });
}
lines.push(`\n${all.length} pages: ours ${(oursTotal / 1e6).toFixed(2)} MB, pdftoppm ${(popplerTotal / 1e6).toFixed(2)} MB; SSIM against mutool's rendering mean ${(all.reduce((a, b) => a + b, 0) / all.length).toFixed(3)}, min ${Math.min(...all).toFixed(3)}`);
console.log(lines.join('\n'));
