#!/usr/bin/env node
// npm run fidelity -- --html: every page of ../shared/corpus/html through html-to-pdf (the running
// service, as a user gets it: upload, POST /v1/pdf/html-to-pdf, download), scored against
// Chromium's print in ../shared/corpus-ref/html with ../shared/tools/fidelity, beside MuPDF's own
// HTML import (mutool convert, Debian mupdf-tools) scored the same way; times beside headless
// Chromium printing the same file in the same run (chromium --headless --print-to-pdf).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startService, stopAll } from './bench/service.mjs';
import * as api from './bench/api.mjs';
import { root } from './lib/word-converter.mjs';
import { SCORER, scorerReady } from './lib/fidelity-tool.mjs';

// --dir DIR: the .html files of another folder instead, each against DIR/<name>.pdf, which is
// printed by the local Chromium first where it is missing (pages this project has not seen).
const dirArg = process.argv.indexOf('--dir');
const corpus = dirArg > 0 ? resolve(process.argv[dirArg + 1]) : join(root, '..', 'shared', 'corpus', 'html');
const refs = dirArg > 0 ? corpus : join(root, '..', 'shared', 'corpus-ref', 'html');
const out = dirArg > 0 ? '/tmp/pdf-edge-fidelity-html-dir' : '/tmp/pdf-edge-fidelity-html';
if (!existsSync(corpus)) {
  console.log(`npm run fidelity -- --html: ${corpus} is not here; nothing to score.`);
  process.exit(0);
}
if (!scorerReady(console.log)) process.exit(1);
for (const dir of ['ours', 'mupdf', 'chromium']) mkdirSync(join(out, dir), { recursive: true });
const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/**
 * `chromium --headless --print-to-pdf` of a local file, kept off the network: its background
 * services off, and any http(s) it would load sent to a dead proxy on 127.0.0.1 (corpus pages link
 * to outside addresses; nothing of this project sends traffic beyond the loopback range).
 */
function printWithChromium(file, pdf) {
  const offline = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--proxy-server=http://127.0.0.1:9'];
  spawnSync(chromium, ['--headless', '--no-sandbox', '--disable-gpu', '--no-pdf-header-footer', ...offline, `--print-to-pdf=${pdf}`, `file://${file}`], { timeout: 300_000 });
}

const score = (candidate, reference) => {
  const r = spawnSync(process.execPath, [SCORER, candidate, reference], { encoding: 'utf8' });
  try {
    return JSON.parse(r.stdout.trim().split('\n').pop()).score;
  } catch {
    return NaN;
  }
};

/**
 * The paper Chromium printed the reference on (its default follows the machine's locale: the
 * corpus references are Letter), so that ours and MuPDF's import are laid out on the same sheet.
 */
function referencePaper(reference) {
  const info = spawnSync('pdfinfo', [reference], { encoding: 'utf8' }).stdout ?? '';
  const [, w, h] = /Page size:\s+([\d.]+) x ([\d.]+)/.exec(info) ?? [, '612', '792'];
  const name = Math.abs(Number(w) - 612) < 2 ? 'Letter' : Number(w) > 800 ? 'A3' : 'A4';
  return { name, w: Number(w), h: Number(h) };
}

if (dirArg > 0 && chromium) {
  for (const f of readdirSync(corpus).filter((f) => f.endsWith('.html') && !existsSync(join(refs, `${f}.pdf`)))) {
    printWithChromium(join(corpus, f), join(refs, `${f}.pdf`));
  }
}

