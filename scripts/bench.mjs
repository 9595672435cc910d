#!/usr/bin/env node
// npm run bench [-- NAME...]: memory and time of every PDF operation (scripts/bench/operations.mjs)
// on a ~48 MB, 500-page PDF, measured on the real service (wrangler dev, local D1/R2/Queues/DOs)
// from the consumer's task_memory log lines, with qpdf (pdftotext for text) on the same file as
// the anchor. NAME picks operations by name ("split", "to-txt words").
//
// Each operation runs alone in a freshly started service, and in one shared service that took the
// uploads, then served the other kinds of work (OCR, pictures, HTML: scripts/bench/warmups.mjs),
// then ran every operation twice in turn, the heaviest (by its fresh peak) first. The shared
// figures are the second round's: every operation measured after every other one had run in that
// isolate, as in a production isolate that has served requests. WASM memory never shrinks, so
// without replacing grown engines each task would start from the heap the heaviest one left; the
// target (100 MB, under the 128 MiB isolate limit) holds for both. Beside the consumer's own
// estimate, the workerd process's resident memory is sampled from outside while each task runs
// (workerd exposes no JS heap figure to the Worker: performance.memory and process.memoryUsage
// are absent), so that the JS heap is counted too.
//
// Units: MB = 1,000,000 bytes. The Workers isolate limit is 128 MiB = 134.2 MB.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { cachedPdf } from './bench/generate.mjs';
import { cachedDocx } from './bench/generate-docx.mjs';
import { startService, stopAll } from './bench/service.mjs';
import * as api from './bench/api.mjs';
import { runTool } from './bench/anchor.mjs';
import { BENCH_OPERATIONS } from './bench/operations.mjs';
import { WARMUPS, warmupFiles } from './bench/warmups.mjs';
import { sampleRss } from './bench/rss.mjs';

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

/** Heaviest first, by the fresh peaks of the last full run (README): the shared order with --shared-only. */
const PREVIOUS_FRESH_ORDER = ['to-jpg 300 dpi, 100 pages', 'delete-pages half', 'to-jpg 150 dpi, 100 pages', 'split every-page', 'split half', 'compress medium', 'protect', 'unlock', 'flatten', 'add-page-numbers', 'watermark text', 'sign text', 'to-txt words', 'extract-pages 10', 'to-txt text', 'rotate', 'merge', 'reorder-pages reversed', 'extract-pages all', 'word-to-pdf photos'];

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
// A Word report of 40 photos (20 pages), about as large as the PDF: what word-to-pdf is measured on.
const docx = cachedDocx(OUT, 'photos-40-47mb', { pictures: 40, targetBytes: 47_000_000 }, say);
say(`big DOCX: ${docx.path} ${docx.bytes} bytes${docx.cached ? ' (cached)' : ''}`);
/** The big PDF encrypted by qpdf (AES-256, password "bench"): what unlock is measured on. */
let lockedFile;
function locked() {
  if (lockedFile) return lockedFile;
  const path = join(OUT, 'big-locked.pdf');
  if (!existsSync(path)) spawnSync('qpdf', ['--encrypt', 'bench', 'owner', '256', '--', big.path, path]);
  lockedFile = { path };
  return lockedFile;
}
say(`small PDF: ${small.path} ${small.bytes} bytes, 1 page${small.cached ? ' (cached)' : ''}`);


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
      ({ apiKey } = await api.createAccount(svc, `bench-${randomBytes(6).toString('hex')}@example.com`, { balance: '100000.00' }));
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

