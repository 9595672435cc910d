#!/usr/bin/env node
// npm run fuzz: the poison suite (issues 39 and 40). Hostile files (nesting 5 to 10,000 deep, zip
// and deflate bombs, huge declared dimensions, fonts whose sizes lie, truncated and byte-flipped
// corpus files) go through the running service; after each, one normal document per converter
// must still convert in the same isolates. Reports files tried, 5xx, poisoned isolates, stuck
// tasks, whether refunds are exact, and /healthz latency while the hostile files ran.
//
//   npm run fuzz                          default set (starts its own service on a free port)
//   npm run fuzz -- --heavy               also issue 40's heavy classes (minutes each today)
//   npm run fuzz -- --heavy --only heavy  only those
//   npm run fuzz -- --only docx-nested-tables,html-divs --limit 10 --seed 7
//   npm run fuzz -- --only sheet          the spreadsheet cases (xlsx-to-pdf) and the spreadsheet corpus files
//   npm run fuzz -- --only slides         the presentation cases (pptx-to-pdf: PPTX, ODP, a PPT) and the PPTX corpus files
//   npm run fuzz -- --base http://127.0.0.1:8787 --admin-token dev     a service already running
//   npm run fuzz -- --list                the cases and exit
import { cpSync, mkdirSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { cases as allCases, smallJpeg } from './fuzz/catalog.mjs';
import { normalXlsx } from './fuzz/generate-sheets.mjs';
import { normalPptx } from './fuzz/generate-slides.mjs';
import { normalDocx } from './fuzz/generate-docx.mjs';
import { normalHtml } from './fuzz/generate-html.mjs';
import { normalPng } from './fuzz/generate-images.mjs';
import { normalPdf } from './fuzz/generate-pdf.mjs';
import { startService, stopAll } from './bench/service.mjs';
import { sampleRss } from './bench/rss.mjs';
import { heapWatch } from './bench/heap.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------- options
function options(argv) {
  const o = { seed: 1, limit: Infinity, only: [], heavy: false, base: null, adminToken: process.env.ADMIN_TOKEN ?? null, stuckAfter: 180, canaryTimeout: 120, startTimeout: 600, recover: 60, liveTree: false, out: null, list: false, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--seed') o.seed = Number(val());
    else if (a === '--limit') o.limit = Number(val());
    else if (a === '--only') o.only.push(...val().split(',').filter(Boolean));
    else if (a === '--heavy') o.heavy = true;
    else if (a === '--base') o.base = val().replace(/\/+$/, '');
    else if (a === '--admin-token') o.adminToken = val();
    else if (a === '--stuck-after') o.stuckAfter = Number(val());
    else if (a === '--canary-timeout') o.canaryTimeout = Number(val());
    else if (a === '--out') o.out = val();
    else if (a === '--start-timeout') o.startTimeout = Number(val());
    else if (a === '--list') o.list = true;
    else if (a === '--live-tree') o.liveTree = true;
    else if (a === '--recover') o.recover = Number(val());
    else if (a === '--help' || a === '-h') {
      console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split("\n").slice(1, 15).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
      console.log('\nOptions: --seed N  --limit N  --only CLASS|ID[,...]  --heavy  --base URL  --admin-token T  --stuck-after SECONDS (180)  --canary-timeout SECONDS (120)  --start-timeout SECONDS (600)  --recover SECONDS (60)  --live-tree  --out DIR  --list');
      process.exit(0);
    } else throw new Error(`unknown option ${a} (see --help)`);
  }
  if (!Number.isFinite(o.seed)) throw new Error('--seed takes a number');
  return o;
}

const opts = options(process.argv.slice(2));
const work = opts.out ?? join(tmpdir(), `pdf-edge-fuzz-${opts.seed}`);
mkdirSync(join(work, 'files'), { recursive: true });

const matches = (c) => !opts.only.length || opts.only.some((s) => c.cls === s || c.id === s || c.cls.startsWith(s) || c.id.startsWith(s) || (c.tags ?? []).includes(s));
let selected = allCases({ seed: opts.seed, root }).filter((c) => (opts.heavy || !c.heavy) && matches(c));
if (Number.isFinite(opts.limit)) selected = selected.slice(0, opts.limit);

if (opts.list) {
  for (const c of selected) console.log(`${c.id.padEnd(58)} ${c.cls.padEnd(26)} ${c.ops.map((o) => o.op).join(',')}${c.heavy ? '  [heavy]' : ''}`);
  console.log(`${selected.length} cases`);
  process.exit(0);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();

// ---------------------------------------------------------------- HTTP, with every status recorded
const http = { count: 0, fiveXX: [], transport: [] };

async function request(what, url, init = {}, timeoutMs = 120_000, { quiet = false } = {}) {
  http.count++;
  let res;
  // The suite's own pace can pass the key's rate limit (20/s): a 429 is waited out as its
  // Retry-After says, not counted against the service.
  for (let attempt = 0; ; attempt++) {
    try {
      res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      if (!quiet) http.transport.push({ what, error: String(err?.cause?.code ?? err?.name ?? err) });
      return { status: 0, body: null, error: String(err?.cause?.code ?? err?.message ?? err) };
    }
    if (res.status !== 429 || attempt >= 5) break;
    await res.text().catch(() => '');
    await new Promise((r) => setTimeout(r, 1000 * Math.max(1, Number(res.headers.get('retry-after')) || 1)));
  }
  const text = await res.text().catch(() => '');
  let body = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  if (res.status >= 500) http.fiveXX.push({ what, status: res.status, body: text.slice(0, 300) });
  return { status: res.status, body };
}

let svc = null;
let base = opts.base;
let adminToken = opts.adminToken;

async function createAccount(balance) {
  const admin = { 'content-type': 'application/json', 'x-admin-token': adminToken };
  const acc = await request('create account', `${base}/admin/accounts`, { method: 'POST', headers: admin, body: JSON.stringify({ email: `fuzz-${Date.now()}@fuzz.test`, plan: 'standard', balance }) });
  if (acc.status !== 201) throw new Error(`create account: HTTP ${acc.status} ${JSON.stringify(acc.body)}`);
  const key = await request('create key', `${base}/admin/accounts/${acc.body.account_id}/keys`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'fuzz' }) });
  if (key.status !== 201) throw new Error(`create key: HTTP ${key.status} ${JSON.stringify(key.body)}`);
  return { accountId: acc.body.account_id, key: key.body.secret };
}

