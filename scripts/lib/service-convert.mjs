// Office → PDF through the running service, as a client converts: POST /v1/upload (multipart field
// `file`), POST /v1/pdf/<operation>?wait=60 with {"file_id"} (word-to-pdf unless convert() is told
// another, e.g. xlsx-to-pdf or pptx-to-pdf), GET /v1/tasks/{id}?wait=60 until it is done or
// failed, then the download_url. Users only ever get the Worker's output, so this is what npm run
// fidelity (and fidelity --xlsx, --pptx), npm run heldout and npm run bench:word, bench:sheet and
// bench:slides score and time.
//
// By default the service is started here as `npm start` starts it (scripts/bench/service.mjs: a
// free port on 127.0.0.1, a random ADMIN_TOKEN), with `--persist-to` a fresh temporary directory so
// that it never shares .wrangler/state with another `npm start`, and ended on exit, Ctrl-C or an
// error. `--base URL --admin-token T` uses an already-running service instead (on 127.0.0.1 only);
// its Worker times are then known only with `--service-log FILE`, a file its stdout goes to.
//
// Per document: { ok, pdf, workerMs, userMs, heapBytes, peakEstimateBytes, error_message, problem,
// status (the HTTP status of a refused request) }. userMs runs from
// sending the operation request to the PDF fully downloaded (the upload is not in it); workerMs is
// run_ms of the consumer's task_memory line for that task (the conversion inside the Worker: input
// loaded, result not yet stored); heapBytes its wasm_heap_bytes (MuPDF's WASM memory in that
// isolate, which never shrinks: the isolate's high-water mark so far), peakEstimateBytes its
// peak_estimate_bytes (that heap plus the JS heap, the input and the output).
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startService } from '../bench/service.mjs';
import { createAccount, taskMemory } from '../bench/api.mjs';
import { root } from './word-converter.mjs';

export const SERVICE_USAGE = '[--base http://127.0.0.1:PORT --admin-token T [--service-log FILE]]';

/** Takes --base, --admin-token and --service-log out of argv; returns them and the rest. */
export function takeServiceArgs(argv) {
  const opts = {};
  const rest = [];
  const names = { '--base': 'base', '--admin-token': 'adminToken', '--service-log': 'serviceLog' };
  for (let i = 0; i < argv.length; i++) {
    if (names[argv[i]] && argv[i + 1] !== undefined) opts[names[argv[i]]] = argv[++i];
    else rest.push(argv[i]);
  }
  if (opts.base && !opts.adminToken) opts.adminToken = process.env.ADMIN_TOKEN;
  return { opts, rest };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const MIME = {
  doc: 'application/msword',
  dot: 'application/msword',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xlsm: 'application/vnd.ms-excel.sheet.macroEnabled.12',
  xls: 'application/vnd.ms-excel',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odp: 'application/vnd.oasis.opendocument.presentation',
};
const mimeOf = (path) => MIME[path.split('.').pop().toLowerCase()] ?? 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** What a refusal's message says, in the converter's words (ConversionError.problem). */
export function problemOf(message) {
  if (/password/i.test(message ?? '')) return 'password';
  if (/damaged|incomplete|corrupt/i.test(message ?? '')) return 'corrupt';
  return undefined;
}

let interruptsHooked = false;
/**
 * Ctrl-C, SIGTERM and SIGHUP end this process with 130; the exit hooks of scripts/bench/service.mjs,
 * of this module and of lo-warm.mjs then end what was started (services, soffice, temporary state).
 */
export function exitOnInterrupt(label) {
  if (interruptsHooked) return;
  interruptsHooked = true;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      console.error(`\n${label}: ${sig}: stopping what this run started`);
      process.exit(130);
    });
  }
}

