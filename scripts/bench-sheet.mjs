#!/usr/bin/env node
// npm run bench:sheet [-- --runs N] [--lo-runs M] [--only TEXT]... [--dir DIR] [--no-soffice] [--no-cold]
//                     [--base URL --admin-token T [--service-log FILE]]
// Spreadsheet → PDF time through the service (POST /v1/pdf/xlsx-to-pdf), as users get it
// (scripts/lib/service-convert.mjs: a wrangler dev started as `npm start` starts it, with its own
// fresh state, or the one at --base), as npm run bench:word times Word. Every workbook of
// ../shared/corpus/{xlsx,xls} (ods too once that directory exists; --dir DIR adds the workbooks
// there) is converted once to warm up, then N more times (default 5); per workbook the medians of
// the conversion inside the Worker (run_ms of the consumer's task_memory line) and of what the user
// waits (operation request with ?wait= to the PDF downloaded), and the memory the service logs for
// it (wasm_heap_bytes, MuPDF's WASM heap: it only grows while its engine lives, and an engine grown
// past its bound is replaced after the job, so it is the high-water mark of the engine that ran the
// workbook, earlier workbooks included; and peak_estimate_bytes: that heap, the JS heap, input and
// output).
// Beside them, LibreOffice in this run right after ours on the same workbook, medians of --lo-runs
// M (default 3): warm (one soffice --accept=… fed over UNO, as Gotenberg and unoserver run it:
// scripts/lib/lo-warm.py, which exports a spreadsheet with calc_pdf_Export; warmed on one workbook
// first) and cold (soffice --headless --convert-to pdf, a fresh profile each time; --no-cold skips it).
// The issue's targets: per workbook at most 0.25× warm LibreOffice's time, and at most 100 MB.
// Printed: per workbook the ratios to warm LibreOffice, then their geometric mean and the worst,
// for the Worker's time and the user's, and how many are within 0.25×.
// A workbook the service does not convert (refused, or the operation missing: a 404) gets its
// reason on the line under it; LibreOffice is still timed on it unless it was refused as
// password-protected or damaged.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { root } from './lib/word-converter.mjs';
import { findSoffice, runSoffice } from './lib/fidelity-tool.mjs';
import { SERVICE_USAGE, exitOnInterrupt, openService, takeServiceArgs } from './lib/service-convert.mjs';
import { findUnoPython, startLoWarm } from './lib/lo-warm.mjs';
import { SHEET_EXPECTED_FAILURES, SHEET_OPERATION, sheetFiles } from './lib/sheet-corpus.mjs';

const TARGET = 0.25; // × warm LibreOffice, per workbook
const MEMORY_MB = 100; // peak, per workbook
const USAGE = `usage: npm run bench:sheet [-- --runs N] [--lo-runs M] [--only TEXT]... [--dir DIR] [--no-soffice] [--no-cold] ${SERVICE_USAGE}`;
const { opts: serviceOpts, rest: args } = takeServiceArgs(process.argv.slice(2));
const opts = { runs: 5, loRuns: 3, only: [], soffice: true, cold: true, dir: undefined };
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--runs' && args[i + 1]) opts.runs = Math.max(1, Number(args[++i]) || 5);
  else if (a === '--lo-runs' && args[i + 1]) opts.loRuns = Math.max(1, Number(args[++i]) || 3);
  else if (a === '--only' && args[i + 1] !== undefined) opts.only.push(args[++i]);
  else if (a === '--dir' && args[i + 1]) opts.dir = resolve(args[++i]);
  else if (a === '--no-soffice') opts.soffice = false;
  else if (a === '--no-cold') opts.cold = false;
  else {
    console.error(USAGE);
    process.exit(2);
  }
}
if (opts.dir && !existsSync(opts.dir)) {
  console.error(`bench:sheet: --dir ${opts.dir}: no such directory`);
  process.exit(2);
}

const corpus = join(root, '..', 'shared', 'corpus');
if (!existsSync(corpus) && !opts.dir) {
  console.log(`bench:sheet: ${corpus} (the corpus of ../shared) is not here; nothing to do.`);
  process.exit(0);
}
const inputs = sheetFiles(corpus, { only: opts.only, heldout: opts.dir });
if (!inputs.length) {
  console.log(`bench:sheet: no workbooks${opts.only.length ? ` matching ${opts.only.join(', ')}` : ''}.`);
  process.exit(0);
}
const say = (m) => console.error(`bench:sheet: ${m}`);
const notes = [];

const soffice = opts.soffice ? findSoffice() : undefined;
if (opts.soffice && !soffice) notes.push('soffice not found: no LibreOffice times');
if (!opts.soffice) notes.push('--no-soffice: no LibreOffice times');
const python = soffice ? findUnoPython() : undefined;
if (soffice && !python) notes.push('no python3 that can import uno (Debian: apt-get install python3-uno): no warm LibreOffice times');

