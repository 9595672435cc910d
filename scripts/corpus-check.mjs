#!/usr/bin/env node
// npm run corpus: every PDF of ../shared/corpus/pdf through the page operations of a freshly started
// local service, the results checked with MuPDF (page counts) and `qpdf --check` (structure, compared
// with the input's own baseline), failures checked for a refund and a readable message, and the
// balance checked against the charges of the tasks that succeeded.
//
//   npm run corpus                       all PDFs
//   npm run corpus -- --only tracemonkey only files whose name contains the text (repeatable)
//   npm run corpus -- --keep             keep the work directory (logs, results) even when all is well
//
// Each result is read back with MuPDF: page count (and, where the pages' text tells them apart, that
// the pages are the expected input pages in the expected order; for rotate, /Rotate + 90), and
// `qpdf --check` (ok / no worse than the input's own check / worse).
//
// The service runs as `npm start` would run it (D1 migrations, then wrangler dev --local) but with
// its own state directory inside a temporary work directory, in its own process group, ended at exit.
// If it stops answering, it is restarted on the same state (up to 3 times) and that is reported.
//
// Exit 0: everything as expected (or the corpus is absent: skipped). Exit 1: a wrong page count or
// page order, a result qpdf finds worse than its input, a failed task without refund or with an empty
// or internal-looking message, a task not ended within 120 s, a 5xx response, an upload or download
// that did not work, the service hanging, or a balance that is not initial − charges of done tasks.
import { spawnSync } from 'node:child_process';
import { startService as startDevService } from './bench/service.mjs';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpusDir = resolve(root, '..', 'shared', 'corpus');
const pdfDir = join(corpusDir, 'pdf');

const TASK_DEADLINE_MS = 120_000; // a task must end within this long after it was accepted
const START_TIMEOUT_MS = 180_000; // wrangler dev: migrations, bundling, workerd start
const MIN_REQUEST_GAP_MS = 100; // ≤ 10 requests/s, half the per-key limit
const MAX_UPLOAD_BYTES = 50 * 1024 * 1024; // the standard plan's limit: 413 above it is a valid outcome
const INITIAL_BALANCE = '1000.00';
const MAX_RESTARTS = 3; // restarts of a service that stopped answering, before the check gives up

// ---------------------------------------------------------------------------------------------
// Arguments and preconditions

const args = process.argv.slice(2);
const only = args.flatMap((a, i) => (args[i - 1] === '--only' ? [a] : []));
const keepWork = args.includes('--keep');

if (!existsSync(corpusDir) || !existsSync(pdfDir)) {
  console.log(`corpus-check: skipped: the shared corpus is absent (${corpusDir} with a pdf/ folder not found).`);
  process.exit(0);
}
const qpdfVersion = spawnSync('qpdf', ['--version'], { encoding: 'utf8' });
if (qpdfVersion.status !== 0) {
  console.error('corpus-check: qpdf is not installed (or not on PATH): it is needed to check inputs and results.');
  process.exit(1);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const work = mkdtempSync(join(tmpdir(), 'pdf-edge-corpus-'));
const logPath = join(work, 'service.log');

// ---------------------------------------------------------------------------------------------
// The service: `npm start` with its own state directory inside the work directory (so neither the
// developer's local data nor another local service's lock on the SQLite files can affect the
// check), in its own process group, started and stopped by the bench's service helper.

let service = null; // { base, adminToken, stop() }
let starts = 0;

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    console.error(`\ncorpus-check: ${sig}: stopping the service`);
    process.exit(130); // the helper's exit hook ends the process group
  });
}

async function startService() {
  const log = starts++ === 0 ? logPath : join(work, `service-restart-${starts - 1}.log`);
  service = await startDevService({ root, logPath: log, extraArgs: ['--persist-to', join(work, 'state')], startTimeoutMs: START_TIMEOUT_MS });
}

