/** A sheet's page as layout's display list (src/convert/sheet/draw-page.ts): fills, borders, and values formatted and aligned as Excel prints them. */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { FontBook } from '../src/layout/text/font-book';
import type { LineContext } from '../src/layout/blocks/paragraph-lines';
import { sheetPageItems } from '../src/convert/sheet/draw-page';
import { cellShown } from '../src/convert/sheet/cell-text';
import type { Cell, CellStyle, Sheet, Workbook } from '../src/convert/sheet/model';
import type { TextItem } from '../src/contracts/display';

let ctx: LineContext;
beforeAll(async () => {
  const fonts = FontBook.shared(await loadMupdf(), bundledFonts);
  fonts.install();
  ctx = { fonts, fields: {} };
});

const font = { name: 'Calibri', size: 11 };
const styles: CellStyle[] = [
  { format: 'General', font, borders: {} },
  { format: 'General', font: { ...font, bold: true }, fill: 'FFFF00', borders: { bottom: { style: 'thin', color: 'FF0000' } } },
  { format: '#,##0.00;[Red]-#,##0.00', font, borders: {} },
  { format: 'General', font, borders: {}, horizontal: 'center', vertical: 'top' },
];
const cell = (row: number, col: number, value: Cell['value'], style = 0): Cell => ({ row, col, value, style });
const rows = new Map<number, Cell[]>([
  [0, [cell(0, 0, { kind: 'text', value: 'Name' }, 1), cell(0, 1, { kind: 'number', value: 1234.5 }, 2)]],
  [1, [cell(1, 0, { kind: 'text', value: 'centred' }, 3), cell(1, 1, { kind: 'number', value: -7 }, 2), cell(1, 2, { kind: 'number', value: 123456789 })]],
]);
const sheet: Sheet = {
  name: 'S', rows, colWidths: new Map(), hiddenCols: new Set(), rowHeights: new Map(), hiddenRows: new Set(), baseColWidth: 8, defaultRowHeight: 15, merges: [],
  print: { orientation: 'portrait', paper: { width: 612, height: 792 }, margins: { left: 50, right: 50, top: 50, bottom: 50, header: 20, footer: 20 }, scale: 100, pageOrder: 'downThenOver', rowBreaks: [], colBreaks: [] },
};
const workbook: Workbook = { sheets: [sheet], styles, defaultFont: font, date1904: false };
const at = { x: 50, y: 60, zoom: 1, range: { top: 0, left: 0, bottom: 1, right: 2 }, colWidths: [48, 60, 30], rowHeights: [15, 30] };

