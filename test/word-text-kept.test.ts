import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { renderWordDocument } from '../src/convert/word/layout/render';
import type { Block, Paragraph, RunStyle, Section, Table, WordDocument } from '../src/convert/word/model/index';

/**
 * Generated documents that stress where the layout cuts text between pages: sections of one to
 * three columns, most starting continuously (on the page before, below its text), footnotes
 * (pages laid out one at a time), tables with header rows (some taller than half the page, which
 * are not repeated) and rows taller than the room left or than a page (cells of up to 163 words
 * on pages 356 pt tall). Pages are short and documents small (about 560 words) so that a
 * thousand of them, each with several page, column and section breaks, take about a minute.
 * Every word of text and notes must come out exactly once (header-row words at least once: they
 * repeat), and header rows only on pages that show their table's other rows (and the table's first).
 */
const style: RunStyle = { font: 'Calibri', size: 11 };
const page = { width: 612, height: 500, marginTop: 72, marginRight: 72, marginBottom: 72, marginLeft: 72, header: 36, footer: 36 };

function generate(seed: number) {
  let state = seed * 7919 + 3;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  let counter = 100000 + seed * 10000;
  const words = (n: number) => Array.from({ length: n }, () => `w${counter++}x`);
  const all: string[] = [];
  const repeated = new Set<string>();
  /** Tables with header rows: their header rows' words and the words of their other rows. */
  const headed: { header: string[]; body: string[] }[] = [];
  const notes = new Map<string, Block[]>();
  const paragraph = (w: string[], size = 11): Paragraph => ({ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: w.join(' '), style: { ...style, size } }] });
  const block = (): Block => {
    if (random() < 0.15) {
      const rows = Array.from({ length: 1 + Math.floor(random() * 6) }, () => ({
        cells: Array.from({ length: 2 }, () => {
          const w = words(3 + Math.floor(random() * (random() < 0.2 ? 160 : 20)));
          all.push(...w);
          return { blocks: [paragraph(w)], gridSpan: 1, borders: {} };
        }),
      }));
      if (random() < 0.5 && rows.length > 1) {
        (rows[0] as { header?: boolean }).header = true;
        const textOf = (r: (typeof rows)[number]) => r.cells.flatMap((c) => c.blocks.flatMap((b) => (b as Paragraph).inlines.flatMap((i) => (i.kind === 'text' ? i.text.split(' ') : []))));
        const header = textOf(rows[0]!);
        header.forEach((w) => repeated.add(w));
        headed.push({ header, body: rows.slice(1).flatMap(textOf) });
      }
      return { kind: 'table', grid: [150, 150], rows } as Table;
    }
    const w = words(Math.floor(random() * 60));
    all.push(...w);
    const inlines: Paragraph['inlines'] = w.length ? [{ kind: 'text', text: w.join(' '), style }] : [];
    if (w.length && random() < 0.2) {
      const id = `n${counter}`;
      const note = words(5 + Math.floor(random() * 20));
      all.push(...note);
      notes.set(id, [paragraph(note, 9)]);
      inlines.push({ kind: 'noteRef', id, label: '*', style });
    }
    return { kind: 'paragraph', props: { spaceAfter: random() * 12, align: random() < 0.5 ? 'justify' : undefined }, inlines };
  };
  const sections: Section[] = Array.from({ length: 1 + Math.floor(random() * 4) }, (_, i) => ({
    page, headers: {}, footers: {},
    blocks: Array.from({ length: 1 + Math.floor(random() * 7) }, block),
    start: i > 0 && random() < 0.8 ? 'continuous' : undefined,
    columns: 1 + Math.floor(random() * 3),
    columnGap: 24,
  }));
  const model: WordDocument = { sections, notes, defaultFont: 'Calibri', defaultSize: 11 };
  return { model, all, repeated, headed };
}

/**
 * What the PDF of a generated document gets wrong: words of text and notes not shown exactly once
 * (header-row words not at least once), and header-row words shown on more pages than their
 * table's other rows reach (header rows repeat only on pages the table continues on).
 */
async function wrongWords(seed: number): Promise<{ lost: string[]; doubled: string[]; headerPages: string[]; words: number; pages: number }> {
  const { model, all, repeated, headed } = generate(seed);
  const mupdf = await loadMupdf();
  const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf');
  const count = new Map<string, number>();
  const pagesOf = new Map<string, Set<number>>();
  const pages = pdf.countPages();
  try {
    for (let i = 0; i < pages; i++) {
      const p = pdf.loadPage(i);
      const text = p.toStructuredText('preserve-whitespace');
      for (const shown of text.asText().split(/\s+/)) {
        if (!/^w\d+x\*?$/.test(shown)) continue;
        const w = shown.replace('*', '');
        count.set(w, (count.get(w) ?? 0) + 1);
        pagesOf.set(w, (pagesOf.get(w) ?? new Set()).add(i));
      }
      text.destroy();
      p.destroy();
    }
  } finally {
    pdf.destroy();
  }
  const lost = all.filter((w) => !count.get(w));
  const doubled = all.filter((w) => !repeated.has(w) && count.get(w)! > 1);
  // A header row is shown at the table's top and again on each later page its other rows reach.
  const headerPages = headed.flatMap(({ header, body }) => {
    const reached = new Set(body.flatMap((w) => [...(pagesOf.get(w) ?? [])])).size;
    return header.filter((w) => (count.get(w) ?? 0) > reached + 1);
  });
  return { lost, doubled, headerPages, words: all.length, pages };
}

/** Seeds 1 to SEEDS, in blocks of BLOCK per test (each test a few seconds). */
const SEEDS = 1000;
const BLOCK = 100;

describe('Word page breaks keep every word', () => {
  for (let first = 1; first <= SEEDS; first += BLOCK) {
    const last = Math.min(SEEDS, first + BLOCK - 1);
    it(`generated documents ${first}-${last}`, async () => {
      const wrong: string[] = [];
      for (let seed = first; seed <= last; seed++) {
        const { lost, doubled, headerPages, words, pages } = await wrongWords(seed);
        if (lost.length || doubled.length || headerPages.length) {
          wrong.push(`seed ${seed} (${words} words, ${pages} pages): ${lost.length} lost ${lost.slice(0, 3).join(' ')}, ${doubled.length} doubled ${doubled.slice(0, 3).join(' ')}, ${headerPages.length} header words on extra pages`);
        }
      }
      expect(wrong).toEqual([]);
    }, 300_000);
  }
});
