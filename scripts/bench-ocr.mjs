#!/usr/bin/env node
// npm run bench:ocr: every ground-truth page of ../shared/corpus/ocr through our OCR (the running
// service, both Workers: the page image wrapped into an image-only PDF by img2pdf, POST /v1/pdf/ocr,
// the result's text read by poppler's pdftotext -raw, in the layer's own order, which is
// Tesseract's reading order) and through native tesseract (Debian, the same
// tessdata_fast models, one thread). Prints the character error rate of each against the ground
// truth, and the CPU time: native tesseract's user + system time; ours, the time the OCR Worker
// spent recognising the page (a Worker runs one thread, so its busy time is its CPU time) and
// the task's whole time from request to done.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService, stopAll } from './bench/service.mjs';
import * as api from './bench/api.mjs';
import { cer } from './lib/cer.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = join(root, '..', 'shared', 'corpus', 'ocr');
const LANG = { en: 'eng', ru: 'rus', de: 'deu', fr: 'fra' };
const work = mkdtempSync(join(tmpdir(), 'bench-ocr-'));
if (!existsSync(corpus)) {
  console.log(`npm run bench:ocr: ${corpus} is not here (the shared corpus sits beside the project's development checkout); nothing to measure.`);
  process.exit(0);
}
const has = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
for (const tool of ['tesseract', 'img2pdf', 'pdftotext']) {
  if (!has(tool)) {
    console.error(`npm run bench:ocr needs ${tool}: apt-get install tesseract-ocr tesseract-ocr-rus tesseract-ocr-deu tesseract-ocr-fra img2pdf poppler-utils`);
    process.exit(1);
  }
}

/** Ground-truth pages: an image (png, tif, jpg) and its text (.gt.txt or .txt) with the same stem. */
function pages() {
  const found = [];
  for (const dir of Object.keys(LANG)) {
    const files = readdirSync(join(corpus, dir));
    for (const image of files.filter((f) => /\.(png|tif|jpg)$/.test(f))) {
      const stem = image.replace(/\.(bin\.)?(png|tif|jpg)$/, '');
      const truth = [`${stem}.gt.txt`, `${stem}.txt`].find((t) => files.includes(t));
      if (truth) found.push({ dir, lang: LANG[dir], image: join(corpus, dir, image), truth: readFileSync(join(corpus, dir, truth), 'utf8') });
    }
  }
  return found;
}

/** Native tesseract on one thread: its text and CPU seconds (user + system). */
function native(image, lang) {
  const r = spawnSync('/usr/bin/time', ['-f', 'CPU %U %S', 'tesseract', image, 'stdout', '-l', lang], { encoding: 'utf8', env: { ...process.env, OMP_THREAD_LIMIT: '1' }, timeout: 600_000 });
  const cpu = /CPU ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return { text: r.stdout ?? '', cpu: cpu ? Number(cpu[1]) + Number(cpu[2]) : NaN };
}

const list = pages();
const svc = await startService({ root, logPath: join(work, 'service.log'), extraArgs: ['--persist-to', join(work, 'state')] });
const rows = [];
try {
  const { apiKey } = await api.createAccount(svc, `ocr-${Date.now()}@example.com`, { balance: '1000.00' });
  for (const page of list) {
    const pdf = join(work, `${basename(page.image)}.pdf`);
    const wrapped = spawnSync('img2pdf', ['-o', pdf, page.image], { encoding: 'utf8' });
    if (wrapped.status !== 0) {
      rows.push({ ...page, error: `img2pdf: ${wrapped.stderr.trim().split('\n').pop()}` });
      continue;
    }
    const nat = native(page.image, page.lang);
    const id = (await api.upload(svc, apiKey, pdf)).file_id;
    const started = Date.now();
    const taskId = await api.submit(svc, apiKey, 'ocr', { file_id: id, languages: [page.lang] });
    const rec = await api.waitTask(svc, apiKey, taskId);
    const wall = (Date.now() - started) / 1000;
    if (rec.status !== 'done') {
      rows.push({ ...page, error: rec.error_message });
      continue;
    }
    const out = join(work, `${basename(page.image)}.ocr.pdf`);
    writeFileSync(out, await api.download(rec.download_url));
    const text = spawnSync('pdftotext', ['-raw', out, '-'], { encoding: 'utf8' }).stdout ?? '';
    rows.push({ ...page, taskId, ours: cer(text, page.truth), nativeCer: cer(nat.text, page.truth), nativeCpu: nat.cpu, wall });
  }
} finally {
  await svc.stop();
  await stopAll();
}

// The OCR Worker's own time per page, from its log.
const ocrMs = new Map();
for (const line of readFileSync(join(work, 'service.log'), 'utf8').split('\n')) {
  const at = line.indexOf('{"event":"ocr_page"');
  if (at < 0) continue;
  const event = JSON.parse(line.slice(at).replace(/\u001b\[[0-9;]*m/g, '').trim());
  ocrMs.set(event.task_id, (ocrMs.get(event.task_id) ?? 0) + event.ms);
}

const lines = ['page                                          lang |  CER ours  CER native | CPU s ours  CPU s native  ratio | task s'];
let [sumOurs, sumNative, n, cpuOurs, cpuNative] = [0, 0, 0, 0, 0];
for (const r of rows) {
  const name = `${r.dir}/${basename(r.image)}`.slice(0, 45).padEnd(45);
  if (r.error) {
    lines.push(`${name} ${r.lang} | failed: ${r.error}`);
    continue;
  }
  const ours = (ocrMs.get(r.taskId) ?? NaN) / 1000;
  lines.push(`${name} ${r.lang} |  ${r.ours.toFixed(3).padStart(8)}  ${r.nativeCer.toFixed(3).padStart(10)} | ${ours.toFixed(2).padStart(10)}  ${r.nativeCpu.toFixed(2).padStart(12)}  ${(ours / r.nativeCpu).toFixed(2).padStart(5)} | ${r.wall.toFixed(1).padStart(6)}`);
  [sumOurs, sumNative, n, cpuOurs, cpuNative] = [sumOurs + r.ours, sumNative + r.nativeCer, n + 1, cpuOurs + ours, cpuNative + r.nativeCpu];
}
lines.push('', `mean CER over ${n} pages: ours ${(sumOurs / n).toFixed(3)}, native tesseract ${(sumNative / n).toFixed(3)} (${((100 * (sumOurs - sumNative)) / n).toFixed(1)} points apart)`);
lines.push(`CPU: ours ${cpuOurs.toFixed(1)} s in the OCR Worker, native ${cpuNative.toFixed(1)} s (${(cpuOurs / cpuNative).toFixed(2)}×)`);
console.log(lines.join('\n'));
if (!existsSync(join(root, 'bench-out'))) process.exit(0);
writeFileSync(join(root, 'bench-out', 'ocr-report.txt'), `${lines.join('\n')}\n`);