describe('a sheet page as a display list', () => {
  it('draws fills, borders and each value formatted and aligned as Excel prints it', () => {
    const items = sheetPageItems(workbook, sheet, { cols: [0, 2], rows: [0, 1] }, at, ctx);
    expect(items).toContainEqual({ kind: 'fill', x0: 50, y0: 60, x1: 98, y1: 75, color: 'FFFF00' });
    expect(items.some((i) => i.kind === 'fill' && i.color === 'FF0000' && Math.abs(i.y0 + i.y1 - 150) < 0.01)).toBe(true);
    const texts = items.filter((i): i is TextItem => i.kind === 'text');
    const find = (t: string) => texts.find((i) => i.text.text === t)!;
    // Text flush left after the padding, on the row's foot.
    expect(find('Name').x).toBeCloseTo(51.5, 1);
    expect(find('Name').baseline).toBeGreaterThan(70);
    expect(find('Name').baseline).toBeLessThan(75);
    // Numbers flush right against the padding; the negative section in red.
    const amount = find('1,234.50');
    expect(amount.x + amount.text.width).toBeCloseTo(98 + 60 - 1.5, 1);
    // (The line breaker cuts after a hyphen: the minus is a piece of its own, on the same baseline.)
    expect(find('-').text.color).toBe('FF0000');
    expect(find('7.00').text.color).toBe('FF0000');
    expect(find('-').baseline).toBe(find('7.00').baseline);
    // Centred at the top of a 30 pt row.
    const centred = find('centred');
    expect(centred.x + centred.text.width / 2).toBeCloseTo(50 + 24, 0);
    expect(centred.baseline).toBeLessThan(75 + 15);
    // A number wider than its 30 pt cell prints as #### within it.
    const hashes = texts.find((i) => /^#+$/.test(i.text.text))!;
    expect(hashes.x + hashes.text.width).toBeLessThanOrEqual(50 + 48 + 60 + 30 + 0.01);
    expect(texts.some((i) => i.text.text.includes('123456789'))).toBe(false);
  });

  it('prints only the page\'s band of columns and rows', () => {
    const items = sheetPageItems(workbook, sheet, { cols: [1, 1], rows: [1, 1] }, { ...at, x: 50, y: 60 }, ctx);
    const texts = items.filter((i): i is TextItem => i.kind === 'text').map((i) => i.text.text);
    expect(texts.join('')).toBe('-7.00');
  });
  it('draws the fill and borders of cells a formatted row or column does not write, the row\'s style over the column\'s', () => {
    const formatted: Sheet = { ...sheet, rows: new Map([[0, [cell(0, 0, { kind: 'text', value: 'x' })]]]), colStyles: new Map([[2, 1]]), rowStyles: new Map([[1, 0]]) };
    const items = sheetPageItems(workbook, formatted, { cols: [0, 2], rows: [0, 1] }, at, ctx);
    const yellow = items.filter((i) => i.kind === 'fill' && i.color === 'FFFF00');
    // Column C's cell in row 1 (x 108-138); row 2 is formatted with the default style, so its C stays bare.
    expect(yellow).toEqual([{ kind: 'fill', x0: 158, y0: 60, x1: 188, y1: 75, color: 'FFFF00' }]);
    expect(items.some((i) => i.kind === 'fill' && i.color === 'FF0000' && i.x0 >= 158 && i.x1 <= 188.01)).toBe(true);
  });
  it('strokes printed gridlines as black 0.1 pt hairlines, and indents by three spaces of the default font per level', () => {
    const indented: CellStyle[] = [...styles, { format: 'General', font: { ...font, size: 25 }, borders: {}, indent: 2 }];
    const book: Workbook = { ...workbook, styles: indented };
    const one: Sheet = { ...sheet, rows: new Map([[0, [cell(0, 0, { kind: 'text', value: 'Indented' }, 4)]]]) };
    const items = sheetPageItems(book, one, { cols: [0, 2], rows: [0, 1] }, at, ctx, { gridLines: true });
    const lines = items.filter((i) => i.kind === 'shape');
    // Four column edges and three row edges.
    expect(lines).toHaveLength(7);
    expect(lines.every((l) => l.kind === 'shape' && l.stroke?.color === '000000' && l.stroke.width === 0.1)).toBe(true);
    // The 25 pt cell moves two levels of three Calibri 11 spaces (7.46 pt a level), not of its own font.
    const space = ctx.fonts.measure(' ', 'Carlito', false, false, 11);
    const text = items.find((i): i is TextItem => i.kind === 'text')!;
    expect(text.x).toBeCloseTo(50 + 1.5 + 2 * 3 * space, 1);
  });
  it('turns a right-to-left block over the page\'s axis: column A at the right, its bottom border with it, text left in its cell and running left', () => {
    const items = sheetPageItems(workbook, sheet, { cols: [0, 2], rows: [0, 1] }, at, ctx);
    // Mirrored over x + x' = 612 (margins of 50 on a 612 pt page).
    const turned = sheetPageItems(workbook, sheet, { cols: [0, 2], rows: [0, 1] }, at, ctx, { mirror: 612 });
    expect(turned).toContainEqual({ kind: 'fill', x0: 612 - 98, y0: 60, x1: 612 - 50, y1: 75, color: 'FFFF00' });
    const rule = (list: typeof items) => list.find((i) => i.kind === 'fill' && i.color === 'FF0000')!;
    expect(rule(turned)).toMatchObject({ x0: 612 - (rule(items) as { x1: number }).x1, x1: 612 - (rule(items) as { x0: number }).x0 });
    const texts = turned.filter((i): i is TextItem => i.kind === 'text');
    const find = (t: string) => texts.find((i) => i.text.text === t)!;
    // A1 spans 514-562: its text flush left after the padding; B1's number flush right in 454-514.
    expect(find('Name').x).toBeCloseTo(612 - 98 + 1.5, 1);
    expect(find('1,234.50').x + find('1,234.50').text.width).toBeCloseTo(612 - 98 - 1.5, 1);
    const wide = { ...sheet, rows: new Map([[0, [cell(0, 2, { kind: 'text', value: 'a label wider than its cell' })]]]) };
    // C1 (the leftmost column, 424-454) runs right into B1, as it reads.
    const words = sheetPageItems(workbook, wide, { cols: [0, 2], rows: [0, 0] }, at, ctx, { mirror: 612 }).filter((i): i is TextItem => i.kind === 'text');
    expect(Math.min(...words.map((w) => w.x))).toBeCloseTo(612 - 188 + 1.5, 1);
    expect(Math.max(...words.map((w) => w.x + w.text.width))).toBeGreaterThan(612 - 158);
  });
  it('prints at most Excel\'s 32,767 characters of a cell, however long the text the file holds', () => {
    const long = cell(0, 0, { kind: 'text', value: 'word '.repeat(40_000) });
    expect(cellShown(long, styles[0]!, workbook)!.text).toBe('word '.repeat(40_000).slice(0, 32_767));
  });
});
