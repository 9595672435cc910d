#!/usr/bin/env node
// npm run bench:compress [-- --only TEXT]: compress through the service (npm start, HTTP API) at
// low, medium and high on the PDFs of ../shared/corpus/pdf, beside Ghostscript (-dPDFSETTINGS=/ebook
// and /screen) and qpdf (--object-streams=generate --recompress-flate) on the same files in the same
// run. Per file: sizes as a share of the input, and how the first page looks against the input's
// (mean absolute difference of grey pixels at 50 dpi, 0 = identical, by MuPDF in Node). Files the
// service refuses (encrypted, damaged) are listed with its message. Prints a line and exits 0
// without ../shared.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as mupdf from 'mupdf';
import { root } from './lib/word-converter.mjs';
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

/** Grey pixels of page 1 at 50 dpi, or null when MuPDF cannot render it. */
function firstPage(bytes) {
  try {
    const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
    if (doc.needsPassword()) return null;
    const pix = doc.loadPage(0).toPixmap(mupdf.Matrix.scale(50 / 72, 50 / 72), mupdf.ColorSpace.DeviceGray, false, true);
    return { w: pix.getWidth(), h: pix.getHeight(), px: pix.getPixels().slice() };
  } catch {
    return null;
  }
}

function difference(a, b) {
  if (!a || !b || a.w !== b.w || a.h !== b.h) return null;
  let sum = 0;
  for (let i = 0; i < a.px.length; i++) sum += Math.abs(a.px[i] - b.px[i]);
  return sum / a.px.length;
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
    const ref = firstPage(input);
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
      row.ours[level] = { size: out.length, diff: difference(ref, firstPage(out)), check: qpdfCheck(out) };
    }
    const anchors = {
      ebook: ['gs', ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=pdfwrite', '-dPDFSETTINGS=/ebook', `-sOutputFile=${join(work, 'ebook.pdf')}`, path], join(work, 'ebook.pdf')],
      screen: ['gs', ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=pdfwrite', '-dPDFSETTINGS=/screen', `-sOutputFile=${join(work, 'screen.pdf')}`, path], join(work, 'screen.pdf')],
      qpdf: ['qpdf', ['--object-streams=generate', '--recompress-flate', path, join(work, 'qpdf.pdf')], join(work, 'qpdf.pdf')],
    };
    for (const [k, [cmd, args, out]] of Object.entries(anchors)) {
      rmSync(out, { force: true });
      const bytes = tool(cmd, args, out);
      row.tools[k] = bytes ? { size: bytes.length, diff: difference(ref, firstPage(bytes)) } : null;
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
const dif = (x) => (x && x.diff !== null ? x.diff.toFixed(1).padStart(5) : '    -');
console.log(`${'file'.padEnd(44)} ${'KB'.padStart(7)}  low   med   high  qpdf  ebook screen   | diff: med  high ebook screen`);
for (const r of rows) {
  const name = r.name.length > 43 ? `${r.name.slice(0, 42)}…` : r.name;
  if (r.refused && !Object.keys(r.ours).length) {
    console.log(`${name.padEnd(44)} ${(r.size / 1000).toFixed(0).padStart(7)}  refused: ${r.refused}`);
    continue;
  }
  console.log(
    `${name.padEnd(44)} ${(r.size / 1000).toFixed(0).padStart(7)} ${pct(r.ours.low, r.size)} ${pct(r.ours.medium, r.size)} ${pct(r.ours.high, r.size)} ${pct(r.tools.qpdf, r.size)} ${pct(r.tools.ebook, r.size)} ${pct(r.tools.screen, r.size)}   |     ${dif(r.ours.medium)} ${dif(r.ours.high)} ${dif(r.tools.ebook)} ${dif(r.tools.screen)}`,
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
  console.log(`\nover ${done.length} files both could write: input ${(total((r) => r.size) / 1e6).toFixed(1)} MB; ours low ${(total((r) => r.ours.low.size) / 1e6).toFixed(1)}, medium ${(total((r) => r.ours.medium.size) / 1e6).toFixed(1)}, high ${(total((r) => r.ours.high.size) / 1e6).toFixed(1)} MB; qpdf ${(total((r) => r.tools.qpdf.size) / 1e6).toFixed(1)}, gs /ebook ${(total((r) => r.tools.ebook.size) / 1e6).toFixed(1)}, /screen ${(total((r) => (r.tools.screen?.size ?? r.size)) / 1e6).toFixed(1)} MB`);
  console.log(`low ≤ qpdf on ${done.filter((r) => r.ours.low.size <= r.tools.qpdf.size).length}/${done.length}; medium ≤ 0.9 × /ebook on ${done.filter((r) => r.ours.medium.size <= 0.9 * r.tools.ebook.size).length}/${done.length}; qpdf --check of our outputs: ${checks.clean} clean, ${checks.noWorse} no worse than their input, ${checks.worse} worse; never larger than the input: ${rows.every((r) => Object.values(r.ours).every((o) => o.size <= r.size)) ? 'yes' : 'NO'}`);
}

