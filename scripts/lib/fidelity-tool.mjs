// What npm run fidelity and npm run heldout share: LibreOffice's soffice, and the scorer in
// ../shared/tools/fidelity with its dependencies installed.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
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

/** Installs the scorer's dependencies (it imports 'mupdf' from its own node_modules) when missing; false when that fails. */
export function scorerReady(log) {
  if (existsSync(join(TOOL_DIR, 'node_modules', 'mupdf'))) return true;
  log(`npm install in ${TOOL_DIR}`);
  return spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: TOOL_DIR, stdio: 'inherit' }).status === 0;
}