/** Runs one bench operation on its inputs, waits, downloads and checks the result; returns the measurements. */
async function runOp(svc, spec, { isolate }) {
  const paths = inputsOf(spec);
  const rss = sampleRss(svc.pid);
  const taskId = await api.submit(svc, apiKey, spec.op, spec.body(paths.map((p) => uploaded.get(p))));
  const rec = await api.waitTask(svc, apiKey, taskId).finally(() => rss.stop());
  if (rec.status !== 'done') throw new Error(`${spec.name} task ${taskId} ${rec.status}: ${rec.error_message} (log ${svc.logPath})`);
  let mem;
  await new Promise((r) => setTimeout(r, 300)); // the last step logs its line just after the task ends
  for (let i = 0; i < 100 && !mem; i++) {
    // A task run in steps logs a line per step: the most memory any step took, the time of all.
    const steps = api.taskMemory(svc.lines()).get(taskId);
    mem = steps?.length ? { ...steps.at(-1), wasm_heap_bytes: Math.max(...steps.map((m) => m.wasm_heap_bytes)), peak_estimate_bytes: Math.max(...steps.map((m) => m.peak_estimate_bytes)), ms: steps.reduce((n, m) => n + m.ms, 0), steps: steps.length } : undefined;
    if (!mem) await new Promise((r) => setTimeout(r, 100));
  }
  if (!mem) throw new Error(`no task_memory line for ${taskId} in ${svc.logPath}`);
  const bytes = await api.download(rec.download_url);
  if (bytes.length !== rec.size) throw new Error(`${spec.name} download is ${bytes.length} bytes, the task says ${rec.size}`);
  spec.check(bytes, big);
  // The workerd process (a group of engine Workers, or the API's) whose memory grew most while the task ran.
  const grown = Object.keys(rss.byGroup).sort((a, b) => rss.byGroup[b] - (rss.beforeByGroup[b] ?? 0) - (rss.byGroup[a] - (rss.beforeByGroup[a] ?? 0)))[0];
  const [before, max] = grown ? [rss.beforeByGroup[grown] ?? 0, rss.byGroup[grown]] : [rss.before, rss.max];
  say(`${spec.name} (${isolate} isolate) done: ${mb(mem.input_bytes)} MB in, ${mb(bytes.length)} MB out, heap ${mb(mem.wasm_heap_bytes)} MB, peak estimate ${mb(mem.peak_estimate_bytes)} MB, workerd RSS (${grown ?? 'all'}) ${mb(before)} → max ${mb(max)} MB, ${mem.ms} ms${mem.steps > 1 ? ` in ${mem.steps} steps` : ''}`);
  return { name: spec.name, isolate, taskId, ...mem, rss_before: before, rss_max: max, rss_process: grown ?? 'all' };
}

/** One warm-up task in the shared service: must end done; returns nothing measured. */
async function runWarmup(svc, warm, ids) {
  const taskId = await api.submit(svc, apiKey, warm.op, warm.body(ids[warm.file]));
  const rec = await api.waitTask(svc, apiKey, taskId);
  if (rec.status !== 'done') throw new Error(`warm-up ${warm.name} task ${taskId} ${rec.status}: ${rec.error_message} (log ${svc.logPath})`);
  const steps = api.taskMemory(svc.lines()).get(taskId) ?? [];
  say(`warm-up ${warm.name} done: heap ${mb(Math.max(0, ...steps.map((m) => m.wasm_heap_bytes)))} MB`);
}

const inputsOf = (spec) =>
  spec.inputs === 'big+small' ? [big.path, small.path] : spec.inputs === 'docx' ? [docx.path] : spec.inputs === 'locked' ? [locked().path] : [big.path];