exitOnInterrupt('bench:sheet');
const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[xs.length >> 1] : undefined);
const isRefusal = (s) => s.problem === 'password' || s.problem === 'corrupt'; // LibreOffice cannot open those either

let service;
let loWarm;
const results = [];
try {
  service = await openService(serviceOpts, say);
  if (!service.workerTimes) notes.push('--base without --service-log: no Worker times (they are read from the service\'s stdout)');
  say(`warm-up: ${inputs.length} workbooks through the service (POST /v1/pdf/${SHEET_OPERATION})`);
  let opens;
  let missing = 0;
  for (const input of inputs) {
    const s = await service.convert(input.file, SHEET_OPERATION);
    if (s.ok) opens ??= input.file;
    else if (s.stage === 'submit' && s.status === 404 && !missing++) say(`${s.error_message} (the operation is not registered yet?)`);
  }
  if (missing) notes.push(`${missing}/${inputs.length} workbooks: POST /v1/pdf/${SHEET_OPERATION} answered 404 (the operation is not registered in this service: src/operations/index.ts)`);
  // LibreOffice is warmed on the first workbook ours converted, or else the first one not encrypted.
  const firstForLo = opens ?? inputs.find((i) => !SHEET_EXPECTED_FAILURES[i.name])?.file ?? inputs[0].file;
  if (python) {
    loWarm = await startLoWarm({ soffice, python });
    const first = await loWarm.convert(firstForLo); // its first load pulls in the Calc filters
    say(`warm LibreOffice up in ${loWarm.startMs} ms on 127.0.0.1:${loWarm.port}; first workbook ${first.ms} ms${first.ok ? ` (${first.filter})` : ` (${first.error})`}`);
  }

  for (const input of inputs) {
    const r = { input };
    const worker = [];
    const user = [];
    const heaps = [];
    const peaks = [];
    for (let i = 0; i < opts.runs; i++) {
      const s = await service.convert(input.file, SHEET_OPERATION);
      r.converted = s.ok;
      if (!s.ok) {
        r.failure = { stage: s.stage, status: s.status, problem: s.problem, message: s.error_message, refused: isRefusal(s) };
        break; // a workbook that is not converted is not timed again
      }
      if (typeof s.workerMs === 'number') worker.push(s.workerMs);
      user.push(s.userMs);
      if (typeof s.heapBytes === 'number') heaps.push(s.heapBytes);
      if (typeof s.peakEstimateBytes === 'number') peaks.push(s.peakEstimateBytes);
    }
    Object.assign(r, {
      workerMs: median(worker),
      userMs: median(user),
      heapBytes: heaps.length ? Math.max(...heaps) : undefined,
      peakBytes: peaks.length ? Math.max(...peaks) : undefined,
    });
    const timeLo = r.converted || !r.failure?.refused;
    if (soffice && opts.cold && timeLo) {
      const cold = [];
      for (let i = 0; i < opts.loRuns; i++) {
        const lo = runSoffice(soffice, input.file, 180_000);
        if (lo.ok) cold.push(lo.ms);
      }
      r.coldMs = median(cold);
    }
    if (loWarm && timeLo) {
      const warm = [];
      for (let i = 0; i < opts.loRuns; i++) {
        // A workbook can take the warm soffice down: start a new one, warmed on the same first
        // workbook, as unoserver restarts its soffice.
        if (!loWarm.running()) {
          await loWarm.close();
          loWarm = await startLoWarm({ soffice, python });
          await loWarm.convert(firstForLo);
          notes.push(`warm LibreOffice restarted before ${input.name} (run ${i + 1})`);
        }
        const lo = await loWarm.convert(input.file);
        if (lo.ok) warm.push(lo.ms);
        else r.warmError = lo.error;
      }
      r.warmMs = median(warm);
      if (r.warmMs === undefined) notes.push(`warm LibreOffice gave no time for ${input.name}: ${r.warmError}`);
    }
    results.push(r);
  }
} catch (e) {
  console.error(`bench:sheet: ${e?.stack ?? e}`);
  await loWarm?.close();
  await service?.close({ saveLogTo: '/tmp/pdf-edge-bench-sheet-service.log' });
  if (service) console.error('bench:sheet: the service log is in /tmp/pdf-edge-bench-sheet-service.log');
  process.exit(1);
}
await loWarm?.close();
const failedUnexpectedly = results.some((r) => !r.converted && !r.failure?.refused);
await service.close({ saveLogTo: failedUnexpectedly ? '/tmp/pdf-edge-bench-sheet-service.log' : undefined });
if (failedUnexpectedly) notes.push('the service log is in /tmp/pdf-edge-bench-sheet-service.log');
if (service.rateLimited()) notes.push(`${service.rateLimited()} requests were rate-limited (429) and retried; their waits are in user ms`);

