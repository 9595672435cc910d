#!/usr/bin/env node
// npm run admin -- <command> [options]: a small CLI over the admin API of DECISIONS.md.
//
//   create-account --email E [--plan standard|free|business] [--balance 100] [--key-name NAME] [--limit R --period P]
//       creates an account AND its first key in one call; prints the key secret (shown once)
//   credit --account ID --amount 50.00
//   plan --account ID --plan business [--purchased-at 2026-11-01T00:00:00Z]
//   create-key --account ID --name NAME [--limit 10.00 --period never|daily|weekly|monthly]
//   reissue-key --key ID
//   delete-key --key ID
//   webhook-secret --account ID
//   sign-in-link --account ID       a one-time dashboard sign-in link (first access, password reset)
//
// Options --base (default: PDF_EDGE_URL, else the address the last `npm start` recorded in
// .wrangler/pdf-edge-url, else http://127.0.0.1:8787) and --token (default ADMIN_TOKEN).

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [command, ...rest] = process.argv.slice(2);
const opts = {};
for (let i = 0; i < rest.length; i++) {
  if (!rest[i].startsWith('--')) continue;
  const name = rest[i].slice(2);
  const next = rest[i + 1];
  opts[name] = next === undefined || next.startsWith('--') ? true : (i++, next);
}
// The service npm start last started (it records its address), unless told otherwise.
const startedAt = (() => {
  try {
    return readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '.wrangler', 'pdf-edge-url'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
})();
const base = String(opts.base ?? process.env.PDF_EDGE_URL ?? startedAt ?? 'http://127.0.0.1:8787').replace(/\/+$/, '');
const token = opts.token ?? process.env.ADMIN_TOKEN;

function usage(message) {
  if (message) console.error(`admin: ${message}`);
  console.error('usage: npm run admin -- create-account --email you@example.com [--plan standard] [--balance 100] [--base URL] [--token ADMIN_TOKEN]');
  console.error('       (also: credit, plan, create-key, reissue-key, delete-key, webhook-secret, sign-in-link; see scripts/admin.mjs)');
  process.exit(2);
}

async function call(method, path, body) {
  let res;
  try {
    res = await fetch(`${base}${path}`, {
      method,
      headers: { 'x-admin-token': String(token), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    console.error(`admin: cannot reach ${base} (${err.cause?.code ?? err.message}). Is the service running (npm start)?`);
    process.exit(1);
  }
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (!res.ok) {
    console.error(`admin: ${method} ${path} → ${res.status}: ${data?.detail ?? text}`);
    if (res.status === 404 && path.startsWith('/admin')) console.error('admin: the admin API is off unless the service runs with ADMIN_TOKEN set (ADMIN_TOKEN=... npm start).');
    process.exit(1);
  }
  return data;
}

const need = (...names) => names.forEach((n) => opts[n] === undefined && usage(`--${n} is required for ${command}`));
const keyBody = () => ({ name: String(opts['key-name'] ?? opts.name ?? 'default'), ...(opts.limit ? { limit: String(opts.limit), period: String(opts.period ?? 'never') } : {}) });

if (!command || command === 'help' || opts.help) usage();
if (!token) usage('set ADMIN_TOKEN (the same value the service was started with) or pass --token');

switch (command) {
  case 'create-account': {
    need('email');
    const account = await call('POST', '/admin/accounts', {
      email: String(opts.email),
      plan: String(opts.plan ?? 'standard'),
      balance: String(opts.balance ?? '0'),
      ...(opts['purchased-at'] ? { purchased_at: String(opts['purchased-at']) } : {}),
    });
    const key = await call('POST', `/admin/accounts/${account.account_id}/keys`, keyBody());
    console.log(JSON.stringify({ ...account, ...key }, null, 2));
    console.error(`\nAPI key (shown once): ${key.secret}\nTry: curl -H "X-API-Key: ${key.secret}" ${base}/v1/api-keys/balance`);
    break;
  }
  case 'credit':
    need('account', 'amount');
    console.log(JSON.stringify(await call('POST', `/admin/accounts/${opts.account}/credit`, { amount: String(opts.amount) }), null, 2));
    break;
  case 'plan':
    need('account', 'plan');
    console.log(JSON.stringify(await call('POST', `/admin/accounts/${opts.account}/plan`, { plan: String(opts.plan), ...(opts['purchased-at'] ? { purchased_at: String(opts['purchased-at']) } : {}) }), null, 2));
    break;
  case 'create-key':
    need('account');
    console.log(JSON.stringify(await call('POST', `/admin/accounts/${opts.account}/keys`, keyBody()), null, 2));
    break;
  case 'reissue-key':
    need('key');
    console.log(JSON.stringify(await call('POST', `/admin/keys/${opts.key}/reissue`), null, 2));
    break;
  case 'delete-key':
    need('key');
    await call('DELETE', `/admin/keys/${opts.key}`);
    console.log(`key ${opts.key} deleted`);
    break;
  case 'sign-in-link':
    need('account');
    console.log(JSON.stringify(await call('POST', `/admin/accounts/${opts.account}/sign-in-link`), null, 2));
    break;
  case 'webhook-secret':
    need('account');
    console.log(JSON.stringify(await call('POST', `/admin/accounts/${opts.account}/webhook-secret`), null, 2));
    break;
  default:
    usage(`unknown command ${command}`);
}
