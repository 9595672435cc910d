// Runs pdf-edge locally (`npm start`, i.e. wrangler dev) for the benchmark: a detached child in its
// own process group on a free port, stdout and stderr captured, and a way to end the whole group.
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Every live service, so that an exit or a signal can end their process groups. */
const live = new Set();

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // the group is gone already
  }
}

process.on('exit', () => {
  for (const svc of live) killGroup(svc.pid, 'SIGKILL');
});

/**
 * Starts the service. `logPath` receives everything it prints; `lines()` gives the stdout lines
 * so far. Resolves once GET /healthz answers 200.
 */
export async function startService(options) {
  // A wrangler dev that dies while starting (a port taken between choosing and binding it, a
  // workerd that fails to come up on a loaded machine) is retried once with new ports; a service
  // that cannot start twice is a real failure, reported with the end of its log.
  try {
    return await startOnce(options, 'w');
  } catch (err) {
    if (!/exited during start-up/.test(err.message)) throw err;
    console.error(`${err.message}\n${logTail(options.logPath)}\nstarting it once more`);
    try {
      return await startOnce(options, 'a');
    } catch (again) {
      throw new Error(`${again.message}\n${logTail(options.logPath)}`);
    }
  }
}

function logTail(logPath, lines = 30) {
  try {
    return readFileSync(logPath, 'utf8').split(/\r?\n/).slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function startOnce({ root, logPath, extraArgs = [], startTimeoutMs = 400_000 }, logFlags) {
  const port = await freePort();
  const inspectorPort = await freePort();
  const adminToken = randomBytes(16).toString('hex');
  const base = `http://127.0.0.1:${port}`;
  const args = ['start', '--', '--port', String(port), '--ip', '127.0.0.1', '--inspector-port', String(inspectorPort), '--var', `ADMIN_TOKEN:${adminToken}`, ...extraArgs];
  const child = spawn('npm', args, {
    cwd: root,
    detached: true, // own process group: npm, node, wrangler, workerd all end together
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  const log = createWriteStream(logPath, { flags: logFlags });
  let stdout = '';
  let exited = null;
  child.stdout.on('data', (d) => {
    stdout += d.toString('utf8');
    log.write(d);
  });
  child.stderr.on('data', (d) => log.write(d));
  const exitedPromise = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    });
  });

  const svc = {
    pid: child.pid,
    port,
    base,
    adminToken,
    logPath,
    lines: () => stdout.split(/\r?\n/),
    async stop() {
      if (!live.has(svc)) return;
      live.delete(svc);
      if (exited === null) killGroup(child.pid, 'SIGTERM');
      const deadline = Date.now() + 8_000;
      // wrangler may leave workerd behind for a moment: wait for the whole group, then force it.
      while (Date.now() < deadline) {
        if (exited !== null && !killGroup(child.pid, 0)) break;
        await sleep(100);
      }
      killGroup(child.pid, 'SIGKILL');
      await Promise.race([exitedPromise, sleep(2_000)]);
      await new Promise((r) => log.end(r));
    },
  };
  live.add(svc);

  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (exited !== null) {
      await svc.stop();
      throw new Error(`the service exited during start-up (${JSON.stringify(exited)}); see ${logPath}`);
    }
    try {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await svc.stop();
      throw new Error(`the service did not answer ${base}/healthz within ${startTimeoutMs / 1000} s; see ${logPath}`);
    }
    await sleep(250);
  }
  return svc;
}

/** Stops every service still running (for error paths). */
export async function stopAll() {
  await Promise.all([...live].map((s) => s.stop()));
}
