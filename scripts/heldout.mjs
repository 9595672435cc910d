#!/usr/bin/env node
// npm run heldout [-- --src DIR] [--out DIR] [--keep]
// Word → PDF fidelity on documents the converter was never tuned on, as the held-out check
// scores it: LibreOffice's own Writer templates (*.ott, *.odt under its share/template, or --src),
// saved by LibreOffice as .docx and as .doc (Word 97), each rendered to PDF by LibreOffice as the
// reference and by our converter, and scored with ../shared/tools/fidelity. They are another
// producer's files (frames, text boxes, drawn shapes, fields, section breaks written by
// LibreOffice's filters), not the corpus. Prints per-set mean, min, count below 0.6, failures and
// the lowest five. Needs soffice (LibreOffice) and the fidelity tool; prints why and stops otherwise.
// OUT (default /tmp/pdf-edge-heldout) keeps gen/ (the .docx/.doc), ref/ and ours/ PDFs and summary.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { loadWordConverter } from './lib/word-converter.mjs';
import { SCORER, TOOL_DIR, findSoffice, scorerReady } from './lib/fidelity-tool.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const TEMPLATES = ['/usr/lib/libreoffice/share/template', '/opt/libreoffice/share/template', '/usr/share/libreoffice/template'];
const src = opt('--src', TEMPLATES.find((d) => existsSync(d)));
const out = resolve(opt('--out', '/tmp/pdf-edge-heldout'));
// LibreOffice's default export filters for these extensions: "MS Word 2007 XML" and "MS Word 97".
const SETS = [{ ext: 'docx' }, { ext: 'doc' }];
const LOW = 0.6;

const soffice = findSoffice();
if (!soffice) stop('soffice (LibreOffice) is not installed: it writes the documents and renders the references.');
if (!src || !existsSync(src)) stop('no LibreOffice template directory; pass --src DIR with .ott/.odt files.');
if (!existsSync(SCORER)) stop(`the fidelity tool is not at ${SCORER}.`);
if (!scorerReady((m) => console.error(`heldout: ${m}`))) stop(`npm install failed in ${TOOL_DIR}.`);

const sources = walk(src).filter((f) => /\.(ott|odt)$/i.test(f));
// Several template folders hold files of one name: each keeps its own by a numbered stem.
const stems = new Map();
const named = sources.map((file) => {
  const stem = basename(file, extname(file));
  const n = (stems.get(stem) ?? 0) + 1;
  stems.set(stem, n);
  return { file, stem: n > 1 ? `${stem}-${n}` : stem };
});
console.error(`heldout: ${named.length} LibreOffice documents from ${src}`);

rmSync(out, { recursive: true, force: true });
const profile = `file://${join(out, 'lo-profile')}`;
const lo = (convertTo, outdir, files) => {
  mkdirSync(outdir, { recursive: true });
  if (!files.length) return; // soffice with nothing to convert waits forever
  // One soffice run per batch: a fresh process per file would take minutes.
  spawnSync(soffice, [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', convertTo, '--outdir', outdir, ...files], { stdio: 'ignore', timeout: 600_000 });
};

const staged = join(out, 'src');
mkdirSync(staged, { recursive: true });
for (const { file, stem } of named) writeFileSync(join(staged, `${stem}${extname(file)}`), readFileSync(file));
const stagedFiles = readdirSync(staged).map((f) => join(staged, f));

const converter = await loadWordConverter();
const summary = { source: src, sets: {} };
for (const set of SETS) {
  const gen = join(out, 'gen', set.ext);
  lo(set.ext, gen, stagedFiles);
  const documents = readdirSync(gen).filter((f) => f.endsWith(`.${set.ext}`)).sort();
  lo('pdf', join(out, 'ref', set.ext), documents.map((f) => join(gen, f)));
  const oursDir = join(out, 'ours', set.ext);
  mkdirSync(oursDir, { recursive: true });
  const rows = [];
  for (const name of documents) {
    const stem = basename(name, `.${set.ext}`);
    const reference = join(out, 'ref', set.ext, `${stem}.pdf`);
    if (!existsSync(reference)) continue; // LibreOffice could not render its own file: nothing to score against
    const candidate = join(oursDir, `${stem}.pdf`);
    try {
      writeFileSync(candidate, converter.convert(new Uint8Array(readFileSync(join(gen, name)))));
    } catch (e) {
      rows.push({ file: name, score: 0, error: converter.isWordConversionError(e) ? `${e.problem}: ${e.message}` : String(e?.stack ?? e).split('\n')[0] });
      continue;
    }
    const r = spawnSync(process.execPath, [SCORER, candidate, reference], { encoding: 'utf8' });
    try {
      const s = JSON.parse(r.stdout.trim().split('\n').pop());
      rows.push({ file: name, score: s.score, pages: `${s.candidate_pages}/${s.reference_pages}`, words: s.words, visual: s.visual });
    } catch {
      rows.push({ file: name, score: 0, error: `not scored: ${(r.stderr || r.stdout).trim().split('\n').pop()}` });
    }
  }
  const scores = rows.map((r) => r.score);
  const mean = scores.reduce((a, b) => a + b, 0) / (scores.length || 1);
  const failed = rows.filter((r) => r.error);
  summary.sets[set.ext] = { documents: rows.length, mean, min: Math.min(...scores), below: scores.filter((s) => s < LOW).length, failed: failed.length, rows };
  const f3 = (x) => (typeof x === 'number' ? x.toFixed(3) : '-');
  console.log(`${set.ext.padEnd(4)}: ${rows.length} documents, mean ${f3(mean)}, min ${f3(Math.min(...scores))}, ${scores.filter((s) => s < LOW).length} below ${LOW}, ${failed.length} failed`);
  for (const r of failed) console.log(`  failed ${r.file}: ${r.error}`);
  for (const r of [...rows].filter((r) => !r.error).sort((a, b) => a.score - b.score).slice(0, 5)) {
    console.log(`  low    ${r.file.padEnd(44)} ${r.pages.padStart(5)} words ${f3(r.words)} visual ${f3(r.visual)} score ${f3(r.score)}`);
  }
}
writeFileSync(join(out, 'summary.json'), JSON.stringify(summary, null, 1));
console.log(`PDFs in ${out}/{ref,ours}/<docx|doc>/, summary in ${out}/summary.json`);

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

function stop(why) {
  console.log(`heldout: ${why}`);
  process.exit(0);
}
