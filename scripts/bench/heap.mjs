// Each Worker isolate's memory as V8 reports it through the inspector (Runtime.getHeapUsage): the
// JS heap in use plus ArrayBuffer backing stores (WASM memories among them). workerd gives the
// Workers themselves no such figure, and a process's RSS mixes isolates, compiled code and, in
// the API's process, the local storage simulators. npm start writes each Worker group's inspector
// port to its dev registry folder (scripts/start.mjs). An isolate answers between calls, not
// during a long synchronous one: a peak inside one call shows once it returns (WASM memory never
// shrinks; garbage waits for a collection).
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The inspector ports of the service on `port` ({} when it wrote none). */
export function inspectorPorts(port) {
  try {
    return JSON.parse(readFileSync(join(tmpdir(), `pdf-edge-registry-${port}`, 'inspectors.json'), 'utf8'));
  } catch {
    return {};
  }
}

/** One inspector session: `usage()` resolves to { used, backing } bytes, or null when not answered in `timeoutMs`. */
function session(port) {
  // wrangler's inspector proxy answers only DevTools' origin.
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { origin: 'https://devtools.devprod.cloudflare.dev' } });
  const pending = new Map();
  let id = 0;
  const open = new Promise((resolve) => {
    ws.onopen = () => resolve(true);
    ws.onerror = () => resolve(false);
  });
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    pending.get(m.id)?.(m.result ?? null);
    pending.delete(m.id);
  };
  return {
    async usage(timeoutMs = 1000, collect = false) {
      if (!(await open)) return null;
      // A collection first makes the figure the live memory, not live plus garbage not yet collected.
      if (collect) ws.send(JSON.stringify({ id: ++id, method: 'HeapProfiler.collectGarbage' }));
      const i = ++id;
      const answer = new Promise((resolve) => pending.set(i, resolve));
      ws.send(JSON.stringify({ id: i, method: 'Runtime.getHeapUsage' }));
      const r = await Promise.race([answer, new Promise((resolve) => setTimeout(() => resolve(null), timeoutMs))]);
      return r ? { used: r.usedSize, backing: r.backingStorageSize ?? 0 } : null;
    },
    close: () => ws.close(),
  };
}

/**
 * Connects to every Worker group's isolate of the service on `port`; sample() gives each one's
 * used + backing bytes, after a garbage collection when `collect` (the live figure).
 */
export function heapWatch(port, { collect = false } = {}) {
  const sessions = Object.entries(inspectorPorts(port)).map(([group, p]) => [group, session(p)]);
  return {
    groups: sessions.map(([g]) => g),
    async sample() {
      const out = {};
      await Promise.all(sessions.map(async ([g, s]) => {
        const u = await s.usage(1000, collect);
        if (u) out[g] = u.used + u.backing;
      }));
      return out;
    },
    close: () => sessions.forEach(([, s]) => s.close()),
  };
}
