// The anchors: the same operations done by a native tool (qpdf, pdftotext), with wall time and peak RSS from
// `/usr/bin/time -v` (wall time only, from process.hrtime, when /usr/bin/time is missing).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const TIME = '/usr/bin/time';

export const timeAvailable = () => existsSync(TIME);

/** Runs a native tool (qpdf, pdftotext) with `args`; returns { ms, rssBytes|null, exitCode }. */
export function runTool(tool, args) {
  const useTime = timeAvailable();
  const [cmd, argv] = useTime ? [TIME, ['-v', tool, ...args]] : [tool, args];
  const t0 = process.hrtime.bigint();
  const res = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (res.error) throw new Error(`${tool}: ${res.error.message}`);
  // qpdf exits 3 when it succeeded with warnings.
  if (res.status !== 0 && res.status !== 3) throw new Error(`${tool} ${args.join(' ')} exited ${res.status}: ${res.stderr.slice(-1000)}`);
  let rssBytes = null;
  if (useTime) {
    const m = /Maximum resident set size \(kbytes\):\s*(\d+)/.exec(res.stderr);
    if (m) rssBytes = Number(m[1]) * 1024;
  }
  return { ms, rssBytes, exitCode: res.status };
}