// ---------------------------------------------------------------------------------------------
// Report

const fmt = (x, w, digits = 0) => (typeof x === 'number' ? x.toFixed(digits) : '-').padStart(w);
const mb = (b) => (typeof b === 'number' ? b / 1e6 : undefined);
const ratio = (a, b) => (typeof a === 'number' && typeof b === 'number' && b > 0 ? Math.max(a, 0.5) / b : undefined); // a 0 ms run would zero the geometric mean
const NAME_W = 46;
console.log(
  `${'file'.padEnd(NAME_W)} ${'wrk ms'.padStart(6)} ${'user ms'.padStart(7)} ${'heap MB'.padStart(7)} ${'peak MB'.padStart(7)} ${'LO cold'.padStart(7)} ${'LO warm'.padStart(7)}` +
    ` ${'wrk/w'.padStart(6)} ${'user/w'.padStart(6)}  ≤${TARGET}×warm`,
);
for (const r of results) {
  const name = r.input.name.length > NAME_W - 1 ? `${r.input.name.slice(0, NAME_W - 2)}…` : r.input.name;
  r.workerWarm = ratio(r.workerMs, r.warmMs);
  r.userWarm = ratio(r.userMs, r.warmMs);
  const f = r.failure;
  const verdict = !r.converted ? (f.refused ? `refused (${f.problem})` : 'NOT CONVERTED') : r.workerWarm === undefined ? '' : r.workerWarm <= TARGET ? 'within' : 'over';
  console.log(
    `${name.padEnd(NAME_W)} ${fmt(r.workerMs, 6)} ${fmt(r.userMs, 7)} ${fmt(mb(r.heapBytes), 7)} ${fmt(mb(r.peakBytes), 7)} ${fmt(r.coldMs, 7)} ${fmt(r.warmMs, 7)}` +
      ` ${fmt(r.workerWarm, 6, 2)} ${fmt(r.userWarm, 6, 2)}  ${verdict}`,
  );
  if (!r.converted) console.log(`${''.padEnd(NAME_W)}   ${f.stage}${f.status ? ` (HTTP ${f.status})` : ''}: ${String(f.message).split('\n')[0].slice(0, 200)}`);
}

const converted = results.filter((r) => r.converted);
const total = (k) => converted.reduce((n, r) => n + (r[k] ?? 0), 0);
console.log(
  `median of ${opts.runs} runs after a warm-up, ${results.length} workbooks (${converted.length} converted, ${results.filter((r) => r.failure?.refused).length} refused, ` +
    `${results.filter((r) => r.failure && !r.failure.refused).length} not converted): Worker ${total('workerMs').toFixed(0)} ms, user ${total('userMs').toFixed(0)} ms in all`,
);
for (const [key, label] of [['workerWarm', 'Worker time'], ['userWarm', 'user wait']]) {
  const rs = converted.filter((r) => r[key] !== undefined);
  if (!rs.length) continue;
  const geo = Math.exp(rs.reduce((n, r) => n + Math.log(r[key]), 0) / rs.length);
  const worst = rs.reduce((a, b) => (b[key] > a[key] ? b : a));
  const within = rs.filter((r) => r[key] <= TARGET).length;
  console.log(
    `${label} / LibreOffice warm (median of ${opts.loRuns} loads and exports over UNO): geometric mean ${geo.toFixed(2)}× over ${rs.length} workbooks, ` +
      `worst ${worst[key].toFixed(2)}× (${worst.input.name}); within ${TARGET}×: ${within}/${rs.length}`,
  );
}
const warmOnly = results.filter((r) => !r.converted && r.warmMs !== undefined);
if (warmOnly.length) console.log(`warm LibreOffice timed on ${warmOnly.length} workbooks the service did not convert (no ratio for them)`);
const withMemory = converted.filter((r) => r.heapBytes !== undefined);
if (withMemory.length) {
  const top = (k) => withMemory.reduce((a, b) => ((b[k] ?? 0) > (a[k] ?? 0) ? b : a));
  const heap = top('heapBytes');
  const peak = top('peakBytes');
  const over = withMemory.filter((r) => mb(r.peakBytes ?? r.heapBytes) > MEMORY_MB).length;
  console.log(
    `memory: the Worker's MuPDF WASM heap up to ${mb(heap.heapBytes).toFixed(1)} MB (${heap.input.name}), peak estimate up to ${mb(peak.peakBytes ?? 0).toFixed(1)} MB (${peak.input.name}); ` +
      `over ${MEMORY_MB} MB: ${over}/${withMemory.length} (each the high-water mark of the engine that ran it, earlier workbooks included)`,
  );
}
for (const n of notes) console.log(`note: ${n}`);
