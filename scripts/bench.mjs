#!/usr/bin/env node
// npm run bench: memory and time of rotate and merge on a ~48 MB, 500-page PDF, measured on the
// real service (wrangler dev, local D1/R2/Queues/DOs) from the consumer's task_memory log lines,
// with qpdf on the same files as an anchor. When an operation's peak estimate is above the
// 100 MB target, smaller inputs are tried to find the largest that fits.
//
// Each measured task runs in a freshly started service: WASM memory never shrinks, and locally the
// upload handler and the queue consumer share one isolate, so a task in a used isolate reports the
// high-water mark of everything before it. The run in the shared isolate (uploads, then rotate,
// then merge) is printed too, since production isolates are reused as well.
//
// Units: MB = 1,000,000 bytes. The Workers isolate limit is 128 MiB = 134.2 MB.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { cachedPdf, countPages, pageRotation } from './bench/generate.mjs';
import { startService, stopAll } from './bench/service.mjs';
import * as api from './bench/api.mjs';
import { runQpdf, timeAvailable } from './bench/anchor.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(root, 'bench-out');
const STATE = join(OUT, 'state'); // the bench's own local D1/R2/DO state, not the dev one
const LOGS = join(OUT, 'logs');
// Node 22 from the `node` package first, as under `npm run` (wrangler refuses the system Node 20).
process.env.PATH = `${join(root, 'node_modules', '.bin')}:${process.env.PATH}`;

const MB = 1_000_000;
const ISOLATE_LIMIT = 128 * 1024 * 1024;
// BENCH_TARGET_MB overrides the target (e.g. to exercise the size search when everything fits).
const TARGET = Number(process.env.BENCH_TARGET_MB ?? 100) * MB;
const PLAN_LIMIT = 50_000_000;
const BIG = { pages: 500, targetBytes: 48_000_000, maxBytes: 48_999_999, seed: 48 };
const SMALL = { pages: 1, targetBytes: 60_000, seed: 1 };
const PAGES_PER_MB = BIG.pages / (BIG.targetBytes / MB);
const GRID_MB = [40, 30, 20, 10];
const MAX_REFINE_RUNS = 3;

