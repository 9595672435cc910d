import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { renderWordDocument } from '../src/convert/word/layout/render';
import { laysOutArea, laysOutItself } from '../src/convert/word/blocks/eligible';
import type { Block, Inline, Paragraph, RunStyle, Section, TableCell, TableRow, WordDocument } from '../src/convert/word/model/index';

// Our own line breaker and pager (src/layout/, through convert/word/blocks/): the stretches it takes, its lines
// beside MuPDF's HTML engine's for the same paragraphs, and the PDF text it writes.

const style: RunStyle = { font: 'Calibri', size: 11 };
const page = { width: 612, height: 792, marginTop: 72, marginRight: 72, marginBottom: 72, marginLeft: 72, header: 36, footer: 36 };
const para = (text: string, props: Paragraph['props'] = {}, run: RunStyle = style): Paragraph => ({ kind: 'paragraph', props, inlines: [{ kind: 'text', text, style: run }] });
const section = (blocks: Block[], extra: Partial<Section> = {}): Section => ({ page, headers: {}, footers: {}, blocks, ...extra });
const doc = (blocks: Block[], notes = new Map<string, Block[]>()): WordDocument => ({ sections: [section(blocks)], notes, defaultFont: 'Calibri', defaultSize: 11 });
const lorem = (n: number, prefix = 'w') => Array.from({ length: n }, (_, i) => `${prefix}${i}${'x'.repeat(i % 5)}`).join(' ');

interface Line {
  text: string;
  x0: number;
  x1: number;
  y: number;
}

async function render(model: WordDocument, ownLayout = true): Promise<{ pages: Line[][]; pdf: Uint8Array }> {
  const mupdf = await loadMupdf();
  const bytes = renderWordDocument(model, mupdf, bundledFonts, { ownLayout });
  const pdf = mupdf.Document.openDocument(bytes, 'application/pdf');
  try {
    const pages = Array.from({ length: pdf.countPages() }, (_, i) => {
      const p = pdf.loadPage(i);
      const json = JSON.parse(p.toStructuredText('preserve-whitespace').asJSON(100)) as { blocks: { lines?: { text: string; bbox: { x: number; y: number; w: number; h: number } }[] }[] };
      p.destroy();
      return json.blocks.flatMap((b) => b.lines ?? []).map((l) => ({ text: l.text.replace(/\s+/g, ' ').trim(), x0: l.bbox.x / 100, x1: (l.bbox.x + l.bbox.w) / 100, y: l.bbox.y / 100 }));
    });
    return { pages, pdf: bytes };
  } finally {
    pdf.destroy();
  }
}

/** A page's text lines: the pieces on one baseline joined left to right (extraction cuts a line at a wide gap). */
const rows_ = (lines: Line[]) => {
  const out: Line[] = [];
  for (const l of [...lines].filter((l) => l.text).sort((a, b) => a.y - b.y || a.x0 - b.x0)) {
    const last = out.at(-1);
    if (last && Math.abs(last.y - l.y) < 1) Object.assign(last, { text: `${last.text} ${l.text}`, x1: Math.max(last.x1, l.x1) });
    else out.push({ ...l });
  }
  return out;
};

