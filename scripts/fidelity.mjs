#!/usr/bin/env node
// npm run fidelity [-- --only SUBSTRING]... [--node] [--no-soffice] [--no-baseline] [--out DIR] [--timeout S]
//                  [--base URL --admin-token T [--service-log FILE]]
// Converts every .docx and .doc of ../shared/corpus/{docx,doc} through the service, as a user gets
// it (scripts/lib/service-convert.mjs: a wrangler dev started as `npm start` starts it, with its
// own fresh state, or the one at --base), and scores the PDFs against the LibreOffice references
// in ../shared/corpus-ref/{docx,doc}/<file>.pdf with ../shared/tools/fidelity/fidelity.mjs. Times:
// the conversion inside the Worker (run_ms of the consumer's task_memory line) and what the user
// waits (operation request to PDF downloaded). Alongside: the baseline (MuPDF's own Office import,
// scored the same way; it cannot open .doc) and LibreOffice's cold time on the same file in the
// same run (soffice --headless --convert-to pdf with a fresh user profile each time).
// --node adds the Node bundle of the converter (each document in a fresh scripts/convert.mjs
// process): its score beside the service's, and whether the two PDFs agree (page count and
// MuPDF's text of each page).
// Documents without a reference (encrypted, truncated) are not scored: for those the service must
// refuse with the expected problem (at upload or as the task's error_message).
// Service PDFs go to DIR/<docx|doc>/<file>.pdf (named like the references), Node's to
// DIR/<docx|doc>-node/, the baseline's to DIR/<docx|doc>-mupdf/, and a JSON summary to
// DIR/summary.json (with the path scored). DIR: /tmp/pdf-edge-fidelity.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildWordConverter, root } from './lib/word-converter.mjs';
import { SCORER, findSoffice, runSoffice, scorerReady } from './lib/fidelity-tool.mjs';
import { SERVICE_USAGE, exitOnInterrupt, openService, takeServiceArgs } from './lib/service-convert.mjs';
import { agreement } from './lib/pdf-agree.mjs';
import { printSummary, summarize } from './lib/fidelity-summary.mjs';

// ---------------------------------------------------------------------------------------------
// Options

// --html: the HTML pages instead, against Chromium's print (scripts/fidelity-html.mjs).
if (process.argv.includes('--html')) {
  await import('./fidelity-html.mjs');
  process.exit(0);
}
const { opts: serviceOpts, rest: argv } = takeServiceArgs(process.argv.slice(2));
const opts = { only: [], node: false, soffice: true, baseline: true, out: '/tmp/pdf-edge-fidelity', timeoutMs: 180_000 };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--only' && argv[i + 1] !== undefined) opts.only.push(argv[++i]);
  else if (a === '--node') opts.node = true;
  else if (a === '--no-soffice') opts.soffice = false;
  else if (a === '--no-baseline') opts.baseline = false;
  else if (a === '--out' && argv[i + 1]) opts.out = resolve(argv[++i]);
  else if (a === '--timeout' && argv[i + 1]) opts.timeoutMs = Number(argv[++i]) * 1000;
  else {
    console.error(`usage: npm run fidelity [-- --only SUBSTRING]... [--node] [--no-soffice] [--no-baseline] [--out DIR] [--timeout SECONDS] ${SERVICE_USAGE}`);
    process.exit(2);
  }
}

const SHARED = resolve(root, '..', 'shared');
const CORPUS = join(SHARED, 'corpus');
const REFS = join(SHARED, 'corpus-ref');
const CONVERT = join(root, 'scripts', 'convert.mjs');
const BASELINE = join(root, 'scripts', 'lib', 'mupdf-office.mjs');
const CATEGORIES = ['docx', 'doc'];
const WORD_EXT = /\.(docx|docm|dotx|dotm|doc|dot)$/i;
// Inputs without a reference and how the converter must refuse them.
const EXPECTED_FAILURES = {
  'poi__bug53475-password-is-pass.docx': 'password',
  'poi__password_password_cryptoapi.doc': 'password',
  'poi__truncated62886.docx': 'corrupt',
};

if (!existsSync(CORPUS) || !existsSync(SCORER)) {
  console.log(`fidelity: ${SHARED} (corpus, references, scorer) is not here; nothing to do.`);
  process.exit(0);
}

if (!scorerReady((m) => console.error(`fidelity: ${m}`))) {
  console.error('fidelity: npm install failed there; cannot score.');
  process.exit(1);
}

const soffice = opts.soffice ? findSoffice() : undefined;
const notes = [];
if (opts.soffice && !soffice) notes.push('soffice not found: no LibreOffice times.');
if (!opts.soffice) notes.push('--no-soffice: no LibreOffice times.');
if (!opts.baseline) notes.push('--no-baseline: no MuPDF baseline.');

