#!/usr/bin/env node
// npm run convert -- IN.docx [OUT.pdf] [--json]
// Converts a Word document (.docx, .docm, .dotx, .doc) to PDF with the service's converter
// (src/convert/word, bundled for Node by scripts/lib/word-converter.mjs) and prints pages, time
// and size. OUT defaults to IN with .pdf for its extension. A document the converter refuses
// (password, damaged, not Word) prints its ConversionError message and exits 1.
// --json prints one JSON line instead (npm run fidelity runs each document this way, in a fresh process).
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { countPdfPages, loadWordConverter, mupdfHeapBytes, mupdfMessageCount, peakRssBytes } from './lib/word-converter.mjs';

const args = process.argv.slice(2);
const json = args.includes('--json');
// --warm converts a second time in the same process and reports that time too: a Worker isolate
// that has converted before (the usual case) has its code compiled and its fonts parsed.
const warm = args.includes('--warm');
const files = args.filter((a) => a !== '--json' && a !== '--warm');
if (files.length < 1 || files.length > 2 || files.some((f) => f.startsWith('-'))) {
  console.error('usage: npm run convert -- IN.docx|.doc|.docm|.dotx [OUT.pdf] [--json]');
  process.exit(2);
}
// Under npm run the working directory is the package root: paths are taken from where npm was run.
const here = (f) => resolve(process.env.INIT_CWD ?? process.cwd(), f);
const [input, output = `${input.slice(0, input.length - extname(input).length)}.pdf`] = files.map(here);
const MB = 1_000_000;

let bytes;
try {
  bytes = new Uint8Array(readFileSync(input));
} catch (e) {
  fail({ error: `cannot read ${input}: ${e.message}` }, 2);
}

let converter;
try {
  converter = await loadWordConverter();
} catch (e) {
  // esbuild errors carry their messages in .errors
  const detail = e.errors?.map((m) => `${m.location ? `${m.location.file}:${m.location.line}: ` : ''}${m.text}`).join('\n') ?? e.stack;
  fail({ error: `cannot build the converter: ${detail}` }, 3);
}

// Parts the document converted without ({ part, reason }): what the Worker writes to the task log.
const problems = [];
const t0 = performance.now();
let pdf;
try {
  pdf = converter.convert(bytes, (p) => problems.push(p));
} catch (e) {
  const ms = Math.round(performance.now() - t0);
  if (converter.isConversionError(e)) fail({ problem: e.problem, error: e.message, ms }, 1);
  fail({ error: e?.stack ?? String(e), ms, unexpected: true }, 1);
}
const ms = Math.round(performance.now() - t0);
// The heap after one conversion (a second one in the same process would only add to it).
const heapAfterOne = mupdfHeapBytes();
const rssAfterOne = peakRssBytes();
let warmMs;
if (warm) {
  const t1 = performance.now();
  converter.convert(bytes);
  warmMs = Math.round(performance.now() - t1);
}
writeFileSync(output, pdf);
const pages = countPdfPages(converter.mupdf, pdf);

const result = {
  ok: true,
  input,
  output,
  pages,
  ms, // the conversion alone
  warmMs, // the same conversion again in this process (with --warm)
  processMs: Math.round(performance.now()), // since this process started: Node, MuPDF and bundle load included
  bytes: pdf.byteLength,
  heapBytes: heapAfterOne,
  peakRssBytes: rssAfterOne,
  mupdfMessages: mupdfMessageCount(),
  problems,
};
if (json) console.log(JSON.stringify(result));
else {
  console.log(
    `${basename(input)} → ${output}: ${pages} page${pages === 1 ? '' : 's'}, ${ms} ms, ${(pdf.byteLength / 1000).toFixed(1)} KB` +
      ` (MuPDF heap ${(result.heapBytes / MB).toFixed(1)} MB, peak RSS ${(result.peakRssBytes / MB).toFixed(1)} MB)`,
  );
  for (const p of problems) console.error(`  converted without ${p.part}: ${p.reason}`);
}

function fail(info, code) {
  if (json) console.log(JSON.stringify({ ok: false, input, ...info, heapBytes: mupdfHeapBytes(), peakRssBytes: peakRssBytes() }));
  else console.error(info.problem ? `${basename(input)}: ${info.error} (${info.problem})` : info.error);
  process.exit(code);
}