describe('Word layout by our own engine (src/layout/)', () => {
  it('takes stretches of plain and bordered paragraphs, simple tables and Arabic and Hebrew text, and leaves nested or spaced tables, inline shapes, borders in cells and other shaped scripts to the HTML engine', () => {
    const model = doc([]);
    expect(laysOutItself([para('Plain text, Кириллица, Ελληνικά.'), { kind: 'paragraph', props: { list: { label: '1.', style, suffix: 'tab' } }, inlines: [{ kind: 'tab', style }, { kind: 'break', type: 'line' }] }], model)).toBe(true);
    expect(laysOutItself([], model)).toBe(false);
    const table = (blocks: Block[], extra: object = {}): Block => ({ kind: 'table', grid: [100], rows: [{ cells: [{ blocks, gridSpan: 1, borders: {} }] }], ...extra });
    expect(laysOutItself([table([para('cell')])], model)).toBe(true);
    expect(laysOutItself([table([table([para('nested')])])], model)).toBe(false);
    expect(laysOutItself([table([para('cell')], { cellSpacing: 2 })], model)).toBe(false);
    expect(laysOutItself([para('مرحبا'), para('שלום', { bidi: true })], model)).toBe(true); // shaped and ordered by flow/
    expect(laysOutItself([para('ܫܠܡܐ')], model)).toBe(false); // Syriac
    expect(laysOutItself([para('नमस्ते')], model)).toBe(false); // Devanagari
    expect(laysOutItself([para('Kerned', {}, { ...style, kern: 8 })], model)).toBe(true);
    expect(laysOutItself([para('Shaded', { shading: 'FFFF00' })], model)).toBe(true);
    const bordered = para('Bordered', { borders: { top: { width: 1, style: 'single', color: '000000' } } });
    expect(laysOutItself([bordered], model)).toBe(true);
    expect(laysOutItself([table([bordered])], model)).toBe(false); // borders of paragraphs in cells: the HTML path
    expect(laysOutItself([{ kind: 'paragraph', props: {}, inlines: [{ kind: 'shape', geometry: 'rect', width: 10, height: 10 }] }], model)).toBe(false);
  });

  it('breaks and places lines where MuPDF’s HTML engine does for the same paragraphs', async () => {
    const blocks: Block[] = [
      para(lorem(60, 'j'), { align: 'justify', firstLine: 24, spaceAfter: 6 }),
      para(lorem(25, 'c'), { align: 'center', spaceBefore: 12 }),
      para(lorem(25, 'r'), { align: 'right', indentRight: 36 }),
      para(lorem(40, 'h'), { indentLeft: 36, firstLine: -18, spaceAfter: 6 }),
      { kind: 'paragraph', props: { indentLeft: 36, firstLine: -18, list: { label: '1.', style, suffix: 'tab' } }, inlines: [{ kind: 'text', text: lorem(30, 'l'), style }] },
      { kind: 'paragraph', props: { line: { rule: 'auto', value: 1.5 } }, inlines: [{ kind: 'text', text: 'Before the break', style }, { kind: 'break', type: 'line' }, { kind: 'text', text: 'after it, ', style }, { kind: 'text', text: 'bold', style: { ...style, bold: true } }, { kind: 'text', text: ' and Кириллица in Cambria', style: { ...style, font: 'Cambria' } }] },
      para(lorem(30, 't'), { line: { rule: 'exact', value: 18 } }, { font: 'Times New Roman', size: 12 }),
      // Pair-kerned (w:kern from 8 pt): AV, Wa, To and Ty pairs tighten in every face.
      para('AVATAR Wave To Tyre VAT Yaw AWAY, '.repeat(6), {}, { font: 'Arial', size: 14, kern: 8 }),
      para('AVATAR Wave To Tyre VAT Yaw AWAY, '.repeat(6), { align: 'justify' }, { font: 'Cambria', size: 13, kern: 8, bold: true }),
    ];
    const own = rows_((await render(doc(blocks))).pages[0]!);
    const html = rows_((await render(doc(blocks), false)).pages[0]!);
    expect(own.map((l) => l.text)).toEqual(html.map((l) => l.text));
    for (const [k, line] of own.entries()) {
      expect(Math.abs(line.y - html[k]!.y)).toBeLessThan(0.6);
      expect(Math.abs(line.x0 - html[k]!.x0)).toBeLessThan(0.6);
      expect(Math.abs(line.x1 - html[k]!.x1)).toBeLessThan(1);
    }
    // Justified lines reach the right margin; the paragraph's last line does not.
    const justified = own.filter((l) => l.text.startsWith('j') || / j\d/.test(l.text)).slice(0, -1);
    expect(justified.length).toBeGreaterThan(2);
    for (const line of justified) expect(Math.abs(line.x1 - (page.width - page.marginRight))).toBeLessThan(0.6);
  });

  it('sizes each line by its own largest text, as Word and LibreOffice do (MuPDF sizes all of a paragraph’s lines alike)', async () => {
    // 1.5 lines; the 16 pt run only on the third line: the lines before it are 12 pt lines.
    const times: RunStyle = { font: 'Times New Roman', size: 12 };
    const p: Paragraph = { kind: 'paragraph', props: { line: { rule: 'auto', value: 1.5 } }, inlines: [{ kind: 'text', text: 'First line', style: times }, { kind: 'break', type: 'line' }, { kind: 'text', text: 'Second line', style: times }, { kind: 'break', type: 'line' }, { kind: 'text', text: 'Large', style: { ...times, size: 16 } }, { kind: 'break', type: 'line' }, { kind: 'text', text: 'Fourth line', style: times }] };
    const lines = rows_((await render(doc([p]))).pages[0]!);
    const pitch = (k: number) => lines[k + 1]!.y - lines[k]!.y;
    // Times New Roman 12 pt single is 13.8 pt (LibreOffice's twips): 1.5 lines 20.7 pt.
    expect(pitch(0)).toBeCloseTo(20.7, 0);
    // The 16 pt line is taller: the baselines around it are further apart.
    expect(pitch(1) + pitch(2)).toBeGreaterThan(2 * 20.7 + 4);
    const html = rows_((await render(doc([p]), false)).pages[0]!);
    expect(html[1]!.y - html[0]!.y).toBeGreaterThan(25); // MuPDF: every line as tall as the 16 pt one
  });

  it('shades a paragraph across the column behind its lines, as the HTML path draws its box', async () => {
    const { pdf } = await render(doc([para('Plain'), para('Shaded paragraph', { shading: 'FFFF00', indentLeft: 36 }), para('Plain again')]));
    const mupdf = await loadMupdf();
    const out = mupdf.Document.openDocument(pdf, 'application/pdf');
    try {
      // 1 pixel per point: the column runs from 72 to 540; the shaded line is the second (11 pt Calibri: 13.4 pt lines).
      const pixmap = out.loadPage(0).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
      const at = (x: number, y: number) => Array.from(pixmap.getPixels().slice((y * pixmap.getWidth() + x) * 3, (y * pixmap.getWidth() + x) * 3 + 3));
      expect(at(500, 72 + 20)).toEqual([255, 255, 0]); // right of its text, in the column
      expect(at(80, 72 + 20)).toEqual([255, 255, 0]); // in its indent
      expect(at(500, 72 + 6)).toEqual([255, 255, 255]); // the line above
      expect(at(500, 72 + 34)).toEqual([255, 255, 255]); // the line below
      expect(at(560, 72 + 20)).toEqual([255, 255, 255]); // the margin
    } finally {
      out.destroy();
    }
  });

  it('lays a table out on its grid: cells inside their margins, rows as tall as their tallest cell, header rows repeated on each page', async () => {
    const line = { width: 0.5, style: 'single' as const, color: '000000' };
    const cell = (text: string, extra: Partial<TableCell> = {}): TableCell => ({ blocks: [para(text)], gridSpan: 1, borders: { top: line, bottom: line, left: line, right: line }, ...extra });
    const rows: TableRow[] = [
      { header: true, cells: [cell('Head1'), cell('Head2', { shading: 'FFFF00' })] },
      { cells: [cell('Short'), cell(lorem(40, 'tall'))] },
      { cells: [cell('Centred', { vAlign: 'center' }), cell(lorem(40, 'more'))] },
      ...Array.from({ length: 60 }, (_, i): TableRow => ({ cells: [cell(`Row${i}`), cell(`Value${i}`)] })),
    ];
    const { pages } = await render(doc([para('Before'), { kind: 'table', grid: [100, 200], indent: 20, rows }, para('After')]));
    expect(pages.length).toBe(2);
    // Cells' lines as extracted (rows_ would join the cells of a row).
    const first = pages[0]!;
    const find = (lines: Line[], text: string) => lines.find((l) => l.text.startsWith(text))!;
    // Text at the cell's left edge plus its 5.4 pt margin: the table at its 20 pt indent.
    expect(find(first, 'Head1').x0).toBeCloseTo(72 + 20 + 5.4, 0);
    expect(find(first, 'Head2').x0).toBeCloseTo(72 + 20 + 100 + 5.4, 0);
    // The second row is as tall as its wrapped cell: the third row starts below all of it.
    const tall = first.filter((l) => / ?tall\d/.test(l.text));
    expect(tall.length).toBeGreaterThan(2);
    expect(find(first, 'Centred').y).toBeGreaterThan(Math.max(...tall.map((l) => l.y)));
    // Centred in its row: below the row's first line.
    const more = first.filter((l) => / ?more\d/.test(l.text));
    expect(find(first, 'Centred').y).toBeGreaterThan(more[0]!.y + 5);
    // The header row opens the next page, then the rows that did not fit.
    const second = rows_(pages[1]!);
    expect(second[0]!.text).toMatch(/^Head1 Head2/);
    expect(second.some((l) => l.text.startsWith('Row59'))).toBe(true);
    expect(second.at(-1)!.text).toBe('After');
  });

  it('splits a table row at the foot of the page, as Word and LibreOffice do, and moves a row kept whole (cantSplit) to the next page', async () => {
    const line = { width: 0.5, style: 'single' as const, color: '000000' };
    const cell = (text: string): TableCell => ({ blocks: [para(text)], gridSpan: 1, borders: { top: line, bottom: line, left: line, right: line } });
    // 45 one-line paragraphs (13.4 pt each) fill 603 pt of the 648 pt text area; the row's 30 lines do not fit below.
    const filler = Array.from({ length: 45 }, (_, i) => para(`Filler ${i}`));
    const tall = (cantSplit: boolean): Block => ({ kind: 'table', grid: [234, 234], rows: [{ cantSplit, cells: [cell(lorem(30 * 9, 'a')), cell('Side')] }] });
    const split = (await render(doc([...filler, tall(false), para('After')]))).pages;
    expect(split.length).toBe(2);
    const words = split.flat().map((l) => l.text).join(' ').split(' ').filter((w) => /^a\d/.test(w));
    expect(words).toEqual(lorem(30 * 9, 'a').split(' ')); // every word once, in order
    // The first part fills the page: its cell's lines run down to the foot of the text area (720).
    const firstPart = split[0]!.filter((l) => /^a\d/.test(l.text));
    expect(firstPart.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...firstPart.map((l) => l.y))).toBeGreaterThan(690);
    expect(split[0]!.some((l) => l.text === 'Side')).toBe(true);
    // The rest continues at the next page's top, inside the cell's border and margins.
    const rest = rows_(split[1]!);
    expect(rest[0]!.text).toMatch(/^a\d/);
    expect(rest[0]!.y).toBeLessThan(72 + 6);
    expect(rest.at(-1)!.text).toBe('After');

    const moved = (await render(doc([...filler, tall(true), para('After')]))).pages;
    expect(moved.length).toBe(2);
    expect(moved[0]!.some((l) => /^a\d/.test(l.text))).toBe(false);
    expect(rows_(moved[1]!)[0]!.text).toMatch(/^a0 /);
  });

  it('splits a row taller than a page over as many pages as it needs', async () => {
    const cell = (text: string): TableCell => ({ blocks: [para(text)], gridSpan: 1, borders: {} });
    const { pages, pdf } = await render(doc([para('Before'), { kind: 'table', grid: [468], rows: [{ cantSplit: true, cells: [cell(lorem(1500, 'huge'))] }] }, para('After')]));
    const text = pages.flat().map((l) => l.text).join(' ');
    expect(pages.length).toBeGreaterThan(2);
    expect(text.split(' ').filter((w) => w.startsWith('huge'))).toEqual(lorem(1500, 'huge').split(' '));
    expect(text).toContain('After');
    // Laid out by our engine: its text is in the faces it embeds itself (resources named FL…).
    expect(new TextDecoder('latin1').decode(pdf)).toMatch(/\/FL0 /);
  });

  it('cuts a word longer than the line at the margin, as Word does', async () => {
    const long = 'x'.repeat(200);
    const { pages } = await render(doc([para(`Start ${long} end`)]));
    const lines = rows_(pages[0]!);
    expect(lines.map((l) => l.text).join('').replace(/ /g, '')).toBe(`Start${long}end`);
    for (const line of lines) expect(line.x1).toBeLessThanOrEqual(page.width - page.marginRight + 0.5);
    expect(lines.length).toBeGreaterThanOrEqual(3);
  });

  it('drops the space before a paragraph the text flowed onto a new page, and keeps it after a page break, as Word and LibreOffice do', async () => {
    // Single-line paragraphs of 11 pt Calibri (13.4 pt lines) fill a 648 pt text area: the 49th starts page 2.
    const blocks = (breaks: boolean) => Array.from({ length: 60 }, (_, i) => para(`Line ${i}`, i === 48 ? { spaceBefore: 20, pageBreakBefore: breaks } : {}));
    const unspaced = rows_((await render(doc(Array.from({ length: 60 }, (_, i) => para(`Line ${i}`))))).pages[1]!)[0]!;
    expect(unspaced.text).toBe('Line 48');
    const flowed = rows_((await render(doc(blocks(false)))).pages[1]!)[0]!;
    expect(flowed.text).toBe('Line 48');
    expect(flowed.y).toBeCloseTo(unspaced.y, 1);
    const broken = rows_((await render(doc(blocks(true)))).pages[1]!)[0]!;
    expect(broken.text).toBe('Line 48');
    expect(broken.y - unspaced.y).toBeCloseTo(20, 0);
  });

  it('writes its text in faces cut to the glyphs shown, which read back as the characters written', async () => {
    const text = 'Grüße, Привет — “quoted” 1\u00a02 and 3-4.';
    const { pages, pdf } = await render(doc([para(text), para('Серифный текст', {}, { font: 'Times New Roman', size: 12 })]));
    expect(rows_(pages[0]!).map((l) => l.text)).toEqual([text.replace('\u00a0', ' '), 'Серифный текст']);
    const mupdf = await loadMupdf();
    const out = mupdf.Document.openDocument(pdf, 'application/pdf') as InstanceType<typeof mupdf.PDFDocument>;
    try {
      const fonts = out.findPage(0).get('Resources').get('Font');
      let faces = 0;
      fonts.forEach((font) => {
        const file = font.get('DescendantFonts', 0, 'FontDescriptor', 'FontFile2');
        // A subset: a few KB, where Carlito and Tinos are hundreds.
        expect(file.readStream().getLength()).toBeLessThan(40_000);
        expect(font.get('BaseFont').asName()).toMatch(/^[A-Z]{6}\+/);
        faces++;
      });
      expect(faces).toBe(2);
    } finally {
      out.destroy();
    }
  });

  it('draws the mathematical letters of equations (U+1D400 on) in DejaVu Math TeX Gyre, as LibreOffice falls back to it', async () => {
    const math = { font: 'Cambria Math', size: 11 };
    const text = 'weighted by 𝑤𝑖 over 𝑘 studies';
    const model = doc([{ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: 'weighted by ', style }, { kind: 'text', text: '𝑤𝑖', style: math }, { kind: 'text', text: ' over ', style }, { kind: 'text', text: '𝑘', style: math }, { kind: 'text', text: ' studies', style }] }]);
    expect(laysOutItself(model.sections[0]!.blocks, model)).toBe(true);
    for (const own of [false, true]) {
      const { pages, pdf } = await render(model, own);
      // Letters, not blanks (MuPDF's extraction joins a math letter to the word after it: spaces left out).
      expect(rows_(pages[0]!)[0]!.text.replace(/ /g, '')).toBe(text.replace(/ /g, ''));
      const mupdf = await loadMupdf();
      const out = mupdf.Document.openDocument(pdf, 'application/pdf') as InstanceType<typeof mupdf.PDFDocument>;
      try {
        const names: string[] = [];
        out.findPage(0).get('Resources').get('Font').forEach((font) => names.push(font.get('BaseFont').asName()));
        expect(names.some((n) => /DejaVuMath/.test(n))).toBe(true);
      } finally {
        out.destroy();
      }
    }
  });

  it('draws a floating shape where it floats, from the top of its anchor paragraph, taking no room in the text', async () => {
    const box = (wrap: 'inFront' | 'square'): Inline => ({ kind: 'shape', geometry: 'rect', width: 50, height: 20, fill: 'FF0000', floating: { x: 100, y: 10, relativeX: 'column', relativeY: 'paragraph', wrap } });
    const blocks = (wrap: 'inFront' | 'square'): Block[] => [para('First'), para('Second'), { kind: 'paragraph', props: {}, inlines: [box(wrap), { kind: 'text', text: 'Third, the anchor', style }] }, para('Fourth')];
    const model = doc(blocks('inFront'));
    expect(laysOutItself(model.sections[0]!.blocks, model)).toBe(true);
    // In a header too, drawn from the header's paragraph: the same box, 36 pt from the page's top.
    const header = [{ kind: 'paragraph', props: {}, inlines: [box('inFront'), { kind: 'text', text: 'Header', style }] } as Paragraph];
    expect(laysOutArea(header, model)).toBe(true);
    const mupdf = await loadMupdf();
    const withHeader: WordDocument = { ...model, sections: [section(blocks('inFront'), { headers: { default: header } })] };
    for (const own of [true, false]) {
      const out = mupdf.Document.openDocument((await render(withHeader, own)).pdf, 'application/pdf');
      try {
        const pixmap = out.loadPage(0).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
        const at = (x: number, y: number) => Array.from(pixmap.getPixels().slice((y * pixmap.getWidth() + x) * 3, (y * pixmap.getWidth() + x) * 3 + 3));
        expect(at(72 + 125, 36 + 10 + 10)).toEqual([255, 0, 0]);
        expect(at(72 + 125, 36 + 10 - 4)).toEqual([255, 255, 255]);
      } finally {
        out.destroy();
      }
    }
    for (const own of [true, false]) {
      const { pages, pdf } = await render(model, own);
      // The lines keep their places: 11 pt Calibri lines are 13.4 pt apart.
      const lines = rows_(pages[0]!);
      expect(lines.map((l) => l.text)).toEqual(['First', 'Second', 'Third, the anchor', 'Fourth']);
      expect(lines[3]!.y - lines[2]!.y).toBeCloseTo(13.4, 0);
      const out = mupdf.Document.openDocument(pdf, 'application/pdf');
      try {
        const pixmap = out.loadPage(0).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
        const at = (x: number, y: number) => Array.from(pixmap.getPixels().slice((y * pixmap.getWidth() + x) * 3, (y * pixmap.getWidth() + x) * 3 + 3));
        // The third paragraph's top is 72 + 2 × 13.4: the box 10 pt below it, 100 pt into the column.
        const top = Math.round(72 + 2 * 13.4 + 10);
        expect(at(72 + 125, top + 10)).toEqual([255, 0, 0]);
        expect(at(72 + 95, top + 10)).toEqual([255, 255, 255]);
        expect(at(72 + 125, top - 4)).toEqual([255, 255, 255]);
        expect(at(72 + 125, top + 24)).toEqual([255, 255, 255]);
      } finally {
        out.destroy();
      }
    }
  });

  it('moves the lines a floating object placed from its paragraph would cover below it, when the text goes above and below it', async () => {
    // A box 60 pt tall, 30 pt below its anchor paragraph's top: top-and-bottom wrap, square wrap with no
    // room beside it (as wide as the column), and square wrap with room beside (text not moved: it runs over, as before).
    const box = (wrap: 'topAndBottom' | 'square', width: number): Inline => ({ kind: 'shape', geometry: 'rect', width, height: 60, fill: 'FF0000', floating: { x: 0, y: 30, relativeX: 'column', relativeY: 'paragraph', wrap } });
    const blocks = (b: Inline): Block[] => [{ kind: 'paragraph', props: {}, inlines: [b, { kind: 'text', text: 'Anchor', style }] }, ...Array.from({ length: 6 }, (_, i) => para(`Line ${i + 1}`))];
    const lineTops = async (b: Inline) => {
      const model = doc(blocks(b));
      expect(laysOutItself(model.sections[0]!.blocks, model)).toBe(true);
      return rows_((await render(model)).pages[0]!).map((l) => [l.text, l.y - 72] as const);
    };
    /** Line tops within a point of these. */
    const near = (tops: (readonly [string, number])[], expected: number[]) => expect(tops.map(([, y], i) => Math.abs(y - expected[i]!) <= 1)).toEqual(expected.map(() => true));
    const plain = await lineTops(box('square', 50));
    // 11 pt Calibri lines, 13.4 pt apart, from the top margin; Line 2's (26.8 pt) and the lines after are in the band 30–90 pt.
    near(plain, [0, 13.4, 26.8, 40.2, 53.6, 67, 80.4]);
    for (const moved of [await lineTops(box('topAndBottom', 300)), await lineTops(box('square', 468))]) {
      expect(moved.map(([text]) => text)).toEqual(['Anchor', 'Line 1', 'Line 2', 'Line 3', 'Line 4', 'Line 5', 'Line 6']);
      // Anchor and Line 1 stay above the box; Line 2 would end below its top (26.8 + 13.4 > 30): it and the rest go below it, 13.4 pt apart.
      near(moved, [0, 13.4, 90, 103.4, 116.8, 130.2, 143.6]);
    }
    // A table's rows too: its first row would start in the band, so it starts below the box.
    const table: Block = { kind: 'table', grid: [200], rows: [{ cells: [{ blocks: [para('Cell')], gridSpan: 1, borders: {} }] }] };
    const model = doc([{ kind: 'paragraph', props: {}, inlines: [box('topAndBottom', 300), { kind: 'text', text: 'Anchor', style }] }, para('Line 1'), table]);
    expect(laysOutItself(model.sections[0]!.blocks, model)).toBe(true);
    const cell = rows_((await render(model)).pages[0]!).find((l) => l.text === 'Cell')!;
    expect(cell.y - 72).toBeGreaterThanOrEqual(89);
    expect(cell.y - 72).toBeLessThan(100);
  });

  it('shows the part of a picture its crop keeps, filling the picture’s box, on both paths', async () => {
    const mupdf = await loadMupdf();
    // A 20 × 10 PNG: its left half red, its right half blue; the crop cuts the left half off.
    const source = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 20, 10], false);
    const px = source.getPixels();
    for (let i = 0; i < 200; i++) px.set(i % 20 < 10 ? [255, 0, 0] : [0, 0, 255], i * 3);
    const png = source.asPNG();
    const picture: Inline = { kind: 'image', data: png, contentType: 'image/png', width: 100, height: 50, crop: { left: 0.5, top: 0, right: 0, bottom: 0 } };
    const model = doc([{ kind: 'paragraph', props: {}, inlines: [picture] }, para('After')]);
    expect(laysOutItself(model.sections[0]!.blocks, model)).toBe(true);
    for (const own of [true, false]) {
      const out = mupdf.Document.openDocument((await render(model, own)).pdf, 'application/pdf');
      try {
        const pixmap = out.loadPage(0).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
        const at = (x: number, y: number) => Array.from(pixmap.getPixels().slice((y * pixmap.getWidth() + x) * 3, (y * pixmap.getWidth() + x) * 3 + 3));
        // The box is 100 × 50 at the text's left edge, its bottom on the first line's baseline: blue all across, no red.
        const row = Array.from({ length: 96 }, (_, k) => at(72 + 2 + k, 72 + 25));
        expect(row.every(([r, g, b]) => b! > 200 && r! < 60 && g! < 60), JSON.stringify(row.filter(([, , b]) => b! <= 200).slice(0, 3))).toBe(true);
        expect(at(72 + 110, 72 + 25)).toEqual([255, 255, 255]); // nothing drawn past the box
      } finally {
        out.destroy();
      }
    }
  });

  it('pages footnotes under a separator at the foot of the page that calls them', async () => {
    const notes = new Map<string, Block[]>([['n1', [para('1 The note text', {}, { ...style, size: 9 })]]]);
    const model = doc([{ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: 'Calls a note', style }, { kind: 'noteRef', id: 'n1', label: '1', style }] }], notes);
    const { pages } = await render(model);
    const lines = rows_(pages[0]!);
    const note = lines.find((l) => l.text.includes('The note text'))!;
    expect(note).toBeDefined();
    // At the foot of the text area, not below the text.
    expect(note.y).toBeGreaterThan(page.height - page.marginBottom - 30);
    expect(note.y).toBeLessThan(page.height - page.marginBottom);
  });
});
