#!/usr/bin/env node
// npm run bench:word [-- --runs N] [--lo-runs M] [--only TEXT]... [--no-soffice] [--fidelity DIR] [--node [--floor]]
//                    [--base URL --admin-token T [--service-log FILE]]
// Word → PDF time through the service, as users get it (scripts/lib/service-convert.mjs: a wrangler
// dev started as `npm start` starts it, with its own fresh state, or the one at --base). Every
// corpus DOC/DOCX is converted once to warm up (the isolate has compiled its code and parsed its
// fonts, as one that has served requests has), then N more times (default 5); per document the
// median of two times: the conversion inside the Worker (run_ms of the consumer's task_memory
// line) and what the user waits (operation request with ?wait= to the PDF downloaded).
// Beside them, LibreOffice measured in this run right after ours on the same document (this
// machine's speed drifts by a third over a minute, so both sides are measured in the same minute),
// medians of --lo-runs M (default 3): cold (soffice --headless --convert-to pdf, a fresh profile
// each time; the issue's target is at most a tenth of it) and warm (one soffice --accept=… fed over
// UNO, as Gotenberg and unoserver run it: scripts/lib/lo-warm.py with Debian's python3-uno, its
// load and export of the document; warmed with one document first). Then the geometric mean and
// the worst of ours / LibreOffice warm over the documents, for the Worker's time and the user's.
// --no-soffice (or no soffice installed): no LibreOffice in this run; the cold time is read from the
// last `npm run fidelity` (its summary.json in --fidelity DIR, default /tmp/pdf-edge-fidelity).
// --only TEXT: just the files whose names contain TEXT (repeatable). --node adds today's Node
// bundle of the converter timed in this process (warmed on every document first) as a column;
// with it, --floor adds MuPDF's own share of each document (scripts/lib/mupdf-floor.mjs).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadWordConverter, root } from './lib/word-converter.mjs';
import { findSoffice, runSoffice } from './lib/fidelity-tool.mjs';
import { measureMupdfFloor } from './lib/mupdf-floor.mjs';
import { SERVICE_USAGE, exitOnInterrupt, openService, takeServiceArgs } from './lib/service-convert.mjs';
import { findUnoPython, startLoWarm } from './lib/lo-warm.mjs';

const USAGE = `usage: npm run bench:word [-- --runs N] [--lo-runs M] [--only TEXT]... [--no-soffice] [--fidelity DIR] [--node [--floor]] ${SERVICE_USAGE}`;
const { opts: serviceOpts, rest: args } = takeServiceArgs(process.argv.slice(2));
const opts = { runs: 5, loRuns: 3, only: [], soffice: true, fidelity: '/tmp/pdf-edge-fidelity', node: false, floor: false };
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--runs' && args[i + 1]) opts.runs = Math.max(1, Number(args[++i]) || 5);
  else if (a === '--lo-runs' && args[i + 1]) opts.loRuns = Math.max(1, Number(args[++i]) || 3);
  else if (a === '--only' && args[i + 1] !== undefined) opts.only.push(args[++i]);
  else if (a === '--no-soffice') opts.soffice = false;
  else if (a === '--fidelity' && args[i + 1]) opts.fidelity = args[++i];
  else if (a === '--node') opts.node = true;
  else if (a === '--floor') opts.floor = true;
  else {
    console.error(USAGE);
    process.exit(2);
  }
}
if (opts.floor && !opts.node) {
  console.error('bench:word: --floor watches the Node bundle: use it with --node');
  process.exit(2);
}
const summaryFile = join(opts.fidelity, 'summary.json');

const corpus = join(root, '..', 'shared', 'corpus');
if (!existsSync(corpus)) {
  console.log(`bench:word: ${corpus} (the Word corpus of ../shared) is not here; nothing to do.`);
  process.exit(0);
}
const files = ['docx', 'doc'].flatMap((dir) =>
  existsSync(join(corpus, dir))
    ? readdirSync(join(corpus, dir))
        .filter((f) => /\.docx?$/i.test(f) && (!opts.only.length || opts.only.some((s) => f.includes(s))))
        .sort()
        .map((f) => join(corpus, dir, f))
    : [],
);
if (!files.length) {
  console.log(`bench:word: no documents${opts.only.length ? ` matching ${opts.only.join(', ')}` : ''}.`);
  process.exit(0);
}
const inputs = files.map((file) => ({ file, name: file.split('/').pop() }));
const say = (m) => console.error(`bench:word: ${m}`);
const notes = [];

const soffice = opts.soffice ? findSoffice() : undefined;
/** LibreOffice's cold time per file name: measured in this run, or from the fidelity summary. */
const coldOf = new Map();
if (!soffice && existsSync(summaryFile)) {
  for (const row of JSON.parse(readFileSync(summaryFile, 'utf8')).rows ?? []) if (row.soffice?.ms) coldOf.set(row.file, row.soffice.ms);
}
const python = soffice ? findUnoPython() : undefined;
if (soffice && !python) notes.push('no python3 that can import uno (Debian: apt-get install python3-uno): no warm LibreOffice times');

