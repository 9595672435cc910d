// LibreOffice warm for npm run bench:word, bench:sheet and bench:slides: scripts/lib/lo-warm.py run by a Python with Debian's
// python3-uno, holding one soffice that listens on a UNO socket on 127.0.0.1 (as Gotenberg and
// unoserver run it) with a fresh user profile. convert(path) gives its load-and-export time.
// The Python and its soffice run in their own process group, ended on close(), on exit and (via
// exitOnInterrupt in service-convert.mjs) on Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from '../bench/service.mjs';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'lo-warm.py');

/** A python3 that can `import uno`: Debian's /usr/bin/python3 first (a pyenv shim on PATH has no uno). */
export function findUnoPython() {
  for (const py of ['/usr/bin/python3', 'python3']) {
    if (spawnSync(py, ['-c', 'import uno'], { stdio: 'ignore', timeout: 20_000 }).status === 0) return py;
  }
  return undefined;
}

const live = new Set();
process.on('exit', () => {
  for (const w of live) w.kill();
});

/**
 * Starts the warm LibreOffice; resolves once soffice answers over UNO. `convert(path)` resolves
 * to lo-warm.py's JSON line ({ ok, ms, load_ms, export_ms } or { ok: false, error }).
 */
export async function startLoWarm({ soffice, python, timeoutMs = 180_000 }) {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'lo-warm-profile-'));
  const child = spawn(python, [SCRIPT, '--soffice', soffice, '--port', String(port), '--profile', profile], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
  const waiting = []; // resolvers, in the order the lines will come
  let ended = false;
  const handle = {
    kill() {
      if (!ended) {
        try {
          process.kill(-child.pid, 'SIGKILL'); // the Python and its soffice
        } catch {}
      }
      ended = true;
      rmSync(profile, { recursive: true, force: true });
      live.delete(handle);
    },
  };
  live.add(handle);
  child.on('exit', () => {
    ended = true;
    for (const w of waiting.splice(0)) w({ ok: false, error: `lo-warm.py ended: ${stderr.trim().split('\n').pop() ?? ''}` });
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    let rec;
    try {
      rec = JSON.parse(line);
    } catch {
      return; // not one of ours
    }
    waiting.shift()?.(rec);
  });
  const next = () => new Promise((resolve) => (ended ? resolve({ ok: false, error: 'lo-warm.py is not running' }) : waiting.push(resolve)));
  const withTimeout = (p) => {
    let timer;
    const t = new Promise((resolve) => {
      timer = setTimeout(() => {
        handle.kill(); // a document LibreOffice hangs on: this warm soffice is done for
        resolve({ ok: false, error: `no answer within ${timeoutMs / 1000} s` });
      }, timeoutMs);
    });
    return Promise.race([p, t]).finally(() => clearTimeout(timer));
  };

  const ready = await withTimeout(next());
  if (!ready.ready) {
    handle.kill();
    throw new Error(`warm LibreOffice did not start: ${ready.error ?? stderr.trim()}`);
  }
  return {
    port,
    startMs: ready.start_ms,
    running: () => !ended,
    convert(path) {
      if (ended) return Promise.resolve({ ok: false, error: 'warm LibreOffice is not running' });
      const p = next();
      child.stdin.write(`${path}\n`);
      return withTimeout(p);
    },
    async close() {
      if (!ended) {
        child.stdin.end(); // lo-warm.py terminates its soffice and exits
        await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 15_000).unref())]);
      }
      handle.kill();
    },
  };
}
