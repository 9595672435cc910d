/**
 * Layout alone, on its own block model (src/layout/blocks/model.ts), with no format's reader or
 * adapter: lines broken to the column, pages filled with keeps and widow control, table rows split
 * and their header repeated, and the display list a page hands paint.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { FontBook } from '../src/layout/text/font-book';
import type { Block, CellBlock, ParagraphBlock, ParagraphStyle, TableBlock, TextStyle } from '../src/layout/blocks/model';
import { paragraphLines, type LineContext } from '../src/layout/blocks/paragraph-lines';
import { paginate } from '../src/layout/pages/paginate';
import { displayFlowPage } from '../src/layout/display/flow-pages';

let ctx: LineContext & { sum: boolean };
beforeAll(async () => {
  const fonts = FontBook.shared(await loadMupdf(), bundledFonts);
  fonts.install();
  ctx = { fonts, fields: {}, sum: false };
});

const style = (size = 11, more: Partial<TextStyle> = {}): TextStyle => ({ face: { family: 'Carlito', bold: false, italic: false, size, kern: false }, look: { rise: 0 }, sizes: { family: 'Carlito', size }, ...more });
const para = (text: string, props: Partial<ParagraphStyle> = {}): ParagraphBlock => ({ kind: 'paragraph', props: { markFace: { family: 'Carlito', size: 11 }, ...props }, items: [{ kind: 'text', text, style: style() }] });
const WORDS = 'the quick brown fox jumps over the lazy dog while five boxing wizards jump quickly'.split(' ');
const prose = (words: number, offset = 0) => Array.from({ length: words }, (_, k) => WORDS[(k + offset) % WORDS.length]).join(' ');
const lineText = (l: { texts: { text: string }[] }) => l.texts.map((t) => t.text).join(' ');

describe('layout on its own block model', () => {
  it('breaks a paragraph into lines that fit the column and keep every word', () => {
    const text = prose(120);
    const lines = paragraphLines(para(text), 200, ctx);
    expect(lines.length).toBeGreaterThan(5);
    for (const l of lines) for (const t of l.texts) expect(t.x + t.width).toBeLessThanOrEqual(200 + 0.01);
    expect(lines.map(lineText).join(' ').split(/\s+/)).toEqual(text.split(' '));
    // Carlito 11 pt at single spacing: LibreOffice's 13.45 pt pitch (rounded twips).
    expect(lines[0]!.height).toBeCloseTo(13.45, 2);
  });

  it('justifies every line but the last to the right edge, and right-aligns from it', () => {
    const justified = paragraphLines(para(prose(60), { align: 'justify' }), 180, ctx);
    for (const l of justified.slice(0, -1)) {
      const last = l.texts.at(-1)!;
      expect(last.x + last.width).toBeCloseTo(180, 1);
    }
    const lastLine = justified.at(-1)!.texts.at(-1)!;
    expect(lastLine.x + lastLine.width).toBeLessThan(179);
    const right = paragraphLines(para('short line', { align: 'right' }), 180, ctx)[0]!.texts.at(-1)!;
    expect(right.x + right.width).toBeCloseTo(180, 1);
  });

  it('fills pages, moves a heading kept with the next paragraph, and leaves no widow', () => {
    // 13.45 pt lines in a frame of 10 lines: 9 one-line paragraphs, then a heading kept with a 3-line paragraph.
    const blocks: Block[] = Array.from({ length: 9 }, (_, k) => para(`line ${k + 1}`));
    blocks.push(para('Heading', { keepNext: true }), para(prose(40), { widowControl: true }));
    const pages = paginate(blocks, 200, 13.45 * 10 + 1, ctx, () => undefined);
    expect(pages).toHaveLength(2);
    expect(pages[0]!.lines.map((l) => lineText(l.line))).toEqual(Array.from({ length: 9 }, (_, k) => `line ${k + 1}`));
    expect(lineText(pages[1]!.lines[0]!.line)).toBe('Heading');
    // A long paragraph split by the page's foot keeps two lines at least on either side.
    const long = paginate([para(prose(8)), para(prose(200), { widowControl: true })], 200, 13.45 * 10 + 1, ctx, () => undefined);
    for (const page of long) expect(page.lines.length).toBeGreaterThanOrEqual(2);
    expect(long.at(-1)!.lines.length).toBeGreaterThanOrEqual(2);
  });

  it('splits a tall table row across pages and repeats the header row on the next', () => {
    const cell = (blocks: ParagraphBlock[]): CellBlock => ({ blocks, gridSpan: 1, borders: { bottom: { width: 1, style: 'single', color: 'FF0000' } }, margins: { top: 0, right: 5, bottom: 0, left: 5 } });
    const table: TableBlock = {
      kind: 'table',
      grid: [100, 100],
      rows: [
        { header: true, cells: [cell([para('Name')]), cell([para('Notes')])] },
        { cells: [cell([para('first')]), cell([para(prose(150))])] },
      ],
    };
    const pages = paginate([table], 200, 300, ctx, () => undefined);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    for (const page of pages) expect(lineText(page.lines[0]!.line)).toBe('Name');
    const second = pages[1]!.lines.map((l) => lineText(l.line));
    expect(second).not.toContain('first');
    // The page's display list: the texts painted, and the cells' red borders as fills.
    const items = displayFlowPage(pages[0]!, { left: 72, top: 72, width: 200, height: 300, pageHeight: 792 }, () => {});
    const texts = items.flatMap((i) => (i.kind === 'text' ? [i.text.text] : []));
    expect(texts).toContain('Name');
    expect(texts).toContain('first');
    expect(items.some((i) => i.kind === 'fill' && i.color === 'FF0000')).toBe(true);
  });

  it('goes below a float it cannot sit beside, and hands the float back by its reference', () => {
    const anchored: ParagraphBlock = { ...para('anchor'), items: [{ kind: 'text', text: 'anchor', style: style() }, { kind: 'float', ref: 7, width: 190, height: 100, anchor: { x: 0, y: 20, relativeX: 'column', relativeY: 'paragraph', wrap: 'square' } }] };
    const pages = paginate([anchored, para('after the float')], 200, 600, ctx, () => undefined);
    const after = pages[0]!.lines.find((l) => lineText(l.line) === 'after the float')!;
    expect(after.y).toBeGreaterThanOrEqual(120);
    expect(pages[0]!.floats).toEqual([{ ref: 7, x: 0, y: 0, cellWidth: undefined }]);
  });
});