let key;
const auth = () => ({ 'x-api-key': key });

async function upload(bytes, name) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  return request(`upload ${name}`, `${base}/v1/upload`, { method: 'POST', headers: auth(), body: form }, 300_000);
}

async function submit(op, body, what) {
  return request(`POST /v1/pdf/${op} (${what})`, `${base}/v1/pdf/${op}`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** Polls the task until it ends or `boundMs` passes: the last record, with stuck: true when it did not end. */
async function waitTask(taskId, boundMs, what) {
  const deadline = Date.now() + boundMs;
  let last = null;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return { ...(last ?? { task_id: taskId }), stuck: true };
    const wait = Math.max(1, Math.min(20, Math.floor(left / 1000)));
    const res = await request(`GET /v1/tasks (${what})`, `${base}/v1/tasks/${taskId}?wait=${wait}`, { headers: auth() }, (wait + 15) * 1000);
    if (res.status === 200) {
      last = res.body;
      if (last.status === 'done' || last.status === 'failed') return last;
    } else await sleep(1000);
  }
}

// ---------------------------------------------------------------- /healthz while hostile files run
const health = { all: [], failures: 0, unanswered: 0 };
function sampleHealth() {
  let on = true;
  const mine = [];
  const loop = (async () => {
    while (on) {
      const t0 = now();
      const res = await request('GET /healthz', `${base}/healthz`, {}, 30_000, { quiet: true });
      const ms = now() - t0;
      if (res.status === 0) health.unanswered++;
      else if (res.status !== 200) health.failures++;
      mine.push(ms);
      health.all.push(ms);
      await sleep(200);
    }
  })();
  return async () => {
    on = false;
    await loop;
    return mine;
  };
}

/** The largest WASM heap each hostile file's tasks logged (task_memory lines of the services this run started). */
function wasmHeapsByCase() {
  const byTask = new Map();
  for (const n of Array.from({ length: session?.n ?? 1 }, (_, i) => i + 1)) {
    let text = '';
    try {
      text = readFileSync(join(work, `service-${n}.log`), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line.includes('"task_memory"')) continue;
      try {
        const m = JSON.parse(line.slice(line.indexOf('{')));
        byTask.set(m.task_id, Math.max(byTask.get(m.task_id) ?? 0, m.wasm_heap_bytes ?? 0));
      } catch {}
    }
  }
  const byCase = new Map();
  for (const t of tasks.filter((t) => t.role === 'hostile')) if (byTask.has(t.task_id)) byCase.set(t.case, Math.max(byCase.get(t.case) ?? 0, byTask.get(t.task_id)));
  return byCase;
}

/** Each Worker isolate's JS heap + ArrayBuffers (the inspector's figure) at its highest while a file runs. */
let heaps = null;
function sampleHeaps() {
  let on = true;
  const max = {};
  const loop = (async () => {
    while (on && heaps) {
      for (const [g, bytes] of Object.entries(await heaps.sample())) max[g] = Math.max(max[g] ?? 0, bytes);
      await sleep(250);
    }
  })();
  return async () => {
    on = false;
    await loop;
    return max;
  };
}

const pct = (list, p) => {
  if (!list.length) return NaN;
  const s = [...list].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

// ---------------------------------------------------------------- canaries: one normal file per converter
const canaryFiles = {};
async function canaryInputs() {
  if (canaryFiles.at && Date.now() - canaryFiles.at < 45 * 60_000) return canaryFiles.ids;
  const files = {
    docx: [normalDocx(), 'canary.docx'],
    html: [normalHtml(), 'canary.html'],
    pdf: [await normalPdf(2), 'canary.pdf'],
    jpg: [await smallJpeg(), 'canary.jpg'],
    png: [normalPng(), 'canary.png'],
    xlsx: [normalXlsx(), 'canary.xlsx'],
    pptx: [normalPptx(), 'canary.pptx'],
  };
  const ids = {};
  for (const [k, [bytes, name]] of Object.entries(files)) {
    const res = await upload(bytes, name);
    if (res.status !== 201) throw new Error(`canary upload ${name}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    ids[k] = res.body.file_id;
  }
  canaryFiles.at = Date.now();
  canaryFiles.ids = ids;
  return ids;
}

const CANARIES = [
  { name: 'word-to-pdf docx', op: 'word-to-pdf', body: (ids) => ({ file_id: ids.docx }) },
  { name: 'html-to-pdf html', op: 'html-to-pdf', body: (ids) => ({ file_id: ids.html }) },
  { name: 'to-txt pdf', op: 'to-txt', body: (ids) => ({ file_id: ids.pdf }) },
  { name: 'rotate pdf', op: 'rotate', body: (ids) => ({ file_id: ids.pdf, angle: 90 }) },
  { name: 'jpg-to-pdf jpg', op: 'jpg-to-pdf', body: (ids) => ({ file_ids: [ids.jpg] }) },
  { name: 'jpg-to-pdf png', op: 'jpg-to-pdf', body: (ids) => ({ file_ids: [ids.png] }) },
  { name: 'xlsx-to-pdf xlsx', op: 'xlsx-to-pdf', body: (ids) => ({ file_id: ids.xlsx }) },
  { name: 'pptx-to-pdf pptx', op: 'pptx-to-pdf', body: (ids) => ({ file_id: ids.pptx }) },
];

/**
 * A case's expectation (catalog.mjs: expect { outcome, message, not }) against what happened:
 * null when met (or when the case has none), else what differs.
 */
function expectationMiss(c, r) {
  const e = c.expect;
  if (!e) return null;
  const want = [e.outcome ?? ['done', 'failed', 'refused']].flat();
  const refused = r.upload !== 'accepted';
  const got = refused ? (/^HTTP 422/.test(r.upload) ? 'refused' : `upload ${r.upload.slice(0, 12)}`) : r.ops.map((o) => o.status).join('+');
  const messages = refused ? [r.upload] : r.ops.filter((o) => o.status !== 'done').map((o) => o.error_message ?? '');
  const misses = [];
  if (!want.includes(got)) misses.push(`expected ${want.join(' or ')}, got ${got}`);
  for (const m of messages) {
    if (e.message && !e.message.test(m)) misses.push(`message does not match ${e.message}: ${m}`);
    if (e.not && e.not.test(m)) misses.push(`message matches ${e.not} (not wanted): ${m}`);
  }
  return misses.length ? { got, misses } : null;
}
const outcomeOf = (r) => (r.upload !== 'accepted' ? (/^HTTP 422/.test(r.upload) ? 'refused' : 'upload-error') : r.ops.map((o) => o.status).join('+'));

// Every task started, for the money audit: { task_id, role, case, op, final }.
const tasks = [];

async function runCanaries(after) {
  const ids = await canaryInputs();
  const results = await Promise.all(
    CANARIES.map(async (c) => {
      const res = await submit(c.op, c.body(ids), `canary after ${after}`);
      if (res.status !== 202 || !res.body?.task_id) return { canary: c.name, ok: false, what: `HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 200)}` };
      const t = { task_id: res.body.task_id, role: 'canary', case: after, op: c.op, session: session.n };
      tasks.push(t);
      const rec = await waitTask(t.task_id, opts.canaryTimeout * 1000, `canary ${c.name}`);
      t.final = rec;
      if (rec.stuck) return { canary: c.name, ok: false, what: `not ended in ${opts.canaryTimeout} s (status ${rec.status})`, stuck: true };
      if (rec.status !== 'done') return { canary: c.name, ok: false, what: `failed: ${rec.error_message}` };
      return { canary: c.name, ok: true };
    }),
  );
  return results.filter((r) => !r.ok);
}

// ---------------------------------------------------------------- one hostile case
async function fileOf(c) {
  const path = join(work, 'files', c.name);
  if (existsSync(path)) return new Uint8Array(readFileSync(path));
  const bytes = await c.make();
  writeFileSync(path, bytes);
  return bytes;
}

async function runCase(c) {
  const t0 = Date.now();
  const bytes = await fileOf(c);
  const out = { id: c.id, cls: c.cls, kind: c.kind, valid: c.valid, bytes: bytes.length, source: c.source, mutation: c.mutation, expect: c.expect ? { outcome: c.expect.outcome, message: c.expect.message?.source, not: c.expect.not?.source } : undefined, upload: null, ops: [], poisoned: [], healthz: null };
  const stopHealth = sampleHealth();
  // Each workerd process's resident memory while the file ran (a service this run started only).
  const rss = svc && !opts.base ? sampleRss(svc.pid) : null;
  const stopHeaps = sampleHeaps();
  try {
    const up = await upload(bytes, c.name);
    out.upload = up.status === 201 ? 'accepted' : `HTTP ${up.status}: ${typeof up.body === 'object' ? (up.body?.errors?.[0]?.message ?? up.body?.detail ?? JSON.stringify(up.body)) : String(up.body).slice(0, 200)}`;
    if (up.status === 201) {
      const ids = await canaryInputs();
      const ctx = { file: up.body.file_id, pdf: ids.pdf };
      await Promise.all(
        c.ops.map(async (o) => {
          const r = { op: o.op, http: null, status: null, error_message: null, ms: null };
          out.ops.push(r);
          const started = Date.now();
          const res = await submit(o.op, o.body(ctx), c.id);
          r.http = res.status;
          if (res.status === 202 && !res.body?.task_id) {
            // Accepted, but the body (the task id) did not arrive in time: the task exists, the audit finds it in the history.
            r.status = 'no-task-id';
            r.error_message = 'HTTP 202 whose body did not arrive within 120 s';
            http.transport.push({ what: `POST /v1/pdf/${o.op} (${c.id}) body`, error: 'the 202 body did not arrive' });
            return;
          }
          if (res.status !== 202) {
            r.status = res.status >= 500 || res.status === 0 ? 'http-error' : 'refused';
            r.error_message = typeof res.body === 'object' ? (res.body?.errors?.[0]?.message ?? res.body?.detail ?? JSON.stringify(res.body)) : String(res.body ?? res.error).slice(0, 300);
            return;
          }
          const t = { task_id: res.body.task_id, role: 'hostile', case: c.id, op: o.op, session: session.n };
          tasks.push(t);
          const rec = await waitTask(t.task_id, opts.stuckAfter * 1000, c.id);
          t.final = rec;
          r.ms = Date.now() - started;
          r.status = rec.stuck ? 'stuck' : rec.status;
          r.task_id = t.task_id;
          r.error_message = rec.error_message ?? null;
          r.refunded = rec.refunded;
        }),
      );
    }
  } finally {
    const lat = await stopHealth();
    out.healthz = { n: lat.length, p50: pct(lat, 50), p99: pct(lat, 99), max: lat.length ? Math.max(...lat) : NaN };
    if (rss) (rss.stop(), (out.rss = rss.byGroup), (out.rssBefore = rss.beforeByGroup));
    out.heaps = await stopHeaps();
  }
  out.poisoned = await runCanaries(c.id);
  out.ms = Date.now() - t0;
  out.expectationMiss = expectationMiss(c, out);
  return out;
}

// ---------------------------------------------------------------- money
async function allOperations() {
  const items = [];
  let cursor = null;
  for (let page = 0; page < 1000; page++) {
    const q = new URLSearchParams({ limit: '100' });
    if (cursor) q.set('cursor', cursor);
    const res = await request('GET /v1/account/operations', `${base}/v1/account/operations?${q}`, { headers: auth() });
    if (res.status !== 200) throw new Error(`operations: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    items.push(...res.body.items);
    cursor = res.body.next_cursor;
    if (!cursor) break;
  }
  return items;
}

const kopecks = (s) => {
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(String(s));
  if (!m) throw new Error(`not a money amount: ${s}`);
  return (m[1] ? -1 : 1) * (Number(m[2]) * 100 + Number(m[3]));
};

async function auditMoney(creditedKopecks) {
  const mine = tasks.filter((t) => t.session === session.n);
  // Tasks still running (stuck) are looked at once more: they are charged until they end.
  for (const t of mine) {
    if (!t.final || t.final.stuck) {
      const res = await request('GET /v1/tasks (audit)', `${base}/v1/tasks/${t.task_id}`, { headers: auth() });
      if (res.status === 200) t.final = { ...res.body, stuck: t.final?.stuck ?? true };
    }
  }
  const items = await allOperations();
  const bal = await request('GET /v1/api-keys/balance', `${base}/v1/api-keys/balance`, { headers: auth() });
  const balance = kopecks(bal.body.balance);
  const charged = items.reduce((n, it) => n + (it.refunded ? 0 : kopecks(it.charge)), 0);
  const expected = creditedKopecks - charged;
  const byTask = new Map(items.map((it) => [it.task_id, it]));
  const problems = [];
  for (const t of mine) {
    const it = byTask.get(t.task_id);
    const status = t.final?.status;
    if (!it) problems.push(`${t.task_id} (${t.role} ${t.op} after/for ${t.case}): no history record`);
    else if (status === 'failed' && !it.refunded) problems.push(`${t.task_id} (${t.op}, ${t.case}): failed but not refunded (charge ${it.charge})`);
    else if (status === 'done' && it.refunded && t.op !== 'ocr') problems.push(`${t.task_id} (${t.op}, ${t.case}): done but refunded`);
    else if (t.final && t.final.refunded !== undefined && it && t.final.refunded !== it.refunded) problems.push(`${t.task_id}: the task says refunded=${t.final.refunded}, the history ${it.refunded}`);
  }
  // Records of tasks whose id never reached us (a 202 whose body did not arrive): checked by their own status.
  const known = new Set(mine.map((t) => t.task_id));
  for (const it of items) {
    if (known.has(it.task_id)) continue;
    if (it.status === 'failed' && !it.refunded) problems.push(`${it.task_id} (${it.type}, id not seen by the suite): failed but not refunded`);
    if (it.status === 'done' && it.refunded) problems.push(`${it.task_id} (${it.type}, id not seen by the suite): done but refunded`);
  }
  if (items.length < mine.length) problems.push(`${items.length} history records for ${mine.length} tasks started`);
  return { session: session.n, balance, expected, discrepancy: balance - expected, charged, refundedCount: items.filter((i) => i.refunded).length, items: items.length, problems, exact: balance === expected && problems.length === 0 };
}

// ---------------------------------------------------------------- the service's own copy of the tree
function snapshot() {
  const dir = join(work, `tree-${Date.now()}`);
  for (const p of ['src', 'scripts', 'migrations', 'ocr-data', '.fonts', 'wrangler.toml', 'package.json', 'tsconfig.json', 'workers']) {
    if (existsSync(join(root, p))) cpSync(join(root, p), join(dir, p), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

// ---------------------------------------------------------------- run
const startedAt = Date.now();
const CREDIT = '100000.00';
/** One service and one fresh account; a poisoned service that does not recover is replaced by a new session. */
let session = null;
const audits = [];

async function openSession(n) {
  if (!opts.base) {
    console.log(`fuzz: starting the service (log: ${join(work, `service-${n}.log`)})`);
    // wrangler dev rebuilds and restarts the Workers whenever a source file changes: a copy of the
    // tree as it is now keeps edits made during the run from restarting tasks (--live-tree: run in place).
    const serviceRoot = opts.liveTree ? root : snapshot();
    svc = await startService({ root: serviceRoot, logPath: join(work, `service-${n}.log`), extraArgs: ['--persist-to', join(work, `state-${Date.now()}`)], startTimeoutMs: opts.startTimeout * 1000 });
    base = svc.base;
    adminToken = svc.adminToken;
    heaps?.close();
    heaps = heapWatch(svc.port, { collect: true });
  } else if (!adminToken) throw new Error('--base needs --admin-token (or ADMIN_TOKEN) to create the fuzz account');
  session = { n };
  const acct = await createAccount(CREDIT);
  key = acct.key;
  canaryFiles.at = 0;
}

/** The money audit of this session, after waiting for refunds the service retries (its alarm) to land. */
async function settledAudit() {
  let money = await auditMoney(kopecks(CREDIT));
  for (let settle = 0; !money.exact && settle < 6; settle++) {
    await sleep(10_000);
    money = await auditMoney(kopecks(CREDIT));
  }
  return money;
}

process.once('SIGINT', () => stopAll().finally(() => process.exit(130)));
process.once('SIGTERM', () => stopAll().finally(() => process.exit(143)));

try {
  await openSession(1);
  console.log(`fuzz: ${base}, seed ${opts.seed}, ${selected.length} hostile files${opts.heavy ? ' (with --heavy)' : ''}; stuck after ${opts.stuckAfter} s; work dir ${work}`);
  const before = await runCanaries('start (before any hostile file)');
  if (before.length) console.log(`fuzz: canaries already fail before any hostile file: ${before.map((p) => `${p.canary}: ${p.what}`).join('; ')}`);

  const results = [];
  const restarts = [];
  let downInARow = 0;
  let endedEarly = null;
  for (const [i, c] of selected.entries()) {
    const r = await runCase(c);
    results.push(r);
    const ops = r.upload === 'accepted' ? r.ops.map((o) => `${o.op}=${o.status}`).join(' ') : `upload ${r.upload.slice(0, 90)}`;
    console.log(`[${String(i + 1).padStart(3)}/${selected.length}] ${c.id.padEnd(52)} ${ops}${r.poisoned.length ? `  POISONED: ${r.poisoned.map((p) => p.canary).join(', ')}` : ''}${r.expectationMiss ? '  NOT AS EXPECTED' : ''}  (${(r.ms / 1000).toFixed(1)} s, healthz max ${Math.round(r.healthz.max)} ms)`);
    writeFileSync(join(work, 'report.json'), JSON.stringify({ seed: opts.seed, results }, null, 1));
    if (r.poisoned.length) {
      // Does the service heal by itself? One more round of canaries after a pause.
      await sleep(opts.recover * 1000);
      const again = await runCanaries(`recovery after ${c.id}`);
      r.recovered = again.length === 0;
      console.log(`      ${r.recovered ? 'recovered: the canaries convert again' : `not recovered after ${opts.recover} s more: ${again.map((p) => p.canary).join(', ')}`}`);
      if (!r.recovered) {
        if (opts.base) {
          endedEarly = `the service given with --base stayed poisoned after ${c.id}`;
          break;
        }
        if (i + 1 < selected.length) {
          console.log('fuzz: replacing the poisoned service with a fresh one for the remaining files');
          audits.push(await settledAudit());
          restarts.push(c.id);
          await svc.stop();
          await openSession(session.n + 1);
        }
        continue;
      }
    }
    const hz = await request('GET /healthz', `${base}/healthz`, {}, 10_000);
    downInARow = hz.status === 200 ? 0 : downInARow + 1;
    if (downInARow >= 3) {
      endedEarly = 'the service stopped answering /healthz';
      break;
    }
  }
  if (endedEarly) console.log(`fuzz: ${endedEarly}: the run ends here`);

  audits.push(await settledAudit());
  const money = {
    exact: audits.every((a) => a.exact),
    discrepancy: audits.reduce((n, a) => n + a.discrepancy, 0),
    balance: audits.reduce((n, a) => n + a.balance, 0),
    expected: audits.reduce((n, a) => n + a.expected, 0),
    items: audits.reduce((n, a) => n + a.items, 0),
    refundedCount: audits.reduce((n, a) => n + a.refundedCount, 0),
    problems: audits.flatMap((a) => a.problems.map((p) => (audits.length > 1 ? `service ${a.session}: ${p}` : p))),
  };
  const hostileOps = results.flatMap((r) => r.ops.map((o) => ({ ...o, case: r })));
  const stuck = tasks.filter((t) => t.final?.stuck);
  const stuckHostile = stuck.filter((t) => t.role === 'hostile').length;
  const poisoned = results.filter((r) => r.poisoned.length);
  const wrongDamaged = hostileOps.filter((o) => o.case.valid && o.status === 'failed' && /damaged/i.test(o.error_message ?? ''));
  const byStatus = {};
  for (const o of hostileOps) byStatus[o.status] = (byStatus[o.status] ?? 0) + 1;
  const hz = health.all;
  const fmt = (ms) => (Number.isFinite(ms) ? `${Math.round(ms)} ms` : 'n/a');

  const lines = [];
  lines.push('');
  lines.push(`== poison suite: seed ${opts.seed}${opts.heavy ? ', --heavy' : ''}${opts.only.length ? `, --only ${opts.only.join(',')}` : ''}, ${((Date.now() - startedAt) / 60000).toFixed(1)} min ==`);
  lines.push(`files tried:        ${results.length} (${results.filter((r) => r.upload === 'accepted').length} accepted at upload, ${results.filter((r) => r.upload !== 'accepted').length} refused at upload)`);
  lines.push(`hostile tasks:      ${hostileOps.length} (${Object.entries(byStatus).map(([k, v]) => `${k} ${v}`).join(', ')})`);
  lines.push(`canary tasks:       ${tasks.filter((t) => t.role === 'canary').length}`);
  lines.push(`5xx:                ${http.fiveXX.length}${http.transport.length ? ` (+ ${http.transport.length} requests with no answer)` : ''} of ${http.count} requests`);
  lines.push(`poisoned isolates:  ${poisoned.length}${before.length ? ` (canaries failed before any hostile file: ${before.length})` : ''}`);
  lines.push(`tasks stuck:        ${stuck.length} (hostile ${stuckHostile} not ended within ${opts.stuckAfter} s; canary ${stuck.length - stuckHostile} not ended within ${opts.canaryTimeout} s)`);
  if (restarts.length) lines.push(`service replaced:   ${restarts.length} time(s), poisoned for good after ${restarts.join(', ')}`);
  if (endedEarly) lines.push(`run ended early:    ${endedEarly}`);
  lines.push(`refunds exact:      ${money.exact ? 'yes' : 'no'} (balance ${(money.balance / 100).toFixed(2)}${audits.length > 1 ? ` over ${audits.length} services` : ''}, credited − charges of tasks not refunded = ${(money.expected / 100).toFixed(2)}, discrepancy ${money.discrepancy} kopecks; ${money.items} history records, ${money.refundedCount} refunded${money.problems.length ? `; ${money.problems.length} problems` : ''})`);
  lines.push(`healthz while hostile files ran: p50 ${fmt(pct(hz, 50))}, p99 ${fmt(pct(hz, 99))}, max ${fmt(hz.length ? Math.max(...hz) : NaN)} (${hz.length} samples, ${health.failures} not 200, ${health.unanswered} unanswered within 30 s)`);
  lines.push(`"damaged" said of a well-formed file: ${wrongDamaged.length}`);
  const withExpect = results.filter((r) => r.expect);
  const missed = withExpect.filter((r) => r.expectationMiss);
  if (withExpect.length) lines.push(`outcome as the catalog expects: ${withExpect.length - missed.length} of ${withExpect.length} cases with an expectation${missed.length ? ` (${missed.length} not: ${missed.map((r) => r.id).join(', ')})` : ''}`);
  const failedOps = hostileOps.filter((o) => o.status !== 'done');
  if (failedOps.length) {
    lines.push('');
    lines.push('hostile tasks that did not end done:');
    for (const o of failedOps) lines.push(`  ${o.case.id} | ${o.op} | ${o.status}${o.http && o.http !== 202 ? ` (HTTP ${o.http})` : ''}${o.ms ? ` | ${(o.ms / 1000).toFixed(1)} s` : ''} | ${(o.error_message ?? '').replace(/\s+/g, ' ').slice(0, 220)}`);
  }
  if (withExpect.length) {
    lines.push('');
    lines.push('cases with an expectation (expected | got | seconds | bytes | message):');
    for (const r of withExpect) {
      const msg = r.upload !== 'accepted' ? r.upload : r.ops.map((o) => o.error_message).filter(Boolean).join(' / ');
      const want = [r.expect.outcome ?? 'any'].flat().join('|');
      lines.push(`  ${r.expectationMiss ? '✗' : '✓'} ${r.id} | ${want} | ${outcomeOf(r)} | ${(r.ms / 1000).toFixed(1)} | ${r.bytes} | ${(msg ?? '').replace(/\s+/g, ' ').slice(0, 160)}`);
      for (const m of r.expectationMiss?.misses ?? []) lines.push(`      ${m.replace(/\s+/g, ' ').slice(0, 240)}`);
    }
  }
  const refusedUploads = results.filter((r) => r.upload !== 'accepted');
  if (refusedUploads.length) {
    lines.push('');
    lines.push('refused at upload:');
    for (const r of refusedUploads) lines.push(`  ${r.id} | ${r.upload.replace(/\s+/g, ' ').slice(0, 220)}`);
  }
  if (poisoned.length) {
    lines.push('');
    lines.push('poisoned (a normal file failed after the hostile one):');
    for (const r of poisoned) lines.push(`  after ${r.id} (${r.recovered ? 'recovered by itself' : 'did not recover'}): ${r.poisoned.map((p) => `${p.canary}: ${p.what.replace(/\s+/g, ' ').slice(0, 160)}`).join('; ')}`);
  }
  if (http.fiveXX.length || http.transport.length) {
    lines.push('');
    lines.push('5xx and unanswered requests:');
    for (const e of http.fiveXX.slice(0, 30)) lines.push(`  ${e.what}: HTTP ${e.status} ${e.body.replace(/\s+/g, ' ').slice(0, 160)}`);
    for (const e of http.transport.slice(0, 30)) lines.push(`  ${e.what}: ${e.error}`);
  }
  if (stuck.length) {
    lines.push('');
    lines.push('stuck tasks:');
    for (const t of stuck) lines.push(`  ${t.task_id} | ${t.role} ${t.op} | ${t.case} | last status ${t.final?.status}`);
  }
  if (money.problems.length) {
    lines.push('');
    lines.push('money problems:');
    for (const p of money.problems.slice(0, 40)) lines.push(`  ${p}`);
  }
  // workerd's resident memory: a process per group of Workers (npm start), its isolates, compiled
  // WASM and (the API's) local storage simulators together. RSS seldom shrinks, so a file's rise is
  // what it added above the highest mark before it.
  const withRss = results.filter((r) => r.rss);
  if (withRss.length) {
    const groups = [...new Set(withRss.flatMap((r) => Object.keys(r.rss)))].sort();
    const mib = (b) => (b / 1048576).toFixed(0);
    const rise = (r, g) => Math.max(0, (r.rss[g] ?? 0) - (r.rssBefore?.[g] ?? r.rss[g] ?? 0));
    const parts = groups.map((g) => {
      const start = withRss.find((r) => r.rssBefore?.[g])?.rssBefore[g] ?? 0;
      const peak = Math.max(...withRss.map((r) => r.rss[g] ?? 0));
      const top = withRss.reduce((best, r) => (rise(r, g) > rise(best, g) ? r : best), withRss[0]);
      return `${g} ${mib(start)} → ${mib(peak)} MiB (largest rise in one file ${mib(rise(top, g))} MiB, ${top.id})`;
    });
    lines.push('workerd resident memory by process, at the first file → highest (a process holds its Workers\' isolates and the runtime): ' + parts.join('; '));
    const over = withRss.filter((r) => groups.some((g) => rise(r, g) > 128 * 1048576));
    lines.push(`files during which a workerd process rose by more than 128 MiB: ${over.length}${over.length ? ` (${over.map((r) => r.id).join(', ')})` : ''}`);
  }
  // Isolates: JS heap + ArrayBuffers from the inspector, with the WASM heap its tasks reported.
  const withHeaps = results.filter((r) => r.heaps && Object.keys(r.heaps).length);
  if (withHeaps.length) {
    const wasm = wasmHeapsByCase();
    const groups = [...new Set(withHeaps.flatMap((r) => Object.keys(r.heaps)))].sort();
    const mib = (b) => (b / 1048576).toFixed(1);
    lines.push('isolate memory at its highest while a hostile file ran (JS heap + ArrayBuffers live after a collection, inspector): ' + groups.map((g) => {
      const top = withHeaps.reduce((best, r) => ((r.heaps[g] ?? 0) > (best.heaps[g] ?? 0) ? r : best), withHeaps[0]);
      return `${g} ${mib(top.heaps[g] ?? 0)} MiB (${top.id})`;
    }).join(', '));
    const topWasm = [...wasm.entries()].sort((a, b) => b[1] - a[1])[0];
    if (topWasm) lines.push(`WASM heap at its highest in a hostile task (task_memory): ${mib(topWasm[1])} MiB (${topWasm[0]})`);
    // An engine isolate's figure plus the largest WASM heap its file's tasks had: what could pass 128 MiB.
    const over = withHeaps.filter((r) => groups.some((g) => g !== 'api' && (r.heaps[g] ?? 0) + (wasm.get(r.id) ?? 0) > 128 * 1048576));
    lines.push(`files during which an isolate's JS heap + ArrayBuffers + its task's WASM heap passed 128 MiB: ${over.length}${over.length ? ` (${over.map((r) => r.id).join(', ')})` : ''}`);
  }
  const slow = [...results].sort((a, b) => b.healthz.max - a.healthz.max).slice(0, 5);
  lines.push('');
  lines.push('slowest /healthz during a hostile file: ' + slow.map((r) => `${r.id} ${fmt(r.healthz.max)}`).join(', '));
  lines.push(`report: ${join(work, 'report.json')}${svc ? `; service logs: ${join(work, 'service-*.log')}` : ''}`);
  console.log(lines.join('\n'));
  writeFileSync(join(work, 'report.json'), JSON.stringify({ seed: opts.seed, heavy: opts.heavy, results, money, audits, restarts, endedEarly, http, stuck: stuck.map((t) => t.task_id), summary: lines }, null, 1));
  const bad = http.fiveXX.length + http.transport.length + poisoned.length + before.length + stuck.length + (money.exact ? 0 : 1) + (endedEarly ? 1 : 0) + missed.length;
  process.exitCode = bad ? 1 : 0;
} catch (err) {
  console.error(`fuzz: ${err.stack ?? err}`);
  process.exitCode = 2;
} finally {
  if (svc) await svc.stop();
  heaps?.close();
  await stopAll();
}