// With --node: build the converter once here; the per-document processes then find the bundle fresh.
let buildError;
if (opts.node) {
  try {
    const { built } = await buildWordConverter();
    if (built) console.error('fidelity: converter bundled for Node');
  } catch (e) {
    buildError = e.errors?.map((m) => `${m.location ? `${m.location.file}:${m.location.line}: ` : ''}${m.text}`).join('; ') ?? String(e.message ?? e);
    notes.push(`the converter does not build for Node: ${buildError}`);
    console.error(`fidelity: the converter does not build for Node (${buildError}); running the rest`);
  }
}

// ---------------------------------------------------------------------------------------------
// Runs

const documents = [];
for (const category of CATEGORIES) {
  const dir = join(CORPUS, category);
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir).sort()) {
    if (!WORD_EXT.test(name)) continue;
    if (opts.only.length && !opts.only.some((s) => name.includes(s))) continue;
    documents.push({ category, name, path: join(dir, name) });
  }
}
if (!documents.length) {
  console.log(`fidelity: no documents${opts.only.length ? ` matching ${opts.only.join(', ')}` : ''}.`);
  process.exit(0);
}

for (const category of CATEGORIES) {
  for (const suffix of ['', '-node', '-mupdf']) mkdirSync(join(opts.out, `${category}${suffix}`), { recursive: true });
}

exitOnInterrupt('fidelity');
let service;
try {
  service = await openService(serviceOpts, (m) => console.error(`fidelity: ${m}`));
} catch (e) {
  console.error(`fidelity: cannot use the service: ${e.message}`);
  process.exit(1);
}
if (!service.workerTimes) notes.push(`--base without --service-log: no Worker times (they are read from the service's stdout).`);

/** Runs a Node script in a fresh process; its last stdout line is JSON. Adds wallMs. */
function nodeJson(script, args) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', timeout: opts.timeoutMs, maxBuffer: 64 << 20 });
  const wallMs = Math.round(performance.now() - t0);
  if (r.error?.code === 'ETIMEDOUT' || r.signal) {
    return { ok: false, error: r.signal === 'SIGTERM' || r.error ? `timed out after ${opts.timeoutMs / 1000} s` : `killed by ${r.signal}`, wallMs };
  }
  const last = r.stdout.trim().split('\n').pop();
  try {
    return { ...JSON.parse(last), wallMs };
  } catch {
    return { ok: false, error: `exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ').slice(0, 300)}`, wallMs };
  }
}

function score(candidate, reference) {
  const s = nodeJson(SCORER, [candidate, reference]);
  if (s.score === undefined) return { error: s.error ?? 'no score' };
  const { pages, words, visual, candidate_pages, reference_pages } = s;
  return { pages, words, visual, score: s.score, candidatePages: candidate_pages, referencePages: reference_pages };
}

const rows = [];
const f3 = (x) => (typeof x === 'number' ? x.toFixed(3) : '  -  ');
const pad = (s, n) => String(s ?? '-').padStart(n);
const NAME_W = 44;
const short = (s) => (s.length > NAME_W ? `${s.slice(0, NAME_W - 1)}…` : s.padEnd(NAME_W));
const nodeHead = opts.node ? ` ${'node'.padStart(5)}` : '';
console.log(
  `${'file'.padEnd(NAME_W)} ${'pp c/r'.padStart(7)} ${'pages'.padStart(5)} ${'words'.padStart(5)} ${'visual'.padStart(6)} ${'SCORE'.padStart(5)}${nodeHead} ${'base'.padStart(5)}` +
    ` ${'wrk ms'.padStart(6)} ${'user ms'.padStart(7)} ${'heap MB'.padStart(7)} ${'LO ms'.padStart(6)}`,
);

