#!/usr/bin/env node
// npm run heldout [-- --src DIR] [--out DIR] [--node] [--base URL --admin-token T]
// Word → PDF fidelity on documents the converter was never tuned on, as the held-out check
// scores it: LibreOffice's own Writer templates (*.ott, *.odt under its share/template, or --src),
// saved by LibreOffice as .docx and as .doc (Word 97), each rendered to PDF by LibreOffice as the
// reference and converted through the service as a user converts (scripts/lib/service-convert.mjs:
// a wrangler dev started as `npm start` starts it, with its own fresh state, or the one at --base),
// and scored with ../shared/tools/fidelity. They are another producer's files (frames, text boxes,
// drawn shapes, fields, section breaks written by LibreOffice's filters), not the corpus. Prints
// per-set mean, min, count below 0.6, failures and the lowest five. --node adds the Node bundle of
// the converter (in this process): its scores beside the service's, and on how many documents the
// two PDFs agree (page count and MuPDF's text of each page). Needs soffice (LibreOffice) and the
// fidelity tool; prints why and stops otherwise.
// OUT (default /tmp/pdf-edge-heldout) keeps gen/ (the .docx/.doc), ref/, ours/ (the service's) and
// with --node node/ PDFs, and summary.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { loadWordConverter } from './lib/word-converter.mjs';
import { SCORER, TOOL_DIR, findSoffice, scorerReady } from './lib/fidelity-tool.mjs';
import { exitOnInterrupt, openService, takeServiceArgs } from './lib/service-convert.mjs';
import { agreement } from './lib/pdf-agree.mjs';

const { opts: serviceOpts, rest: args } = takeServiceArgs(process.argv.slice(2));
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const TEMPLATES = ['/usr/lib/libreoffice/share/template', '/opt/libreoffice/share/template', '/usr/share/libreoffice/template'];
const src = opt('--src', TEMPLATES.find((d) => existsSync(d)));
const out = resolve(opt('--out', '/tmp/pdf-edge-heldout'));
const withNode = args.includes('--node');
// LibreOffice's default export filters for these extensions: "MS Word 2007 XML" and "MS Word 97".
const SETS = [{ ext: 'docx' }, { ext: 'doc' }];
const LOW = 0.6;

const soffice = findSoffice();
if (!soffice) stop('soffice (LibreOffice) is not installed: it writes the documents and renders the references.');
if (!src || !existsSync(src)) stop('no LibreOffice template directory; pass --src DIR with .ott/.odt files.');
if (!existsSync(SCORER)) stop(`the fidelity tool is not at ${SCORER} (../shared is not here).`);
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

// LibreOffice writes every set and its references first: it then does not run beside the service.
for (const set of SETS) {
  const gen = join(out, 'gen', set.ext);
  lo(set.ext, gen, stagedFiles);
  set.documents = readdirSync(gen).filter((f) => f.endsWith(`.${set.ext}`)).sort();
  lo('pdf', join(out, 'ref', set.ext), set.documents.map((f) => join(gen, f)));
}

exitOnInterrupt('heldout');
let service;
try {
  service = await openService(serviceOpts, (m) => console.error(`heldout: ${m}`));
} catch (e) {
  console.error(`heldout: cannot use the service: ${e.message}`);
  process.exit(1);
}
const converter = withNode ? await loadWordConverter() : undefined;

/** Scores a candidate PDF: { score, pages, words, visual } or { score: 0, error }. */
function score(candidate, reference) {
  const r = spawnSync(process.execPath, [SCORER, candidate, reference], { encoding: 'utf8' });
  try {
    const s = JSON.parse(r.stdout.trim().split('\n').pop());
    return { score: s.score, pages: `${s.candidate_pages}/${s.reference_pages}`, words: s.words, visual: s.visual };
  } catch {
    return { score: 0, error: `not scored: ${(r.stderr || r.stdout).trim().split('\n').pop()}` };
  }
}

/** The Node bundle's conversion, in this process (today's converter code, for comparison). */
function convertNode(input, candidate) {
  try {
    const pdf = converter.convert(new Uint8Array(readFileSync(input)));
    writeFileSync(candidate, pdf);
    return { ok: true, pdf };
  } catch (e) {
    return converter.isConversionError(e) ? { ok: false, problem: e.problem, error: `${e.problem}: ${e.message}` } : { ok: false, error: String(e?.stack ?? e).split('\n')[0] };
  }
}