async function fresh(spec) {
  await ensureUploaded(inputsOf(spec));
  return withService(`${spec.op}-fresh`, (svc) => runOp(svc, spec, { isolate: 'fresh' }));
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
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const specs = BENCH_OPERATIONS.filter((o) => !only.length || only.some((w) => o.name.includes(w)));

  // 1. Each operation alone in a newly started service (--shared-only skips this, ordering the
  //    shared rounds by the fresh peaks last measured, in PREVIOUS_FRESH_ORDER).
  const sharedOnly = process.argv.includes('--shared-only');
  const alone = [];
  if (sharedOnly) for (const spec of specs) alone.push({ peak_estimate_bytes: PREVIOUS_FRESH_ORDER.length - Math.max(0, PREVIOUS_FRESH_ORDER.indexOf(spec.name)), wasm_heap_bytes: NaN, ms: NaN });
  else for (const spec of specs) alone.push(await fresh(spec));
  // 2. As production isolates are used: one service, the uploads, the other kinds of work, then
  //    every operation twice in turn, heaviest first; the second round is the one reported.
  const order = specs.map((spec, i) => ({ spec, i })).sort((a, b) => alone[b.i].peak_estimate_bytes - alone[a.i].peak_estimate_bytes);
  const shared = new Array(specs.length);
  await withService('shared', async (svc) => {
    await uploadAll(svc, [...new Set(specs.flatMap(inputsOf))]);
    const warm = warmupFiles(OUT);
    const ids = {};
    for (const [kind, path] of Object.entries(warm)) ids[kind] = (await api.upload(svc, apiKey, path)).file_id;
    for (const w of WARMUPS) await runWarmup(svc, w, ids);
    for (const round of [1, 2]) {
      say(`shared round ${round}: ${order.map((o) => o.spec.name).join(', ')}`);
      for (const { spec, i } of order) {
        const m = await runOp(svc, spec, { isolate: `shared, round ${round}` });
        if (round === 2) shared[i] = m;
      }
    }
  });

  // 3. The anchors, on the same files.
  say('running the anchors (qpdf, pdftotext, mutool)');
  const anchors = specs.map((spec) => {
    const out = join(OUT, `anchor-${spec.name.replace(/\W+/g, '-')}`);
    const [tool, args] = spec.anchor(big, small, out, docx, spec.inputs === 'locked' ? locked() : undefined);
    try {
      return { tool, args, ...runTool(tool, args) };
    } catch (err) {
      // A tool missing on this machine (apt-get install qpdf poppler-utils mupdf-tools libreoffice): no anchor for that row.
      say(`anchor ${tool} for ${spec.name} did not run: ${String(err?.message ?? err).slice(0, 200)}`);
      return { tool: `${tool} (n/a)`, args, ms: NaN, rssBytes: null };
    }
  });

  const out = [];
  out.push('');
  out.push(`pdf-edge benchmark  (MB = 1,000,000 bytes; isolate limit 128 MiB = ${mb(ISOLATE_LIMIT)} MB; target ${TARGET / MB} MB)`);
  out.push(`input: ${big.path.slice(root.length + 1)} = ${big.bytes} bytes, ${big.pages} pages; merge adds ${small.path.slice(root.length + 1)} (${small.bytes} bytes, 1 page);`);
  out.push(`       word-to-pdf: ${docx.path.slice(root.length + 1)} = ${docx.bytes} bytes, 40 photos on 20 pages`);
  out.push('every result downloaded and checked (pages, rotation, ZIP entries, text) in Node');
  out.push('');
  out.push('peak estimate = the engines\' WASM heaps + the input + the output bytes not shared with the input, from the task_memory line the consumer logs;');
  out.push('fresh = the task alone in a newly started service; shared = the second of two rounds of every operation (heaviest first) in one service,');
  out.push(`        after the uploads and the warm-ups (${WARMUPS.map((w) => w.name).join('; ')});`);
  out.push('RSS +MB = the resident memory of the workerd process that grew most while the task ran (npm start runs one per group of Workers: API; PDF; convert + OCR; inspect), at its highest less before it, JS heaps included');
  out.push(
    table(
      ['operation', 'fresh heap', 'fresh peak', 'shared heap', 'shared peak', 'RSS +MB fresh/shared', 'ms (fresh)', 'anchor', 'anchor RSS', 'anchor ms', 'under target'],
      specs.map((spec, i) => {
        const a = alone[i];
        const b = shared[i];
        const q = anchors[i];
        const ok = (sharedOnly || a.peak_estimate_bytes <= TARGET) && b.peak_estimate_bytes <= TARGET;
        const grew = (m) => (m.rss_max && m.rss_before ? mb(Math.max(0, m.rss_max - m.rss_before)) : 'n/a');
        const f = (v) => (sharedOnly ? '-' : v);
        return [spec.name, f(mb(a.wasm_heap_bytes)), f(mb(a.peak_estimate_bytes)), mb(b.wasm_heap_bytes), mb(b.peak_estimate_bytes), `${f(grew(a))} / ${grew(b)}`, f(a.ms), q.tool, q.rssBytes === null ? 'n/a' : mb(q.rssBytes), q.ms.toFixed(0), ok ? 'yes' : 'NO'];
      }),
      ['l'],
    ),
  );
  const over = specs.filter((_, i) => (!sharedOnly && alone[i].peak_estimate_bytes > TARGET) || shared[i].peak_estimate_bytes > TARGET).map((s) => s.name);
  out.push('');
  out.push(over.length ? `over the ${TARGET / MB} MB target: ${over.join(', ')}` : `every operation under the ${TARGET / MB} MB target, fresh and shared`);
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
