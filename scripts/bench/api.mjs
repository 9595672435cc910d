// Minimal client of the pdf-edge HTTP API for the benchmark.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

async function call(url, init, what) {
  const res = await fetch(url, init);
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${typeof body === 'string' ? body.slice(0, 500) : JSON.stringify(body)}`);
  return body;
}

/**
 * Creates an account with a balance and an API key; returns { accountId, apiKey }. The Word
 * benchmarks ask for plan 'business' and a balance that covers hundreds of conversions.
 */
export async function createAccount(svc, email, { plan = 'standard', balance = '100.00' } = {}) {
  const admin = { 'content-type': 'application/json', 'x-admin-token': svc.adminToken };
  const acc = await call(`${svc.base}/admin/accounts`, { method: 'POST', headers: admin, body: JSON.stringify({ email, plan, balance }) }, 'create account');
  const key = await call(`${svc.base}/admin/accounts/${acc.account_id}/keys`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'bench' }) }, 'create key');
  return { accountId: acc.account_id, apiKey: key.secret };
}

export async function upload(svc, apiKey, path) {
  const form = new FormData();
  form.append('file', new Blob([readFileSync(path)], { type: 'application/pdf' }), basename(path));
  return call(`${svc.base}/v1/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form }, `upload ${basename(path)}`);
}

/** POST /v1/pdf/<op>; returns the task id. */
export async function submit(svc, apiKey, op, body) {
  const res = await call(`${svc.base}/v1/pdf/${op}`, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) }, `POST /v1/pdf/${op}`);
  return res.task_id;
}

/** Long-polls the task until it is done or failed; returns its record. */
export async function waitTask(svc, apiKey, taskId, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rec = await call(`${svc.base}/v1/tasks/${taskId}?wait=60`, { headers: { 'x-api-key': apiKey }, signal: AbortSignal.timeout(75_000) }, `GET /v1/tasks/${taskId}`);
    if (rec.status === 'done' || rec.status === 'failed') return rec;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${rec.status} after ${timeoutMs / 1000} s`);
  }
}

export async function download(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`download ${url}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** The task_memory lines the consumer printed, by task id (the last line wins on retries). */
export function taskMemory(lines) {
  const out = new Map();
  for (const line of lines) {
    const at = line.indexOf('{"event":"task_memory"');
    if (at < 0) continue;
    try {
      const rec = JSON.parse(line.slice(at, line.lastIndexOf('}') + 1));
      const list = out.get(rec.task_id) ?? [];
      list.push(rec);
      out.set(rec.task_id, list);
    } catch {
      // a line we cannot parse is not ours
    }
  }
  return out;
}
