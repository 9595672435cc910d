// npm run fidelity's loop, for each kind of Office input it scores (scripts/fidelity.mjs picks the
// kind: Word by default, spreadsheets with --xlsx). Per document: converted through the service
// (scripts/lib/service-convert.mjs, the kind's operation), scored against its reference with
// ../shared/tools/fidelity/fidelity.mjs; beside it the MuPDF baseline (its own Office import,
// scored the same way), LibreOffice's cold time, and with --node (Word only) the Node bundle.
// Documents without a reference must be refused with the expected problem. Prints a row per
// document and the summary (scripts/lib/fidelity-summary.mjs); writes OUT/summary.json.
//
// The kind (`profile`):
//   { label, what: 'documents' | 'workbooks', operation: 'word-to-pdf', sets: [{ category, dir, refDir }],
//     accept: /\.docx$/i, expectedFailures: { file: problem },
//     foreignMessage: (message) => bool (true: a refusal's message speaks of another kind of file),
//     coldTarget: 0.1 (the issue's target against LibreOffice's cold time; null: none) }
// A set whose refDir has no PDF for a file gets one rendered here by LibreOffice (cold
// soffice --convert-to pdf) into OUT/<category>-ref/ when `renderMissingRefs` is set on it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildWordConverter, root } from './word-converter.mjs';
import { SCORER, findSoffice, runSoffice, scorerReady } from './fidelity-tool.mjs';
import { exitOnInterrupt, openService } from './service-convert.mjs';
import { agreement } from './pdf-agree.mjs';
import { printSummary, summarize } from './fidelity-summary.mjs';

const CONVERT = join(root, 'scripts', 'convert.mjs');
const BASELINE = join(root, 'scripts', 'lib', 'mupdf-office.mjs');

/** One LibreOffice rendering of `file` to `pdf` (cold, fresh profile): a reference for a held-out file. */
function renderReference(soffice, file, pdf, timeoutMs) {
  const work = mkdtempSync(join(tmpdir(), 'lo-ref-'));
  spawnSync(soffice, [`-env:UserInstallation=file://${join(work, 'profile')}`, '--headless', '--norestore', '--convert-to', 'pdf', '--outdir', work, file], { stdio: 'ignore', timeout: timeoutMs });
  const made = join(work, `${basename(file, extname(file))}.pdf`);
  const ok = existsSync(made);
  if (ok) renameSync(made, pdf);
  rmSync(work, { recursive: true, force: true });
  return ok;
}

