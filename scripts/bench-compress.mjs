#!/usr/bin/env node
// npm run bench:compress [-- --only TEXT]: compress through the service (npm start, HTTP API) at
// low, medium and high on the PDFs of ../shared/corpus/pdf, beside Ghostscript (-dPDFSETTINGS=/ebook
// and /screen) and qpdf (--object-streams=generate --recompress-flate) on the same files in the same
// run. Per file: sizes as a share of the input, and how the pages look against the input's (mean
// SSIM of the first 8 pages in grey at 100 dpi, 1 = identical, 0 for an output that lost pages; by
// MuPDF in Node). Files the
// service refuses (encrypted, damaged) are listed with its message. Prints a line and exits 0
// without ../shared.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as mupdf from 'mupdf';
import { root } from './lib/word-converter.mjs';
import { ssim } from './lib/ssim.mjs';
import { startService, stopAll } from './bench/service.mjs';
import * as api from './bench/api.mjs';

const CORPUS = join(root, '..', 'shared', 'corpus', 'pdf');
if (!existsSync(CORPUS)) {
  console.log(`bench:compress: ${CORPUS} is not here; nothing to do.`);
  process.exit(0);
}
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : '';
const files = readdirSync(CORPUS).filter((f) => f.endsWith('.pdf') && f.includes(only)).sort();
const work = mkdtempSync(join(tmpdir(), 'bench-compress-'));

/** How many pages are compared: enough to see every kind of page of most files, few enough to keep the run short. */
const PAGES_COMPARED = 8;
const DPI = 100;

/** Grey pixels of the first pages at 100 dpi, or null when MuPDF cannot open the file. */
function pageImages(bytes) {
  try {
    const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
    if (doc.needsPassword()) return null;
    const pages = [];
    for (let i = 0; i < Math.min(doc.countPages(), PAGES_COMPARED); i++) {
      try {
        const pix = doc.loadPage(i).toPixmap(mupdf.Matrix.scale(DPI / 72, DPI / 72), mupdf.ColorSpace.DeviceGray, false, true);
        pages.push({ w: pix.getWidth(), h: pix.getHeight(), px: pix.getPixels().slice() });
        pix.destroy();
      } catch {
        pages.push(null);
      }
    }
    return { count: doc.countPages(), pages };
  } catch {
    return null;
  }
}

/** Mean SSIM over the compared pages; 0 for an output that lost pages or does not open. */
function similarity(ref, bytes) {
  const out = pageImages(bytes);
  if (!ref || !out || out.count !== ref.count) return 0;
  return ref.pages.reduce((n, page, i) => n + ssim(page, out.pages[i]), 0) / ref.pages.length;
}

/** qpdf --check's exit status on `bytes`: 0 clean, 3 warnings, 2 errors (a measuring stick for the structure we write). */
function qpdfCheck(bytes) {
  const path = join(work, 'check.pdf');
  writeFileSync(path, bytes);
  return spawnSync('qpdf', ['--check', path], { encoding: 'utf8', timeout: 300_000 }).status;
}

function tool(cmd, args, out) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 300_000 });
  return existsSync(out) && r.status !== null && (r.status === 0 || r.status === 3) ? readFileSync(out) : null;
}