const files = readdirSync(corpus).filter((f) => f.endsWith('.html') && existsSync(join(refs, `${f}.pdf`)));
const svc = await startService({ root, logPath: join(out, 'service.log'), extraArgs: ['--persist-to', join(out, 'state')] });
const rows = [];
let bigPage;
try {
  const { apiKey } = await api.createAccount(svc, `html-${Date.now()}@example.com`, { balance: '1000.00' });
  // First, in a fresh convert isolate: MuPDF's heap never shrinks, so a page measured after others
  // would show the largest of them (the WeasyPrint report's 300-dpi cover photo takes ~70 MB).
  if (dirArg < 0) bigPage = await convertBigPage(svc, apiKey);
  for (const f of files) {
    const path = join(corpus, f);
    const t0 = performance.now();
    const form = new FormData();
    form.append('file', new Blob([readFileSync(path)], { type: 'text/html' }), f);
    const up = await fetch(`${svc.base}/v1/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form }).then((r) => r.json());
    const reference = join(refs, `${f}.pdf`);
    const paper = referencePaper(reference);
    const rec = await api.waitTask(svc, apiKey, await api.submit(svc, apiKey, 'html-to-pdf', { file_id: up.file_id, page_size: paper.name }));
    const oursPdf = join(out, 'ours', `${f}.pdf`);
    if (rec.status === 'done') writeFileSync(oursPdf, await api.download(rec.download_url));
    const oursMs = performance.now() - t0;
    const mupdfPdf = join(out, 'mupdf', `${f}.pdf`);
    spawnSync('mutool', ['convert', '-W', String(paper.w), '-H', String(paper.h), '-S', '12', '-o', mupdfPdf, path], { encoding: 'utf8' });
    let chromiumMs = NaN;
    if (chromium) {
      const c0 = performance.now();
      printWithChromium(path, join(out, 'chromium', `${f}.pdf`));
      chromiumMs = performance.now() - c0;
    }
    rows.push({ f, ours: rec.status === 'done' ? score(oursPdf, reference) : 0, mupdf: existsSync(mupdfPdf) ? score(mupdfPdf, reference) : 0, oursMs, chromiumMs, error: rec.error_message });
  }
} finally {
  await svc.stop();
  await stopAll();
}

/**
 * A 1 MB page of text and tables (the corpus's longest page, its body repeated): converted in one
 * invocation, with the WASM heap and the peak estimate the convert Worker logs, beside Chromium.
 */
async function convertBigPage(svc, apiKey) {
  // A warm isolate, as a running service has: one small page first (its heap stays at the baseline).
  const small = new FormData();
  small.append('file', new Blob(['<p>warm-up</p>'], { type: 'text/html' }), 'warm.html');
  const warm = await fetch(`${svc.base}/v1/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: small }).then((r) => r.json());
  await api.waitTask(svc, apiKey, await api.submit(svc, apiKey, 'html-to-pdf', { file_id: warm.file_id }));
  const source = readFileSync(join(corpus, 'dedoc__with_applications.html'), 'utf8');
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(source)?.[1] ?? source;
  const copies = Math.ceil(1_000_000 / Buffer.byteLength(body));
  const html = source.replace(body, Array(copies).fill(body).join('\n'));
  const path = join(out, 'big-page.html');
  writeFileSync(path, html);
  const t0 = performance.now();
  const form = new FormData();
  form.append('file', new Blob([html], { type: 'text/html' }), 'big-page.html');
  const up = await fetch(`${svc.base}/v1/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form }).then((r) => r.json());
  const taskId = await api.submit(svc, apiKey, 'html-to-pdf', { file_id: up.file_id, page_size: 'Letter' });
  const rec = await api.waitTask(svc, apiKey, taskId);
  const ms = performance.now() - t0;
  let mem;
  for (let i = 0; i < 50 && !mem; i++) {
    mem = api.taskMemory(svc.lines()).get(taskId);
    if (!mem) await new Promise((r) => setTimeout(r, 100));
  }
  const pdf = rec.status === 'done' ? await api.download(rec.download_url) : undefined;
  const pages = pdf ? Number(/Pages:\s+(\d+)/.exec(spawnSync('pdfinfo', ['-'], { input: pdf, encoding: 'latin1' }).stdout)?.[1]) : 0;
  let chromiumMs = NaN;
  if (chromium) {
    const c0 = performance.now();
    printWithChromium(path, join(out, 'chromium', 'big-page.pdf'));
    chromiumMs = performance.now() - c0;
  }
  const step = mem?.at(-1);
  return { bytes: Buffer.byteLength(html), status: rec.status, error: rec.error_message, pages, ms, chromiumMs, invocations: mem?.length ?? 0, heap: step?.wasm_heap_bytes, peak: step?.peak_estimate_bytes, runMs: step?.run_ms };
}

const lines = ['file                                   | ours   mutool | ours ms  chromium ms  ratio'];
for (const r of rows) lines.push(`${r.f.slice(0, 38).padEnd(38)} | ${r.ours.toFixed(3)}  ${r.mupdf.toFixed(3)} | ${r.oursMs.toFixed(0).padStart(7)}  ${r.chromiumMs.toFixed(0).padStart(11)}  ${(r.oursMs / r.chromiumMs).toFixed(2).padStart(5)}${r.error ? `  failed: ${r.error}` : ''}`);
const mean = (k) => rows.reduce((s, r) => s + r[k], 0) / rows.length;
lines.push('', `mean over ${rows.length}: ours ${mean('ours').toFixed(3)}, MuPDF's import ${mean('mupdf').toFixed(3)}; lowest ours ${Math.min(...rows.map((r) => r.ours)).toFixed(3)}; time ${(rows.reduce((s, r) => s + r.oursMs, 0) / 1000).toFixed(1)} s against Chromium's ${(rows.reduce((s, r) => s + r.chromiumMs, 0) / 1000).toFixed(1)} s`);
if (bigPage) {
  const mb = (n) => (n / 1e6).toFixed(1);
  lines.push(
    bigPage.status === 'done'
      ? `1 MB page (${mb(bigPage.bytes)} MB, ${bigPage.pages} pages): ${(bigPage.ms / 1000).toFixed(1)} s upload to download against Chromium's ${(bigPage.chromiumMs / 1000).toFixed(1)} s; ${bigPage.invocations} invocation(s), run ${bigPage.runMs} ms, WASM heap ${mb(bigPage.heap)} MB, peak estimate ${mb(bigPage.peak)} MB (heap + input + output)`
      : `1 MB page: ${bigPage.status} ${bigPage.error}`,
  );
}
console.log(lines.join('\n'));
writeFileSync(join(out, 'summary.txt'), `${lines.join('\n')}\n`);
