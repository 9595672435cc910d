#!/usr/bin/env node
// npm run verify-webhooks: real deliveries checked by an independent, widely used verifier.
//
// Our signature scheme (t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">, 5-minute tolerance) is
// the one Stripe uses, so Stripe's own library verifies it without any adapter. The script starts
// the service (http receivers allowed, short retry delays), receives a task.done, a task.failed
// and a retried delivery on a local receiver, verifies every attempt with
// Stripe.webhooks.constructEvent, checks that a wrong secret and a tampered body are refused, and
// that a reissued secret signs the next attempt. Exit 1 on any failure.
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Stripe from 'stripe';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { startService, stopAll } from './bench/service.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const checks = [];
const check = (ok, what) => {
  checks.push({ ok, what });
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
};
const stripeVerifies = (body, header, secret) => {
  try {
    Stripe.webhooks.constructEvent(body, header, secret, 300);
    return true;
  } catch {
    return false;
  }
};

async function pdf() {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([300, 400]).drawText('webhook', { x: 20, y: 360, size: 14, font });
  return doc.save();
}

async function main() {
  // The receiver: records raw bodies; /flaky answers 500 to its first attempt.
  const received = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const d = { path: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(d);
      const attempt = received.filter((r) => r.path === d.path).length;
      res.writeHead(d.path === '/flaky' && attempt === 1 ? 500 : 200).end('ok');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const hook = (path) => `http://127.0.0.1:${server.address().port}${path}`;
  const waitFor = async (path, n) => {
    for (let i = 0; i < 300 && received.filter((r) => r.path === path).length < n; i++) await new Promise((r) => setTimeout(r, 100));
    return received.filter((r) => r.path === path);
  };

  const state = mkdtempSync(join(tmpdir(), 'pdf-edge-webhooks-'));
  const svc = await startService({
    root,
    logPath: join(state, 'service.log'),
    extraArgs: ['--persist-to', join(state, 'state'), '--var', 'ALLOW_INSECURE_URLS:true', '--var', 'WEBHOOK_RETRY_DELAYS:1,2,3'],
  });
  const admin = (path, body) =>
    fetch(`${svc.base}${path}`, { method: 'POST', headers: { 'x-admin-token': svc.adminToken, 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) }).then((r) => r.json());
  const account = await admin('/admin/accounts', { email: `hooks-${Date.now()}@test.dev`, balance: '10.00' });
  const { secret: apiKey } = await admin(`/admin/accounts/${account.account_id}/keys`, { name: 'hooks' });
  const api = (path, init = {}) => fetch(`${svc.base}${path}`, { ...init, headers: { 'x-api-key': apiKey, ...init.headers } }).then((r) => r.json());
  const upload = async (bytes) => {
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'hook.pdf');
    return (await api('/v1/upload', { method: 'POST', body: form })).file_id;
  };
  const rotate = (fileId, path) =>
    api('/v1/pdf/rotate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ file_id: fileId, webhook_url: hook(path) }) });

  try {
    const good = await upload(await pdf());
    const broken = await upload((await pdf()).slice(0, 120));

    await rotate(good, '/done');
    const [done] = await waitFor('/done', 1);
    check(!!done, 'task.done delivered');
    check(stripeVerifies(done.body, done.headers['x-service-signature'], account.webhook_secret), 'Stripe.webhooks.constructEvent verifies task.done');
    check(!stripeVerifies(done.body, done.headers['x-service-signature'], `${account.webhook_secret}x`), 'a wrong secret is refused');
    check(!stripeVerifies(done.body.replace('task.done', 'task.dong'), done.headers['x-service-signature'], account.webhook_secret), 'a tampered body is refused');

    await rotate(broken, '/failed');
    const [failed] = await waitFor('/failed', 1);
    check(failed && JSON.parse(failed.body).event === 'task.failed', 'task.failed delivered');
    check(failed && stripeVerifies(failed.body, failed.headers['x-service-signature'], account.webhook_secret), 'Stripe.webhooks.constructEvent verifies task.failed');

    await rotate(good, '/flaky');
    const [first] = await waitFor('/flaky', 1);
    const { webhook_secret: reissued } = await admin(`/admin/accounts/${account.account_id}/webhook-secret`);
    const attempts = await waitFor('/flaky', 2);
    check(attempts.length === 2 && attempts[0].headers['x-service-delivery'] === attempts[1].headers['x-service-delivery'], 'a retry keeps X-Service-Delivery');
    check(stripeVerifies(first.body, first.headers['x-service-signature'], account.webhook_secret), 'first attempt verifies with the old secret');
    check(
      stripeVerifies(attempts[1].body, attempts[1].headers['x-service-signature'], reissued) &&
        !stripeVerifies(attempts[1].body, attempts[1].headers['x-service-signature'], account.webhook_secret),
      'the retry after reissuing verifies with the new secret only',
    );
  } finally {
    await svc.stop();
    server.close();
  }
  const failedChecks = checks.filter((c) => !c.ok).length;
  console.log(`\nverify-webhooks: ${checks.length - failedChecks}/${checks.length} checks passed (verifier: stripe ${Stripe.PACKAGE_VERSION ?? ''})`);
  if (failedChecks === 0) rmSync(state, { recursive: true, force: true });
  else console.log(`state and service log kept in ${state}`);
  process.exit(failedChecks ? 1 : 0);
}

main().catch(async (err) => {
  console.error('verify-webhooks:', err);
  await stopAll();
  process.exit(1);
});