/** Whether GET /healthz answers 200 within a few seconds. */
async function healthy() {
  if (!service) return false;
  try {
    const res = await fetch(`${service.base}/healthz`, { signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

async function stopService() {
  await service?.stop();
  service = null;
}

// ---------------------------------------------------------------------------------------------
// HTTP: paced (≤ 10 requests/s), 429 honoured, every 5xx recorded

const serverErrors = []; // { what, status, body }
let nextSlot = 0;

async function pace() {
  const now = Date.now();
  const at = Math.max(now, nextSlot);
  nextSlot = at + MIN_REQUEST_GAP_MS;
  if (at > now) await sleep(at - now);
}

/** One request; returns { status, headers, json, text, bytes }. Throws on network errors only. */
async function http(method, url, { headers = {}, body, json, timeoutMs = 90_000, binary = false, what } = {}) {
  const label = what ?? `${method} ${new URL(url).pathname}`;
  for (let attempt = 0; ; attempt++) {
    await pace();
    const init = { method, headers: { ...headers }, signal: AbortSignal.timeout(timeoutMs) };
    if (json !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(json);
    } else if (body !== undefined) init.body = body;
    const res = await fetch(url, init);
    if (res.status === 429 && attempt < 20) {
      await res.arrayBuffer();
      const retryAfter = Number(res.headers.get('retry-after'));
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 1000);
      continue;
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = binary && res.ok ? '' : new TextDecoder().decode(bytes);
    let parsed = null;
    if (!binary || !res.ok) {
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
    }
    if (res.status >= 500) serverErrors.push({ what: label, status: res.status, body: text.slice(0, 300) });
    return { status: res.status, headers: res.headers, json: parsed, text, bytes };
  }
}

const problemText = (r) => r.json?.detail ?? r.json?.title ?? r.text.slice(0, 200);

// ---------------------------------------------------------------------------------------------
// Local checks: MuPDF page counts, qpdf --check

let mupdf;
let unzipSync;

/**
 * Page count of PDF bytes and, per page, a fingerprint (MediaBox and a hash of the page's text) and
 * the effective /Rotate, or { error } when MuPDF cannot read them. Fingerprints let the order of the
 * result's pages be compared with the input's; they are null when the text cannot be read.
 */
function readPdf(bytes) {
  let doc;
  try {
    doc = mupdf.Document.openDocument(bytes, 'application/pdf');
    if (doc.needsPassword()) return { error: 'encrypted (needs a password)' };
    const pages = doc.countPages();
    let fps = [];
    let rotations = [];
    const pdf = doc.asPDF();
    try {
      for (let i = 0; i < pages; i++) {
        const page = doc.loadPage(i);
        try {
          const st = page.toStructuredText();
          const text = st.asText();
          st.destroy();
          const obj = pdf?.findPage(i);
          const rotate = obj?.getInheritable('Rotate');
          rotations.push(rotate?.isNumber() ? (((rotate.asNumber() % 360) + 360) % 360) : 0);
          const box = obj?.getInheritable('MediaBox').toString() ?? '';
          // Text as MuPDF extracts it depends on the page's rotation: rotate is compared by box and /Rotate only.
          fps.push({ box, full: `${box}:${createHash('sha1').update(text.replace(/\s+/g, '')).digest('hex').slice(0, 12)}` });
        } finally {
          page.destroy();
        }
      }
    } catch {
      fps = null;
      rotations = null;
    }
    return { pages, fps, rotations };
  } catch (err) {
    return { error: `MuPDF cannot open it: ${err?.message ?? err}` };
  } finally {
    doc?.destroy();
  }
}

const LEVEL = { ok: 0, warnings: 1, errors: 2 };

/** `qpdf --check`: exit 0 = ok, 3 = warnings, 2 (or anything else) = errors. */
function qpdfCheck(path) {
  const r = spawnSync('qpdf', ['--check', path], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
  const verdict = r.status === 0 ? 'ok' : r.status === 3 ? 'warnings' : 'errors';
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  const issues = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /WARNING|ERROR|error|damaged|invalid|unable|not found|expected/i.test(l) && !/^checking |^PDF Version|^File is not encrypted|^File is not linearized|^No syntax or stream encoding errors/i.test(l));
  return { verdict, rc: r.status, issues, output };
}

/** The result's qpdf verdict against the input's: ok, no worse than the input, or worse. */
function compareQpdf(result, baseline) {
  if (result.verdict === 'ok') return 'ok';
  return LEVEL[result.verdict] <= LEVEL[baseline.verdict] ? 'no-worse' : 'worse';
}

const worstOf = (verdicts) => (verdicts.includes('worse') ? 'worse' : verdicts.includes('no-worse') ? 'no-worse' : 'ok');

const STACK_LIKE = /\n\s*at\s|\bat\s+\S+\s+\(|\b(TypeError|RangeError|ReferenceError|SyntaxError|RuntimeError|Error):|\.(ts|js|mjs):\d+|wasm-function|\bstack\b|undefined is not|null is not|cannot read propert/i;

// ---------------------------------------------------------------------------------------------
// One file through the operations

const range = (a, b) => Array.from({ length: Math.max(0, b - a + 1) }, (_, i) => a + i);

function plansFor(fileId, n) {
  // n: the page count the upload reported (null when it could not be read): parameters assume 1 page then.
  // `order`: for each result member, the input pages it should hold, in order (null: unknown).
  const pages = n ?? 1;
  const known = n != null;
  const plans = [];
  plans.push({ op: 'rotate', body: { file_id: fileId, angle: 90 }, expect: known ? [n] : null, order: known ? [range(1, n)] : null, rotation: 90 });
  const extract = pages >= 2 ? [1, pages] : [1];
  plans.push({ op: 'extract-pages', label: `extract-pages [${extract.join(',')}]`, body: { file_id: fileId, pages: extract }, expect: [extract.length], order: [extract] });
  if (pages >= 2) plans.push({ op: 'delete-pages', label: `delete-pages [${pages}]`, body: { file_id: fileId, pages: [pages] }, expect: [pages - 1], order: [range(1, pages - 1)] });
  const listed = pages <= 50 ? range(1, pages).reverse() : [pages];
  const reordered = [...listed, ...range(1, pages).filter((p) => !listed.includes(p))];
  plans.push({ op: 'reorder-pages', label: pages <= 50 ? 'reorder-pages reverse' : `reorder-pages [${pages}]`, body: { file_id: fileId, new_order: listed }, expect: known ? [n] : null, order: known ? [reordered] : null });
  if (pages >= 2) {
    const half = Math.ceil(pages / 2);
    plans.push({ op: 'split', label: 'split half', body: { file_id: fileId, mode: 'half' }, expect: [half, pages - half], order: [range(1, half), range(half + 1, pages)], zip: ['part-1.pdf', 'part-2.pdf'] });
  }
  plans.push({ op: 'merge', label: 'merge [this,this]', body: { file_ids: [fileId, fileId] }, expect: known ? [2 * n] : null, order: known ? [[...range(1, n), ...range(1, n)]] : null });
  // The editing operations keep every page; those that draw on pages change their text, so only
  // the page count is checked for them (order: null), and qpdf as for the rest.
  plans.push({ op: 'compress', label: 'compress medium', body: { file_id: fileId, level: 'medium' }, expect: known ? [n] : null, order: known ? [range(1, n)] : null });
  plans.push({ op: 'flatten', body: { file_id: fileId }, expect: known ? [n] : null, order: null });
  plans.push({ op: 'add-page-numbers', body: { file_id: fileId }, expect: known ? [n] : null, order: null });
  plans.push({ op: 'watermark', label: 'watermark text', body: { file_id: fileId, text: 'Черновик' }, expect: known ? [n] : null, order: null });
  plans.push({ op: 'sign', label: 'sign text', body: { file_id: fileId, signature_data: 'Иван Петров' }, expect: known ? [n] : null, order: null });
  // Pictures of the first and last pages: each member must be a JPEG that decodes.
  const shown = pages >= 2 ? [1, pages] : [1];
  plans.push({ op: 'to-jpg', label: `to-jpg 72 [${shown.join(',')}]`, body: { file_id: fileId, dpi: 72, pages: shown }, expect: null, order: null, zip: shown.map((p) => `page-${p}.jpg`).sort(), pictures: true });
  return plans;
}

async function waitTask(ctx, taskId, acceptedAt) {
  for (;;) {
    const left = TASK_DEADLINE_MS - (Date.now() - acceptedAt);
    const wait = Math.max(0, Math.min(60, Math.ceil(left / 1000)));
    let r;
    try {
      r = await http('GET', `${ctx.base}/v1/tasks/${taskId}?wait=${wait}`, { headers: ctx.auth, timeoutMs: (wait + 30) * 1000, what: `GET /v1/tasks/${taskId}` });
    } catch (err) {
      return { error: `polling failed: ${err.message}` };
    }
    if (r.status !== 200) return { error: `GET /v1/tasks → ${r.status}: ${problemText(r)}` };
    const rec = r.json;
    if (rec.status === 'done' || rec.status === 'failed') return { rec, ms: Date.now() - acceptedAt };
    if (Date.now() - acceptedAt >= TASK_DEADLINE_MS) return { rec, timedOut: true };
  }
}

async function checkResult(ctx, file, plan, row, rec) {
  let r;
  try {
    r = await http('GET', rec.download_url, { binary: true, timeoutMs: 120_000, what: `download ${plan.op}` });
  } catch (err) {
    row.problems.push(`download failed: ${err.message}`);
    return;
  }
  if (r.status !== 200) {
    row.problems.push(`download → ${r.status}: ${problemText(r)}`);
    return;
  }
  const stem = `${basename(file.name, '.pdf')}.${plan.op}`;
  let members;
  if (plan.zip) {
    let entries;
    try {
      entries = unzipSync(r.bytes);
    } catch (err) {
      row.problems.push(`the result is not a readable ZIP: ${err.message}`);
      row.pagesGot = 'bad zip';
      row.wrongPages = true;
      return;
    }
    const names = Object.keys(entries).sort();
    if (names.join(',') !== plan.zip.join(',')) row.problems.push(`ZIP members ${JSON.stringify(names)}, expected ${JSON.stringify(plan.zip)}`);
    members = plan.zip.map((name) => ({ name, bytes: entries[name] ?? null }));
  } else {
    members = [{ name: 'result.pdf', bytes: r.bytes }];
  }

  if (plan.pictures) {
    for (const m of members) {
      try {
        if (!m.bytes || m.bytes[0] !== 0xff || m.bytes[1] !== 0xd8) throw new Error('not a JPEG');
        const image = new mupdf.Image(m.bytes);
        if (!(image.getWidth() > 0 && image.getHeight() > 0)) throw new Error('no pixels');
      } catch (err) {
        row.problems.push(`${m.name}: ${err.message}`);
        row.wrongPages = true;
      }
    }
    row.pagesGot = members.length;
    return;
  }
  const got = [];
  const verdicts = [];
  for (const [mi, m] of members.entries()) {
    if (!m.bytes) {
      got.push('missing');
      continue;
    }
    const path = join(ctx.resultsDir, `${stem}.${m.name}`);
    writeFileSync(path, m.bytes);
    const count = readPdf(m.bytes);
    got.push(count.pages ?? 'unreadable');
    if (count.error) row.problems.push(`${m.name}: ${count.error}`);
    // Order: only where the count is right and both sides could be fingerprinted.
    const want = plan.order?.[mi];
    const input = file.read;
    if (want && count.fps && input?.fps && count.pages === want.length) {
      const expected = want.map((p) => input.fps[p - 1]);
      const key = plan.rotation ? 'box' : 'full';
      const bad = expected.findIndex((fp, i) => fp[key] !== count.fps[i][key]);
      if (bad >= 0) {
        row.wrongOrder = true;
        row.problems.push(`${members.length > 1 ? `${m.name}: ` : ''}page ${bad + 1} is not input page ${want[bad]} (pages not in the expected order or not the expected pages)`);
      }
      if (plan.rotation) {
        const badRot = want.findIndex((p, i) => count.rotations[i] !== (input.rotations[p - 1] + plan.rotation) % 360);
        if (badRot >= 0) {
          row.wrongOrder = true;
          row.problems.push(`page ${badRot + 1} has /Rotate ${count.rotations[badRot]}, expected ${(input.rotations[want[badRot] - 1] + plan.rotation) % 360}`);
        }
      }
    }
    const q = qpdfCheck(path);
    const v = compareQpdf(q, file.baseline);
    verdicts.push(v);
    row.qpdfDetail.push({ member: m.name, verdict: q.verdict, rc: q.rc, issues: q.issues, path });
  }
  row.pagesGot = got.join('+');
  row.pagesExpected = plan.expect ? plan.expect.join('+') : '?';
  if (plan.expect) {
    row.wrongPages = got.length !== plan.expect.length || got.some((g, i) => g !== plan.expect[i]);
  } else {
    row.wrongPages = got.some((g) => typeof g !== 'number'); // page count unknown at upload: only readability
  }
  row.qpdf = worstOf(verdicts);
  if (row.qpdf !== 'ok') {
    const verdictText = [...new Set(row.qpdfDetail.map((d) => d.verdict))].join('/');
    row.qpdfText = `${row.qpdf === 'worse' ? 'WORSE' : 'no worse'} (${verdictText}; input ${file.baseline.verdict})`;
  } else row.qpdfText = 'ok';
}

async function runFile(ctx, file) {
  file.baseline = qpdfCheck(join(pdfDir, file.name));
  file.rows = [];

  // Upload
  if (file.size > MAX_UPLOAD_BYTES) file.note = 'larger than the 50 MB limit: a 413 is expected';
  const form = new FormData();
  form.append('file', new Blob([readFileSync(join(pdfDir, file.name))], { type: 'application/pdf' }), file.name);
  let up;
  try {
    up = await http('POST', `${ctx.base}/v1/upload`, { headers: ctx.auth, body: form, timeoutMs: 120_000, what: `upload ${file.name}` });
  } catch (err) {
    file.upload = { ok: false, status: 'error', detail: err.message };
    return;
  }
  if (up.status === 201) {
    file.upload = { ok: true, status: 201, pages: up.json.pages ?? null, fileId: up.json.file_id, contentType: up.json.content_type, size: up.json.size };
  } else {
    file.upload = { ok: false, status: up.status, detail: problemText(up), tooLarge: up.status === 413 };
    return;
  }

  file.read = readPdf(readFileSync(join(pdfDir, file.name)));

  // Submit the operations (one file at a time, its operations side by side)
  const plans = plansFor(file.upload.fileId, file.upload.pages);
  const running = [];
  for (const plan of plans) {
    const row = { op: plan.label ?? plan.op, status: '', pagesExpected: plan.expect ? plan.expect.join('+') : '?', pagesGot: '', qpdf: null, qpdfText: '', qpdfDetail: [], error: '', problems: [], wrongPages: false, wrongOrder: false };
    file.rows.push(row);
    let r;
    try {
      r = await http('POST', `${ctx.base}/v1/pdf/${plan.op}`, { headers: ctx.auth, json: plan.body, what: `POST /v1/pdf/${plan.op} (${file.name})` });
    } catch (err) {
      row.status = 'error';
      row.problems.push(`submit failed: ${err.message}`);
      continue;
    }
    if (r.status !== 202) {
      row.status = `rejected ${r.status}`;
      row.error = problemText(r);
      if (r.status >= 500) row.problems.push(`submit → ${r.status}`);
      continue;
    }
    row.taskId = r.json.task_id;
    running.push({ plan, row, acceptedAt: Date.now() });
  }

  await Promise.all(
    running.map(async ({ plan, row, acceptedAt }) => {
      const w = await waitTask(ctx, row.taskId, acceptedAt);
      if (w.error) {
        row.status = 'error';
        row.problems.push(w.error);
        return;
      }
      const rec = w.rec;
      row.charge = rec.charge;
      if (w.timedOut) {
        row.status = `timeout (${rec.status})`;
        row.timedOut = true;
        row.problems.push(`not ended within ${TASK_DEADLINE_MS / 1000} s (status ${rec.status})`);
        ctx.unfinished.push({ taskId: row.taskId, row });
        return;
      }
      row.ms = w.ms;
      row.status = rec.status;
      if (rec.status === 'done') {
        ctx.doneCharges.push(rec.charge);
        if (!rec.download_url) {
          row.problems.push('done without a download_url');
          return;
        }
        await checkResult(ctx, file, plan, row, rec);
      } else {
        row.refunded = rec.refunded === true;
        row.error = rec.error_message ?? '';
        if (!row.refunded) row.problems.push('failed WITHOUT refund');
        if (!row.error.trim()) row.problems.push('failed with an empty error_message');
        else if (STACK_LIKE.test(row.error)) row.problems.push('error_message looks like an internal error/stack trace');
      }
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Report

const kopecksOf = (s) => {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(String(s ?? '').trim());
  if (!m) return NaN;
  return (m[1] ? -1 : 1) * (Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0')));
};
const rub = (k) => `${k < 0 ? '-' : ''}${Math.floor(Math.abs(k) / 100)}.${String(Math.abs(k) % 100).padStart(2, '0')}`;
const trunc = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function printTable(files) {
  const header = ['operation', 'status', 'pages exp/got', 'qpdf (vs input)', 'error_message / problems'];
  const lines = [];
  for (const f of files) {
    const up = f.upload;
    const upText = !up
      ? 'not uploaded'
      : up.ok
        ? `upload 201, pages ${up.pages ?? 'null'}${up.contentType && up.contentType !== 'application/pdf' ? `, stored as ${up.contentType}` : ''}`
        : up.status === 'not run'
          ? `not run: ${up.detail}`
          : up.tooLarge
          ? `upload 413 (over the size limit: valid outcome): ${trunc(up.detail ?? '', 60)}`
          : `upload FAILED ${up.status}: ${trunc(up.detail ?? '', 80)}`;
    const hung = f.hung ? '; !! the SERVICE STOPPED ANSWERING here (restarted)' : '';
    lines.push({ fileLine: `${f.name}  [${(f.size / 1024).toFixed(0)} KB; ${upText}; input qpdf: ${f.baseline?.verdict ?? '?'}${hung}]` });
    for (const r of f.rows ?? []) {
      const status = r.status === 'failed' ? `failed${r.refunded ? ' (refunded)' : ' (NOT refunded)'}` : r.status;
      const pages = r.status === 'done' ? `${r.pagesExpected}/${r.pagesGot}${r.wrongPages ? ' WRONG' : ''}${r.wrongOrder ? ' ORDER' : ''}` : '';
      const msg = [r.error ? trunc(r.error.replace(/\s+/g, ' '), 70) : '', ...r.problems.map((p) => `!! ${trunc(p, 90)}`)].filter(Boolean).join(' | ');
      lines.push({ cells: [`  ${r.op}`, status, pages, r.status === 'done' ? r.qpdfText : '', msg] });
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...lines.filter((l) => l.cells).map((l) => l.cells[i].length)));
  widths[4] = header[4].length; // the last column is not padded
  const fmt = (cells) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd();
  console.log(fmt(header));
  console.log(fmt(widths.map((w, i) => '-'.repeat(i === 4 ? 24 : w))));
  for (const l of lines) console.log(l.fileLine ?? fmt(l.cells));
}

function printQpdfDetails(files) {
  const worse = [];
  for (const f of files) for (const r of f.rows ?? []) for (const d of r.qpdfDetail) if (r.qpdf === 'worse' && compareQpdf(d, f.baseline) === 'worse') worse.push({ f, r, d });
  if (!worse.length) return;
  console.log('\nqpdf --check on results worse than their input:');
  for (const { f, r, d } of worse) {
    console.log(`  ${f.name} / ${r.op}${d.member !== 'result.pdf' ? ` / ${d.member}` : ''}: qpdf exit ${d.rc} (${d.verdict}; input: ${f.baseline.verdict}, exit ${f.baseline.rc})`);
    for (const issue of d.issues.slice(0, 5)) console.log(`      ${trunc(issue, 200)}`);
    if (d.issues.length > 5) console.log(`      … ${d.issues.length - 5} more`);
  }
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
  mupdf = await import('mupdf');
  mupdf.setLog(() => {}); // MuPDF's repair warnings about damaged files are expected: keep stdout readable
  ({ unzipSync } = await import('fflate'));

  const names = readdirSync(pdfDir)
    .filter((n) => n.toLowerCase().endsWith('.pdf'))
    .filter((n) => only.length === 0 || only.some((o) => n.includes(o)))
    .sort();
  if (names.length === 0) {
    console.log(`corpus-check: skipped: no PDFs in ${pdfDir}${only.length ? ` matching ${only.join(', ')}` : ''}.`);
    return 0;
  }

  console.log(`corpus-check: ${names.length} PDFs from ${pdfDir}; work directory ${work}`);
  const newest = newestSource(join(root, 'src'));
  if (newest) console.log(`corpus-check: service source src/ as of ${new Date(newest.mtimeMs).toISOString()} (newest file: ${newest.path})`);
  console.log(`corpus-check: starting the service (log: ${logPath}) …`);
  const t0 = Date.now();
  await startService();
  console.log(`corpus-check: service up on ${service.base} after ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const admin = { 'x-admin-token': service.adminToken };
  const acc = await http('POST', `${service.base}/admin/accounts`, { headers: admin, json: { email: `corpus-${Date.now()}@example.com`, plan: 'standard', balance: INITIAL_BALANCE } });
  if (acc.status !== 201 && acc.status !== 200) throw new Error(`creating the account → ${acc.status}: ${problemText(acc)}`);
  const key = await http('POST', `${service.base}/admin/accounts/${acc.json.account_id}/keys`, { headers: admin, json: { name: 'corpus-check' } });
  if (key.status !== 201 && key.status !== 200) throw new Error(`creating the key → ${key.status}: ${problemText(key)}`);
  const ctx = { base: service.base, auth: { 'x-api-key': key.json.secret }, resultsDir: work, doneCharges: [], unfinished: [], hangs: [] };

  const bal0 = await http('GET', `${ctx.base}/v1/api-keys/balance`, { headers: ctx.auth });
  if (bal0.status !== 200) throw new Error(`GET /v1/api-keys/balance → ${bal0.status}: ${problemText(bal0)}`);
  const initialKopecks = kopecksOf(bal0.json.balance);

  const files = names.map((name) => ({ name, size: statSync(join(pdfDir, name)).size }));
  let serviceDown = null;
  for (const [i, file] of files.entries()) {
    if (serviceDown) {
      file.upload = { ok: false, status: 'not run', detail: 'the service had stopped answering' };
      continue;
    }
    const t = Date.now();
    await runFile(ctx, file);
    const networkTrouble = file.upload?.status === 'error' || (file.rows ?? []).some((r) => r.status === 'error');
    if (networkTrouble && !(await healthy())) {
      // The service hangs: that is a finding. Restart it on the same state (the account, its key and
      // balance live in D1) so that the other files still get checked; give up after a few restarts.
      const what = `the service stopped answering /healthz while ${file.name} was processed`;
      ctx.hangs.push({ file: file.name, what });
      file.hung = true;
      if (ctx.hangs.length > MAX_RESTARTS) {
        serviceDown = `${what}; ${MAX_RESTARTS} restarts spent (see ${logPath})`;
        console.log(`  !! ${serviceDown}: the remaining files are not run`);
      } else {
        console.log(`  !! ${what}: restarting it (see ${logPath})`);
        await stopService();
        await startService();
        ctx.base = service.base;
      }
    }
    const summary = (file.rows ?? []).map((r) => `${r.op.split(' ')[0]}:${r.status}${r.problems.length || r.wrongPages || r.qpdf === 'worse' ? '!' : ''}`).join(' ');
    const up = file.upload?.ok ? `${file.upload.pages ?? '?'}p` : `upload ${file.upload?.status}`;
    console.log(`  [${String(i + 1).padStart(2)}/${files.length}] ${file.name} (${up}) ${((Date.now() - t) / 1000).toFixed(1)} s  ${summary}`);
  }

  // Tasks that did not end in time may still end now: look once more so the balance can be explained.
  let pendingKopecks = 0;
  for (const u of ctx.unfinished) {
    try {
      const r = await http('GET', `${ctx.base}/v1/tasks/${u.taskId}`, { headers: ctx.auth, timeoutMs: 15_000 });
      const st = r.json?.status;
      u.row.problems.push(`later status: ${st ?? r.status}`);
      if (st === 'done') pendingKopecks += kopecksOf(r.json.charge);
      else if (st !== 'failed') pendingKopecks += kopecksOf(r.json?.charge);
    } catch (err) {
      u.row.problems.push(`later status unknown: ${err.message}`);
    }
  }

  let finalKopecks = NaN;
  let balanceError = '';
  try {
    const bal1 = await http('GET', `${ctx.base}/v1/api-keys/balance`, { headers: ctx.auth, timeoutMs: 15_000 });
    if (bal1.status === 200) finalKopecks = kopecksOf(bal1.json.balance);
    else balanceError = `GET /v1/api-keys/balance → ${bal1.status}`;
  } catch (err) {
    balanceError = `GET /v1/api-keys/balance failed: ${err.message}`;
  }
  const chargedKopecks = ctx.doneCharges.reduce((n, c) => n + kopecksOf(c), 0);
  const expectedKopecks = initialKopecks - chargedKopecks;
  const balanceOk = finalKopecks === expectedKopecks;

  // Report
  console.log('');
  printTable(files);
  printQpdfDetails(files);

  const rows = files.flatMap((f) => f.rows ?? []);
  const done = rows.filter((r) => r.status === 'done');
  const failed = rows.filter((r) => r.status === 'failed');
  const failedRefunded = failed.filter((r) => r.refunded);
  const badMessages = failed.filter((r) => r.problems.some((p) => /error_message/.test(p)));
  const wrongPages = done.filter((r) => r.wrongPages);
  const wrongOrder = done.filter((r) => r.wrongOrder && !r.wrongPages);
  const worse = done.filter((r) => r.qpdf === 'worse');
  const noWorse = done.filter((r) => r.qpdf === 'no-worse');
  const timedOut = rows.filter((r) => r.timedOut);
  const rejected = rows.filter((r) => r.status.startsWith('rejected'));
  const otherErrors = rows.filter((r) => r.status === 'error' || (r.status === 'done' && !r.wrongOrder && !r.wrongPages && r.problems.length > 0));
  const uploads = files.map((f) => f.upload).filter(Boolean);
  const uploadsOk = uploads.filter((u) => u.ok).length;
  const uploads413 = uploads.filter((u) => u.tooLarge).length;
  const uploadsFailed = uploads.filter((u) => !u.ok && !u.tooLarge && u.status !== 'not run');
  const notRun = uploads.filter((u) => u.status === 'not run').length;

  console.log('\nTotals');
  console.log(`  files:                      ${files.length} (uploaded ${uploadsOk}, 413 over the limit ${uploads413}, upload failed ${uploadsFailed.length}${notRun ? `, not run ${notRun}` : ''})`);
  console.log(`  tasks:                      ${rows.length - rejected.length} accepted${rejected.length ? `, ${rejected.length} rejected at submit (${[...new Set(rejected.map((r) => r.status))].join(', ')})` : ''}`);
  console.log(`  tasks done:                 ${done.length} (qpdf: ${done.length - noWorse.length - worse.length} ok, ${noWorse.length} no worse than input, ${worse.length} worse)`);
  console.log(`  tasks failed:               ${failed.length} (${failedRefunded.length} refunded, ${failed.length - failedRefunded.length} NOT refunded; ${badMessages.length} with an empty or internal-looking message)`);
  console.log(`  wrong page counts:          ${wrongPages.length}${wrongPages.length ? ` (${wrongPages.map((r) => `${fileOf(files, r)} / ${r.op}: ${r.pagesExpected} expected, got ${r.pagesGot}`).join('; ')})` : ''}`);
  console.log(`  wrong page order/rotation: ${wrongOrder.length}${wrongOrder.length ? ` (${wrongOrder.map((r) => `${fileOf(files, r)} / ${r.op}`).join('; ')})` : ''}`);
  console.log(`  qpdf worse than input:      ${worse.length}${worse.length ? ` (${worse.map((r) => `${fileOf(files, r)} / ${r.op}`).join('; ')})` : ''}`);
  console.log(`  not ended within ${TASK_DEADLINE_MS / 1000} s:    ${timedOut.length}`);
  console.log(`  5xx responses:              ${serverErrors.length}${serverErrors.length ? ` (${serverErrors.map((e) => `${e.what} → ${e.status}`).join('; ')})` : ''}`);
  if (otherErrors.length) console.log(`  other problems:             ${otherErrors.length} (${otherErrors.map((r) => `${fileOf(files, r)} / ${r.op}: ${r.problems.join(', ')}`).join('; ')})`);
  console.log(
    `  balance check:              ${balanceOk ? 'OK' : Number.isNaN(finalKopecks) ? 'UNKNOWN' : 'MISMATCH'}: initial ${rub(initialKopecks)} − charges of ${done.length} done tasks ${rub(chargedKopecks)} = ${rub(expectedKopecks)}; balance now ${Number.isNaN(finalKopecks) ? `unknown (${balanceError})` : rub(finalKopecks)}` +
      (balanceOk ? '' : ` (difference ${Number.isNaN(finalKopecks) ? '?' : rub(finalKopecks - expectedKopecks)}${pendingKopecks ? `; ${rub(pendingKopecks)} charged for tasks that had not ended in time` : ''})`),
  );

  const failures = [
    wrongPages.length && `${wrongPages.length} wrong page count(s)`,
    worse.length && `${worse.length} result(s) worse than the input under qpdf --check`,
    wrongOrder.length && `${wrongOrder.length} result(s) with pages in the wrong order or rotation`,
    failed.length - failedRefunded.length && `${failed.length - failedRefunded.length} failed task(s) without refund`,
    badMessages.length && `${badMessages.length} failed task(s) with an empty or internal-looking error_message`,
    timedOut.length && `${timedOut.length} task(s) not ended within ${TASK_DEADLINE_MS / 1000} s`,
    serverErrors.length && `${serverErrors.length} 5xx response(s)`,
    otherErrors.length && `${otherErrors.length} other problem(s) (downloads, polling)`,
    uploadsFailed.filter((u) => u.status === 'error' || u.status >= 500).length && 'upload error(s)',
    !balanceOk && (Number.isNaN(finalKopecks) ? 'balance unknown' : 'balance mismatch'),
    ctx.hangs.length && `the service stopped answering ${ctx.hangs.length} time(s)`,
  ].filter(Boolean);
  if (ctx.hangs.length) console.log(`  service hangs:              ${ctx.hangs.length} (${ctx.hangs.map((h) => h.file).join('; ')})${serviceDown ? `; ${serviceDown}` : ''}`);
  console.log(`\ncorpus-check: ${failures.length ? `FAILED: ${failures.join('; ')}` : 'OK'}`);
  return failures.length ? 1 : 0;
}

/** The most recently modified file under `dir` (which version of the service is under test). */
function newestSource(dir) {
  let best = null;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const { mtimeMs } = statSync(p);
        if (!best || mtimeMs > best.mtimeMs) best = { path: p.slice(root.length + 1), mtimeMs };
      }
    }
  };
  try {
    walk(dir);
  } catch {
    return null;
  }
  return best;
}

function fileOf(files, row) {
  return files.find((f) => f.rows?.includes(row))?.name ?? '?';
}

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error(`corpus-check: ${err?.stack ?? err}`);
  code = 1;
} finally {
  await stopService();
}
if (code === 0 && !keepWork) rmSync(work, { recursive: true, force: true });
else console.log(`corpus-check: logs and results kept in ${work}`);
process.exit(code);
