#!/usr/bin/env node
// npm run build: bundles each Worker as `wrangler deploy` would (--dry-run, nothing uploaded) into
// dist/<worker>/, prints each one's size beside the 10 MiB limit on a compressed Worker (paid plan)
// and the 60% every Worker aims to stay under, and fails when one passes 80% of the limit (room
// kept for the engines still to come), when a bundle carries a font face (faces are the Workers'
// static assets, .fonts/), or when the API Worker's bundle holds any of Tesseract.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LIMIT_KIB = 10 * 1024;
/** A Worker past this share of the limit fails the build; TARGET is where each should stay. */
const FAIL_SHARE = 0.8;
const TARGET_SHARE = 0.6;
const WORKERS = [
  { name: 'api', config: 'wrangler.toml' },
  { name: 'office', config: 'workers/office/wrangler.toml' },
  { name: 'html', config: 'workers/html/wrangler.toml' },
  { name: 'ocr', config: 'workers/ocr/wrangler.toml' },
  { name: 'pdf', config: 'workers/pdf/wrangler.toml' },
  { name: 'inspect', config: 'workers/inspect/wrangler.toml' },
];
const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}`, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', CI: '1' };

let failed = false;
const rows = [];
for (const { name, config } of WORKERS) {
  const outdir = join(root, 'dist', name);
  rmSync(outdir, { recursive: true, force: true });
  const run = spawnSync('wrangler', ['deploy', '--dry-run', '-c', config, '--outdir', outdir], { cwd: root, env, encoding: 'utf8' });
  const output = `${run.stdout}${run.stderr}`;
  const size = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
  if (run.status !== 0 || !size) {
    console.error(`npm run build: bundling the ${name} Worker (${config}) failed:\n${output}`);
    process.exit(1);
  }
  const [raw, gzip] = [Number(size[1]), Number(size[2])];
  const over = gzip > FAIL_SHARE * LIMIT_KIB;
  // A face in a bundle: a .ttf module beside the code, or its bytes inlined (TrueType's header).
  const faces = readdirSync(outdir).filter((f) => /\.(ttf|otf)$/i.test(f));
  failed ||= over || faces.length > 0;
  rows.push([name, config, raw, gzip, over, faces]);
}
// The API Worker must not carry the OCR engine (it runs only in the OCR Worker).
const apiFiles = readdirSync(join(root, 'dist', 'api'));
const carriesTesseract = apiFiles.some((f) => f.includes('tesseract') || f.endsWith('.traineddata')) || apiFiles.filter((f) => f.endsWith('.js')).some((f) => readFileSync(join(root, 'dist', 'api', f), 'utf8').includes('TessBaseAPI'));

const pct = (share) => `${(100 * share).toFixed(0)}%`;
console.log(`\nWorker  config                      bundle KiB  gzip KiB  limit KiB  share  target (${pct(TARGET_SHARE)}; fails past ${pct(FAIL_SHARE)})`);
for (const [name, config, raw, gzip, over, faces] of rows) {
  const share = gzip / LIMIT_KIB;
  const verdict = over ? `  PAST ${pct(FAIL_SHARE)} OF THE LIMIT` : share > TARGET_SHARE ? `  over the ${pct(TARGET_SHARE)} target` : '  within target';
  console.log(`${name.padEnd(7)} ${config.padEnd(27)} ${raw.toFixed(0).padStart(10)} ${gzip.toFixed(0).padStart(9)} ${String(LIMIT_KIB).padStart(10)} ${(100 * share).toFixed(1).padStart(5)}%  ${(TARGET_SHARE * LIMIT_KIB).toFixed(0).padStart(6)} KiB${verdict}${faces.length ? `  CARRIES FACES: ${faces.join(', ')}` : ''}`);
}
if (carriesTesseract) console.error('\nnpm run build: the API Worker\'s bundle carries Tesseract, which belongs to the OCR Worker only.');
if (failed || carriesTesseract) process.exit(1);
