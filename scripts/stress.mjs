#!/usr/bin/env node
// npm run stress [-- --requests 1000]: money under concurrency, end to end.
//
// Starts the service (own local state), creates standard and business accounts whose balances
// and key limits cover only part of the load, and fires N mixed operation requests in parallel:
// successes (rotate of a valid PDF), failures (a damaged PDF: the task fails and is refunded),
// 402s (balance or key limit), 429s (rate limit), included requests (business), two-unit
// operations (a 12 MB input). When every accepted task has ended it audits, through the API and
// then directly in D1 (wrangler d1 execute), that ledger, balances, key spend, included counters
// and the per-task outcomes agree to the kopeck. Exit 1 on any disagreement.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { startService, stopAll } from './bench/service.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argRequests = process.argv.indexOf('--requests');
const TOTAL = argRequests > 0 ? Number(process.argv[argRequests + 1]) : 1000;
const PARALLEL = 40;
const UNIT = 125;

const log = (...a) => console.log('[stress]', ...a);
const kop = (s) => Math.round(Number(s) * 100);
const rub = (k) => (k / 100).toFixed(2);

async function pdf(pages, padBytes = 0) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) doc.addPage([300, 400]).drawText(`page ${i + 1}`, { x: 20, y: 360, size: 14, font });
  // Incompressible padding in an unreferenced stream: a realistic size without a realistic generator.
  if (padBytes) doc.context.register(doc.context.stream(new Uint8Array(randomBytes(padBytes))));
  return doc.save({ useObjectStreams: false });
}

function damaged(bytes) {
  return bytes.slice(0, 150);
}