const tempDirs = new Set();
process.on('exit', () => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * The service to convert through: started here (opts.base unset) or the one at opts.base.
 * `log(message)` receives progress lines. Call close() when done (exit hooks cover the rest).
 */
export async function openService(opts = {}, log = () => {}) {
  // Node 22 from the `node` package first, as under `npm run` (wrangler refuses the system Node 20).
  process.env.PATH = `${join(root, 'node_modules', '.bin')}:${process.env.PATH}`;
  let svc;
  let lines = () => [];
  let tmp;
  if (opts.base) {
    const url = new URL(opts.base);
    if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') throw new Error(`--base ${opts.base}: only a service on 127.0.0.1 is used`);
    if (!opts.adminToken) throw new Error('--base needs --admin-token T (or ADMIN_TOKEN): the account is made with the admin API');
    url.hostname = '127.0.0.1';
    svc = { base: url.origin, adminToken: opts.adminToken, stop: async () => {} };
    if (opts.serviceLog) lines = () => (existsSync(opts.serviceLog) ? readFileSync(opts.serviceLog, 'utf8').split(/\r?\n/) : []);
  } else {
    tmp = mkdtempSync(join(tmpdir(), 'pdf-edge-service-'));
    tempDirs.add(tmp);
    const t0 = Date.now();
    svc = await startService({ root, logPath: join(tmp, 'service.log'), extraArgs: ['--persist-to', join(tmp, 'state')] });
    lines = svc.lines;
    log(`service up on ${svc.base} in ${((Date.now() - t0) / 1000).toFixed(1)} s (state and log in ${tmp})`);
  }
  // Business, and a balance that pays for thousands of conversions (1.25 per 10 MB unit).
  const { apiKey } = await createAccount(svc, `word-bench-${randomBytes(6).toString('hex')}@example.com`, { plan: 'business', balance: '1000000.00' });
  const base = svc.base;
  let rateLimited = 0;

  /** One request with the key; a 429 waits out its Retry-After and is counted (it would be in userMs). */
  async function request(path, init = {}) {
    for (;;) {
      const res = await fetchFresh(`${base}${path}`, { ...init, headers: { 'x-api-key': apiKey, ...init.headers }, signal: AbortSignal.timeout(90_000) });
      const text = await res.text();
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        body = { detail: text.slice(0, 300) };
      }
      if (res.status === 429) {
        rateLimited++;
        await sleep(1000 * Math.max(0.1, Number(res.headers.get('retry-after')) || 1));
        continue;
      }
      return { status: res.status, ok: res.ok, body };
    }
  }

  const uploads = new Map(); // path → { fileId, at }: files live an hour; reused for half of it
  async function uploadOnce(path) {
    const known = uploads.get(path);
    if (known && Date.now() - known.at < 30 * 60_000) return { fileId: known.fileId };
    const form = new FormData();
    form.append('file', new Blob([readFileSync(path)], { type: mimeOf(path) }), basename(path));
    const r = await request('/v1/upload', { method: 'POST', body: form });
    if (!r.ok) return { error: r.body.detail ?? `HTTP ${r.status}`, status: r.status };
    uploads.set(path, { fileId: r.body.file_id, at: Date.now() });
    return { fileId: r.body.file_id };
  }

  /** The consumer's task_memory line of the task; it may print a moment after the record says done. */
  async function memoryOf(taskId) {
    const deadline = Date.now() + (opts.base && !opts.serviceLog ? 0 : 3_000);
    for (;;) {
      const rec = taskMemory(lines()).get(taskId)?.at(-1);
      if (rec || Date.now() >= deadline) return rec;
      await sleep(25);
    }
  }

  /** `operation`: the path under /v1/pdf/ (word-to-pdf, xlsx-to-pdf). */
  async function convert(path, operation = 'word-to-pdf') {
    const up = await uploadOnce(path);
    // The service refuses some files at upload (a password-protected DOCX is an encrypted package).
    if (up.error) return { ok: false, stage: 'upload', status: up.status, error_message: up.error, problem: problemOf(up.error) };
    const t0 = performance.now();
    const submitted = await request(`/v1/pdf/${operation}?wait=60`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ file_id: up.fileId }) });
    if (!submitted.ok) {
      const detail = submitted.body.detail ?? `HTTP ${submitted.status}`;
      // 404: this service has no such operation (not registered in src/operations/index.ts yet).
      const error_message = submitted.status === 404 ? `POST /v1/pdf/${operation} answered 404, the service has no such operation: ${detail}` : detail;
      return { ok: false, stage: 'submit', status: submitted.status, error_message, problem: problemOf(submitted.body.detail) };
    }
    const taskId = submitted.body.task_id;
    const acceptedMs = performance.now() - t0;
    // A service that answers the operation request with the finished task needs no poll.
    let rec = submitted.body;
    const deadline = Date.now() + 600_000;
    while (rec.status !== 'done' && rec.status !== 'failed') {
      if (Date.now() > deadline) return { ok: false, taskId, stage: 'task', error_message: `task ${taskId} still ${rec.status} after 600 s` };
      const r = await request(`/v1/tasks/${taskId}?wait=60`);
      if (!r.ok) return { ok: false, taskId, stage: 'task', status: r.status, error_message: r.body.detail ?? `HTTP ${r.status}` };
      rec = r.body;
    }
    const finishedMs = performance.now() - t0;
    let pdf;
    if (rec.status === 'done') {
      const url = new URL(rec.download_url, base); // relative or absolute
      if (url.origin !== base) return { ok: false, taskId, stage: 'download', error_message: `download_url ${url.origin} is not this service (${base})` };
      const res = await fetchFresh(url, { signal: AbortSignal.timeout(90_000) });
      if (!res.ok) return { ok: false, taskId, stage: 'download', error_message: `download: HTTP ${res.status} ${(await res.text()).slice(0, 200)}` };
      pdf = new Uint8Array(await res.arrayBuffer());
    }
    const userMs = Math.round(performance.now() - t0);
    const mem = await memoryOf(taskId);
    // The phases of userMs: until the 202, until the task record said it ended, then the download.
    // Under wrangler dev the queue consumer runs in the isolate that answers the request, so the
    // 202 can wait for the conversion itself: the phases are kept (summary.json), not compared.
    const phases = { acceptedMs: Math.round(acceptedMs), finishedMs: Math.round(finishedMs) };
    const common = { taskId, userMs, workerMs: mem?.run_ms ?? null, taskMs: mem?.ms ?? null, heapBytes: mem?.wasm_heap_bytes ?? null, peakEstimateBytes: mem?.peak_estimate_bytes ?? null, phases };
    if (rec.status === 'failed') return { ok: false, stage: 'task', ...common, error_message: rec.error_message, problem: problemOf(rec.error_message) };
    return { ok: true, pdf, ...common, error_message: null };
  }

  return {
    base,
    started: !opts.base,
    logPath: tmp ? join(tmp, 'service.log') : opts.serviceLog,
    /** Worker times are read from the service's stdout: known when started here or with --service-log. */
    workerTimes: !opts.base || Boolean(opts.serviceLog),
    rateLimited: () => rateLimited,
    convert,
    /** Ends the service started here; saveLogTo keeps a copy of its log (for a failure's cause). */
    async close({ saveLogTo } = {}) {
      await svc.stop();
      if (tmp && saveLogTo && existsSync(join(tmp, 'service.log'))) copyFileSync(join(tmp, 'service.log'), saveLogTo);
      if (tmp) {
        rmSync(tmp, { recursive: true, force: true });
        tempDirs.delete(tmp);
      }
    },
  };
}

/**
 * fetch, tried once more when the connection was closed under it before any answer: Node keeps
 * connections alive, and the local service closes one left idle while LibreOffice or the Node
 * path ran (seconds between two documents), so the next request on it fails with "other side
 * closed" without having reached the service. Anything else is thrown as it is.
 */
async function fetchFresh(url, init) {
  try {
    return await fetch(url, init);
  } catch (e) {
    const code = e?.cause?.code ?? '';
    if (!/UND_ERR_SOCKET|ECONNRESET|EPIPE/.test(code)) {
      if (e?.cause) console.error(`service-convert: ${init?.method ?? 'GET'} ${url}: ${e.message} (${code || e.cause.message || e.cause})`);
      throw e;
    }
    return fetch(url, init);
  }
}