export async function runFidelity(profile, opts, serviceOpts) {
  const { label, sets } = profile;
  const categories = [...new Set(sets.map((s) => s.category))];
  const say = (m) => console.error(`${label}: ${m}`);
  if (!existsSync(SCORER)) {
    console.log(`${label}: ${SCORER} (the scorer of ../shared) is not here; nothing to do.`);
    process.exit(0);
  }
  if (!scorerReady(say)) {
    console.error(`${label}: npm install failed there; cannot score.`);
    process.exit(1);
  }

  const soffice = opts.soffice || sets.some((s) => s.renderMissingRefs) ? findSoffice() : undefined;
  const timeLo = opts.soffice && soffice;
  const notes = [];
  if (opts.soffice && !soffice) notes.push('soffice not found: no LibreOffice times.');
  if (!opts.soffice) notes.push('--no-soffice: no LibreOffice times.');
  if (!opts.baseline) notes.push('--no-baseline: no MuPDF baseline.');

  // With --node: build the converter once here; the per-document processes then find the bundle fresh.
  let buildError;
  if (opts.node) {
    try {
      const { built } = await buildWordConverter();
      if (built) say('converter bundled for Node');
    } catch (e) {
      buildError = e.errors?.map((m) => `${m.location ? `${m.location.file}:${m.location.line}: ` : ''}${m.text}`).join('; ') ?? String(e.message ?? e);
      notes.push(`the converter does not build for Node: ${buildError}`);
      say(`the converter does not build for Node (${buildError}); running the rest`);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Documents

  const documents = [];
  for (const set of sets) {
    if (!existsSync(set.dir)) continue;
    for (const name of readdirSync(set.dir).sort()) {
      if (!profile.accept.test(name)) continue;
      if (opts.only.length && !opts.only.some((s) => name.includes(s))) continue;
      documents.push({ ...set, name, path: join(set.dir, name) });
    }
  }
  if (!documents.length) {
    console.log(`${label}: no ${profile.what}${opts.only.length ? ` matching ${opts.only.join(', ')}` : ''} in ${sets.map((s) => s.dir).join(', ')}.`);
    process.exit(0);
  }
  for (const category of categories) {
    for (const suffix of ['', '-node', '-mupdf']) mkdirSync(join(opts.out, `${category}${suffix}`), { recursive: true });
  }

  // Held-out files without a reference of their own: LibreOffice renders one, as for the corpus.
  for (const d of documents) {
    d.reference = join(d.refDir, `${d.name}.pdf`);
    if (existsSync(d.reference) || !d.renderMissingRefs) continue;
    const made = join(opts.out, `${d.category}-ref`, `${d.name}.pdf`);
    mkdirSync(join(opts.out, `${d.category}-ref`), { recursive: true });
    if (existsSync(made) || (soffice && renderReference(soffice, d.path, made, opts.timeoutMs))) d.reference = made;
    else notes.push(`${d.name}: no reference (${soffice ? 'LibreOffice could not render it' : 'soffice not found to render it'})`);
  }

  exitOnInterrupt(label);
  let service;
  try {
    service = await openService(serviceOpts, say);
  } catch (e) {
    console.error(`${label}: cannot use the service: ${e.message}`);
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

  function printRow(r) {
    const o = r.ours;
    const lo = r.soffice ? (r.soffice.ok ? pad(r.soffice.ms, 6) : pad('fail', 6)) : pad('-', 6);
    const foreign = r.foreignMessage ? `   WRONG MESSAGE (speaks of another kind of file): ${o.error}` : '';
    if (!r.reference) {
      const got = o.ok ? 'converted' : o.problem ? `'${o.problem}'${o.stage === 'upload' ? ' at upload' : ''}` : `error: ${o.error}`;
      const verdict = r.expectedProblem ? `${r.asExpected ? 'ok' : 'WRONG'}: expected '${r.expectedProblem}', got ${got}` : `no reference; ours: ${got}`;
      console.log(`${short(r.file)} (no reference) ${verdict}${timeLo ? `   LO ms ${lo.trim()}` : ''}${foreign}`);
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

  try {
    for (const d of documents) {
      const reference = d.reference;
      const candidate = join(opts.out, d.category, `${d.name}.pdf`);
      const nodePdf = join(opts.out, `${d.category}-node`, `${d.name}.pdf`);
      const baselinePdf = join(opts.out, `${d.category}-mupdf`, `${d.name}.pdf`);
      const row = { file: d.name, category: d.category, reference: existsSync(reference) ? reference : null };
      for (const f of [candidate, nodePdf, baselinePdf]) rmSync(f, { force: true });

      // ours, through the service
      const s = await service.convert(d.path, profile.operation);
      if (s.ok) writeFileSync(candidate, s.pdf);
      row.ours = s.ok
        ? { ok: true, workerMs: s.workerMs, userMs: s.userMs, phases: s.phases, heapBytes: s.heapBytes, peakEstimateBytes: s.peakEstimateBytes, bytes: s.pdf.byteLength, taskId: s.taskId, pdf: candidate }
        : { ok: false, problem: s.problem, error: s.error_message, stage: s.stage, status: s.status, workerMs: s.workerMs, userMs: s.userMs, taskId: s.taskId };
      if (s.ok && row.reference) Object.assign(row.ours, score(candidate, reference));
      if (!s.ok && s.error_message && profile.foreignMessage?.(s.error_message)) row.foreignMessage = true;

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
      if (timeLo) row.soffice = runSoffice(soffice, d.path, opts.timeoutMs);

      if (!row.reference) {
        const expected = profile.expectedFailures[d.name];
        row.expectedProblem = expected ?? null;
        row.asExpected = expected ? !row.ours.ok && row.ours.problem === expected : null;
      }
      rows.push(row);
      printRow(row);
    }
  } catch (e) {
    console.error(`${label}: ${e?.stack ?? e}`);
    await service.close({ saveLogTo: join(opts.out, 'service.log') });
    process.exit(1);
  }
  const failedUnexpectedly = rows.some((r) => !r.ours.ok && r.reference);
  await service.close({ saveLogTo: failedUnexpectedly ? join(opts.out, 'service.log') : undefined });

  // ---------------------------------------------------------------------------------------------
  // Summary

  const missing = rows.filter((r) => r.ours.stage === 'submit' && r.ours.status === 404);
  if (missing.length) {
    notes.push(`${missing.length}/${rows.length} ${profile.what}: POST /v1/pdf/${profile.operation} answered 404 (the operation is not registered in this service: src/operations/index.ts).`);
  }
  const foreign = rows.filter((r) => r.foreignMessage);
  if (foreign.length) notes.push(`refusals whose message speaks of another kind of file (Word, .docx): ${foreign.map((r) => r.file).join(', ')}.`);
  if (failedUnexpectedly) notes.push(`the service's log is in ${join(opts.out, 'service.log')}.`);
  if (service.rateLimited()) notes.push(`${service.rateLimited()} requests were rate-limited (429) and retried; their waits are in user ms.`);
  const summary = summarize(rows, { categories, node: opts.node, notes, coldTarget: profile.coldTarget });
  summary.path = 'service';
  summary.operation = profile.operation;
  summary.service = service.started ? 'started by this run (npm start, fresh state)' : service.base;
  console.log('');
  printSummary(summary, { baseline: opts.baseline, node: opts.node });

  const summaryFile = join(opts.out, 'summary.json');
  writeFileSync(
    summaryFile,
    JSON.stringify({ generated: new Date().toISOString(), scored: 'service', operation: profile.operation, node: opts.node, options: { ...opts, soffice: (timeLo && soffice) || false, base: serviceOpts.base ?? null }, summary, rows }, null, 2),
  );
  const dirs = categories.join('|');
  console.log(`PDFs in ${opts.out}/<${dirs}>/ (${opts.node ? `Node path in <${dirs}>-node/, ` : ''}MuPDF baseline in <${dirs}>-mupdf/), summary in ${summaryFile}`);
  return { rows, summary };
}
