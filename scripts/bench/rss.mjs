// The resident memory of a service's workerd processes, sampled from outside every 100 ms: the
// figure that includes the JS heaps, which workerd does not expose to the Workers themselves.
// npm start runs a workerd per group of Workers (API; PDF; Office + OCR; HTML; inspect): each is told
// apart by the wrangler config its parent `wrangler dev` was started with.
import { execFileSync } from 'node:child_process';

/** The group a wrangler dev's command line runs: the first config's folder (api for wrangler.toml). */
function groupOf(args) {
  const config = /-c\s+(\S+)/.exec(args)?.[1];
  if (!config) return null;
  return /workers\/([^/]+)\//.exec(config)?.[1] ?? 'api';
}

/** Bytes resident in each workerd process of process group `pgid`, by Worker group ({} when none is found). */
export function workerdRssByGroup(pgid) {
  try {
    const out = execFileSync('ps', ['-o', 'pid=,ppid=,rss=,args=', '-g', String(pgid)], { encoding: 'utf8' });
    const procs = new Map();
    for (const line of out.split('\n')) {
      const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(line);
      if (m) procs.set(m[1], { ppid: m[2], rss: Number(m[3]) * 1024, args: m[4] });
    }
    const groups = {};
    for (const p of procs.values()) {
      if (!/workerd/.test(p.args.split(/\s+/)[0] ?? '')) continue;
      let group = null;
      for (let up = procs.get(p.ppid), hops = 0; up && !group && hops < 4; up = procs.get(up.ppid), hops++) group = /wrangler/.test(up.args) ? groupOf(up.args) : null;
      const key = group ?? 'workerd';
      groups[key] = (groups[key] ?? 0) + p.rss;
    }
    return groups;
  } catch {
    return {};
  }
}

/** Bytes resident in all the workerd processes of process group `pgid` (0 when none is found). */
export function workerdRss(pgid) {
  return Object.values(workerdRssByGroup(pgid)).reduce((a, b) => a + b, 0);
}

/**
 * Starts sampling; stop() ends it. `before` is the first total, `max` the highest total so far;
 * `byGroup` each process's highest (`beforeByGroup` its first), to name which one grew.
 */
export function sampleRss(pgid) {
  const first = workerdRssByGroup(pgid);
  const state = { before: 0, max: 0, beforeByGroup: first, byGroup: { ...first }, stop: () => clearInterval(timer) };
  state.before = state.max = Object.values(first).reduce((a, b) => a + b, 0);
  const timer = setInterval(() => {
    const now = workerdRssByGroup(pgid);
    const total = Object.values(now).reduce((a, b) => a + b, 0);
    if (total > state.max) state.max = total;
    for (const [g, bytes] of Object.entries(now)) if (bytes > (state.byGroup[g] ?? 0)) state.byGroup[g] = bytes;
  }, 100);
  return state;
}
