import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { renderWordDocument, type RenderOptions } from '../src/convert/word/layout/render';
import { FontBook } from '../src/layout/text/font-book';
import { flowsOf } from '../src/convert/word/layout/flows';
import type { Block, Paragraph, RunStyle, Section, TableCell, WordDocument } from '../src/convert/word/model/index';
import { makePng } from './fixtures';

const style: RunStyle = { font: 'Calibri', size: 11 };
const page = { width: 612, height: 792, marginTop: 72, marginRight: 72, marginBottom: 72, marginLeft: 72, header: 36, footer: 36 };
const para = (text: string, props: Paragraph['props'] = {}): Paragraph => ({ kind: 'paragraph', props, inlines: [{ kind: 'text', text, style }] });
const section = (blocks: Block[], extra: Partial<Section> = {}): Section => ({ page, headers: {}, footers: {}, blocks, ...extra });
const doc = (sections: Section[]): WordDocument => ({ sections, notes: new Map(), defaultFont: 'Calibri', defaultSize: 11 });

interface Line {
  text: string;
  x0: number;
  x1: number;
  y: number;
}

/** Lines of each page with their boxes, from MuPDF's structured text. */
async function render(model: WordDocument, options: RenderOptions = {}): Promise<Line[][]> {
  const mupdf = await loadMupdf();
  const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts, options), 'application/pdf');
  try {
    return Array.from({ length: pdf.countPages() }, (_, i) => {
      const p = pdf.loadPage(i);
      // Coordinates at 1/100 pt: the JSON rounds them to integers.
      const json = JSON.parse(p.toStructuredText('preserve-whitespace').asJSON(100)) as {
        blocks: { lines?: { text: string; bbox: { x: number; y: number; w: number; h: number } }[] }[];
      };
      p.destroy();
      return json.blocks.flatMap((b) => b.lines ?? []).map((l) => ({ text: l.text.replace(/\s+/g, ' ').trim(), x0: l.bbox.x / 100, x1: (l.bbox.x + l.bbox.w) / 100, y: l.bbox.y / 100 }));
    });
  } finally {
    pdf.destroy();
  }
}

const find = (lines: Line[], text: string) => {
  const line = lines.find((l) => l.text.includes(text));
  if (!line) throw new Error(`no line with "${text}" in ${JSON.stringify(lines.map((l) => l.text))}`);
  return line;
};

