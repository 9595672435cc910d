#!/usr/bin/env node
// npm run bench:slides [-- --runs N] [--lo-runs M] [--only TEXT]... [--dir DIR] [--no-soffice] [--no-cold]
//                      [--base URL --admin-token T [--service-log FILE]]
// Presentation → PDF time through the service (POST /v1/pdf/pptx-to-pdf), as users get it: the
// counterpart of npm run bench:sheet for slides, on the same loop and report
// (scripts/lib/office-bench.mjs, where what is timed and how is said). Every deck of
// ../shared/corpus/pptx (odp too once that directory exists; --dir DIR adds the PPTX and ODP decks
// there) is converted once to warm up, then N more times (default 5); per deck the medians of the
// Worker's run_ms and of the user's wait, and the memory the service logs for it
// (wasm_heap_bytes, peak_estimate_bytes).
// Beside them, LibreOffice in this run right after ours on the same deck, medians of --lo-runs M
// (default 3): warm (one soffice fed over UNO, as Gotenberg runs it: lo-warm.py exports a
// presentation with impress_pdf_Export, the filter of the kind of document it loaded) and cold
// (--no-cold skips it).
// The issue's targets: per deck at most 0.25× warm LibreOffice's time, and at most 100 MB.
// A deck the service refuses (an ODP while pptx-to-pdf takes PPTX only) gets the reason under its
// line. The password-protected deck is an expected refusal: it is not timed, and a note says so.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib/word-converter.mjs';
import { benchArgs, runOfficeBench } from './lib/office-bench.mjs';
import { SLIDES_EXPECTED_FAILURES, SLIDES_OPERATION, slideFiles } from './lib/slides-corpus.mjs';

const { opts, serviceOpts } = benchArgs(process.argv.slice(2), 'bench:slides');
const corpus = join(root, '..', 'shared', 'corpus');
if (!existsSync(corpus) && !opts.dir) {
  console.log(`bench:slides: ${corpus} (the corpus of ../shared) is not here; nothing to do.`);
  process.exit(0);
}
const inputs = slideFiles(corpus, { only: opts.only, heldout: opts.dir });
if (!inputs.length) {
  console.log(`bench:slides: no decks${opts.only.length ? ` matching ${opts.only.join(', ')}` : ''}.`);
  process.exit(0);
}
await runOfficeBench(
  {
    label: 'bench:slides',
    operation: SLIDES_OPERATION,
    one: 'deck',
    many: 'decks',
    inputs,
    expectedFailures: SLIDES_EXPECTED_FAILURES,
    serviceLog: '/tmp/pdf-edge-bench-slides-service.log',
  },
  opts,
  serviceOpts,
);