exitOnInterrupt('bench:word');
const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[xs.length >> 1] : undefined);

// ---------------------------------------------------------------------------------------------
// Node (--node): today's in-process timing of the bundle, warmed on every document first.

let converter;
const nodeConvert = (bytes) => {
  try {
    converter.convert(bytes);
    return true;
  } catch (e) {
    if (converter.isConversionError(e)) return false; // a refusal (password, damaged) is timed too
    throw e;
  }
};
if (opts.node) {
  converter = await loadWordConverter();
  for (const input of inputs) {
    input.bytes = new Uint8Array(readFileSync(input.file));
    nodeConvert(input.bytes);
  }
}

let service;
let loWarm;
let results;
try {
  service = await openService(serviceOpts, say);
  if (!service.workerTimes) notes.push('--base without --service-log: no Worker times (they are read from the service\'s stdout)');
  say(`warm-up: ${inputs.length} documents through the service`);
  let opens;
  for (const input of inputs) if ((await service.convert(input.file)).ok) opens ??= input.file;
  if (python) {
    loWarm = await startLoWarm({ soffice, python });
    const first = await loWarm.convert(opens ?? inputs[0].file); // its first load pulls in the Writer filters
    say(`warm LibreOffice up in ${loWarm.startMs} ms on 127.0.0.1:${loWarm.port}; first document ${first.ms} ms${first.ok ? '' : ` (${first.error})`}`);
  }

  results = [];
  for (const input of inputs) {
    const r = { input };
    if (opts.node) {
      const times = [];
      for (let i = 0; i < opts.runs; i++) {
        const t = performance.now();
        r.nodeConverted = nodeConvert(input.bytes);
        times.push(performance.now() - t);
      }
      r.nodeMs = median(times);
      if (opts.floor && r.nodeConverted) {
        const watched = [0, 1, 2].map(() => measureMupdfFloor(converter, input.bytes)).filter(Boolean);
        if (watched.length) r.floor = Object.fromEntries(['layout', 'draw', 'save', 'read'].map((k) => [k, median(watched.map((w) => w[k]))]));
      }
    }
    const worker = [];
    const user = [];
    const heaps = [];
    for (let i = 0; i < opts.runs; i++) {
      const s = await service.convert(input.file);
      r.converted = s.ok;
      if (!s.ok) {
        r.refusal = s.problem ?? s.error_message;
        break; // a refused document is not timed again
      }
      if (typeof s.workerMs === 'number') worker.push(s.workerMs);
      user.push(s.userMs);
      if (typeof s.heapBytes === 'number') heaps.push(s.heapBytes);
    }
    Object.assign(r, { workerMs: median(worker), userMs: median(user), heapBytes: heaps.length ? Math.max(...heaps) : undefined });
    if (soffice && r.converted) {
      const cold = [];
      for (let i = 0; i < opts.loRuns; i++) {
        const lo = runSoffice(soffice, input.file, 180_000);
        if (lo.ok) cold.push(lo.ms);
      }
      if (cold.length) coldOf.set(input.name, median(cold));
    }
    if (loWarm && r.converted) {
      const warm = [];
      for (let i = 0; i < opts.loRuns; i++) {
        // A document can take the warm soffice down (WordWithAttachments.docx did): start a new
        // one, warmed on the same first document, as unoserver restarts its soffice.
        if (!loWarm.running()) {
          await loWarm.close();
          loWarm = await startLoWarm({ soffice, python });
          await loWarm.convert(opens ?? inputs[0].file);
          notes.push(`warm LibreOffice restarted before ${input.name} (run ${i + 1})`);
        }
        const lo = await loWarm.convert(input.file);
        if (lo.ok) warm.push(lo.ms);
        else r.warmError = lo.error;
      }
      r.warmMs = median(warm);
      if (r.warmMs === undefined) notes.push(`warm LibreOffice gave no time for ${input.name}: ${r.warmError}`);
    }
    r.coldMs = coldOf.get(input.name);
    results.push(r);
  }
} catch (e) {
  console.error(`bench:word: ${e?.stack ?? e}`);
  await loWarm?.close();
  await service?.close({ saveLogTo: '/tmp/pdf-edge-bench-word-service.log' });
  if (service) console.error('bench:word: the service log is in /tmp/pdf-edge-bench-word-service.log');
  process.exit(1);
}
await loWarm?.close();
await service.close();
if (service.rateLimited()) notes.push(`${service.rateLimited()} requests were rate-limited (429) and retried; their waits are in user ms`);

// ---------------------------------------------------------------------------------------------
// Report

