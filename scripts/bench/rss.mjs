// The resident memory of a service's workerd process(es), sampled from outside every 100 ms: the
// figure that includes the JS heaps, which workerd does not expose to the Workers themselves.
import { execFileSync } from 'node:child_process';

/** Bytes resident in the workerd processes of process group `pgid` (0 when none is found). */
export function workerdRss(pgid) {
  try {
    const out = execFileSync('ps', ['-o', 'rss=,comm=', '-g', String(pgid)], { encoding: 'utf8' });
    let kb = 0;
    for (const line of out.split('\n')) {
      const [rss, comm] = line.trim().split(/\s+/);
      if (comm && comm.includes('workerd')) kb += Number(rss) || 0;
    }
    return kb * 1024;
  } catch {
    return 0;
  }
}

/** Starts sampling; stop() ends it. `before` is the first sample, `max` the highest so far. */
export function sampleRss(pgid) {
  const state = { before: workerdRss(pgid), max: 0, stop: () => clearInterval(timer) };
  state.max = state.before;
  const timer = setInterval(() => {
    const now = workerdRss(pgid);
    if (now > state.max) state.max = now;
  }, 100);
  return state;
}
