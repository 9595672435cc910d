/** A grid's pages (src/layout/grid/page-bands.ts): bands as LibreOffice cuts a sheet's print range, manual breaks, titles, fit to pages, page order. */
import { describe, expect, it } from 'vitest';
import { bands, gridPages } from '../src/layout/grid/page-bands';

const repeat = (n: number, size: number) => Array.from({ length: n }, () => size);

describe('grid pages', () => {
  it('cuts sizes into bands that fit, a size wider than the room alone, manual breaks kept, hidden-only bands dropped', () => {
    expect(bands([100, 100, 100, 100, 100], 250)).toEqual([[0, 1], [2, 3], [4, 4]]);
    expect(bands([100, 400, 100], 250)).toEqual([[0, 0], [1, 1], [2, 2]]);
    expect(bands([50, 50, 50, 50], 1000, [2])).toEqual([[0, 1], [2, 3]]);
    expect(bands([100, 100, 0, 0], 100)).toEqual([[0, 0], [1, 3]]);
    expect(bands([100, 0, 0], 100, [1])).toEqual([[0, 0]]);
  });

  it('lays pages down then over, or over then down, at the zoom given', () => {
    const grid = { colWidths: repeat(10, 64), rowHeights: repeat(100, 15) };
    const down = gridPages(grid, { width: 500, height: 700 }, {});
    expect(down.zoom).toBe(100);
    expect(down.colBands).toEqual([[0, 6], [7, 9]]);
    expect(down.rowBands).toEqual([[0, 45], [46, 91], [92, 99]]);
    expect([0, 1, 2, 3].map((i) => down.page(i)).map((p) => [p.cols[0], p.rows[0]])).toEqual([[0, 0], [0, 46], [0, 92], [7, 0]]);
    const over = gridPages(grid, { width: 500, height: 700 }, { order: 'overThenDown' });
    expect([0, 1, 2].map((i) => over.page(i)).map((p) => [p.cols[0], p.rows[0]])).toEqual([[0, 0], [7, 0], [0, 46]]);
    const half = gridPages(grid, { width: 500, height: 700 }, { zoom: 50 });
    expect(half.pageCount).toBe(2);
  });

  it('counts the pages of the whole grid (16,384 columns by 1,048,576 rows) in their bands, making a page only when asked', () => {
    const grid = { colWidths: repeat(16_384, 48), rowHeights: repeat(1_048_576, 15) };
    const laid = gridPages(grid, { width: 500, height: 700 }, {});
    expect(laid.colBands).toHaveLength(Math.ceil(16_384 / 10));
    expect(laid.rowBands).toHaveLength(Math.ceil(1_048_576 / 46));
    expect(laid.pageCount).toBe(1639 * 22_796);
    expect(laid.page(laid.pageCount - 1)).toEqual({ cols: [16_380, 16_383], rows: [1_048_570, 1_048_575] });
    expect(() => laid.page(laid.pageCount)).toThrow(RangeError);
  });

  it('takes the repeated titles from each page\'s room', () => {
    const grid = { colWidths: repeat(4, 100), rowHeights: repeat(100, 10), titleHeight: 200 };
    expect(gridPages(grid, { width: 400, height: 500 }, {}).rowBands[0]).toEqual([0, 29]);
  });

  it('gives the whole room to a page that prints the titles in place, and takes a reserved height and width from every page', () => {
    // Titles are rows 0-19 (200 pt): the first page holds them in place and 50 rows in all; the next pages 30 below the repeated titles.
    const grid = { colWidths: repeat(4, 100), rowHeights: repeat(100, 10), titleHeight: 200, titleRowsAt: 0 };
    expect(gridPages(grid, { width: 400, height: 500 }, {}).rowBands.slice(0, 3)).toEqual([[0, 49], [50, 79], [80, 99]]);
    // 100 pt of header and footer bands at 50% leave 900 pt of sheet.
    const reserved = gridPages({ colWidths: [100], rowHeights: repeat(100, 10), reservedHeight: 100 }, { width: 400, height: 500 }, { zoom: 50 });
    expect(reserved.rowBands[0]).toEqual([0, 89]);
    // A reserved width (printed row numbers) likewise: 800 pt of sheet less 100 leave 7 columns of 100.
    const narrower = gridPages({ colWidths: repeat(20, 100), rowHeights: [10], reservedWidth: 100 }, { width: 400, height: 500 }, { zoom: 50 });
    expect(narrower.colBands[0]).toEqual([0, 6]);
  });

  it('fits to N pages wide by the largest zoom from 100% down, manual breaks giving way', () => {
    const grid = { colWidths: repeat(20, 64), rowHeights: repeat(300, 15), rowBreaks: [10] };
    const wide = gridPages(grid, { width: 500, height: 700 }, { fit: { width: 1, height: 0 } });
    // 1280 pt of columns in 500: 39% is the largest whole zoom at which they fit.
    expect(wide.zoom).toBe(39);
    expect(wide.colBands).toHaveLength(1);
    expect(wide.rowBands[0]![1]).toBeGreaterThan(10);
    const one = gridPages(grid, { width: 500, height: 700 }, { fit: { width: 1, height: 1 } });
    expect(one.pageCount).toBe(1);
    expect(one.zoom).toBe(15);
    const small = gridPages({ colWidths: [64], rowHeights: [15] }, { width: 500, height: 700 }, { fit: { width: 1, height: 1 } });
    expect(small.zoom).toBe(100);
  });
});