const fmt = (x, w, digits = 0) => (typeof x === 'number' ? x.toFixed(digits) : '-').padStart(w);
const ratio = (a, b) => (typeof a === 'number' && typeof b === 'number' && b > 0 ? Math.max(a, 0.5) / b : undefined); // a 0 ms run would zero the geometric mean
const nodeHead = opts.node ? ` ${'node'.padStart(6)}${opts.floor ? ` ${'MuPDF'.padStart(6)} ${'+read'.padStart(6)}` : ''}` : '';
console.log(`${'file'.padEnd(46)} ${'wrk ms'.padStart(6)} ${'user ms'.padStart(7)}${nodeHead} ${'LO cold'.padStart(7)} ${'LO warm'.padStart(7)} ${'wrk/w'.padStart(6)} ${'user/w'.padStart(6)} ${'cold/10'.padStart(7)}`);
let floorOver = 0;
for (const r of results) {
  const name = r.input.name.length > 45 ? `${r.input.name.slice(0, 44)}…` : r.input.name;
  let nodeCols = '';
  if (opts.node) {
    nodeCols = ` ${fmt(r.nodeMs, 6)}`;
    if (opts.floor) {
      const mupdfMs = r.floor ? r.floor.layout + r.floor.draw + r.floor.save : undefined;
      const withRead = r.floor ? mupdfMs + r.floor.read : undefined;
      if (withRead !== undefined && r.coldMs !== undefined && withRead > r.coldMs / 10) floorOver++;
      nodeCols += ` ${fmt(mupdfMs, 6)} ${fmt(withRead, 6)}`;
    }
  }
  r.workerWarm = ratio(r.workerMs, r.warmMs);
  r.userWarm = ratio(r.userMs, r.warmMs);
  const verdict = !r.converted ? `refused (${r.refusal})` : r.coldMs === undefined || r.workerMs === undefined ? '' : r.workerMs <= r.coldMs / 10 ? 'within' : 'over';
  console.log(
    `${name.padEnd(46)} ${fmt(r.workerMs, 6)} ${fmt(r.userMs, 7)}${nodeCols} ${fmt(r.coldMs, 7)} ${fmt(r.warmMs, 7)} ${fmt(r.workerWarm, 6, 2)} ${fmt(r.userWarm, 6, 2)} ${fmt(r.coldMs && r.coldMs / 10, 7)} ${verdict}`,
  );
}

const converted = results.filter((r) => r.converted);
const total = (k) => converted.reduce((n, r) => n + (r[k] ?? 0), 0);
console.log(
  `median of ${opts.runs} runs after a warm-up, ${results.length} files (${converted.length} converted): Worker ${total('workerMs').toFixed(0)} ms, user ${total('userMs').toFixed(0)} ms in all` +
    (opts.node ? `, Node ${total('nodeMs').toFixed(0)} ms` : ''),
);
for (const [key, label] of [['workerWarm', 'Worker time'], ['userWarm', 'user wait']]) {
  const rs = converted.filter((r) => r[key] !== undefined);
  if (!rs.length) continue;
  const geo = Math.exp(rs.reduce((n, r) => n + Math.log(r[key]), 0) / rs.length);
  const worst = rs.reduce((a, b) => (b[key] > a[key] ? b : a));
  console.log(`${label} / LibreOffice warm (median of ${opts.loRuns} loads and exports over UNO): geometric mean ${geo.toFixed(2)}× over ${rs.length} documents, worst ${worst[key].toFixed(2)}× (${worst.input.name})`);
}
const anchor = soffice ? `median of ${opts.loRuns} cold runs, each document's right after ours` : `from ${summaryFile}`;
const cold = converted.filter((r) => r.coldMs !== undefined);
if (cold.length) {
  const within = (k) => cold.filter((r) => typeof r[k] === 'number' && r[k] <= r.coldMs / 10).length;
  console.log(
    `within 0.1× of LibreOffice's cold time (${anchor}): ${within('workerMs')}/${cold.length} documents (Worker time), ${within('userMs')}/${cold.length} (user wait)` +
      (opts.node ? `, ${within('nodeMs')}/${cold.length} (Node)` : ''),
  );
  if (opts.floor) console.log(`MuPDF's own share plus reading the file is over that tenth already: ${floorOver} documents`);
} else console.log(`no LibreOffice cold times (soffice not found or --no-soffice, and ${summaryFile} missing): install LibreOffice or run npm run fidelity first`);
const heaps = converted.filter((r) => r.heapBytes !== undefined);
if (heaps.length) console.log(`the Worker's MuPDF WASM heap: up to ${(Math.max(...heaps.map((r) => r.heapBytes)) / 1e6).toFixed(1)} MB (it never shrinks: the isolate's high-water mark)`);
for (const n of notes) console.log(`note: ${n}`);
