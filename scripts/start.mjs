#!/usr/bin/env node
// npm start [-- wrangler dev args]: applies the D1 migrations to the local database, then runs the
// six Workers offline: the engine Workers (PDF; Office + OCR; HTML; inspect), each group in a
// `wrangler dev` of its own, then the API Worker with local D1, R2, Queues and Durable Objects.
// Separate processes because workerd runs a process's Workers on one thread: an engine busy with a
// file must not hold up an HTTP request. A Worker with static assets (the faces of the PDF, Office
// and HTML Workers, .fonts/ from scripts/fonts-assets.mjs) leads its group: wrangler dev serves the
// assets of a group's first Worker only. They reach each other over service bindings through a dev registry
// of this service's own. Extra arguments go to the API Worker's wrangler dev (npm start -- --port
// 8799 --var NAME:VALUE).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
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
// Locally nobody in front of workerd sets CF-Connecting-IP: a client's own would be believed.
const trustArgs = args.some((a, i) => args[i - 1] === '--var' && a.startsWith('TRUST_CLIENT_IP_HEADER:')) ? [] : ['--var', 'TRUST_CLIENT_IP_HEADER:false'];
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

/** Ports already promised: the caller's own (--port, --inspector-port) and every one handed out here. */
const promised = new Set(args.filter((a, i) => args[i - 1] === '--port' || args[i - 1] === '--inspector-port').map(Number));

/** A port nobody listens on now, on the loopback address, and not promised to another Worker. */
async function freePort() {
  // The API's ports are bound last (after the engines are ready), so the kernel may hand one of
  // them out again in the meantime: a collision ends the service at start-up.
  for (;;) {
    const free = await new Promise((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port: got } = server.address();
        server.close(() => resolve(got));
      });
    });
    if (!promised.has(free)) {
      promised.add(free);
      return free;
    }
  }
}

// The engine Workers, grouped by process: a task in one group never waits behind another's.
const ENGINE_GROUPS = [
  { name: 'pdf', configs: ['workers/pdf/wrangler.toml'] },
  { name: 'office+ocr', configs: ['workers/office/wrangler.toml', 'workers/ocr/wrangler.toml'] },
  { name: 'html', configs: ['workers/html/wrangler.toml'] },
  { name: 'inspect', configs: ['workers/inspect/wrangler.toml'] },
];
// This service's Workers find each other here and nowhere else (another npm start has its own).
const registry = join(tmpdir(), `pdf-edge-registry-${port}`);
rmSync(registry, { recursive: true, force: true });
const devEnv = { ...env, WRANGLER_REGISTRY_PATH: registry };

const children = [];
let stopping = false;
function stopAll(signal = 'SIGTERM') {
  stopping = true;
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill(signal);
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stopAll(sig));

/** Starts one wrangler dev; resolves once it says it is ready. */
function startDev(label, devArgs, { primary = false } = {}) {
  const child = spawn(join(bin, 'wrangler'), ['dev', ...devArgs], { cwd: root, env: devEnv, stdio: ['ignore', primary ? 'inherit' : 'pipe', primary ? 'inherit' : 'pipe'] });
  children.push(child);
  child.on('exit', (code, signal) => {
    // One Worker gone is the service gone: the rest stop with it.
    if (!stopping) console.error(`npm start: the ${label} Worker's wrangler dev ended (${signal ?? code}); stopping the others.`);
    stopAll();
    if (primary || code) process.exitCode = code ?? (signal ? 1 : 0);
  });
  if (primary) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = '';
    const watch = (d) => {
      const text = d.toString('utf8');
      // Engine logs (task events) go to this process's output with the group's name before them.
      for (const line of text.split(/\r?\n/)) if (line.trim()) process.stdout.write(`[${label}] ${line}\n`);
      seen += text;
      if (/Ready on/.test(seen)) {
        seen = '';
        resolve();
      }
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
    child.on('exit', resolve);
  });
}

// Each Worker group's inspector port, for scripts that read its isolate's heap (scripts/bench/heap.mjs).
const inspectors = {};
const inspectorsFile = join(registry, 'inspectors.json');
await Promise.all(
  ENGINE_GROUPS.map(async ({ name, configs }) => {
    const [enginePort, inspectorPort] = [await freePort(), await freePort()];
    inspectors[name] = inspectorPort;
    return startDev(name, [...configs.flatMap((c) => ['-c', c]), '--local', '--ip', '127.0.0.1', '--port', String(enginePort), '--inspector-port', String(inspectorPort)]);
  }),
);
if (!stopping) {
  const asked = args.indexOf('--inspector-port');
  const apiInspectorPort = asked >= 0 ? Number(args[asked + 1]) : await freePort();
  const apiInspector = asked >= 0 ? [] : ['--inspector-port', String(apiInspectorPort)];
  inspectors.api = apiInspectorPort;
  mkdirSync(registry, { recursive: true });
  writeFileSync(inspectorsFile, JSON.stringify(inspectors));
  await startDev('API', ['-c', 'wrangler.toml', '--local', '--test-scheduled', ...apiInspector, ...trustArgs, ...adminArgs, ...args], { primary: true });
}
