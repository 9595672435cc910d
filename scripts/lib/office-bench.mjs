// The loop npm run bench:sheet and npm run bench:slides share: Office → PDF time through the
// service (scripts/lib/service-convert.mjs: a wrangler dev started as `npm start` starts it, with
// its own fresh state, or the one at --base), beside LibreOffice in the same run, and the report.
//
// Every file is converted once to warm up, then --runs N more times (default 5); per file the
// medians of the conversion inside the Worker (run_ms of the consumer's task_memory line) and of
// what the user waits (operation request with ?wait= to the PDF downloaded), and the memory the
// service logs for it (wasm_heap_bytes, MuPDF's WASM heap: it only grows while its engine lives,
// and an engine grown past its bound is replaced after the job, so it is the high-water mark of
// the engine that ran the file, earlier files included; and peak_estimate_bytes: that heap, the JS
// heap, input and output).
// Beside them, LibreOffice right after ours on the same file, medians of --lo-runs M (default 3):
// warm (one soffice --accept=… fed over UNO, as Gotenberg and unoserver run it: lo-warm.py, which
// exports with the PDF filter of the kind of document it loaded; warmed on one file first) and cold
// (soffice --headless --convert-to pdf, a fresh profile each time; --no-cold skips it).
// The issue's targets: per file at most 0.25× warm LibreOffice's time, and at most 100 MB.
// A file the service does not convert (refused, or the operation missing: a 404) gets its reason on
// the line under it; LibreOffice is still timed on it unless it was refused as password-protected
// or damaged. A file the corpus expects to be refused (an encrypted one) that the warm-up saw
// refused so is not sent again nor timed, and a note says so.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { findSoffice, runSoffice } from './fidelity-tool.mjs';
import { SERVICE_USAGE, exitOnInterrupt, openService, takeServiceArgs } from './service-convert.mjs';
import { findUnoPython, startLoWarm } from './lo-warm.mjs';

export const TARGET = 0.25; // × warm LibreOffice, per file
export const MEMORY_MB = 100; // peak, per file

/**
 * The options both benches take; exits with the usage on anything else. `label` is the npm script
 * (bench:sheet), for the usage and messages.
 */
export function benchArgs(argv, label) {
  const usage = `usage: npm run ${label} [-- --runs N] [--lo-runs M] [--only TEXT]... [--dir DIR] [--no-soffice] [--no-cold] ${SERVICE_USAGE}`;
  const { opts: serviceOpts, rest: args } = takeServiceArgs(argv);
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
      console.error(usage);
      process.exit(2);
    }
  }
  if (opts.dir && !existsSync(opts.dir)) {
    console.error(`${label}: --dir ${opts.dir}: no such directory`);
    process.exit(2);
  }
  return { opts, serviceOpts };
}

const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[xs.length >> 1] : undefined);
const isRefusal = (s) => s.problem === 'password' || s.problem === 'corrupt'; // LibreOffice cannot open those either
const failureOf = (s) => ({ stage: s.stage, status: s.status, problem: s.problem, message: s.error_message, refused: isRefusal(s) });

/**
 * Runs the bench and prints its report. `kind`:
 *   label             the npm script, for messages (bench:sheet)
 *   operation         the path under /v1/pdf/ (xlsx-to-pdf)
 *   one, many         what a file is called in the report (workbook, workbooks)
 *   inputs            [{ category, name, file }], sorted
 *   expectedFailures  name → the problem its refusal must have ('password')
 *   serviceLog        where the service's log is copied when a file failed unexpectedly
 */