async function json(res) {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function main() {
  const state = mkdtempSync(join(tmpdir(), 'pdf-edge-stress-'));
  const svc = await startService({ root, logPath: join(state, 'service.log'), extraArgs: ['--persist-to', join(state, 'state')] });
  log(`service on ${svc.base} (state ${state})`);
  const admin = (path, body) =>
    fetch(`${svc.base}${path}`, { method: 'POST', headers: { 'x-admin-token': svc.adminToken, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(json);

  const good = await pdf(2);
  const bad = damaged(await pdf(3));
  const big = await pdf(1, 12_000_000); // 2 size units
  const d = new Date();
  const purchased = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, Math.min(d.getUTCDate(), 28))).toISOString();

  // Accounts: balances and limits that run out under the load.
  const accounts = [];
  for (let i = 0; i < 6; i++) {
    const business = i >= 4;
    const initial = business ? '30.00' : ['40.00', '25.00', '12.50', '60.00'][i];
    const acc = await admin('/admin/accounts', { email: `stress-${i}-${Date.now()}@test.dev`, plan: business ? 'business' : 'standard', balance: initial, ...(business ? { purchased_at: purchased } : {}) });
    const keys = [];
    for (const [name, limit, period] of [['open'], ['daily-5', '5.00', 'daily'], ['ever-2.50', '2.50', 'never']]) {
      const k = await admin(`/admin/accounts/${acc.account_id}/keys`, { name, ...(limit ? { limit, period } : {}) });
      keys.push({ id: k.key_id, secret: k.secret, name, limit: limit ? kop(limit) : null });
    }
    const up = async (bytes, name) => {
      const form = new FormData();
      form.append('file', new Blob([bytes]), name);
      return json(await fetch(`${svc.base}/v1/upload`, { method: 'POST', headers: { 'x-api-key': keys[0].secret }, body: form }));
    };
    accounts.push({ id: acc.account_id, business, initial: kop(initial), keys, files: { good: (await up(good, 'good.pdf')).file_id, bad: (await up(bad, 'bad.pdf')).file_id, big: business ? (await up(big, 'big.pdf')).file_id : null } });
  }
  log(`${accounts.length} accounts × 3 keys; firing ${TOTAL} requests, ${PARALLEL} at a time`);

  // The load.
  const outcomes = { 202: 0, 402: 0, 429: 0, other: 0 };
  const accepted = [];
  let next = 0;
  const t0 = Date.now();
  async function worker() {
    while (next < TOTAL) {
      const n = next++;
      const acct = accounts[n % accounts.length];
      const key = acct.keys[Math.floor(n / accounts.length) % 3];
      const roll = (n * 7919) % 10;
      const file = roll < 6 ? acct.files.good : roll < 9 ? acct.files.bad : acct.files.big ?? acct.files.good;
      const res = await fetch(`${svc.base}/v1/pdf/rotate`, { method: 'POST', headers: { 'x-api-key': key.secret, 'content-type': 'application/json' }, body: JSON.stringify({ file_id: file }) });
      const body = await json(res);
      if (res.status === 202) accepted.push({ acct, key, taskId: body.task_id });
      outcomes[res.status in outcomes ? res.status : 'other']++;
      if (!(res.status in outcomes)) log(`unexpected ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  log(`sent in ${((Date.now() - t0) / 1000).toFixed(1)} s:`, JSON.stringify(outcomes));

  // Every accepted task must end.
  const records = [];
  for (const a of accepted) {
    for (;;) {
      const res = await fetch(`${svc.base}/v1/tasks/${a.taskId}?wait=30`, { headers: { 'x-api-key': a.acct.keys[0].secret } });
      if (res.status === 429) { await new Promise((r) => setTimeout(r, 1000)); continue; }
      const rec = await json(res);
      if (rec.status === 'done' || rec.status === 'failed') { records.push({ ...a, rec }); break; }
    }
  }
  const failed = records.filter((r) => r.rec.status === 'failed');
  log(`all ${records.length} accepted tasks ended: ${records.length - failed.length} done, ${failed.length} failed`);

  // Audit 1: through the API, from the task records alone.
  const problems = [];
  for (const acct of accounts) {
    const mine = records.filter((r) => r.acct === acct);
    const netCharged = mine.filter((r) => !r.rec.refunded).reduce((n, r) => n + kop(r.rec.charge), 0);
    const balance = await json(await fetch(`${svc.base}/v1/api-keys/balance`, { headers: { 'x-api-key': acct.keys[0].secret } }));
    if (kop(balance.balance) !== acct.initial - netCharged) problems.push(`${acct.id}: balance ${balance.balance} ≠ initial ${rub(acct.initial)} − net charges ${rub(netCharged)}`);
    if (kop(balance.spent_month) !== netCharged) problems.push(`${acct.id}: spent_month ${balance.spent_month} ≠ ${rub(netCharged)}`);
    if (kop(balance.balance) < 0) problems.push(`${acct.id}: negative balance ${balance.balance}`);
    const includedLive = mine.filter((r) => r.rec.included && !r.rec.refunded).length;
    if (acct.business && balance.included_used !== includedLive) problems.push(`${acct.id}: included_used ${balance.included_used} ≠ ${includedLive}`);
    for (const key of acct.keys.filter((k) => k.limit !== null)) {
      const spent = mine.filter((r) => r.key === key && !r.rec.refunded).reduce((n, r) => n + kop(r.rec.charge), 0);
      if (spent > key.limit) problems.push(`${acct.id}/${key.name}: spent ${rub(spent)} over its limit ${rub(key.limit)}`);
    }
    for (const r of mine) {
      if (r.rec.status === 'failed' && !r.rec.refunded) problems.push(`${r.taskId}: failed but not refunded`);
      if (r.rec.status === 'done' && r.rec.refunded) problems.push(`${r.taskId}: done and refunded`);
      if (r.rec.included && r.rec.charge !== '0.00') problems.push(`${r.taskId}: included but charged ${r.rec.charge}`);
    }
  }
  await svc.stop();

  // Audit 2: directly in D1.
  const sql = (command) => {
    const out = spawnSync(join(root, 'node_modules', '.bin', 'wrangler'), ['d1', 'execute', 'DB', '--local', '--persist-to', join(state, 'state'), '--json', '--command', command], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}`, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', CI: '1' },
    });
    if (out.status !== 0) throw new Error(`wrangler d1 execute failed: ${out.stderr}`);
    return JSON.parse(out.stdout)[0].results;
  };
  const checks = {
    'accounts whose balance ≠ sum of their ledger': sql(
      'SELECT a.id, a.balance_kopecks, (SELECT SUM(amount_kopecks) FROM ledger l WHERE l.account_id = a.id) AS ledger FROM accounts a WHERE a.balance_kopecks != (SELECT SUM(amount_kopecks) FROM ledger l WHERE l.account_id = a.id)',
    ),
    'tasks with more than one charge or refund': sql("SELECT task_id, kind, COUNT(*) AS n FROM ledger WHERE task_id IS NOT NULL GROUP BY task_id, kind HAVING n > 1"),
    'paid operations whose ledger does not match (charge, and refund iff refunded)': sql(
      `SELECT o.task_id FROM operations o WHERE o.charge_kopecks > 0 AND (
         (SELECT COUNT(*) FROM ledger l WHERE l.task_id = o.task_id AND l.kind = 'charge' AND l.amount_kopecks = -o.charge_kopecks) != 1 OR
         (SELECT COUNT(*) FROM ledger l WHERE l.task_id = o.task_id AND l.kind = 'refund' AND l.amount_kopecks = o.charge_kopecks) != o.refunded)`,
    ),
    'included operations with money in the ledger': sql("SELECT o.task_id FROM operations o JOIN ledger l ON l.task_id = o.task_id WHERE o.included = 1"),
    'failed operations not refunded': sql("SELECT task_id FROM operations WHERE status = 'failed' AND refunded = 0"),
    'operations still queued or processing': sql("SELECT task_id, status FROM operations WHERE status NOT IN ('done', 'failed')"),
    'keys past their limit (net of refunds)': sql(
      "SELECT k.id, k.limit_kopecks, -SUM(l.amount_kopecks) AS spent FROM api_keys k JOIN ledger l ON l.key_id = k.id WHERE k.limit_kopecks IS NOT NULL GROUP BY k.id HAVING spent > k.limit_kopecks",
    ),
  };
  const totals = sql("SELECT COUNT(*) AS ops, SUM(refunded) AS refunded, SUM(included) AS included, SUM(CASE WHEN refunded = 0 THEN charge_kopecks ELSE 0 END) AS net FROM operations")[0];
  for (const [what, rows] of Object.entries(checks)) if (rows.length) problems.push(`D1: ${what}: ${JSON.stringify(rows.slice(0, 5))}`);
  if (totals.ops !== records.length) problems.push(`D1 has ${totals.ops} operations, ${records.length} were accepted`);

  console.log(`
stress: ${TOTAL} requests over ${accounts.length} accounts (4 standard, 2 business) × 3 keys (open, 5.00 daily, 2.50 lifetime)
  answers: 202 × ${outcomes[202]}, 402 × ${outcomes[402]}, 429 × ${outcomes[429]}, other × ${outcomes.other}
  tasks: ${records.length - failed.length} done, ${failed.length} failed (all must be refunded); included ${totals.included}; net charged ${rub(totals.net)} RUB
  audits: ${Object.keys(checks).length} in D1 + balances, spent_month, key spend and included_used through the API
  ${problems.length === 0 ? 'OK: ledger, balances, key spend and included counters agree exactly' : `FAILED (${problems.length}):\n    ${problems.join('\n    ')}`}`);
  if (problems.length === 0) rmSync(state, { recursive: true, force: true });
  else console.log(`  state and service log kept in ${state}`);
  process.exit(problems.length === 0 ? 0 : 1);
}

main().catch(async (err) => {
  console.error('[stress] error:', err);
  await stopAll();
  process.exit(1);
});