describe('Word layout', () => {
  it('a right-aligned tab stop with a dot leader puts the page number flush at the stop', async () => {
    const toc: Paragraph = {
      kind: 'paragraph',
      props: { tabs: [{ pos: 400, align: 'right', leader: 'dot' }] },
      inlines: [{ kind: 'text', text: 'Chapter One', style }, { kind: 'tab', style }, { kind: 'text', text: '123', style }],
    };
    const [lines] = await render(doc([section([toc])]));
    const line = find(lines!, 'Chapter One');
    expect(line.text).toMatch(/^Chapter One ?\.{20,}123$/); // the dots run up to the number
    // The stop is 400 pt from the left margin (72): the number ends there.
    expect(line.x1).toBeGreaterThan(472 - 2);
    expect(line.x1).toBeLessThan(472 + 2);
  });

  it('a footer line with a centre stop and a right stop at the margin stays one line, its page number and date where the stops put them', async () => {
    // Word's usual footer: name, a centre stop for "Page N", a right stop on the margin for a date.
    // The line is then exactly as wide as the column: a gap a hair too wide wrapped it (FloatingPictures.doc).
    const times: RunStyle = { font: 'Times New Roman', size: 12 };
    const footerLine = (): Paragraph => ({
      kind: 'paragraph',
      props: { tabs: [{ pos: 216, align: 'center' }, { pos: 432, align: 'right' }] },
      inlines: [
        { kind: 'text', text: 'John Greer', style: times },
        { kind: 'tab', style: times },
        { kind: 'text', text: 'Page ', style: times },
        { kind: 'field', field: 'PAGE', style: times },
        { kind: 'tab', style: times },
        { kind: 'text', text: '4/26/2006', style: times },
      ],
    });
    const margins = { ...page, marginLeft: 90, marginRight: 90 }; // a 432 pt column
    const [lines] = await render(doc([section([footerLine()], { page: margins, footers: { default: [footerLine()] } })]));
    const both = lines!.filter((l) => l.text.startsWith('John Greer'));
    expect(both).toHaveLength(2); // body and footer
    for (const line of both) {
      // The parts on the line's baseline, left to right (text extraction may cut the line at a tab's gap).
      const row = lines!.filter((l) => Math.abs(l.y - line.y) < 1).sort((a, b) => a.x0 - b.x0);
      expect(row.map((l) => l.text).join(' ')).toMatch(/^John Greer Page 1 4\/26\/2006$/);
      expect(Math.abs(row.at(-1)!.x1 - (90 + 432))).toBeLessThan(1.5);
      // "Page 1" centred on the stop at 216 pt from the column's left edge.
      const centre = row.find((l) => l.text.includes('Page'));
      if (centre && centre !== row[0]) expect(Math.abs((centre.x0 + centre.x1) / 2 - (90 + 216))).toBeLessThan(1.5);
    }
  });

  it('a centred table wider than the column sticks out into both margins, not past the right edge of the page', async () => {
    const cell = (text: string): TableCell => ({ blocks: [para(text)], gridSpan: 1, borders: {}, margins: { top: 0, right: 0, bottom: 0, left: 0 } });
    // 552 pt in a 468 pt column (72 pt margins): 42 pt into each margin, as in Word.
    const table: Block = { kind: 'table', grid: [276, 276], align: 'center', rows: [{ cells: [cell('Left cell'), cell('Right cell')] }] };
    const [lines] = await render(doc([section([table])]));
    expect(find(lines!, 'Left cell').x0).toBeCloseTo(72 - 42, 0);
    expect(find(lines!, 'Right cell').x0).toBeCloseTo(72 - 42 + 276, 0);
  });

  it('a table with cell spacing frames each cell apart: a row takes both its borders and the spacing', async () => {
    const border = { width: 1, style: 'single' as const, color: '000000' };
    const cell = (text: string): TableCell => ({ blocks: [para(text)], gridSpan: 1, borders: { top: border, bottom: border, left: border, right: border }, margins: { top: 0, right: 0, bottom: 0, left: 0 } });
    const table = (cellSpacing?: number): Block => ({ kind: 'table', grid: [150, 150], cellSpacing, rows: ['One', 'Two', 'Three'].map((t) => ({ cells: [cell(t), cell(`${t} right`)] })) });
    const pitch = async (t: Block) => {
      const [lines] = await render(doc([section([t])]));
      return find(lines!, 'Three').y - find(lines!, 'Two').y;
    };
    const collapsed = await pitch(table());
    const apart = await pitch(table(2));
    // Collapsed, rows share one border; apart, each row has its own two and 2 pt between them.
    expect(apart - collapsed).toBeGreaterThan(2 + 1 - 0.2);
    expect(apart - collapsed).toBeLessThan(2 + 1 + 0.2);
  });

  it('a table-of-contents entry that wraps has its page number flush at the right stop on its last line', async () => {
    const entry: Paragraph = {
      kind: 'paragraph',
      props: { tabs: [{ pos: 400, align: 'right', leader: 'dot' }], indentLeft: 36, firstLine: -36 },
      inlines: [
        { kind: 'text', text: '3.2.', style },
        { kind: 'tab', style },
        { kind: 'text', text: 'Information about the conditions of operation of the automated object and the characteristics of the environment', style },
        { kind: 'tab', style },
        { kind: 'text', text: '97', style },
      ],
    };
    const [lines] = await render(doc([section([entry])]));
    const last = find(lines!, '97');
    expect(last.text).toMatch(/environment.*97$/);
    expect(lines!.indexOf(last)).toBeGreaterThan(0); // the entry did wrap
    expect(Math.abs(last.x1 - (72 + 400))).toBeLessThan(2);
  });

  it('text is pair-kerned only where a run asks for it, from its threshold size up (w:kern), as Word and LibreOffice do; no ligatures', async () => {
    const mupdf = await loadMupdf();
    const text = 'AVA To Wa Ty office';
    const line = (kern?: number) => para(text, {}).inlines.map((i) => ({ ...i, style: { font: 'Times New Roman', size: 12, kern } })) as Paragraph['inlines'];
    const [lines] = await render(doc([section([undefined, 1, 20].map((kern) => ({ kind: 'paragraph', props: {}, inlines: line(kern) }) as Paragraph))]));
    const widths = lines!.filter((l) => l.text === text).map((l) => l.x1 - l.x0);
    expect(widths).toHaveLength(3);
    const [plain, kerned, belowThreshold] = widths as [number, number, number];
    // Unkerned text is as wide as its advances add up to (what our own measuring of tab stops assumes;
    // Tinos' ffi ligature would be 1.4 pt narrower)...
    const advances = FontBook.shared(mupdf, bundledFonts).measure(text, 'Tinos', false, false, 12);
    expect(Math.abs(plain - advances)).toBeLessThan(0.3);
    // ...kerning pulls A-V, T-o, W-a, T-y together; 12 pt text under a 20 pt threshold is not kerned.
    expect(plain - kerned).toBeGreaterThan(3);
    expect(belowThreshold).toBeCloseTo(plain, 1);
  });

  it('ligature characters in the text (ﬁ, ﬂ, ﬀ) are drawn as their letters and read back as them', async () => {
    const mupdf = await loadMupdf();
    const [lines] = await render(doc([section([{ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: 'ﬁne ﬂow oﬀer', style: { font: 'Times New Roman', size: 12 } }] }])]));
    const line = find(lines!, 'fine');
    expect(line.text).toBe('fine flow offer');
    const advances = FontBook.shared(mupdf, bundledFonts).measure('fine flow offer', 'Tinos', false, false, 12);
    expect(Math.abs(line.x1 - line.x0 - advances)).toBeLessThan(0.3);
  });

  it('a top or bottom paragraph border stands its distance (w:space) off the text, as Word and LibreOffice draw it', async () => {
    // LibreOffice places single bottom borders with w:space 0, 1, 4, 9 and 20 pt exactly where we do
    // now (synthetic DOCX, 144 dpi); before, every one sat at the text as if its space were 0.
    const bordered = (space: number): Paragraph =>
      para(`Ruled ${space}`, { borders: { bottom: { width: 1.5, style: 'single', color: '000000', space } }, spaceBefore: 0, spaceAfter: 0 });
    const [lines] = await render(doc([section([bordered(0), para('After zero'), bordered(9), para('After nine'), para('Top', { borders: { top: { width: 1.5, style: 'single', color: '000000', space: 4 } } })])]));
    const gap = (a: string, b: string) => find(lines!, b).y - find(lines!, a).y;
    // The border takes its width below the text either way; its space adds to that.
    expect(gap('Ruled 9', 'After nine') - gap('Ruled 0', 'After zero')).toBeCloseTo(9, 1);
    expect(gap('After nine', 'Top') - gap('Ruled 0', 'After zero')).toBeCloseTo(4, 0);
  });

  it('left and right paragraph borders sit their distance and width outside the indent; the text stays at the indent', async () => {
    // LibreOffice (synthetic DOCX, a 2 pt box 4 pt off the text, indents 0 and 0.5"): text at 72
    // and 108 pt, left border at 66 and 102 pt. Before, the border sat at the column's edge and
    // pushed the text right by its width.
    const box = (space: number) => ({ top: { width: 2, style: 'single' as const, color: '000000', space }, left: { width: 2, style: 'single' as const, color: '000000', space }, bottom: { width: 2, style: 'single' as const, color: '000000', space }, right: { width: 2, style: 'single' as const, color: '000000', space } });
    const hanging = para(`Hanging box ${'and more words '.repeat(12)}ends here`, { borders: box(4), indentLeft: 36, firstLine: -36 });
    const [lines] = await render(doc([section([para('Unindented box', { borders: box(4) }), para('Indented box', { borders: box(4), indentLeft: 36, indentRight: 36 }), hanging])]));
    expect(find(lines!, 'Unindented box').x0).toBeCloseTo(72, 0);
    expect(find(lines!, 'Indented box').x0).toBeCloseTo(108, 0);
    // A hanging first line is the text's outermost point: the box goes round it, the other lines keep their indent.
    expect(find(lines!, 'Hanging box').x0).toBeCloseTo(72, 0);
    expect(find(lines!, 'ends here').x0).toBeCloseTo(108, 0);
  });

  it('a double top or bottom paragraph border is two lines with a gap, and takes the room a single border of its whole width takes', async () => {
    // Word's heading and letterhead rules are often double: written as CSS double borders, which
    // MuPDF draws as two lines a third of the width each, the third between them.
    const double = { width: 1, style: 'double' as const, color: '000000', space: 4 };
    const single = { ...double, style: 'single' as const, width: 3 };
    const ruled = (text: string, border: typeof double | typeof single, side: 'top' | 'bottom') => para(text, { borders: { [side]: border }, spaceBefore: 0, spaceAfter: 0 });
    const model = (border: typeof double | typeof single) => doc([section([para('Above'), ruled('Ruled below', border, 'bottom'), para('Between'), ruled('Ruled above', border, 'top'), para('After')])]);
    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(renderWordDocument(model(double), mupdf, bundledFonts), 'application/pdf');
    try {
      const page = pdf.loadPage(0);
      // 4 px a point: each line 1 pt (4 px), the gap 1 pt.
      const pix = page.toPixmap(mupdf.Matrix.scale(4, 4), mupdf.ColorSpace.DeviceGray, false);
      const pixels = pix.getPixels().slice();
      const stride = pix.getStride();
      const dark = (x: number, y: number) => pixels[y * stride + x]! < 128;
      // Down the column at x 300 pt, between the text lines: runs of dark pixels, each a line.
      const runs: [number, number][] = [];
      for (let y = 1; y < 200 * 4; y++) {
        if (dark(1200, y) && !dark(1200, y - 1)) runs.push([y, y]);
        else if (dark(1200, y)) runs[runs.length - 1]![1] = y;
      }
      pix.destroy();
      page.destroy();
      expect(runs).toHaveLength(4);
      for (const [from, to] of runs) expect(to - from + 1).toBeGreaterThanOrEqual(3); // about 4 px (1 pt) each
      for (const [from, to] of runs) expect(to - from + 1).toBeLessThanOrEqual(5);
      // Two pairs, each with a gap of about 1 pt between its lines.
      expect(runs[1]![0] - runs[0]![1] - 1).toBeGreaterThanOrEqual(3);
      expect(runs[1]![0] - runs[0]![1] - 1).toBeLessThanOrEqual(5);
      expect(runs[3]![0] - runs[2]![1] - 1).toBeGreaterThanOrEqual(3);
      expect(runs[3]![0] - runs[2]![1] - 1).toBeLessThanOrEqual(5);
    } finally {
      pdf.destroy();
    }
    // The text around them sits where a single border as wide as the pair (3 pt) puts it.
    const [doubled] = await render(model(double));
    const [singled] = await render(model(single));
    for (const text of ['Ruled below', 'Between', 'Ruled above', 'After']) expect(find(doubled!, text).y).toBeCloseTo(find(singled!, text).y, 1);
  });

  it('consecutive paragraphs with the same borders and indents are one box: sides run on through their spacing, no borders between them', async () => {
    const edge = { width: 1, style: 'single' as const, color: '000000', space: 1 };
    const box = { top: edge, left: edge, bottom: edge, right: edge };
    const boxed = (text: string) => para(text, { borders: box, spaceAfter: 12 });
    const model = doc([section([boxed('Boxed one'), boxed('Boxed two'), boxed('Boxed three'), para('Outside', { spaceBefore: 12 })])]);
    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf');
    try {
      const page = pdf.loadPage(0);
      const pix = page.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceGray, false);
      const dark = (x: number, y: number) => pix.getPixels()[y * pix.getStride() + x]! < 128;
      // Down the middle of the box (x 300): one border above the first paragraph and one below the last.
      const crossings: number[] = [];
      for (let y = 60; y < 200; y++) if (dark(300, y) && !dark(300, y - 1)) crossings.push(y);
      expect(crossings).toHaveLength(2);
      // The left side (1 pt wide, 1 pt off the text at 72: x 70) is unbroken from top to bottom.
      const [top, bottom] = crossings as [number, number];
      const side = Array.from({ length: bottom - top - 2 }, (_, i) => dark(70, top + 1 + i));
      expect(side.every(Boolean)).toBe(true);
      pix.destroy();
      page.destroy();
    } finally {
      pdf.destroy();
    }
    // The paragraphs keep their spacing: 12 pt between each, inside the box as outside it.
    const [lines] = await render(model);
    const y = (t: string) => find(lines!, t).y;
    expect(y('Boxed two') - y('Boxed one')).toBeCloseTo(y('Boxed three') - y('Boxed two'), 1);
    expect(y('Boxed two') - y('Boxed one')).toBeGreaterThan(12 + 11);
  });

  it('a row of exact height shows only the paragraphs that start within it, as Word clips the rest; an "at least" row grows', async () => {
    const cell = (texts: string[]) => ({ gridSpan: 1, borders: {}, blocks: texts.map((t) => para(t)) });
    const lines5 = (tag: string) => Array.from({ length: 5 }, (_, i) => `${tag} line ${i + 1}`);
    const table = (rule: 'exact' | 'atLeast', tag: string): Block => ({ kind: 'table', grid: [300], rows: [{ height: { rule, value: 30 }, cells: [cell(lines5(tag))] }] });
    const [lines] = await render(doc([section([table('exact', 'Exact'), para('Between'), table('atLeast', 'Grown'), para('After')])]));
    const text = lines!.map((l) => l.text).join('\n');
    // 30 pt holds two 11 pt Calibri lines (13.4 pt each); the third would start at 26.9 pt and end below 30.
    expect(text).toContain('Exact line 2');
    expect(text).not.toContain('Exact line 3');
    expect(find(lines!, 'Between').y - find(lines!, 'Exact line 1').y).toBeLessThan(34);
    for (let i = 1; i <= 5; i++) expect(text).toContain(`Grown line ${i}`);
  });

  it('a cell is aligned to the top, centre or bottom of its row (w:vAlign, the .doc TC vertAlign)', async () => {
    const cell = (texts: string[], vAlign?: 'center' | 'bottom') => ({ gridSpan: 1, borders: {}, blocks: texts.map((t) => para(t)), ...(vAlign ? { vAlign } : {}) });
    const table: Block = { kind: 'table', grid: [150, 150, 150], rows: [{ cells: [cell(['Tall 1', 'Tall 2', 'Tall 3', 'Tall 4', 'Tall 5']), cell(['Middle'], 'center'), cell(['Bottom'], 'bottom')] }] };
    const [lines] = await render(doc([section([table])]));
    const y = (t: string) => find(lines!, t).y;
    expect(y('Middle')).toBeCloseTo(y('Tall 3'), 0);
    expect(y('Bottom')).toBeCloseTo(y('Tall 5'), 0);
  });

  it('keep-with-next: a heading that would end a page goes to the next with the paragraph it keeps with, and a run of them goes together', async () => {
    // 48 lines of Calibri 11 (13.43 pt) fill the 648 pt text area; the 49th block starts page 2.
    const filler = (n: number) => Array.from({ length: n }, (_, i) => para(`Filler ${i}`));
    const pageOf = (pages: Line[][], text: string) => pages.findIndex((lines) => lines.some((l) => l.text.includes(text)));
    const single = await render(doc([section([...filler(47), para('Heading alone', { keepNext: true }), para('Its paragraph')])]));
    const last = await render(doc([section([...filler(47 + 48), para('Late heading', { keepNext: true }), para('Late paragraph')])]));
    for (const [pages, heading, body] of [[single, 'Heading alone', 'Its paragraph'], [last, 'Late heading', 'Late paragraph']] as const) {
      expect(pageOf(pages, heading)).toBe(pageOf(pages, body));
    }
    // Filler 0..45 on page 1, then a chapter and a section heading both kept with the text after them.
    const run = await render(doc([section([...filler(46), para('Chapter', { keepNext: true }), para('Section', { keepNext: true }), para('Text')])]));
    expect(pageOf(run, 'Chapter')).toBe(1);
    expect(pageOf(run, 'Section')).toBe(1);
    expect(pageOf(run, 'Text')).toBe(1);
    expect(pageOf(run, 'Filler 45')).toBe(0);
    // The fillers fill page 1 (and 2): the headings would have ended their pages.
    expect(pageOf(single, 'Filler 46')).toBe(0);
    expect(pageOf(last, 'Late heading')).toBe(2);
  });

  it('keep-with-next: a run longer than a page that starts its page stays there, laid out once', async () => {
    const mupdf = await loadMupdf();
    const pageOf = (pages: Line[][], text: string) => pages.findIndex((lines) => lines.some((l) => l.text.includes(text)));
    // The page break makes the run the first block of its stretch; a run after a page of filler starts page 2 by itself.
    const kept = (from: number) => Array.from({ length: 60 }, (_, i) => para(`Kept ${from + i}`, { keepNext: true, pageBreakBefore: i === 0 && from === 0 }));
    const atStart = doc([section([para('Intro'), ...kept(0), para('After')])]);
    const afterFiller = doc([section([...Array.from({ length: 48 }, (_, i) => para(`Filler ${i}`)), ...kept(100), para('After')])]);
    for (const [model, first] of [[atStart, 'Kept 0'], [afterFiller, 'Kept 100']] as const) {
      // Layouts of the body, counted (each keep-with-next round is one more).
      const layout = mupdf.Document.prototype.layout;
      let layouts = 0;
      mupdf.Document.prototype.layout = function (this: InstanceType<typeof mupdf.Document>, ...args: Parameters<typeof layout>) {
        layouts++;
        return layout.apply(this, args);
      };
      let pages: Line[][];
      try {
        pages = await render(model, { ownLayout: false });
      } finally {
        mupdf.Document.prototype.layout = layout;
      }
      expect(pageOf(pages, first)).toBe(1);
      expect(pageOf(pages, 'After')).toBe(2);
      expect(layouts).toBe(model === atStart ? 2 : 1); // one per stretch: a page break makes two
      // Our own pager keeps the run where it starts too.
      const own = await render(model);
      expect(pageOf(own, first)).toBe(1);
      expect(pageOf(own, 'After')).toBe(2);
    }
    // The block before a heading starts on an earlier page but runs onto the heading's: the heading
    // ends that page, so it moves. A 95-line paragraph fills page 1 and all but a line of page 2.
    const long: Paragraph = { kind: 'paragraph', props: {}, inlines: Array.from({ length: 95 }, (_, i) => [{ kind: 'text' as const, text: `Long ${i}`, style }, { kind: 'break' as const, type: 'line' as const }]).flat().slice(0, -1) };
    const crossing = await render(doc([section([long, para('Heading', { keepNext: true }), para('Its text')])]));
    expect(pageOf(crossing, 'Long 94')).toBe(1);
    expect(pageOf(crossing, 'Heading')).toBe(2);
    expect(pageOf(crossing, 'Its text')).toBe(2);
  });

  it('a table whose rows keep with the next holds together: it starts the next page with the heading kept with it, unless it starts its page', async () => {
    const filler = (n: number) => Array.from({ length: n }, (_, i) => para(`Filler ${i}`));
    const pageOf = (pages: Line[][], text: string) => pages.findIndex((lines) => lines.some((l) => l.text.includes(text)));
    const cell = (text: string, keepNext: boolean) => ({ gridSpan: 1, borders: {}, blocks: [para(text, keepNext ? { keepNext: true } : {})] });
    // Four rows, each kept with the next but the last (Word's "keep with next" on a table's rows).
    const table = (kept: boolean, rows = 4): Block => ({ kind: 'table', grid: [200, 200], rows: Array.from({ length: rows }, (_, r) => ({ cells: [cell(`Row ${r} left`, kept && r < rows - 1), cell(`Row ${r} right`, false)] })) });
    // 44 lines of filler leave room for the heading and two rows on page 1.
    const held = await render(doc([section([...filler(44), para('Table heading', { keepNext: true }), table(true)])]));
    expect(pageOf(held, 'Filler 43')).toBe(0);
    expect(pageOf(held, 'Table heading')).toBe(1);
    expect(pageOf(held, 'Row 0 left')).toBe(1);
    expect(pageOf(held, 'Row 3 left')).toBe(1);
    // Without the keeps the table is split where the page ends.
    const split = await render(doc([section([...filler(44), para('Table heading', { keepNext: true }), table(false)])]));
    expect(pageOf(split, 'Row 0 left')).toBe(0);
    expect(pageOf(split, 'Row 3 left')).toBe(1);
    // A held table longer than a page, at the top of its page, stays there (no empty page before it).
    const long = await render(doc([section([table(true, 60)])]));
    expect(pageOf(long, 'Row 0 left')).toBe(0);
    expect(pageOf(long, 'Row 59 left')).toBeGreaterThan(0);
    // After a paragraph that starts on page 1 and runs onto page 2, leaving three lines there, the table does not start its page: it moves.
    const lines: Paragraph = { kind: 'paragraph', props: {}, inlines: Array.from({ length: 93 }, (_, i) => [{ kind: 'text' as const, text: `Long ${i}`, style }, { kind: 'break' as const, type: 'line' as const }]).flat().slice(0, -1) };
    const after = await render(doc([section([lines, table(true)])]));
    expect(pageOf(after, 'Long 92')).toBe(1);
    expect(pageOf(after, 'Row 0 left')).toBe(2);
    expect(pageOf(after, 'Row 3 left')).toBe(2);
  });

  it('"no leading" (w:noLeading): single line height leaves out the font\'s line gap', async () => {
    const arial: RunStyle = { font: 'Arial', size: 10 };
    const lines = (n: number): Paragraph[] => Array.from({ length: n }, (_, i) => ({ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: `line${i}`, style: arial }] }));
    const pitch = async (noLeading?: boolean) => {
      const [page] = await render({ ...doc([section(lines(11))]), noLeading });
      return (find(page!, 'line10').y - find(page!, 'line0').y) / 10;
    };
    // Arimo (Arial's stand-in): ascender 1854 + descender 434 + line gap 67, of 2048 units per em.
    expect(await pitch()).toBeCloseTo((10 * (1854 + 434 + 67)) / 2048, 1);
    expect(await pitch(true)).toBeCloseTo((10 * (1854 + 434)) / 2048, 1);
  });

  it('between paragraphs the larger of space after and space before applies', async () => {
    const [lines] = await render(doc([section([para('First line', { spaceAfter: 10 }), para('Second line', { spaceBefore: 20 }), para('Third line')])]));
    const first = find(lines!, 'First line');
    const second = find(lines!, 'Second line');
    const third = find(lines!, 'Third line');
    const step = third.y - second.y; // one line, no spacing
    // 20 pt (the larger), not 30 (the sum); line boxes are whole points, so allow 1.5 pt.
    expect(Math.abs(second.y - first.y - (step + 20))).toBeLessThan(1.5);
  });

  it('a right-to-left paragraph runs from the right margin, its start indent on the right; a right-to-left table has its first column on the right', async () => {
    const arabic: RunStyle = { font: 'Arial', size: 11 };
    const rtl = (text: string, props: Paragraph['props'] = {}): Paragraph => ({ kind: 'paragraph', props: { bidi: true, ...props }, inlines: [{ kind: 'text', text, style: arabic }] });
    const cell = (text: string) => ({ blocks: [rtl(text)], gridSpan: 1, borders: {} });
    const table: Block = { kind: 'table', grid: [100, 100], bidiVisual: true, rows: [{ cells: [cell('الف'), cell('باء')] }] };
    const [lines] = await render(doc([section([rtl('نویسنده: کتاب'), rtl('مترجم', { indentLeft: 36 }), rtl('درود', { align: 'right' }), table])]));
    const right = 612 - 72;
    // A paragraph's line: the pieces extraction finds on its baseline (it may cut a right-to-left line at its spaces).
    const row = (text: string) => {
      const y = find(lines!, text).y;
      const on = lines!.filter((l) => Math.abs(l.y - y) < 2);
      return { x0: Math.min(...on.map((l) => l.x0)), x1: Math.max(...on.map((l) => l.x1)) };
    };
    // Start-aligned: ends at the right margin; the indented one 36 pt before it.
    expect(row('کتاب').x1).toBeGreaterThan(right - 2);
    expect(row('کتاب').x0).toBeGreaterThan(right - 150);
    expect(row('مترجم').x1).toBeGreaterThan(right - 36 - 3);
    expect(row('مترجم').x1).toBeLessThan(right - 36 + 1);
    // "right" in a right-to-left paragraph is its end: the left margin. (A word without lam-alef: MuPDF's
    // extraction reads that ligature's two letters backwards in visually ordered text, ours as LibreOffice's.)
    expect(row('درود').x0).toBeLessThan(74);
    // The table sits at the right margin, its first cell rightmost.
    expect(find(lines!, 'الف').x0).toBeGreaterThan(find(lines!, 'باء').x1);
    expect(find(lines!, 'الف').x1).toBeGreaterThan(right - 10);
  });

  it('a centred table sits in the middle of the text area whatever its indent; a right-aligned one at the right margin', async () => {
    const cell = (text: string) => ({ blocks: [para(text)], gridSpan: 1, borders: {} });
    const table = (text: string, align: 'center' | 'right', indent?: number): Block => ({ kind: 'table', grid: [100, 100], align, indent, rows: [{ cells: [cell(`${text} A`), cell(`${text} B`)] }] });
    const [lines] = await render(doc([section([table('Centred', 'center', -150), para('Between'), table('Right', 'right')])]));
    // 468 pt of text area from 72: a 200 pt table centred starts at 72 + 134 (MuPDF ignores margin auto: it sat at 72).
    expect(find(lines!, 'Centred A').x0).toBeGreaterThan(72 + 134 - 1);
    expect(find(lines!, 'Centred A').x0).toBeLessThan(72 + 134 + 8);
    expect(find(lines!, 'Right A').x0).toBeGreaterThan(72 + 268 - 1);
    expect(find(lines!, 'Right A').x0).toBeLessThan(72 + 268 + 8);
  });

  it('a page colour fills every page under the text', async () => {
    const mupdf = await loadMupdf();
    const model = { ...doc([section([para('Coloured page'), para('Next', { pageBreakBefore: true })])]), pageColor: 'FFFFCC' };
    const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf');
    try {
      expect(pdf.countPages()).toBe(2);
      for (let i = 0; i < 2; i++) {
        const pixmap = pdf.loadPage(i).toPixmap(mupdf.Matrix.scale(0.1, 0.1), mupdf.ColorSpace.DeviceRGB, false);
        const px = pixmap.getPixels();
        expect([px[0], px[1], px[2]]).toEqual([255, 255, 204]); // the corner, outside the margins
      }
    } finally {
      pdf.destroy();
    }
  });

  it('a floating box with no room for text beside it keeps the text below it: its offset below the anchor and its whole height', async () => {
    const boxed = (width: number, wrap: 'square' | 'inFront' = 'square'): Paragraph => ({
      kind: 'paragraph',
      props: {},
      inlines: [{ kind: 'textbox', blocks: [para('Title')], width, height: 200, floating: { x: 0, y: 20, relativeX: 'column', relativeY: 'paragraph', wrap } }],
    });
    // 468 pt of text area: a 460 pt box leaves no room beside it; the text goes 20 + 200 pt below the anchor.
    const [wide] = await render(doc([section([boxed(460), para('After')])]));
    expect(find(wide!, 'Title').y).toBeGreaterThan(72 + 20 - 1);
    expect(find(wide!, 'After').y).toBeGreaterThan(72 + 220 - 1);
    expect(find(wide!, 'After').y).toBeLessThan(72 + 220 + 14);
    // A 200 pt box leaves room beside it (where Word's text would run): as before, the text follows the box's text.
    const [narrow] = await render(doc([section([boxed(200), para('After')])]));
    expect(find(narrow!, 'After').y).toBeLessThan(72 + 40);
  });

  it('two text columns: the text continues in the right half of the page', async () => {
    const words = Array.from({ length: 900 }, (_, i) => `word${i}`).join(' ');
    const pages = await render(doc([section([para(words)], { columns: 2, columnGap: 36 })]));
    const all = pages[0]!;
    const mid = 612 / 2;
    expect(all.some((l) => l.x1 < mid)).toBe(true);
    expect(all.some((l) => l.x0 > mid)).toBe(true);
    expect(all.every((l) => l.x1 < mid || l.x0 > mid)).toBe(true);
  });

  it('a continuous section with two columns starts below the one-column text on its page, and one with one column again below that', async () => {
    const title = [para('Title of the article'), para('Author names')];
    const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    const body = words('col', 1400);
    const after = words('end', 30);
    const pages = await render(
      doc([
        section(title),
        section([para(body.join(' '))], { start: 'continuous', columns: 2, columnGap: 36 }),
        section([para(after.join(' '))], { start: 'continuous' }),
      ]),
    );
    const mid = 612 / 2;
    const first = pages[0]!;
    const titleLine = find(first, 'Title of the article');
    const bodyLines = first.filter((l) => /^col\d/.test(l.text));
    // On the title's page, below it, in both columns.
    expect(bodyLines.length).toBeGreaterThan(10);
    expect(bodyLines.every((l) => l.y > titleLine.y)).toBe(true);
    expect(bodyLines.some((l) => l.x0 > mid)).toBe(true);
    expect(bodyLines.every((l) => l.x1 < mid || l.x0 > mid)).toBe(true);
    // Every word once, in order across the pages and columns.
    const seen = pages.flatMap((lines) => lines.flatMap((l) => l.text.split(' '))).filter((w) => /^(col|end)\d/.test(w));
    expect(seen).toEqual([...body, ...after]);
    // The last section, one column again, follows the two-column text on its page.
    const lastPage = pages.findIndex((lines) => lines.some((l) => l.text.includes('end0')));
    expect(lastPage).toBe(pages.findIndex((lines) => lines.some((l) => l.text.includes('col1399'))));
    const end = pages[lastPage]!.filter((l) => /^end\d/.test(l.text));
    const bodyBottom = Math.max(...pages[lastPage]!.filter((l) => /^col\d/.test(l.text)).map((l) => l.y));
    expect(end.every((l) => l.y > bodyBottom)).toBe(true);
    expect(end.some((l) => l.x1 > mid + 50)).toBe(true); // one column: lines run across the middle
  });

  it('a header taller than the top margin pushes the body down; the footer shows PAGE of NUMPAGES', async () => {
    const tall = Array.from({ length: 6 }, (_, i) => para(`Header line ${i + 1}`));
    const footer: Paragraph = {
      kind: 'paragraph',
      props: {},
      inlines: [{ kind: 'text', text: 'Page ', style }, { kind: 'field', field: 'PAGE', style }, { kind: 'text', text: ' of ', style }, { kind: 'field', field: 'NUMPAGES', style }],
    };
    const body = [para('Body starts here'), { ...para('Second page'), props: { pageBreakBefore: true } }];
    const pages = await render(doc([section(body, { headers: { default: tall }, footers: { default: [footer] } })]));
    expect(pages).toHaveLength(2);
    const lastHeader = find(pages[0]!, 'Header line 6');
    const bodyLine = find(pages[0]!, 'Body starts here');
    expect(bodyLine.y).toBeGreaterThan(lastHeader.y);
    expect(bodyLine.y).toBeGreaterThan(72);
    expect(find(pages[0]!, 'Page 1 of 2')).toBeTruthy();
    expect(find(pages[1]!, 'Page 2 of 2')).toBeTruthy();
  });

  it('Cyrillic in a Cambria run is drawn by a face that has it (Caladea lacks Cyrillic)', async () => {
    const cambria: Paragraph = { kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: 'Заголовок Title', style: { font: 'Cambria', size: 14 } }] };
    const [lines] = await render(doc([section([cambria])]));
    expect(find(lines!, 'Title').text).toBe('Заголовок Title');
  });

  it('Arabic and Persian text maps back to its letters in the PDF, not to presentation forms', async () => {
    // MuPDF's writer takes a font's ToUnicode from the face's cmap, where DejaVu's joining forms are
    // presentation-form characters; viewers that read ToUnicode as it is (poppler's pdftotext) then
    // copy "ﮐﻠﯿﺪ" for "کلید".
    const persian: Paragraph = { kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: 'کلیدهای تدبر قرآن سلام', style: { font: 'B Lotus', size: 14 } }] };
    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(renderWordDocument(doc([section([persian])]), mupdf, bundledFonts), 'application/pdf') as import('mupdf').PDFDocument;
    try {
      const maps: string[] = [];
      pdf.findPage(0).get('Resources', 'Font').forEach((font) => {
        const map = font.get('ToUnicode');
        if (map.isStream()) maps.push(new TextDecoder('latin1').decode(map.readStream().asUint8Array()));
      });
      const all = maps.join('\n');
      // The glyphs that drew the text map to the letters (ک is U+06A9, the lam-alef ligature of سلام to two letters)...
      expect(all).toMatch(/<06a9>/i);
      expect(all).toMatch(/<06440627>/i);
      // ...and no target is a presentation form that stands for letters.
      const forms = [...all.matchAll(/<([0-9a-f]{4})>/gi)].map((m) => String.fromCharCode(parseInt(m[1]!, 16))).filter((c) => /[\ufb00-\ufdff\ufe70-\ufeff]/.test(c) && c.normalize('NFKC') !== c);
      expect(forms).toEqual([]);
    } finally {
      pdf.destroy();
    }
  });

  it('a paragraph that opens with a page break starts on the next page whole, leaving no empty line behind', () => {
    const opening: Paragraph = { kind: 'paragraph', props: { shading: 'E6E6FF', list: { label: '1.', style, suffix: 'tab' } }, inlines: [{ kind: 'break', type: 'page' }, { kind: 'text', text: 'Minutes', style }] };
    const alone: Paragraph = { kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: 'Before', style }, { kind: 'break', type: 'page' }] };
    const [flow] = flowsOf(doc([section([para('Agenda'), opening, para('Notes'), alone, para('Last')])]));
    const texts = flow!.chunks.map((chunk) => chunk.map((b) => (b.kind === 'paragraph' ? b.inlines.map((i) => (i.kind === 'text' ? i.text : '')).join('') : '')));
    expect(texts).toEqual([['Agenda'], ['Minutes', 'Notes', 'Before'], ['Last']]);
    // The paragraph keeps its shading and its list label on the page it moved to.
    const moved = flow!.chunks[1]![0] as Paragraph;
    expect([moved.props.shading, moved.props.list?.label, moved.props.pageBreakBefore]).toEqual(['E6E6FF', '1.', true]);
  });

  it('a continuous section that opens with a page break, or with a table whose first cell breaks, starts a page', () => {
    const table = (props: Paragraph['props']): Block => ({
      kind: 'table', grid: [200, 200],
      rows: [{ cells: [{ blocks: [{ kind: 'paragraph', props, inlines: [{ kind: 'break', type: 'page' }] }], gridSpan: 1, borders: {} }, { blocks: [para('Minutes')], gridSpan: 1, borders: {} }] }],
    });
    const flows = flowsOf(doc([
      section([para('Agenda')]),
      section([para('Break first', { pageBreakBefore: true }), para('Same page')], { start: 'continuous' }),
      section([para('Flows on')], { start: 'continuous' }),
      section([table({ pageBreakBefore: true }), para('After the table')], { start: 'continuous' }),
      section([para('Body'), table({})], { start: 'continuous' }),
    ]));
    const first = (b: Block) => (b.kind === 'paragraph' ? b.inlines.map((i) => (i.kind === 'text' ? i.text : '')).join('') : 'table');
    expect(flows).toHaveLength(1);
    // A table whose first cell opens with a page break (and no pageBreakBefore) also moves to a page of its own.
    expect(flows[0]!.chunks.map((chunk) => chunk.map(first))).toEqual([['Agenda'], ['Break first', 'Same page', 'Flows on'], ['table', 'After the table', 'Body'], ['table']]);
  });

  it('a column break moves what follows to the top of the next column; in one column it is a page break', async () => {
    const broken = (text: string, after: string): Paragraph => ({ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text, style }, { kind: 'break', type: 'column' }, { kind: 'text', text: after, style }] });
    const [lines] = await render(doc([section([para('Top left'), broken('Still left', 'Top right'), para('Below right')], { columns: 2, columnGap: 36 })]));
    const line = (t: string) => find(lines!, t);
    expect(line('Top right').x0).toBeGreaterThan(320);
    expect(Math.abs(line('Top right').y - line('Top left').y)).toBeLessThan(1);
    expect(line('Below right').x0).toBeGreaterThan(320);
    expect(line('Still left').x0).toBeLessThan(100);
    // In a continuous section that starts below another's columns, too.
    const two = { columns: 2, columnGap: 36 };
    const [below] = await render(doc([section([para('Section one')], two), section([broken('Row left', 'Row right')], { ...two, start: 'continuous' })]));
    expect(find(below!, 'Row right').x0).toBeGreaterThan(320);
    expect(Math.abs(find(below!, 'Row right').y - find(below!, 'Row left').y)).toBeLessThan(1);
    expect(find(below!, 'Row left').y).toBeGreaterThan(find(below!, 'Section one').y + 10);
    // A "next column" section break in two columns is one too.
    const [next] = await render(doc([section([para('Column one')], two), section([para('Column two')], { ...two, start: 'nextColumn' })]));
    expect(find(next!, 'Column two').x0).toBeGreaterThan(320);
    expect(Math.abs(find(next!, 'Column two').y - find(next!, 'Column one').y)).toBeLessThan(1);
    // One column: the same break starts a page.
    const pages = await render(doc([section([broken('First page', 'Second page')])]));
    expect(pages.map((p) => p.map((l) => l.text).join('|'))).toEqual(['First page', 'Second page']);
  });

  it('a continuous section after a multi-column one starts below its balanced columns, with the same column count too', () => {
    const two = { columns: 2, columnGap: 36 };
    const flows = flowsOf(doc([section([para('Row one')], two), section([para('Row two')], { ...two, start: 'continuous' }), section([para('Plain')], { start: 'continuous' }), section([para('Plain too')], { start: 'continuous' })]));
    // Each multi-column section is a flow of its own that continues the page; one-column sections after each other run on.
    expect(flows.map((f) => [f.continues ?? null, f.chunks.flat().length])).toEqual([[null, 1], [true, 1], [true, 2]]);
  });

  it('a taller even-page header pushes the body down on even pages too', async () => {
    const evenHeader = ['Even header one', 'Even header two', 'Even header three', 'Even header four', 'Even header five', 'Even header six'].map((t) => para(t));
    const body = Array.from({ length: 80 }, (_, i) => para(`Body line ${i + 1}`));
    const pages = await render(doc([section(body, { evenAndOdd: true, headers: { default: [para('Odd header')], even: evenHeader } })]));
    expect(pages.length).toBeGreaterThan(1);
    const lowest = (lines: Line[], prefix: string) => Math.max(...lines.filter((l) => l.text.startsWith(prefix)).map((l) => l.y));
    const highest = (lines: Line[], prefix: string) => Math.min(...lines.filter((l) => l.text.startsWith(prefix)).map((l) => l.y));
    // Page 2 shows the even header; its last line is above the page's first body line.
    expect(lowest(pages[1]!, 'Even header six')).toBeLessThan(highest(pages[1]!, 'Body line'));
    expect(lowest(pages[0]!, 'Odd header')).toBeLessThan(highest(pages[0]!, 'Body line'));
  });

  it('spaces and hyphens read back as themselves in every bundled face, not as no-break spaces or soft hyphens', async () => {
    // Tinos maps U+0020 and U+00A0 to one glyph and MuPDF's ToUnicode named U+00A0: copied text
    // had no-break spaces between its words. Likewise U+002D and U+00AD: hyphens copied as soft ones.
    const fonts = ['Times New Roman', 'Liberation Serif', 'Calibri', 'Cambria', 'Arial', 'Courier New', 'B Lotus'];
    const paragraphs = fonts.map((font): Paragraph => ({ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: `Words in ${font} apart, meeting-type`, style: { font, size: 11 } }] }));
    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(renderWordDocument(doc([section(paragraphs)]), mupdf, bundledFonts), 'application/pdf');
    try {
      // As a viewer copies it: the page's text as is (render() above folds U+00A0 into spaces).
      const json = JSON.parse(pdf.loadPage(0).toStructuredText('preserve-whitespace').asJSON()) as { blocks: { lines?: { text: string }[] }[] };
      const text = json.blocks.flatMap((b) => b.lines ?? []).map((l) => l.text).join('\n');
      for (const font of fonts) expect(text).toContain(`Words in ${font} apart, meeting-type`);
      expect(text).not.toContain('\u00a0');
      expect(text).not.toContain('\u00ad');
    } finally {
      pdf.destroy();
    }
  });

  it('a picture that cannot be decoded is left blank and the rest of the document converts', async () => {
    const png = makePng(40, 40, [0, 0, 255]);
    // Break the zlib checksum at the end of the IDAT data: the header still reads, decoding fails.
    const idat = new TextDecoder('latin1').decode(png).indexOf('IDAT');
    const length = new DataView(png.buffer, png.byteOffset).getUint32(idat - 4);
    png[idat + 4 + length - 1]! ^= 0xff;
    const withPicture: Paragraph = {
      kind: 'paragraph',
      props: {},
      inlines: [{ kind: 'text', text: 'Before the picture ', style }, { kind: 'image', data: png, contentType: 'image/png', width: 40, height: 40 }, { kind: 'text', text: ' after it', style }],
    };
    const [lines] = await render(doc([section([withPicture, para('Next paragraph survives')])]));
    expect(find(lines!, 'Before the picture')).toBeTruthy();
    expect(find(lines!, 'after it')).toBeTruthy();
    expect(find(lines!, 'Next paragraph survives')).toBeTruthy();
  });

  it('a table with a header row that runs over pages repeats the header row at the top of each page', async () => {
    const edge = { width: 0.5, style: 'single' as const, color: '000000' };
    const cell = (text: string) => ({ gridSpan: 1, borders: { top: edge, bottom: edge, left: edge, right: edge }, blocks: [para(text)] });
    const table: Block = {
      kind: 'table',
      grid: [200, 200],
      rows: [
        { header: true, cells: [cell('Head one'), cell('Head two')] },
        ...Array.from({ length: 90 }, (_, i) => ({ cells: [cell(`Row ${i + 1}`), cell('value')] })),
      ],
    };
    const pages = await render(doc([section([para('Before the table'), table, para('After the table')])]));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    const text = pages.map((lines) => lines.map((l) => l.text).join('\n'));
    for (const page of text) expect(page).toContain('Head one');
    // Every body row appears exactly once, in order.
    const rows = text.join('\n').match(/Row \d+/g)!;
    expect(rows).toEqual(Array.from({ length: 90 }, (_, i) => `Row ${i + 1}`));
    expect(text[text.length - 1]).toContain('After the table');
  });

  it('in a stretch with several header-row tables, only the one that runs over a page repeats its header, and once per page', async () => {
    const edge = { width: 0.5, style: 'single' as const, color: '000000' };
    const cell = (text: string) => ({ gridSpan: 1, borders: { top: edge, bottom: edge, left: edge, right: edge }, blocks: [para(text)] });
    const table = (name: string, rows: number): Block => ({
      kind: 'table',
      grid: [200, 200],
      rows: [{ header: true, cells: [cell(`Head ${name}`), cell('h')] }, ...Array.from({ length: rows }, (_, i) => ({ cells: [cell(`${name} row ${i + 1}`), cell('v')] }))],
    });
    // A short table that stays on page 1, text, then a long one that runs over two more pages.
    const pages = await render(doc([section([table('A', 3), ...Array.from({ length: 10 }, (_, i) => para(`Text ${i + 1}`)), table('B', 80), para('The end')])]));
    const text = pages.map((lines) => lines.map((l) => l.text).join('\n'));
    expect(text.join('\n').match(/Head A/g)).toHaveLength(1);
    const withB = text.filter((page) => /B row \d+/.test(page));
    expect(withB.length).toBeGreaterThanOrEqual(2);
    for (const page of withB) expect(page.match(/Head B/g)).toHaveLength(1);
    expect(text.join('\n').match(/B row \d+/g)).toEqual(Array.from({ length: 80 }, (_, i) => `B row ${i + 1}`));
    expect(text[text.length - 1]).toContain('The end');
  });

  it('an RGB PNG goes into the PDF with its own compressed data (PNG predictor) and draws in its colour', async () => {
    const png = makePng(40, 20, [0, 128, 255]);
    const withPicture: Paragraph = { kind: 'paragraph', props: {}, inlines: [{ kind: 'image', data: png, contentType: 'image/png', width: 80, height: 40 }] };
    const mupdf = await loadMupdf();
    const bytes = renderWordDocument(doc([section([withPicture])]), mupdf, bundledFonts);
    const pdf = mupdf.Document.openDocument(bytes, 'application/pdf') as import('mupdf').PDFDocument;
    try {
      const images: { width: number; predictor: number }[] = [];
      pdf.findPage(0).get('Resources', 'XObject').forEach((ref) => {
        if (ref.get('Subtype').asName() === 'Image') images.push({ width: ref.get('Width').asNumber(), predictor: ref.get('DecodeParms', 'Predictor').asNumber() });
      });
      expect(images).toEqual([{ width: 40, predictor: 15 }]);
      // The picture sits at the top-left of the text area (72, 72), 80 x 40 pt: its middle is blue.
      const page = pdf.loadPage(0);
      const pix = page.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false, true);
      const at = (x: number, y: number) => Array.from(pix.getPixels().subarray(y * pix.getStride() + x * 3, y * pix.getStride() + x * 3 + 3));
      const [r, g, b] = at(112, 92);
      expect(r).toBeLessThan(30);
      expect(Math.abs(g! - 128)).toBeLessThan(30);
      expect(b).toBeGreaterThan(225);
      pix.destroy();
      page.destroy();
    } finally {
      pdf.destroy();
    }
  });
  it('external links become link annotations on the page their text lands on, in a long stretch and in a table; internal ones do not', async () => {
    const linked = (text: string, link: string): Paragraph => ({ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: 'See ', style }, { kind: 'text', text, style: { ...style, link } }] });
    const blocks: Block[] = Array.from({ length: 160 }, (_, i) => para(`Paragraph ${i} with enough words to take one line of the page.`));
    blocks.splice(1, 0, linked('first site', 'https://example.com/first'));
    blocks.splice(100, 0, linked('middle site', 'https://example.com/middle'), linked('up there', '#top'));
    blocks.push({ kind: 'table', grid: [200, 200], rows: [{ cells: [{ blocks: [linked('cell site', 'mailto:a@example.com')], gridSpan: 1, borders: {} }, { blocks: [para('x')], gridSpan: 1, borders: {} }] }] });
    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(renderWordDocument(doc([section(blocks)]), mupdf, bundledFonts), 'application/pdf');
    try {
      const found: { page: number; uri: string; text: string }[] = [];
      for (let i = 0; i < pdf.countPages(); i++) {
        const p = pdf.loadPage(i);
        const stext = p.toStructuredText('preserve-whitespace');
        for (const link of p.getLinks()) {
          const [x0, y0, x1, y1] = link.getBounds();
          expect(x1 - x0).toBeGreaterThan(1);
          const text = stext.copy([x0, (y0 + y1) / 2], [x1, (y0 + y1) / 2]).trim();
          found.push({ page: i, uri: link.getURI(), text });
        }
        p.destroy();
      }
      expect(pdf.countPages()).toBeGreaterThanOrEqual(4);
      expect(found.map((f) => f.uri)).toEqual(['https://example.com/first', 'https://example.com/middle', 'mailto:a@example.com']);
      expect(found[0]).toMatchObject({ page: 0, text: 'first site' });
      expect(found[1]!.page).toBeGreaterThanOrEqual(2);
      expect(found[1]!.text).toBe('middle site');
      expect(found[2]).toMatchObject({ page: pdf.countPages() - 1, text: 'cell site' });
    } finally {
      pdf.destroy();
    }
  });
});