const svc = await startService({ root, logPath: join(work, 'service.log'), extraArgs: ['--persist-to', join(work, 'state')] });
const { apiKey } = await api.createAccount(svc, `compress-${Date.now()}@example.com`, { balance: '100000.00' });
const rows = [];
try {
  for (const name of files) {
    const path = join(CORPUS, name);
    const input = readFileSync(path);
    const ref = pageImages(input);
    const row = { name, size: input.length, ours: {}, tools: {}, check: qpdfCheck(input) };
    let fileId;
    try {
      fileId = (await api.upload(svc, apiKey, path)).file_id;
    } catch (e) {
      row.refused = String(e.message).slice(0, 120);
    }
    for (const level of fileId ? ['low', 'medium', 'high'] : []) {
      const rec = await api.waitTask(svc, apiKey, await api.submit(svc, apiKey, 'compress', { file_id: fileId, level }));
      if (rec.status !== 'done') {
        row.refused = rec.error_message.slice(0, 120);
        break;
      }
      const out = await api.download(rec.download_url);
      row.ours[level] = { size: out.length, ssim: similarity(ref, out), check: qpdfCheck(out) };
    }
    const anchors = {
      ebook: ['gs', ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=pdfwrite', '-dPDFSETTINGS=/ebook', `-sOutputFile=${join(work, 'ebook.pdf')}`, path], join(work, 'ebook.pdf')],
      screen: ['gs', ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=pdfwrite', '-dPDFSETTINGS=/screen', `-sOutputFile=${join(work, 'screen.pdf')}`, path], join(work, 'screen.pdf')],
      qpdf: ['qpdf', ['--object-streams=generate', '--recompress-flate', path, join(work, 'qpdf.pdf')], join(work, 'qpdf.pdf')],
    };
    for (const [k, [cmd, args, out]] of Object.entries(anchors)) {
      rmSync(out, { force: true });
      const bytes = tool(cmd, args, out);
      row.tools[k] = bytes ? { size: bytes.length, ssim: similarity(ref, bytes) } : null;
    }
    rows.push(row);
    console.error(`bench:compress: ${name} done`);
  }
} finally {
  await svc.stop();
  await stopAll();
  rmSync(work, { recursive: true, force: true });
}

const pct = (x, of) => (x ? `${((100 * x.size) / of).toFixed(0)}%`.padStart(5) : '   - ');
const sim = (x) => (x ? x.ssim.toFixed(3).padStart(6) : '     -');
console.log(`${'file'.padEnd(44)} ${'KB'.padStart(7)}  low   med   high  qpdf  ebook screen | SSIM: med   high  ebook screen`);
for (const r of rows) {
  const name = r.name.length > 43 ? `${r.name.slice(0, 42)}…` : r.name;
  if (r.refused && !Object.keys(r.ours).length) {
    console.log(`${name.padEnd(44)} ${(r.size / 1000).toFixed(0).padStart(7)}  refused: ${r.refused}`);
    continue;
  }
  console.log(
    `${name.padEnd(44)} ${(r.size / 1000).toFixed(0).padStart(7)} ${pct(r.ours.low, r.size)} ${pct(r.ours.medium, r.size)} ${pct(r.ours.high, r.size)} ${pct(r.tools.qpdf, r.size)} ${pct(r.tools.ebook, r.size)} ${pct(r.tools.screen, r.size)}  |    ${sim(r.ours.medium)} ${sim(r.ours.high)} ${sim(r.tools.ebook)} ${sim(r.tools.screen)}`,
  );
}
// qpdf --check severity: 0 clean < 3 warnings < 2 errors.
const severity = (status) => ({ 0: 0, 3: 1 })[status] ?? 2;
const outputs = rows.flatMap((r) => Object.values(r.ours).map((o) => ({ out: severity(o.check), input: severity(r.check) })));
const checks = {
  clean: outputs.filter((o) => o.out === 0).length,
  noWorse: outputs.filter((o) => o.out > 0 && o.out <= o.input).length,
  worse: outputs.filter((o) => o.out > o.input).length,
};
const done = rows.filter((r) => r.ours.medium && r.tools.ebook && r.tools.qpdf);
const total = (f) => done.reduce((n, r) => n + f(r), 0);
if (done.length) {
  console.log(`\nover ${done.length} files both could write: input ${(total((r) => r.size) / 1e6).toFixed(2)} MB; ours low ${(total((r) => r.ours.low.size) / 1e6).toFixed(2)}, medium ${(total((r) => r.ours.medium.size) / 1e6).toFixed(2)}, high ${(total((r) => r.ours.high.size) / 1e6).toFixed(2)} MB; qpdf ${(total((r) => r.tools.qpdf.size) / 1e6).toFixed(2)}, gs /ebook ${(total((r) => r.tools.ebook.size) / 1e6).toFixed(2)}, /screen ${(total((r) => (r.tools.screen?.size ?? r.size)) / 1e6).toFixed(2)} MB`);
  const meanSsim = (f) => (total((r) => f(r)?.ssim ?? 0) / done.length).toFixed(3);
  console.log(`mean SSIM: low ${meanSsim((r) => r.ours.low)}, medium ${meanSsim((r) => r.ours.medium)}, high ${meanSsim((r) => r.ours.high)}; qpdf ${meanSsim((r) => r.tools.qpdf)}, gs /ebook ${meanSsim((r) => r.tools.ebook)}, /screen ${meanSsim((r) => r.tools.screen)}`);
  // SSIM's own noise: two renderings of one page differ in their last digits.
  const noWorse = (r) => r.ours.medium.ssim >= r.tools.ebook.ssim - 0.002;
  const kept = done.filter((r) => r.tools.ebook.ssim >= 0.9);
  console.log(`gs /ebook kept the look (SSIM ≥ 0.9, pages kept) of ${kept.length}/${done.length}; over those: input ${(kept.reduce((n, r) => n + r.size, 0) / 1e6).toFixed(2)} MB, ours medium ${(kept.reduce((n, r) => n + r.ours.medium.size, 0) / 1e6).toFixed(2)}, gs /ebook ${(kept.reduce((n, r) => n + r.tools.ebook.size, 0) / 1e6).toFixed(2)} MB`);
  console.log(`low ≤ qpdf on ${done.filter((r) => r.ours.low.size <= r.tools.qpdf.size).length}/${done.length}; medium ≤ 0.9 × /ebook on ${done.filter((r) => r.ours.medium.size <= 0.9 * r.tools.ebook.size).length}/${done.length}, at no worse SSIM ${done.filter((r) => r.ours.medium.size <= 0.9 * r.tools.ebook.size && noWorse(r)).length}; medium's SSIM no worse than /ebook's on ${done.filter(noWorse).length}/${done.length}; qpdf --check of our outputs: ${checks.clean} clean, ${checks.noWorse} no worse than their input, ${checks.worse} worse; never larger than the input: ${rows.every((r) => Object.values(r.ours).every((o) => o.size <= r.size)) ? 'yes' : 'NO'}`);
}

