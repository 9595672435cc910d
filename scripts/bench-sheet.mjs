#!/usr/bin/env node
// npm run bench:sheet [-- --runs N] [--lo-runs M] [--only TEXT]... [--dir DIR] [--no-soffice] [--no-cold]
//                     [--base URL --admin-token T [--service-log FILE]]
// Spreadsheet → PDF time through the service (POST /v1/pdf/xlsx-to-pdf), as users get it, as npm
// run bench:word times Word. Every workbook of ../shared/corpus/{xlsx,xls} (ods too once that
// directory exists; --dir DIR adds the workbooks there) is converted once to warm up, then N more
// times (default 5); per workbook the medians of the Worker's run_ms and of the user's wait, and
// the memory the service logs for it (wasm_heap_bytes, peak_estimate_bytes).
// Beside them, LibreOffice in this run right after ours on the same workbook, medians of --lo-runs
// M (default 3): warm (one soffice fed over UNO, as Gotenberg runs it: lo-warm.py exports a
// spreadsheet with calc_pdf_Export) and cold (--no-cold skips it).
// The issue's targets: per workbook at most 0.25× warm LibreOffice's time, and at most 100 MB.
// Printed: per workbook the ratios to warm LibreOffice, then their geometric mean and the worst,
// for the Worker's time and the user's, and how many are within 0.25×.
// The loop and the report are scripts/lib/office-bench.mjs, shared with npm run bench:slides (what
// is timed and how is said there). The encrypted workbooks are refused as expected and not timed.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib/word-converter.mjs';
import { benchArgs, runOfficeBench } from './lib/office-bench.mjs';
import { SHEET_EXPECTED_FAILURES, SHEET_OPERATION, sheetFiles } from './lib/sheet-corpus.mjs';

const { opts, serviceOpts } = benchArgs(process.argv.slice(2), 'bench:sheet');
const corpus = join(root, '..', 'shared', 'corpus');
if (!existsSync(corpus) && !opts.dir) {
  console.log(`bench:sheet: ${corpus} (the corpus of ../shared) is not here; nothing to do.`);
  process.exit(0);
}
const inputs = sheetFiles(corpus, { only: opts.only, heldout: opts.dir });
if (!inputs.length) {
  console.log(`bench:sheet: no workbooks${opts.only.length ? ` matching ${opts.only.join(', ')}` : ''}.`);
  process.exit(0);
}
await runOfficeBench(
  {
    label: 'bench:sheet',
    operation: SHEET_OPERATION,
    one: 'workbook',
    many: 'workbooks',
    inputs,
    expectedFailures: SHEET_EXPECTED_FAILURES,
    serviceLog: '/tmp/pdf-edge-bench-sheet-service.log',
  },
  opts,
  serviceOpts,
);
