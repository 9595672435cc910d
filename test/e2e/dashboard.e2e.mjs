// npm run test:e2e: the dashboard in a real browser (playwright-core driving Debian's chromium)
// against the running service (npm start, all Workers, a throwaway state directory). A new account
// holder's walk-through, then the security probes. Screenshots of every page go to bench-out/e2e/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { PDFDocument } from 'pdf-lib';
import { startService, stopAll } from '../../scripts/bench/service.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shots = join(root, 'bench-out', 'e2e');
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
let svc, browser, receiver;
const deliveries = [];

before(async () => {
  if (!CHROMIUM) throw new Error('npm run test:e2e needs Debian chromium: apt-get install chromium');
  mkdirSync(shots, { recursive: true });
  const state = mkdtempSync(join(tmpdir(), 'e2e-'));
  svc = await startService({ root, logPath: join(state, 'service.log'), extraArgs: ['--persist-to', join(state, 'state'), '--var', 'ALLOW_INSECURE_URLS:true', '--var', 'WEBHOOK_RETRY_DELAYS:1,1,1'] });
  // Off the network but for the service on 127.0.0.1: no background services, and anything
  // else sent to a dead proxy on the loopback (loopback addresses bypass it).
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--proxy-server=http://127.0.0.1:9'] });
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      deliveries.push({ signature: req.headers['x-service-signature'], body });
      res.end('ok');
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});

after(async () => {
  await browser?.close();
  receiver?.close();
  await svc?.stop();
  await stopAll();
});

