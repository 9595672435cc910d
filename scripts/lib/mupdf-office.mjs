#!/usr/bin/env node
// node scripts/lib/mupdf-office.mjs IN.docx OUT.pdf -> one JSON line
// The fidelity baseline: MuPDF's built-in Office import (openDocument by file name), every page
// written to a PDF with a DocumentWriter. Run in its own process by npm run fidelity.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadMupdf, mupdfHeapBytes, peakRssBytes } from './word-converter.mjs';

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: mupdf-office.mjs IN OUT.pdf');
  process.exit(2);
}
const mupdf = await loadMupdf();
const t0 = performance.now();
try {
  const doc = mupdf.Document.openDocument(new Uint8Array(readFileSync(input)), basename(input));
  if (doc.needsPassword()) throw new Error('password-protected');
  const buffer = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(buffer, 'pdf', '');
  const n = doc.countPages();
  for (let i = 0; i < n; i++) {
    const page = doc.loadPage(i);
    const device = writer.beginPage(page.getBounds());
    page.run(device, mupdf.Matrix.identity);
    writer.endPage();
    page.destroy?.();
  }
  writer.close();
  writeFileSync(output, buffer.asUint8Array());
  const ms = Math.round(performance.now() - t0);
  console.log(JSON.stringify({ ok: true, pages: n, ms, heapBytes: mupdfHeapBytes(), peakRssBytes: peakRssBytes() }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, error: String(e?.message ?? e), ms: Math.round(performance.now() - t0) }));
  process.exit(1);
}
