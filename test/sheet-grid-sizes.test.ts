/** A sheet's print range and its columns' and rows' sizes in points (src/convert/sheet/grid-sizes.ts), by Excel's maximum digit width. */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { FontBook } from '../src/layout/text/font-book';
import { columnPoints, gridSizes, maxDigitWidth, printRange } from '../src/convert/sheet/grid-sizes';
import type { Sheet, Workbook } from '../src/convert/sheet/model';
import { gridPages } from '../src/layout/grid/page-bands';

let fonts: FontBook;
beforeAll(async () => {
  fonts = FontBook.shared(await loadMupdf(), bundledFonts);
});

const sheet = (more: Partial<Sheet> = {}): Sheet => ({
  name: 'S', rows: new Map(), colWidths: new Map(), hiddenCols: new Set(), rowHeights: new Map(), hiddenRows: new Set(), baseColWidth: 8, defaultRowHeight: 15, merges: [],
  print: { orientation: 'portrait', paper: { width: 612, height: 792 }, margins: { left: 50.4, right: 50.4, top: 54, bottom: 54, header: 21.6, footer: 21.6 }, scale: 100, pageOrder: 'downThenOver', rowBreaks: [], colBreaks: [] },
  ...more,
});
const workbook = (styles: Workbook['styles'] = [{ format: 'General', font: { name: 'Calibri', size: 11 }, borders: {} }]): Workbook => ({ sheets: [], styles, defaultFont: { name: 'Calibri', size: 11 }, date1904: false });

describe('sheet grid sizes', () => {
  it('measures the widest digit of the default font, unrounded, as LibreOffice counts column widths (Arial 10: 5.56 pt)', () => {
    expect(maxDigitWidth(fonts, { name: 'Arial', size: 10 })).toBeCloseTo(5.56, 2);
    expect(maxDigitWidth(fonts, { name: 'Calibri', size: 11 })).toBeCloseTo(5.58, 1);
  });

  it('turns stored widths into points: LibreOffice\'s 11.535-digit Arial 10 column is 64 pt; a base width gets 5 px of padding', () => {
    expect(columnPoints(11.53515625, 5.56)).toBeCloseTo(64.14, 2);
    const s = sheet({ colWidths: new Map([[1, 20]]), hiddenCols: new Set([2]), rowHeights: new Map([[1, 30]]), hiddenRows: new Set([2]), print: { ...sheet().print, rowBreaks: [2], colBreaks: [9] } });
    const g = gridSizes(s, { top: 0, left: 0, bottom: 3, right: 3 }, 5.5);
    // The default column: 8 digits of 5.5 pt and 3.75 pt of padding.
    expect(g.colWidths).toEqual([47.75, 110, 0, 47.75]);
    expect(g.rowHeights).toEqual([15, 30, 0, 15]);
    expect(g.rowBreaks).toEqual([2]);
    expect(g.colBreaks).toEqual([]);
  });

  it('prints the first print area, or the cells that show something (values, fills, borders), merges included', () => {
    const styles: Workbook['styles'] = [
      { format: 'General', font: { name: 'Calibri', size: 11 }, borders: {} },
      { format: 'General', font: { name: 'Calibri', size: 11 }, borders: {}, fill: 'FFFF00' },
      { format: '0.00', font: { name: 'Calibri', size: 11 }, borders: {} },
    ];
    const rows = new Map([
      [1, [{ row: 1, col: 1, value: { kind: 'number' as const, value: 1 }, style: 0 }]],
      [4, [{ row: 4, col: 3, style: 1 }, { row: 4, col: 9, style: 2 }]],
    ]);
    const s = sheet({ rows, merges: [{ top: 4, left: 3, bottom: 6, right: 5 }] });
    // From A1, as both programs print a sheet.
    expect(printRange(workbook(styles), s)).toEqual({ top: 0, left: 0, bottom: 6, right: 5 });
    expect(printRange(workbook(styles), sheet({ rows, print: { ...sheet().print, printArea: [{ top: 0, left: 0, bottom: 1_048_575, right: 2 }] } }))).toEqual({ top: 0, left: 0, bottom: 4, right: 2 });
    expect(printRange(workbook(styles), sheet())).toBeUndefined();
  });

  it('a Letter page in portrait at Excel\'s default margins holds 10 default Calibri 11 columns and 45 default rows (511.2 by 684 pt)', () => {
    const s = sheet();
    const g = gridSizes(s, { top: 0, left: 0, bottom: 199, right: 29 }, maxDigitWidth(fonts, { name: 'Calibri', size: 11 }));
    const p = s.print;
    const pages = gridPages(g, { width: p.paper.width - p.margins.left - p.margins.right, height: p.paper.height - p.margins.top - p.margins.bottom }, {});
    expect(pages.colBands[0]).toEqual([0, 9]);
    expect(pages.rowBands[0]).toEqual([0, 44]);
  });
});
