#!/usr/bin/env node
/**
 * Writes .fonts/: every face file the service carries (src/fonts/catalog.ts ALL_FACE_FILES), copied
 * from node_modules/ under the same relative path, and coverage.json, the code points each family's
 * regular face draws. The Office, HTML and PDF Workers serve the folder as static assets (their
 * wrangler.toml: [assets] binding FONTS), so the faces are data uploaded beside the Workers, not
 * code inside their bundles; a conversion fetches the faces its document asks for
 * (src/fonts/face-shelf.ts), and picks the fallback faces it needs by coverage.json before it
 * loads any (src/fonts/face-needs.ts). Run by `npm install` (postinstall) and before
 * start/test/build; a file already copied and unchanged is left alone.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asRanges, codePointsOf } from './lib/cmap.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const FONTS_DIR = join(root, '.fonts');

/** The ligature characters the FontBook takes out of every face (LIGATURE_LETTERS): not coverage. */
const LIGATURES = new Set([0xfb00, 0xfb01, 0xfb02, 0xfb03, 0xfb04]);

/** src/fonts/catalog.ts as a module (it imports nothing): its types stripped by esbuild. */
async function catalog() {
  const { transform } = await import('esbuild');
  const { code } = await transform(readFileSync(join(root, 'src', 'fonts', 'catalog.ts'), 'utf8'), { loader: 'ts', format: 'esm' });
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

function copyFresh(file) {
  const from = join(root, 'node_modules', file);
  const to = join(FONTS_DIR, file);
  if (!existsSync(from)) throw new Error(`fonts-assets: ${file} is missing from node_modules (npm install adds it)`);
  if (existsSync(to) && statSync(to).size === statSync(from).size && statSync(to).mtimeMs >= statSync(from).mtimeMs) return;
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
}

const { ALL_FACE_FILES, FACE_FILES } = await catalog();
for (const file of ALL_FACE_FILES) copyFresh(file);
const coverage = Object.fromEntries(
  Object.entries(FACE_FILES).map(([family, styles]) => [family, asRanges(codePointsOf(readFileSync(join(FONTS_DIR, styles.regular))).filter((c) => !LIGATURES.has(c)))]),
);
writeFileSync(join(FONTS_DIR, 'coverage.json'), JSON.stringify(coverage));