const admin = (path, body) =>
  fetch(`${svc.base}/admin${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-admin-token': svc.adminToken }, body: body ? JSON.stringify(body) : undefined }).then((r) => r.json());

async function newAccount(email, balance = '20.00') {
  const { account_id } = await admin('/accounts', { email, plan: 'standard', balance });
  const { key_id, secret } = await admin(`/accounts/${account_id}/keys`, { name: 'made by admin' });
  return { id: account_id, keyId: key_id, secret };
}

const pdf = await (async () => {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]);
  return doc.save();
})();

/** rotate on a one-page PDF with `secret`: the HTTP status (202, or 402 when the key's limit is spent) and the body. */
async function rotateWith(secret, extra = {}) {
  const form = new FormData();
  form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'one.pdf');
  const up = await fetch(`${svc.base}/v1/upload`, { method: 'POST', headers: { 'x-api-key': secret }, body: form });
  if (up.status !== 201) return { status: up.status, body: await up.json() };
  const { file_id } = await up.json();
  const res = await fetch(`${svc.base}/v1/pdf/rotate`, { method: 'POST', headers: { 'x-api-key': secret, 'content-type': 'application/json' }, body: JSON.stringify({ file_id, angle: 90, ...extra }) });
  return { status: res.status, body: await res.json() };
}

const balanceWith = (secret) => fetch(`${svc.base}/v1/api-keys/balance`, { headers: { 'x-api-key': secret } }).then((r) => r.status);

test('a new account holder: link, password, sign out and in, a limited key spent to 402, reissue, delete, webhook secret', { timeout: 240_000 }, async () => {
  const email = `holder-${Date.now()}@example.com`;
  const account = await newAccount(email);
  const { url } = await admin(`/accounts/${account.id}/sign-in-link`);
  const context = await browser.newContext();
  const page = await context.newPage();

  await page.goto(url); // opening the link spends nothing (mail scanners open links too)
  await page.getByRole('button', { name: 'Sign in and set a password' }).click();
  assert.match(page.url(), /\/dashboard\/password$/);
  await page.getByLabel(/New password/).fill('correct horse battery staple');
  await page.getByLabel('The same password again').fill('correct horse battery staple');
  await page.getByRole('button', { name: 'Set the password' }).click();
  assert.match(page.url(), /\/dashboard$/);
  await page.screenshot({ path: join(shots, '1-account.png'), fullPage: true });

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  assert.match(page.url(), /\/dashboard\/sign-in$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery staple');
  await page.getByRole('button', { name: 'Sign in' }).click();
  assert.match(page.url(), /\/dashboard$/);
  assert.ok((await page.content()).includes('20.00'));

  await page.getByRole('link', { name: /API keys/ }).click();
  await page.getByLabel('Name', { exact: true }).last().fill('daily 2.50');
  await page.locator('#new-limit').fill('2.50');
  await page.locator('#new-period').selectOption('daily');
  await page.getByRole('button', { name: 'Make the key' }).click();
  await page.screenshot({ path: join(shots, '2-new-key.png'), fullPage: true });
  const secret = await page.locator('#secret').inputValue();
  assert.match(secret, /^sk_/);

  // 1.25 a request: two fit in 2.50, the third is refused by the key's limit.
  assert.equal((await rotateWith(secret)).status, 202);
  assert.equal((await rotateWith(secret)).status, 202);
  const refused = await rotateWith(secret);
  assert.equal(refused.status, 402);
  assert.equal(refused.body.code, 'key_limit_exhausted');

  await page.goto(`${svc.base}/dashboard/keys`);
  const row = page.locator('tr', { hasText: 'daily 2.50' });
  assert.ok((await row.textContent()).includes('2.50 ₽ a day'));
  assert.match(await row.locator('td').nth(2).textContent(), /^2\.50 ₽$/);
  await page.screenshot({ path: join(shots, '3-keys-spent.png'), fullPage: true });

  await row.getByText('Change').click();
  await row.getByRole('button', { name: 'Reissue the secret' }).click();
  const fresh = await page.locator('#secret').inputValue();
  assert.notEqual(fresh, secret);
  assert.equal(await balanceWith(secret), 401);
  assert.equal(await balanceWith(fresh), 200);

  await page.goto(`${svc.base}/dashboard/keys`);
  await page.locator('tr', { hasText: 'daily 2.50' }).getByText('Change').click();
  await page.getByRole('link', { name: 'Delete the key…' }).click();
  await page.screenshot({ path: join(shots, '4-delete-confirm.png'), fullPage: true });
  await page.getByRole('button', { name: 'Delete the key' }).click();
  assert.ok(!(await page.content()).includes('daily 2.50'));
  assert.equal(await balanceWith(fresh), 401);

  // The webhook secret: reissued here, the next delivery is signed with the new one.
  await page.getByRole('link', { name: 'Reissue the webhook secret…' }).click();
  await page.getByRole('button', { name: 'Reissue the secret' }).click();
  const webhookSecret = await page.locator('#secret').inputValue();
  assert.match(webhookSecret, /^whsec_/);
  const port = receiver.address().port;
  assert.equal((await rotateWith(account.secret, { webhook_url: `http://127.0.0.1:${port}/hook` })).status, 202);
  for (let i = 0; i < 100 && !deliveries.length; i++) await new Promise((r) => setTimeout(r, 200));
  assert.equal(deliveries.length, 1, 'one delivery');
  const [, t, v1] = /t=(\d+),v1=([0-9a-f]+)/.exec(deliveries[0].signature);
  assert.equal(createHmac('sha256', webhookSecret).update(`${t}.${deliveries[0].body}`).digest('hex'), v1);

  await page.goto(`${svc.base}/dashboard/history`);
  await page.screenshot({ path: join(shots, '5-history.png'), fullPage: true });
  await page.goto(`${svc.base}/dashboard/balance`);
  await page.screenshot({ path: join(shots, '6-balance.png'), fullPage: true });
  await context.close();
});

test('security: no session → sign-in; another account\'s key → 404; a cross-site POST → 403', { timeout: 120_000 }, async () => {
  const anonymous = await browser.newContext();
  const lost = await anonymous.newPage();
  for (const path of ['/dashboard', '/dashboard/keys', '/dashboard/history', '/dashboard/balance']) {
    await lost.goto(`${svc.base}${path}`);
    assert.match(lost.url(), /\/dashboard\/sign-in$/, path);
  }
  await lost.screenshot({ path: join(shots, '0-sign-in.png'), fullPage: true });
  await anonymous.close();

  const [mine, theirs] = [await newAccount(`mine-${Date.now()}@example.com`), await newAccount(`theirs-${Date.now()}@example.com`)];
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto((await admin(`/accounts/${mine.id}/sign-in-link`)).url);
  await page.getByRole('button', { name: 'Sign in and set a password' }).click();
  const response = await page.goto(`${svc.base}/dashboard/keys/${theirs.keyId}/delete`);
  assert.equal(response.status(), 404);
  const post = await context.request.post(`${svc.base}/dashboard/keys/${theirs.keyId}/reissue`, { headers: { origin: svc.base } });
  assert.equal(post.status(), 404);
  const crossSite = await context.request.post(`${svc.base}/dashboard/sign-out-everywhere`, { headers: { origin: 'https://evil.example' } });
  assert.equal(crossSite.status(), 403);
  assert.equal(await balanceWith(theirs.secret), 200);
  await context.close();
});