const f3 = (x) => (typeof x === 'number' ? x.toFixed(3) : '-');
const stats = (scores) => ({ mean: scores.reduce((a, b) => a + b, 0) / (scores.length || 1), min: Math.min(...scores), below: scores.filter((s) => s < LOW).length });
const summary = { source: src, scored: 'service', node: withNode, sets: {} };
try {
  for (const set of SETS) {
    const gen = join(out, 'gen', set.ext);
    const oursDir = join(out, 'ours', set.ext);
    const nodeDir = join(out, 'node', set.ext);
    mkdirSync(oursDir, { recursive: true });
    if (withNode) mkdirSync(nodeDir, { recursive: true });
    const rows = [];
    for (const name of set.documents) {
      const stem = basename(name, `.${set.ext}`);
      const reference = join(out, 'ref', set.ext, `${stem}.pdf`);
      if (!existsSync(reference)) continue; // LibreOffice could not render its own file: nothing to score against
      const candidate = join(oursDir, `${stem}.pdf`);
      const s = await service.convert(join(gen, name));
      let row;
      if (s.ok) {
        writeFileSync(candidate, s.pdf);
        row = { file: name, ...score(candidate, reference), workerMs: s.workerMs, userMs: s.userMs };
      } else row = { file: name, score: 0, error: `${s.stage}: ${s.error_message}` };
      if (withNode) {
        const nodePdf = join(nodeDir, `${stem}.pdf`);
        const n = convertNode(join(gen, name), nodePdf);
        row.node = n.ok ? score(nodePdf, reference) : { score: 0, error: n.error };
        try {
          row.agreement = await agreement({ ok: s.ok, pdf: s.pdf, problem: s.problem }, n);
        } catch (e) {
          row.agreement = { agree: false, why: `not compared: ${e.message}` };
        }
      }
      rows.push(row);
    }
    const scores = rows.map((r) => r.score);
    const failed = rows.filter((r) => r.error);
    const entry = { documents: rows.length, ...stats(scores), failed: failed.length, rows };
    let nodeText = '';
    if (withNode) {
      const n = stats(rows.map((r) => r.node.score));
      const agree = rows.filter((r) => r.agreement.agree).length;
      entry.nodeScores = { ...n, failed: rows.filter((r) => r.node.error).length };
      entry.agreement = { agree, documents: rows.length, differ: rows.filter((r) => !r.agreement.agree).map((r) => ({ file: r.file, why: r.agreement.why })) };
      nodeText = `; Node path mean ${f3(n.mean)}, min ${f3(n.min)}, ${entry.nodeScores.failed} failed; Node and Worker paths agree on ${agree}/${rows.length}`;
    }
    summary.sets[set.ext] = entry;
    console.log(`${set.ext.padEnd(4)}: ${rows.length} documents, mean ${f3(entry.mean)}, min ${f3(entry.min)}, ${entry.below} below ${LOW}, ${failed.length} failed${nodeText}`);
    for (const r of failed) console.log(`  failed ${r.file}: ${r.error}`);
    for (const r of [...rows].filter((r) => !r.error).sort((a, b) => a.score - b.score).slice(0, 5)) {
      const node = withNode ? ` node ${f3(r.node.score)}` : '';
      console.log(`  low    ${r.file.padEnd(44)} ${r.pages.padStart(5)} words ${f3(r.words)} visual ${f3(r.visual)} score ${f3(r.score)}${node}`);
    }
    for (const d of entry.agreement?.differ ?? []) console.log(`  differ ${d.file}: ${d.why}`);
  }
} catch (e) {
  console.error(`heldout: ${e?.stack ?? e}`);
  await service.close({ saveLogTo: join(out, 'service.log') });
  process.exit(1);
}
await service.close();
if (service.rateLimited()) console.log(`note: ${service.rateLimited()} requests were rate-limited (429) and retried`);
writeFileSync(join(out, 'summary.json'), JSON.stringify(summary, null, 1));
console.log(`PDFs in ${out}/{ref,ours${withNode ? ',node' : ''}}/<docx|doc>/ (ours: the service's), summary in ${out}/summary.json`);

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

function stop(why) {
  console.log(`heldout: ${why}`);
  process.exit(0);
}
