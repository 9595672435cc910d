// What npm run fidelity, npm run heldout and npm run bench:word share: LibreOffice's soffice (and
// its cold conversion time), and the scorer in ../shared/tools/fidelity with its dependencies installed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { root } from './word-converter.mjs';

export const TOOL_DIR = join(root, '..', 'shared', 'tools', 'fidelity');
export const SCORER = join(TOOL_DIR, 'fidelity.mjs');

/** soffice on PATH or where LibreOffice installs it; undefined when there is none. */
export function findSoffice() {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/bin', '/usr/local/bin', '/opt/libreoffice/program'])) {
    const p = join(dir || '.', 'soffice');
    if (existsSync(p)) return p;
  }
  return undefined;
}

/**
 * One cold LibreOffice conversion of `file` to PDF (soffice --headless with a fresh user profile,
 * as a server without a warm LibreOffice pays it), timed; the PDF is not kept.
 */
export function runSoffice(soffice, file, timeoutMs) {
  const id = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  const profile = join(tmpdir(), `lo-profile-${id}`);
  const outdir = mkdtempSync(join(tmpdir(), 'lo-out-'));
  const t0 = performance.now();
  const r = spawnSync(soffice, [`-env:UserInstallation=file://${profile}`, '--headless', '--norestore', '--convert-to', 'pdf', '--outdir', outdir, file], {
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  const ms = Math.round(performance.now() - t0);
  const produced = existsSync(join(outdir, `${basename(file, extname(file))}.pdf`));
  rmSync(profile, { recursive: true, force: true });
  rmSync(outdir, { recursive: true, force: true });
  return produced ? { ok: true, ms } : { ok: false, ms, error: r.error ? String(r.error.message) : `no PDF (exit ${r.status})` };
}

/** Installs the scorer's dependencies (it imports 'mupdf' from its own node_modules) when missing; false when that fails. */
export function scorerReady(log) {
  if (existsSync(join(TOOL_DIR, 'node_modules', 'mupdf'))) return true;
  log(`npm install in ${TOOL_DIR}`);
  return spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: TOOL_DIR, stdio: 'inherit' }).status === 0;
}
