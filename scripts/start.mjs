#!/usr/bin/env node
// npm start [-- wrangler dev args]: applies the D1 migrations to the local database, then runs
// `wrangler dev` with both Workers (API and OCR) and local D1, R2, Queues and Durable Objects, offline. Extra arguments are
// passed through (npm start -- --port 8799 --var NAME:VALUE).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The address of the last `npm start` (read by scripts/admin.mjs). */
const URL_FILE = join(root, '.wrangler', 'pdf-edge-url');
const bin = join(root, 'node_modules', '.bin');
const env = {
  ...process.env,
  PATH: `${bin}:${process.env.PATH}`, // Node 22 from the `node` package, wrangler's floor
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_SEND_METRICS: 'false',
  CI: process.env.CI ?? '1', // no interactive prompts from wrangler
};
const args = process.argv.slice(2);
// `--persist-to DIR` moves the local state: the migrations must go to the same place.
const persistAt = args.indexOf('--persist-to');
const persistArgs = persistAt >= 0 ? ['--persist-to', args[persistAt + 1]] : [];
const firstStart = !existsSync(join(persistAt >= 0 ? args[persistAt + 1] : join(root, '.wrangler', 'state'), 'v3', 'd1'));

const migrate = spawnSync(join(bin, 'wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', ...persistArgs], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
if (migrate.status !== 0) {
  console.error('npm start: applying the D1 migrations failed (see above).');
  process.exit(migrate.status ?? 1);
}

const portArg = args.indexOf('--port');
const port = portArg >= 0 ? args[portArg + 1] : '8787';
const hasAdminToken = args.some((a, i) => args[i - 1] === '--var' && a.startsWith('ADMIN_TOKEN:'));
const adminArgs = hasAdminToken || process.env.ADMIN_TOKEN === undefined ? [] : ['--var', `ADMIN_TOKEN:${process.env.ADMIN_TOKEN}`];

if (firstStart || !hasAdminToken) {
  console.log(`
pdf-edge is starting on http://127.0.0.1:${port}
  Create an account and an API key (the admin API needs ADMIN_TOKEN, e.g. ADMIN_TOKEN=dev npm start):
    ADMIN_TOKEN=dev npm run admin -- create-account --email you@example.com --balance 100 --base http://127.0.0.1:${port}
  Then: curl -H "X-API-Key: <secret>" -F file=@doc.pdf http://127.0.0.1:${port}/v1/upload
  API reference: http://127.0.0.1:${port}/docs
`);
}

// Where this service answers, for npm run admin (scripts/admin.mjs) to find it on any port.
const ipArg = args.indexOf('--ip');
const host = ipArg >= 0 ? args[ipArg + 1] : '127.0.0.1';
// Not for a service with its own state (--persist-to: the benchmarks' throwaway services).
if (persistAt < 0) {
  mkdirSync(join(root, '.wrangler'), { recursive: true });
  writeFileSync(URL_FILE, `http://${host.includes(':') ? `[${host}]` : host}:${port}\n`);
}

// All three Workers in one wrangler dev: the API Worker (first config: it serves HTTP), the convert
// Worker and the OCR Worker, sharing the local D1, R2, Queues and Durable Objects.
const configs = ['-c', 'wrangler.toml', '-c', 'workers/convert/wrangler.toml', '-c', 'workers/ocr/wrangler.toml'];
const child = spawn(join(bin, 'wrangler'), ['dev', ...configs, '--local', '--test-scheduled', ...adminArgs, ...args], { cwd: root, env, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