export async function runOfficeBench(kind, opts, serviceOpts) {
  const { label, operation, one, many, inputs, expectedFailures = {}, serviceLog } = kind;
  const say = (m) => console.error(`${label}: ${m}`);
  const notes = [];

  const soffice = opts.soffice ? findSoffice() : undefined;
  if (opts.soffice && !soffice) notes.push('soffice not found: no LibreOffice times');
  if (!opts.soffice) notes.push('--no-soffice: no LibreOffice times');
  const python = soffice ? findUnoPython() : undefined;
  if (soffice && !python) notes.push('no python3 that can import uno (Debian: apt-get install python3-uno): no warm LibreOffice times');

  exitOnInterrupt(label);
  let service;
  let loWarm;
  const results = [];
  const skipped = []; // expected refusals seen in the warm-up: not timed
  try {
    service = await openService(serviceOpts, say);
    if (!service.workerTimes) notes.push('--base without --service-log: no Worker times (they are read from the service\'s stdout)');
    say(`warm-up: ${inputs.length} ${many} through the service (POST /v1/pdf/${operation})`);
    const warmup = new Map(); // file → its warm-up result, to know the expected refusals before timing
    let opens;
    let missing = 0;
    for (const input of inputs) {
      const s = await service.convert(input.file, operation);
      warmup.set(input.file, s);
      if (s.ok) opens ??= input.file;
      else if (s.stage === 'submit' && s.status === 404 && !missing++) say(`${s.error_message} (the operation is not registered yet?)`);
    }
    if (missing) notes.push(`${missing}/${inputs.length} ${many}: POST /v1/pdf/${operation} answered 404 (the operation is not registered in this service: src/operations/index.ts)`);
    // LibreOffice is warmed on the first file ours converted, or else the first one not encrypted:
    // its first load pulls in the filters of that kind of document (Calc's, Impress's).
    const firstForLo = opens ?? inputs.find((i) => !expectedFailures[i.name])?.file ?? inputs[0].file;
    if (python) {
      loWarm = await startLoWarm({ soffice, python });
      const first = await loWarm.convert(firstForLo);
      say(`warm LibreOffice up in ${loWarm.startMs} ms on 127.0.0.1:${loWarm.port}; first ${one} ${first.ms} ms${first.ok ? ` (${first.filter})` : ` (${first.error})`}`);
    }

    for (const input of inputs) {
      const r = { input };
      const expected = expectedFailures[input.name];
      const w = warmup.get(input.file);
      if (expected && !w.ok && w.problem === expected) {
        // Refused as it must be: timing a refusal says nothing of the converter, and LibreOffice
        // cannot open it without the password either.
        Object.assign(r, { converted: false, failure: failureOf(w) });
        skipped.push(`${input.name} (${expected})`);
        results.push(r);
        continue;
      }
      if (expected && w.ok) notes.push(`${input.name} was expected to be refused (${expected}) but the service converted it`);
      const worker = [];
      const user = [];
      const heaps = [];
      const peaks = [];
      for (let i = 0; i < opts.runs; i++) {
        const s = await service.convert(input.file, operation);
        r.converted = s.ok;
        if (!s.ok) {
          r.failure = failureOf(s);
          break; // a file that is not converted is not timed again
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
          // A file can take the warm soffice down: start a new one, warmed on the same first
          // file, as unoserver restarts its soffice.
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
    console.error(`${label}: ${e?.stack ?? e}`);
    await loWarm?.close();
    await service?.close({ saveLogTo: serviceLog });
    if (service) console.error(`${label}: the service log is in ${serviceLog}`);
    process.exit(1);
  }
  await loWarm?.close();
  const failedUnexpectedly = results.some((r) => !r.converted && !r.failure?.refused);
  await service.close({ saveLogTo: failedUnexpectedly ? serviceLog : undefined });
  if (skipped.length) notes.push(`refused as expected, so not timed (neither ours nor LibreOffice): ${skipped.join(', ')}`);
  if (failedUnexpectedly) notes.push(`the service log is in ${serviceLog}`);
  if (service.rateLimited()) notes.push(`${service.rateLimited()} requests were rate-limited (429) and retried; their waits are in user ms`);
  report(results, notes, { one, many, runs: opts.runs, loRuns: opts.loRuns });
}

// ---------------------------------------------------------------------------------------------
// Report

function report(results, notes, { one, many, runs, loRuns }) {
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
    `median of ${runs} runs after a warm-up, ${results.length} ${many} (${converted.length} converted, ${results.filter((r) => r.failure?.refused).length} refused, ` +
      `${results.filter((r) => r.failure && !r.failure.refused).length} not converted): Worker ${total('workerMs').toFixed(0)} ms, user ${total('userMs').toFixed(0)} ms in all`,
  );
  for (const [key, label] of [['workerWarm', 'Worker time'], ['userWarm', 'user wait']]) {
    const rs = converted.filter((r) => r[key] !== undefined);
    if (!rs.length) continue;
    const geo = Math.exp(rs.reduce((n, r) => n + Math.log(r[key]), 0) / rs.length);
    const worst = rs.reduce((a, b) => (b[key] > a[key] ? b : a));
    const within = rs.filter((r) => r[key] <= TARGET).length;
    console.log(
      `${label} / LibreOffice warm (median of ${loRuns} loads and exports over UNO): geometric mean ${geo.toFixed(2)}× over ${rs.length} ${many}, ` +
        `worst ${worst[key].toFixed(2)}× (${worst.input.name}); within ${TARGET}×: ${within}/${rs.length}`,
    );
  }
  const warmOnly = results.filter((r) => !r.converted && r.warmMs !== undefined);
  if (warmOnly.length) console.log(`warm LibreOffice timed on ${warmOnly.length} ${many} the service did not convert (no ratio for them)`);
  const withMemory = converted.filter((r) => r.heapBytes !== undefined);
  if (withMemory.length) {
    const top = (k) => withMemory.reduce((a, b) => ((b[k] ?? 0) > (a[k] ?? 0) ? b : a));
    const heap = top('heapBytes');
    const peak = top('peakBytes');
    const over = withMemory.filter((r) => mb(r.peakBytes ?? r.heapBytes) > MEMORY_MB).length;
    console.log(
      `memory: the Worker's MuPDF WASM heap up to ${mb(heap.heapBytes).toFixed(1)} MB (${heap.input.name}), peak estimate up to ${mb(peak.peakBytes ?? 0).toFixed(1)} MB (${peak.input.name}); ` +
        `over ${MEMORY_MB} MB: ${over}/${withMemory.length} (each the high-water mark of the engine that ran it, earlier ${many} included)`,
    );
  }
  for (const n of notes) console.log(`note: ${n}`);
}
