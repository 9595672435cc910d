#!/usr/bin/env node
// npm run fidelity [-- --only SUBSTRING]... [--node] [--no-soffice] [--no-baseline] [--out DIR] [--timeout S]
//                  [--base URL --admin-token T [--service-log FILE]]
// npm run fidelity -- --xlsx [--dir DIR] [--only SUBSTRING]... [--no-soffice] [--no-baseline] [--out DIR] [--timeout S] [...]
// npm run fidelity -- --pptx [--dir DIR] ...: the decks of ../shared/corpus/pptx through pptx-to-pdf; --dir adds
//                  the decks in DIR (PPTX and ODP) as `heldout`, each scored against DIR/<file>.pdf or LibreOffice's print of it
// npm run fidelity -- --html ... (scripts/fidelity-html.mjs)
// Converts every .docx and .doc of ../shared/corpus/{docx,doc} through the service, as a user gets
// it (scripts/lib/service-convert.mjs: a wrangler dev started as `npm start` starts it, with its
// own fresh state, or the one at --base), and scores the PDFs against the LibreOffice references
// in ../shared/corpus-ref/{docx,doc}/<file>.pdf with ../shared/tools/fidelity/fidelity.mjs. Times:
// the conversion inside the Worker (run_ms of the consumer's task_memory line) and what the user
// waits (operation request to PDF downloaded). Alongside: the baseline (MuPDF's own Office import,
// scored the same way; it cannot open .doc) and LibreOffice's cold time on the same file in the
// same run (soffice --headless --convert-to pdf with a fresh user profile each time).
// --node adds the Node bundle of the converter (each document in a fresh scripts/convert.mjs
// process): its score beside the service's, and whether the two PDFs agree (page count and
// MuPDF's text of each page).
// Documents without a reference (encrypted, truncated) are not scored: for those the service must
// refuse with the expected problem (at upload or as the task's error_message).
// Service PDFs go to DIR/<docx|doc>/<file>.pdf (named like the references), Node's to
// DIR/<docx|doc>-node/, the baseline's to DIR/<docx|doc>-mupdf/, and a JSON summary to
// DIR/summary.json (with the path scored). DIR: /tmp/pdf-edge-fidelity.
//
// --xlsx: the spreadsheets instead, through POST /v1/pdf/xlsx-to-pdf: ../shared/corpus/{xlsx,xls}
// (and ods when ../shared/corpus/ods exists) against ../shared/corpus-ref/<cat>/<file>.pdf, the
// same columns (MuPDF's baseline opens XLSX, not XLS; LibreOffice's cold time); DIR defaults to
// /tmp/pdf-edge-fidelity-sheet, so that the Word summary bench:word reads stays. --dir DIR adds
// the workbooks in DIR as the category `heldout`, each scored against DIR/<file>.pdf, or when
// there is none, against LibreOffice's rendering of it made in this run (OUT/heldout-ref/).
// Warm LibreOffice times and the 0.25× target: npm run bench:sheet.
// The loop is scripts/lib/fidelity-run.mjs; this file holds the options and what each kind scores.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { root } from './lib/word-converter.mjs';
import { SERVICE_USAGE, takeServiceArgs } from './lib/service-convert.mjs';
import { runFidelity } from './lib/fidelity-run.mjs';
import { SHEET_EXPECTED_FAILURES, SHEET_EXT, SHEET_OPERATION, sheetCategories, speaksOfWord } from './lib/sheet-corpus.mjs';
import { SLIDES_EXPECTED_FAILURES, SLIDES_OPERATION } from './lib/slides-corpus.mjs';

// ---------------------------------------------------------------------------------------------
// Options

// --html: the HTML pages instead, against Chromium's print (scripts/fidelity-html.mjs).
if (process.argv.includes('--html')) {
  await import('./fidelity-html.mjs');
  process.exit(0);
}
const USAGE =
  `usage: npm run fidelity [-- --only SUBSTRING]... [--node] [--no-soffice] [--no-baseline] [--out DIR] [--timeout SECONDS] ${SERVICE_USAGE}\n` +
  `       npm run fidelity -- --xlsx [--dir DIR] [--only SUBSTRING]... [--no-soffice] [--no-baseline] [--out DIR] [--timeout SECONDS] ${SERVICE_USAGE}\n` +
  `       npm run fidelity -- --pptx [--dir DIR] [--only SUBSTRING]... [--no-soffice] [--no-baseline] [--out DIR] [--timeout SECONDS] ${SERVICE_USAGE}\n` +
  '       npm run fidelity -- --html ...';
