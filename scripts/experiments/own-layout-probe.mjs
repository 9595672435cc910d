#!/usr/bin/env node
// An experiment, not the product: how fast could a layout engine of our own be, beside MuPDF's
// HTML engine? `node scripts/experiments/own-layout-probe.mjs [files...]` (default: the five
// corpus documents over the speed target). For each document it times, in the same process:
//  - the probe: the body's and notes' paragraphs (table cells as equal columns) broken into lines
//    greedily by the faces' advances (the converter's FontBook), paged by line height, each line
//    written as content-stream text (glyph ids, as MuPDF's writer does) and each page deflated;
//  - MuPDF's share of the real conversion (scripts/lib/mupdf-floor.mjs): one layout of each drawn
//    body chunk and the drawing of its pages (the save left out, as the probe writes no file).
// The probe leaves out most of what a real engine must do (justification, tab stops, borders,
// pictures, keep-with-next, widow control, the notes placed on their pages), so its time is a
// lower bound: read it as "layout and drawing would cost about this much, not MuPDF's".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { NODE_BUNDLE_OPTIONS, loadWordConverter, readFont, root } from '../lib/word-converter.mjs';
import { measureMupdfFloor } from '../lib/mupdf-floor.mjs';

const converter = await loadWordConverter();
const { mupdf } = converter;
const out = join(root, 'node_modules', '.cache', 'pdf-edge', 'own-layout-probe.mjs');
const word = join(root, 'src', 'convert', 'word');
// The model reader and the converter's faces, bundled from src/ as the converter is.
const exported = { index: 'readWordDocument', limits: 'withinWordLimits', 'layout/font-book': 'FontBook', 'layout/inline-html': 'resolveRun' };
await build({
  ...NODE_BUNDLE_OPTIONS,
  stdin: {
    contents: Object.entries(exported).map(([module, name]) => `export { ${name} } from ${JSON.stringify(join(word, module))};`).join('\n'),
    resolveDir: root,
    loader: 'ts',
  },
  outfile: out,
  logLevel: 'error',
});
const M = await import(`${out}?${Date.now()}`);
const book = M.FontBook.shared(mupdf, readFont);

const faces = new Map();
const faceOf = (family, bold, italic) => {
  const key = `${family}/${bold}/${italic}`;
  let face = faces.get(key);
  if (!face) faces.set(key, (face = { id: faces.size, font: book.face(family, bold, italic), glyphs: new Map() }));
  return face;
};
/** [glyph id, advance in em] of a character in a face, asked of MuPDF once. */
const glyph = (face, cp) => {
  let g = face.glyphs.get(cp);
  if (!g) {
    const gid = face.font ? face.font.encodeCharacter(cp) : 0;
    face.glyphs.set(cp, (g = [gid, gid > 0 ? face.font.advanceGlyph(gid, 0) : 0.5]));
  }
  return g;
};
const HEX = Array.from({ length: 65536 }, (_, i) => i.toString(16).padStart(4, '0'));

/** The probe's layout of a document model: pages of content-stream text, deflated. */
function probe(doc) {
  const ctx = { defaultFont: doc.defaultFont, defaultSize: doc.defaultSize };
  const pages = [];
  const notes = [...doc.notes.values()].flat();
  for (const [index, section] of doc.sections.entries()) {
    const g = section.page;
    const width = g.width - g.marginLeft - g.marginRight;
    const frame = g.height - g.marginTop - g.marginBottom;
    let page = [];
    let y = 0;
    pages.push(page);
    const paragraph = (p, x0, w) => {
      const words = [];
      let word;
      let size = 0;
      for (const it of p.inlines) {
        if (it.kind !== 'text' || it.style.hidden) continue;
        const run = M.resolveRun(it.style, ctx);
        size = Math.max(size, run.size);
        const face = faceOf(run.family, run.bold, run.italic);
        let piece;
        for (const ch of it.text) {
          const cp = ch.codePointAt(0);
          if (cp === 32) {
            if (word) (word.space = glyph(face, 32)[1] * run.size), words.push(word);
            word = piece = undefined;
            continue;
          }
          word ??= { pieces: [], width: 0, space: 0 };
          if (!piece) word.pieces.push((piece = { face, size: run.size, gids: [], width: 0 }));
          const [gid, advance] = glyph(face, cp);
          piece.gids.push(gid);
          piece.width += advance * run.size;
          word.width += advance * run.size;
        }
        piece = undefined;
      }
      if (word) words.push(word);
      const lineHeight = (size || ctx.defaultSize) * 1.15;
      y += p.props.spaceBefore ?? 0;
      let line = [];
      let lineWidth = 0;
      const flush = () => {
        if (y + lineHeight > frame) pages.push((page = [])), (y = 0);
        y += lineHeight;
        let x = g.marginLeft + x0;
        for (const item of line) {
          for (const piece of item.pieces) {
            let hex = '';
            for (const gid of piece.gids) hex += HEX[gid];
            page.push(`/F${piece.face.id} ${piece.size} Tf 1 0 0 1 ${x.toFixed(2)} ${(g.height - g.marginTop - y).toFixed(2)} Tm <${hex}> Tj`);
            x += piece.width;
          }
          x += item.space;
        }
        line = [];
        lineWidth = 0;
      };
      for (const item of words) {
        if (line.length && lineWidth + item.width > w) flush();
        line.push(item);
        lineWidth += item.width + item.space;
      }
      if (line.length || !words.length) flush();
      y += p.props.spaceAfter ?? 0;
    };
    const blocks = (list, x0, w) => {
      for (const b of list) {
        if (b.kind === 'paragraph') paragraph(b, x0 + (b.props.indentLeft ?? 0), w - (b.props.indentLeft ?? 0) - (b.props.indentRight ?? 0));
        else for (const row of b.rows) row.cells.forEach((cell, i) => blocks(cell.blocks, x0 + (i * w) / row.cells.length, w / row.cells.length));
      }
    };
    blocks(section.blocks, 0, width);
    if (index === doc.sections.length - 1) blocks(notes, 0, width);
  }
  return pages.map((lines) => deflateSync(`BT\n${lines.join('\n')}\nET`, { level: 4 }));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const corpus = join(root, '..', 'shared', 'corpus', 'docx');
const files = process.argv.slice(2).length ? process.argv.slice(2) : ['dedoc__diploma', 'dedoc__pr14tz_v5_2007_03_01', 'poi__bug59058', 'poi__stress004', 'poi__stress008'].map((f) => join(corpus, `${f}.docx`));
console.log(`${'file'.padEnd(36)} ${'pages'.padStart(5)} ${'probe ms'.padStart(8)} ${'MuPDF ms'.padStart(8)}  (MuPDF: one layout of each drawn chunk + drawing its pages)`);
for (const file of files) {
  const bytes = new Uint8Array(readFileSync(file));
  const doc = M.withinWordLimits(M.readWordDocument(bytes));
  converter.convert(bytes); // warm-up
  const times = [];
  let pages = 0;
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    pages = probe(doc).length;
    times.push(performance.now() - t);
  }
  const floors = [0, 1, 2].map(() => measureMupdfFloor(converter, bytes)).filter(Boolean);
  const mupdfMs = floors.length ? median(floors.map((m) => m.layout + m.draw)) : undefined;
  console.log(`${file.split('/').pop().slice(0, 35).padEnd(36)} ${String(pages).padStart(5)} ${median(times).toFixed(0).padStart(8)} ${(mupdfMs?.toFixed(0) ?? '-').padStart(8)}`);
}