const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s`;
const say = (msg) => console.error(`[bench ${elapsed()}] ${msg}`);
const mb = (bytes) => (bytes / MB).toFixed(1);

// ---------------------------------------------------------------------------------------------
// Files

mkdirSync(OUT, { recursive: true });
mkdirSync(LOGS, { recursive: true });
const big = cachedPdf(OUT, `big-${BIG.pages}p-${BIG.targetBytes / MB}mb`, BIG, say);
const small = cachedPdf(OUT, 'small-1p', SMALL, say);
if (big.bytes >= 49_000_000) throw new Error(`${big.path} is ${big.bytes} bytes: it must stay below 49,000,000`);
if (big.bytes + small.bytes > PLAN_LIMIT) throw new Error('big + small exceed the 50,000,000-byte plan limit');
say(`big PDF: ${big.path} ${big.bytes} bytes, ${big.pages} pages${big.cached ? ' (cached)' : ''}`);
say(`small PDF: ${small.path} ${small.bytes} bytes, 1 page${small.cached ? ' (cached)' : ''}`);

const sized = (mbSize) =>
  cachedPdf(OUT, `size-${mbSize}mb`, { pages: Math.max(1, Math.round(mbSize * PAGES_PER_MB)), targetBytes: mbSize * MB, maxBytes: mbSize * MB * 1.02, seed: 1000 + mbSize }, say);

// ---------------------------------------------------------------------------------------------
// Service runs

let serviceRuns = 0;
let apiKey = null;
const uploaded = new Map(); // path -> file_id (files live an hour; the state lives for this run)

function migrate() {
  const res = spawnSync(join(root, 'node_modules', '.bin', 'wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', STATE], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CI: '1', CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' },
  });
  if (res.status !== 0) throw new Error(`applying the D1 migrations to ${STATE} failed:\n${res.stdout}\n${res.stderr}`);
}

async function withService(label, fn) {
  const logPath = join(LOGS, `${String(++serviceRuns).padStart(2, '0')}-${label}.log`);
  const started = Date.now();
  const svc = await startService({ root, logPath, extraArgs: ['--persist-to', STATE] });
  say(`service up on ${svc.base} in ${((Date.now() - started) / 1000).toFixed(1)} s (${label}; log ${logPath})`);
  try {
    if (!apiKey) {
      ({ apiKey } = await api.createAccount(svc, `bench-${randomBytes(6).toString('hex')}@example.com`));
      say('account and API key created');
    }
    return await fn(svc);
  } finally {
    await svc.stop();
  }
}

async function uploadAll(svc, paths) {
  for (const path of paths) {
    if (uploaded.has(path)) continue;
    const rec = await api.upload(svc, apiKey, path);
    uploaded.set(path, rec.file_id);
    say(`uploaded ${path.slice(root.length + 1)}: ${rec.size} bytes, ${rec.pages} pages`);
  }
}

async function ensureUploaded(paths) {
  if (paths.every((p) => uploaded.has(p))) return;
  await withService('upload', (svc) => uploadAll(svc, paths));
}

/** Submits `op` on `paths`, waits, downloads and checks the result, returns the measurements. */
async function runOp(svc, op, paths, { isolate, expectPages }) {
  const ids = paths.map((p) => uploaded.get(p));
  const body = op === 'rotate' ? { file_id: ids[0], angle: 90 } : { file_ids: ids };
  const taskId = await api.submit(svc, apiKey, op, body);
  const rec = await api.waitTask(svc, apiKey, taskId);
  if (rec.status !== 'done') throw new Error(`${op} task ${taskId} ${rec.status}: ${rec.error_message} (log ${svc.logPath})`);
  let mem;
  for (let i = 0; i < 100 && !mem; i++) {
    mem = api.taskMemory(svc.lines()).get(taskId)?.at(-1);
    if (!mem) await new Promise((r) => setTimeout(r, 100));
  }
  if (!mem) throw new Error(`no task_memory line for ${taskId} in ${svc.logPath}`);
  const bytes = await api.download(rec.download_url);
  const pages = countPages(bytes);
  if (expectPages !== undefined && pages !== expectPages) throw new Error(`${op} result has ${pages} pages, expected ${expectPages}`);
  if (op === 'rotate') {
    for (const i of [0, pages - 1]) {
      const r = pageRotation(bytes, i);
      if (r !== 90) throw new Error(`rotate result: page ${i + 1} has /Rotate ${r}, expected 90`);
    }
  }
  if (bytes.length !== rec.size) throw new Error(`${op} download is ${bytes.length} bytes, the task says ${rec.size}`);
  say(`${op} (${isolate} isolate) done: ${mb(mem.input_bytes)} MB in, ${pages} pages out, peak estimate ${mb(mem.peak_estimate_bytes)} MB, ${mem.ms} ms`);
  return { op, isolate, taskId, pages, ...mem };
}

async function fresh(op, paths, expectPages) {
  await ensureUploaded(paths);
  return withService(`${op}-fresh`, (svc) => runOp(svc, op, paths, { isolate: 'fresh', expectPages }));
}

// ---------------------------------------------------------------------------------------------
// Output

function table(headers, rows, align) {
  const cells = [headers, ...rows].map((r) => r.map(String));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const fmt = (r) => r.map((c, i) => ((align?.[i] ?? 'r') === 'l' ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [fmt(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(fmt)].join('\n');
}

function report(lines) {
  const text = lines.join('\n');
  console.log(text);
  return text;
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
  rmSync(STATE, { recursive: true, force: true });
  migrate();

  const results = [];
  // 1. As a client would: one service, uploads, then rotate and merge in the same isolate.
  await withService('shared', async (svc) => {
    await uploadAll(svc, [big.path, small.path]);
    results.push(await runOp(svc, 'rotate', [big.path], { isolate: 'shared', expectPages: big.pages }));
    results.push(await runOp(svc, 'merge', [big.path, small.path], { isolate: 'shared', expectPages: big.pages + 1 }));
  });
  // 2. Each operation alone in a fresh isolate.
  const rotate = await fresh('rotate', [big.path], big.pages);
  const merge = await fresh('merge', [big.path, small.path], big.pages + 1);
  results.unshift(rotate, merge);

  // 3. The anchor.
  say('running qpdf');
  const qRotateOut = join(OUT, 'qpdf-rotate.pdf');
  const qMergeOut = join(OUT, 'qpdf-merge.pdf');
  const qRotate = runQpdf(['--rotate=+90', big.path, qRotateOut], qRotateOut);
  const qMerge = runQpdf(['--empty', '--pages', big.path, small.path, '--', qMergeOut], qMergeOut);
  if (countPages(qRotateOut) !== big.pages || countPages(qMergeOut) !== big.pages + 1) throw new Error('qpdf results have the wrong page counts');

  // 4. The largest input under the target, for the operations above it.
  const searches = [];
  const over = [rotate, merge].filter((r) => r.peak_estimate_bytes > TARGET);
  if (over.length) {
    say(`above the ${TARGET / MB} MB target: ${over.map((r) => r.op).join(', ')}; trying smaller inputs`);
    const grid = GRID_MB.map(sized);
    await ensureUploaded(grid.map((g) => g.path));
    for (const base of over) {
      const inputsOf = (file) => (base.op === 'merge' ? [file.path, small.path] : [file.path]);
      const pagesOf = (file) => (base.op === 'merge' ? file.pages + 1 : file.pages);
      const probes = [{ sizeMb: mb(base.input_bytes), file: big, run: base }];
      let fit = null;
      for (const [i, file] of grid.entries()) {
        const run = await fresh(base.op, inputsOf(file), pagesOf(file));
        probes.push({ sizeMb: GRID_MB[i], file, run });
        if (run.peak_estimate_bytes <= TARGET) {
          fit = probes.at(-1);
          break;
        }
      }
      if (fit) {
        // Narrow down between the largest fitting size and the smallest failing one seen so far.
        let lo = fit;
        let hi = probes[probes.length - 2];
        for (let n = 0; n < MAX_REFINE_RUNS; n++) {
          const loIn = lo.run.input_bytes;
          const hiIn = hi.run.input_bytes;
          const loPeak = lo.run.peak_estimate_bytes;
          const hiPeak = hi.run.peak_estimate_bytes;
          // Linear interpolation of peak against input, kept strictly inside (lo, hi) on a 1 MB grid.
          const guess = hiPeak > loPeak ? loIn + ((TARGET - loPeak) * (hiIn - loIn)) / (hiPeak - loPeak) : (loIn + hiIn) / 2;
          const loMb = Math.round(lo.file.bytes / MB);
          const hiMb = Math.floor(hi.file.bytes / MB);
          const extra = base.op === 'merge' ? small.bytes : 0;
          const sizeMb = Math.min(hiMb - 1, Math.max(loMb + 1, Math.floor((guess - extra) / MB)));
          if (sizeMb <= loMb || sizeMb >= hiMb) break;
          const file = sized(sizeMb);
          await ensureUploaded([file.path]);
          const run = await fresh(base.op, inputsOf(file), pagesOf(file));
          const probe = { sizeMb, file, run };
          probes.push(probe);
          if (run.peak_estimate_bytes <= TARGET) lo = probe;
          else hi = probe;
        }
        fit = lo;
      }
      searches.push({ op: base.op, probes, fit });
    }
  }

  // ---- report
  const out = [];
  out.push('');
  out.push(`pdf-edge benchmark  (MB = 1,000,000 bytes; isolate limit 128 MiB = ${mb(ISOLATE_LIMIT)} MB; target ${TARGET / MB} MB)`);
  out.push(`input: ${big.path.slice(root.length + 1)} = ${big.bytes} bytes, ${big.pages} pages; ${small.path.slice(root.length + 1)} = ${small.bytes} bytes, 1 page`);
  out.push(`results checked with MuPDF in Node: rotate -> ${rotate.pages} pages (/Rotate 90), merge -> ${merge.pages} pages`);
  out.push('');
  out.push('pdf-edge, from the task_memory lines the queue consumer logged (peak estimate as the consumer computes it):');
  out.push(
    table(
      ['operation', 'isolate', 'input MB', 'output MB', 'wasm heap MB', 'peak est MB', 'limit', 'target', 'ms', 'under target'],
      results.map((r) => [r.op, r.isolate, mb(r.input_bytes), mb(r.output_bytes), mb(r.wasm_heap_bytes), mb(r.peak_estimate_bytes), '128 MiB', `${TARGET / MB} MB`, r.ms, r.peak_estimate_bytes <= TARGET ? 'yes' : 'NO']),
      ['l', 'l'],
    ),
  );
  out.push('  fresh  = the task alone in a newly started service (its isolate served nothing before);');
  out.push('  shared = one service that took both uploads, then rotate, then merge: WASM memory never shrinks,');
  out.push('           so the heap column is the high-water mark of everything that isolate did before.');
  out.push('');
  const how = timeAvailable() ? 'peak RSS and wall time from /usr/bin/time -v' : 'wall time only (process.hrtime): /usr/bin/time is missing, no peak RSS';
  out.push(`anchor, qpdf ${spawnSync('qpdf', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0].replace(/^qpdf version /, '')} on the same files (${how}):`);
  const rss = (q) => (q.rssBytes === null ? 'n/a' : mb(q.rssBytes));
  out.push(
    table(
      ['operation', 'command', 'input MB', 'output MB', 'peak RSS MB', 'ms'],
      [
        ['rotate', `qpdf --rotate=+90 big.pdf out.pdf`, mb(big.bytes), mb(qRotate.outputBytes), rss(qRotate), qRotate.ms.toFixed(0)],
        ['merge', `qpdf --empty --pages big.pdf small.pdf -- out.pdf`, mb(big.bytes + small.bytes), mb(qMerge.outputBytes), rss(qMerge), qMerge.ms.toFixed(0)],
      ],
      ['l', 'l'],
    ),
  );
  out.push('');
  out.push('side by side (fresh isolate vs qpdf):');
  out.push(
    table(
      ['operation', 'pdf-edge peak est MB', 'qpdf peak RSS MB', 'pdf-edge ms', 'qpdf ms'],
      [
        ['rotate', mb(rotate.peak_estimate_bytes), rss(qRotate), rotate.ms, qRotate.ms.toFixed(0)],
        ['merge', mb(merge.peak_estimate_bytes), rss(qMerge), merge.ms, qMerge.ms.toFixed(0)],
      ],
      ['l'],
    ),
  );
  out.push('');
  if (!searches.length) {
    out.push(`both operations fit under the ${TARGET / MB} MB target at ${mb(big.bytes)} MB input: no smaller sizes needed.`);
  }
  for (const s of searches) {
    out.push(`${s.op}: largest input under the ${TARGET / MB} MB target (fresh isolate each run${s.op === 'merge' ? '; input = generated PDF + the 1-page PDF' : ''}):`);
    const rows = [...s.probes]
      .sort((a, b) => b.run.input_bytes - a.run.input_bytes)
      .map((p) => [mb(p.run.input_bytes), p.file.pages, mb(p.run.wasm_heap_bytes), mb(p.run.peak_estimate_bytes), p.run.ms, p.run.peak_estimate_bytes <= TARGET ? 'yes' : 'NO']);
    out.push(table(['input MB', 'pages', 'wasm heap MB', 'peak est MB', 'ms', 'under target'], rows));
    if (s.fit) {
      const failing = s.probes.filter((p) => p.run.peak_estimate_bytes > TARGET).sort((a, b) => a.run.input_bytes - b.run.input_bytes)[0];
      out.push(
        `  => ${s.op}: largest input that fits: ${mb(s.fit.run.input_bytes)} MB (peak estimate ${mb(s.fit.run.peak_estimate_bytes)} MB); ` +
          `${mb(failing.run.input_bytes)} MB does not (${mb(failing.run.peak_estimate_bytes)} MB).`,
      );
    } else {
      out.push(`  => ${s.op}: even ${GRID_MB.at(-1)} MB is above the target.`);
    }
    out.push('');
  }
  out.push(`total bench time ${((Date.now() - t0) / 1000).toFixed(0)} s; ${serviceRuns} service starts; logs in ${LOGS.slice(root.length + 1)}/`);
  writeFileSync(join(OUT, 'report.txt'), report(out) + '\n');
}

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    say(`${sig}: stopping the service`);
    await stopAll();
    process.exit(130);
  });
}

try {
  await main();
} catch (err) {
  process.exitCode = 1;
  if (!stopping) console.error(`bench failed: ${err?.stack ?? err}`);
} finally {
  await stopAll();
  rmSync(STATE, { recursive: true, force: true });
}