const { opts: serviceOpts, rest: argv } = takeServiceArgs(process.argv.slice(2));
const opts = { only: [], node: false, soffice: true, baseline: true, out: undefined, timeoutMs: 180_000 };
let sheets = false;
let slides = false;
let heldout;
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--only' && argv[i + 1] !== undefined) opts.only.push(argv[++i]);
  else if (a === '--node') opts.node = true;
  else if (a === '--no-soffice') opts.soffice = false;
  else if (a === '--no-baseline') opts.baseline = false;
  else if (a === '--out' && argv[i + 1]) opts.out = resolve(argv[++i]);
  else if (a === '--timeout' && argv[i + 1]) opts.timeoutMs = Number(argv[++i]) * 1000;
  else if (a === '--xlsx') sheets = true;
  else if (a === '--pptx') slides = true;
  else if (a === '--dir' && argv[i + 1]) heldout = resolve(argv[++i]);
  else {
    console.error(USAGE);
    process.exit(2);
  }
}
if (slides && (opts.node || sheets)) {
  console.error('fidelity: --pptx runs the decks of ../shared/corpus/pptx (and --dir DIR) through the service alone');
  process.exit(2);
}
if (sheets && opts.node) {
  console.error('fidelity: --node runs the Word converter\'s Node bundle; there is none for spreadsheets (use --xlsx without it)');
  process.exit(2);
}
if (heldout && !sheets && !slides) {
  console.error('fidelity: --dir DIR adds held-out workbooks or decks: use it with --xlsx or --pptx');
  process.exit(2);
}
if (heldout && !existsSync(heldout)) {
  console.error(`fidelity: --dir ${heldout}: no such directory`);
  process.exit(2);
}
opts.out ??= sheets ? '/tmp/pdf-edge-fidelity-sheet' : slides ? '/tmp/pdf-edge-fidelity-slides' : '/tmp/pdf-edge-fidelity';

// ---------------------------------------------------------------------------------------------
// What each kind scores

const SHARED = resolve(root, '..', 'shared');
const CORPUS = join(SHARED, 'corpus');
const REFS = join(SHARED, 'corpus-ref');
const corpusSet = (category) => ({ category, dir: join(CORPUS, category), refDir: join(REFS, category) });

const WORD = {
  label: 'fidelity',
  what: 'documents',
  operation: 'word-to-pdf',
  sets: ['docx', 'doc'].map(corpusSet),
  accept: /\.(docx|docm|dotx|dotm|doc|dot)$/i,
  // Inputs without a reference and how the converter must refuse them.
  expectedFailures: {
    'poi__bug53475-password-is-pass.docx': 'password',
    'poi__password_password_cryptoapi.doc': 'password',
    'poi__truncated62886.docx': 'corrupt',
  },
  coldTarget: 0.1, // the target: each document in at most a tenth of LibreOffice's cold time
};

const SHEET = {
  label: 'fidelity',
  what: 'workbooks',
  operation: SHEET_OPERATION,
  sets: [
    ...sheetCategories(CORPUS).map(corpusSet),
    ...(heldout ? [{ category: 'heldout', dir: heldout, refDir: heldout, renderMissingRefs: true }] : []),
  ],
  accept: SHEET_EXT,
  expectedFailures: SHEET_EXPECTED_FAILURES, // the encrypted workbooks: 'password'
  foreignMessage: speaksOfWord, // a workbook's refusal that sends the user to Word is the wrong message
  coldTarget: null, // the target for spreadsheets is against warm LibreOffice: npm run bench:sheet
};

const SLIDES = {
  label: 'fidelity',
  what: 'decks',
  operation: SLIDES_OPERATION,
  sets: [corpusSet('pptx'), ...(heldout ? [{ category: 'heldout', dir: heldout, refDir: heldout, renderMissingRefs: true }] : [])],
  accept: /\.(pptx|ppsx|potx|odp|otp)$/i,
  expectedFailures: SLIDES_EXPECTED_FAILURES, // the encrypted deck: 'password'
  coldTarget: null, // the target is against warm LibreOffice
};

if (!existsSync(CORPUS)) {
  console.log(`fidelity: ${SHARED} (corpus, references, scorer) is not here; nothing to do.`);
  process.exit(0);
}
await runFidelity(sheets ? SHEET : slides ? SLIDES : WORD, opts, serviceOpts);
