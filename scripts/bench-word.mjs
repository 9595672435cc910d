#!/usr/bin/env node
// npm run bench:word [-- --runs N] [--lo-runs M] [--no-soffice] [--fidelity DIR] [--floor] [--only TEXT]:
// Word → PDF time in a process that keeps converting, as a Worker isolate does once it has served
// a request. Every corpus DOC/DOCX is converted once to warm up, then N more times (default 5);
// the median is printed per document. The anchor is LibreOffice's cold time per document
// (soffice --headless, a fresh profile each time), measured in this run right after ours on the
// same document, --lo-runs M times (default 3, the median): this machine's speed drifts by a third
// over a minute, so both sides are measured in the same minute, and one cold run of LibreOffice
// is as noisy as ours. The target is at most a tenth of it. With --no-soffice (or no soffice installed) the anchor is read
// from the last `npm run fidelity` run instead (its summary.json, default /tmp/pdf-edge-fidelity),
// and the column says so. --only TEXT: just the files whose names contain TEXT (the JIT then warms
// on fewer documents, so times run higher). --floor adds two columns: MuPDF's own share of each
// document (one layout of each drawn body chunk, the body pages drawn, the PDF saved:
// scripts/lib/mupdf-floor.mjs) and that plus reading the file, medians of 3 watched conversions;
// where that alone is over a tenth of LibreOffice's time, no work on our side can bring the
// document within it on MuPDF's engine.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadWordConverter, root } from './lib/word-converter.mjs';
import { findSoffice, runSoffice } from './lib/fidelity-tool.mjs';
import { measureMupdfFloor } from './lib/mupdf-floor.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const runs = Math.max(1, Number(opt('--runs', 5)) || 5);
const loRuns = Math.max(1, Number(opt('--lo-runs', 3)) || 3);
const withFloor = args.includes('--floor');
const summaryFile = join(opt('--fidelity', '/tmp/pdf-edge-fidelity'), 'summary.json');

const corpus = join(root, '..', 'shared', 'corpus');
const only = opt('--only', '');
const files = ['docx', 'doc'].flatMap((dir) =>
  readdirSync(join(corpus, dir))
    .filter((f) => /\.docx?$/i.test(f) && f.includes(only))
    .sort()
    .map((f) => join(corpus, dir, f)),
);

const soffice = args.includes('--no-soffice') ? undefined : findSoffice();
/** LibreOffice's cold time per file name: measured in this run (after ours, so the two do not overlap), or from the fidelity summary. */
const libreOffice = new Map();
if (!soffice && existsSync(summaryFile)) {
  for (const row of JSON.parse(readFileSync(summaryFile, 'utf8')).rows ?? []) if (row.soffice?.ms) libreOffice.set(row.file, row.soffice.ms);
}

const converter = await loadWordConverter();
const inputs = files.map((file) => ({ file, name: file.split('/').pop(), bytes: new Uint8Array(readFileSync(file)) }));
const convert = (bytes) => {
  try {
    converter.convert(bytes);
    return true;
  } catch (e) {
    if (converter.isWordConversionError(e)) return false; // a refusal (password, damaged) is timed too
    throw e;
  }
};
for (const input of inputs) convert(input.bytes); // warm-up: every code path and face used once

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const results = inputs.map((input) => {
  const times = [];
  let converted = true;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    converted = convert(input.bytes);
    times.push(performance.now() - t);
  }
  let floor;
  if (withFloor && converted) {
    const watched = [0, 1, 2].map(() => measureMupdfFloor(converter, input.bytes)).filter(Boolean);
    if (watched.length) floor = Object.fromEntries(['layout', 'draw', 'save', 'read'].map((k) => [k, median(watched.map((w) => w[k]))]));
  }
  if (soffice && converted) {
    const cold = [];
    for (let i = 0; i < loRuns; i++) {
      const lo = runSoffice(soffice, input.file, 180_000);
      if (lo.ok) cold.push(lo.ms);
    }
    if (cold.length) libreOffice.set(input.name, median(cold));
  }
  return { input, ms: median(times), converted, floor };
});

let within = 0;
let compared = 0;
let total = 0;
let floorOver = 0;
const floorHead = withFloor ? ` ${'MuPDF'.padStart(6)} ${'+read'.padStart(6)}` : '';
console.log(`${'file'.padEnd(46)} ${'ms'.padStart(6)}${floorHead} ${'LO ms'.padStart(7)} ${'LO/10'.padStart(6)}`);
for (const { input, ms, converted, floor } of results) {
  total += ms;
  const lo = libreOffice.get(input.name);
  const ok = converted && lo !== undefined ? ms <= lo / 10 : undefined;
  if (ok !== undefined) {
    compared++;
    if (ok) within++;
  }
  const name = input.name.length > 45 ? `${input.name.slice(0, 44)}…` : input.name;
  let floorCols = '';
  if (withFloor) {
    const mupdfMs = floor ? floor.layout + floor.draw + floor.save : undefined;
    const withRead = floor ? mupdfMs + floor.read : undefined;
    if (withRead !== undefined && lo !== undefined && withRead > lo / 10) floorOver++;
    floorCols = ` ${(mupdfMs?.toFixed(0) ?? '-').padStart(6)} ${(withRead?.toFixed(0) ?? '-').padStart(6)}`;
  }
  console.log(`${name.padEnd(46)} ${ms.toFixed(0).padStart(6)}${floorCols} ${String(lo ?? '-').padStart(7)} ${lo ? (lo / 10).toFixed(0).padStart(6) : '     -'} ${converted ? (ok === undefined ? '' : ok ? 'within' : 'over') : 'refused'}`);
}
console.log(`median of ${runs} runs after a warm-up, ${inputs.length} files: ${total.toFixed(0)} ms in all`);
const anchor = soffice ? `median of ${loRuns} cold runs, each document's right after ours` : `from ${summaryFile}`;
if (compared) console.log(`within 0.1× of LibreOffice's cold time (${anchor}): ${within}/${compared} documents`);
if (compared && withFloor) console.log(`MuPDF's own share plus reading the file is over that tenth already: ${floorOver} documents`);
if (!compared) console.log(`no LibreOffice times (soffice not found, ${summaryFile} missing): install LibreOffice or run npm run fidelity first`);