try {
  for (const d of documents) {
    const reference = join(REFS, d.category, `${d.name}.pdf`);
    const candidate = join(opts.out, d.category, `${d.name}.pdf`);
    const nodePdf = join(opts.out, `${d.category}-node`, `${d.name}.pdf`);
    const baselinePdf = join(opts.out, `${d.category}-mupdf`, `${d.name}.pdf`);
    const row = { file: d.name, category: d.category, reference: existsSync(reference) ? reference : null };
    for (const f of [candidate, nodePdf, baselinePdf]) rmSync(f, { force: true });

    // ours, through the service
    const s = await service.convert(d.path);
    if (s.ok) writeFileSync(candidate, s.pdf);
    row.ours = s.ok
      ? { ok: true, workerMs: s.workerMs, userMs: s.userMs, phases: s.phases, heapBytes: s.heapBytes, bytes: s.pdf.byteLength, taskId: s.taskId, pdf: candidate }
      : { ok: false, problem: s.problem, error: s.error_message, stage: s.stage, workerMs: s.workerMs, userMs: s.userMs, taskId: s.taskId };
    if (s.ok && row.reference) Object.assign(row.ours, score(candidate, reference));

    // ours, the Node bundle in a fresh process, and whether it says what the Worker's PDF says
    if (opts.node) {
      if (buildError) row.node = { ok: false, error: 'converter does not build' };
      else {
        const c = nodeJson(CONVERT, [d.path, nodePdf, '--json']);
        row.node = c.ok
          ? { ok: true, pages: c.pages, ms: c.ms, processMs: c.wallMs, bytes: c.bytes, heapBytes: c.heapBytes, peakRssBytes: c.peakRssBytes, pdf: nodePdf }
          : { ok: false, problem: c.problem, error: c.error, ms: c.ms, processMs: c.wallMs, unexpected: c.unexpected };
        if (c.ok && row.reference) Object.assign(row.node, score(nodePdf, reference));
      }
      const read = (r, file) => ({ ok: r.ok, problem: r.problem, pdf: r.ok ? new Uint8Array(readFileSync(file)) : undefined });
      try {
        row.agreement = await agreement(read(row.ours, candidate), read(row.node, nodePdf));
      } catch (e) {
        row.agreement = { agree: false, why: `not compared: ${e.message}` };
      }
    }

    // baseline: MuPDF's Office import
    if (opts.baseline && row.reference) {
      const b = nodeJson(BASELINE, [d.path, baselinePdf]);
      row.baseline = b.ok ? { ok: true, ms: b.ms, pdf: baselinePdf, ...score(baselinePdf, reference) } : { ok: false, error: b.error, score: 0 };
    }

    // LibreOffice, cold
    if (soffice) row.soffice = runSoffice(soffice, d.path, opts.timeoutMs);

    if (!row.reference) {
      const expected = EXPECTED_FAILURES[d.name];
      row.expectedProblem = expected ?? null;
      row.asExpected = expected ? !row.ours.ok && row.ours.problem === expected : null;
    }
    rows.push(row);
    printRow(row);
  }
} catch (e) {
  console.error(`fidelity: ${e?.stack ?? e}`);
  await service.close({ saveLogTo: join(opts.out, 'service.log') });
  process.exit(1);
}
const failedUnexpectedly = rows.some((r) => !r.ours.ok && r.reference);
await service.close({ saveLogTo: failedUnexpectedly ? join(opts.out, 'service.log') : undefined });

function printRow(r) {
  const o = r.ours;
  const lo = r.soffice ? (r.soffice.ok ? pad(r.soffice.ms, 6) : pad('fail', 6)) : pad('-', 6);
  if (!r.reference) {
    const got = o.ok ? 'converted' : o.problem ? `'${o.problem}'${o.stage === 'upload' ? ' at upload' : ''}` : `error: ${o.error}`;
    const verdict = r.expectedProblem ? `${r.asExpected ? 'ok' : 'WRONG'}: expected '${r.expectedProblem}', got ${got}` : `no reference; ours: ${got}`;
    console.log(`${short(r.file)} (no reference) ${verdict}${soffice ? `   LO ms ${lo.trim()}` : ''}`);
    return;
  }
  const base = r.baseline ? (r.baseline.ok ? f3(r.baseline.score) : pad('n/a', 5)) : pad('-', 5);
  const node = opts.node ? ` ${r.node.ok ? f3(r.node.score) : pad('FAIL', 5)}` : '';
  if (!o.ok || o.score === undefined) {
    const why = o.ok ? `score failed: ${o.error}` : `${o.stage ? `${o.stage}: ` : ''}${o.error}`;
    console.log(`${short(r.file)} ${pad('FAILED', 7)} ${pad('', 5)} ${pad('', 5)} ${pad('', 6)} ${f3(0)}${node} ${base} ${pad(o.workerMs, 6)} ${pad(o.userMs, 7)} ${pad('', 7)} ${lo}`);
    console.log(`${''.padEnd(NAME_W)}   ${String(why).split('\n')[0].slice(0, 160)}`);
    return;
  }
  const heap = o.heapBytes == null ? '-' : (o.heapBytes / 1e6).toFixed(0);
  console.log(
    `${short(r.file)} ${pad(`${o.candidatePages}/${o.referencePages}`, 7)} ${f3(o.pages).padStart(5)} ${f3(o.words)} ${f3(o.visual).padStart(6)} ${f3(o.score)}${node} ${base}` +
      ` ${pad(o.workerMs, 6)} ${pad(o.userMs, 7)} ${pad(heap, 7)} ${lo}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Summary

if (service.rateLimited()) notes.push(`${service.rateLimited()} requests were rate-limited (429) and retried; their waits are in user ms.`);
const summary = summarize(rows, { categories: CATEGORIES, node: opts.node, notes });
summary.path = 'service';
summary.service = service.started ? 'started by this run (npm start, fresh state)' : service.base;
console.log('');
printSummary(summary, { baseline: opts.baseline, node: opts.node });

const summaryFile = join(opts.out, 'summary.json');
writeFileSync(
  summaryFile,
  JSON.stringify({ generated: new Date().toISOString(), scored: 'service', node: opts.node, options: { ...opts, soffice: soffice ?? false, base: serviceOpts.base ?? null }, summary, rows }, null, 2),
);
console.log(`PDFs in ${opts.out}/<docx|doc>/ (${opts.node ? 'Node path in <docx|doc>-node/, ' : ''}MuPDF baseline in <docx|doc>-mupdf/), summary in ${summaryFile}`);
