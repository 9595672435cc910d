/**
 * Which of a sheet's pages print. LibreOffice leaves out a page with nothing on it (the page
 * style's "suppress output of empty pages", on unless a file turns it off: ScDocument::IsPrintEmpty):
 * a page prints when a cell of its block holds a value or has a border (its own, or its row's or
 * column's when the cell is not written), when a merged cell with a
 * value spans it, when a picture or chart lies over it, or when a text from the page to its left
 * runs into it. A fill alone does not count. LibreOffice 7.4 printed a workbook of A1 and Z150 on 2
 * pages of 6; 3 with a bordered empty Z2; 2 with a yellow Z2; 3 with a long label in J3 running
 * into column K; 4 with a merged H60:M61 across two pages holding a value, and 2 with it empty.
 *
 * The pages are found from the cells (each marks its page), not by asking every page: a cell at
 * XFD1048576 makes 35 million pages, of which two print.
 */
import type { LineContext } from '../../layout/blocks/paragraph-lines';
import { textExcess } from './overflow-range';
import type { Cell, SheetDrawing, Workbook } from './model';
import { reach, type SheetPrint } from './sheet-pages';

/** For each index into `sizes`, the band that holds it. */
function bandOf(bands: readonly [number, number][], count: number): Int32Array {
  const out = new Int32Array(count).fill(-1);
  bands.forEach(([a, b], k) => out.fill(k, a, b + 1));
  return out;
}

const hasBorder = (workbook: Workbook, style: number): boolean => {
  const b = workbook.styles[style]?.borders;
  return !!(b && (b.left || b.right || b.top || b.bottom));
};

/** The last column (index into the plan's widths) a text cell's words reach over empty neighbours (before `nextFull`). */
function reachOf(workbook: Workbook, cell: Cell, nextFull: number, widths: readonly number[], at: number, ctx: LineContext, rightToLeft: boolean): number {
  let missing = textExcess(workbook, cell, widths[at] ?? 0, ctx, { rightToLeft });
  let last = at;
  while (missing > 0 && last + 1 < nextFull && last + 1 < widths.length) missing -= widths[++last]!;
  return last;
}

/** For each cell of a row, the column of the nearest cell before it with a value (`none` for the first). */
function previousValued(cells: readonly Cell[], none: number): Int32Array {
  const out = new Int32Array(cells.length);
  let last = none;
  cells.forEach((cell, k) => {
    out[k] = last;
    if (cell.value) last = cell.col;
  });
  return out;
}

/** On a right-to-left sheet: the first column (index into the plan's widths) a text cell's words reach toward A over empty neighbours (after `prevFull`). */
function reachTowardA(workbook: Workbook, cell: Cell, prevFull: number, widths: readonly number[], at: number, ctx: LineContext): number {
  let missing = textExcess(workbook, cell, widths[at] ?? 0, ctx, { rightToLeft: true, toward: 'lower' });
  let first = at;
  while (missing > 0 && first - 1 > prevFull && first > 0) missing -= widths[--first]!;
  return first;
}

/** The columns and rows (indexes into the plan's sizes) a drawing covers. */
function drawingCover(d: SheetDrawing, plan: SheetPrint): { cols: [number, number]; rows: [number, number] } {
  const { range } = plan;
  const col0 = d.from.col - range.left;
  const row0 = d.from.row - range.top;
  // A drawing given by its size ends where its size reaches, walked as sheet-pages' print range walks it.
  const sized = !d.to && d.size;
  const col1 = sized ? reach(plan.colWidths, d.from.colOffset + d.size!.width, col0) : (d.to?.col ?? d.from.col) - range.left;
  const row1 = sized ? reach(plan.rowHeights, d.from.rowOffset + d.size!.height, row0) : (d.to?.row ?? d.from.row) - range.top;
  return { cols: [Math.max(0, col0), col1], rows: [Math.max(0, row0), row1] };
}

/** Past this many pages marked, a workbook is refused for its length anyway (render.ts PAGES_MAX is lower). */
const STYLED_MARKS_MAX = 100_000;

/**
 * Bordered columns and rows (their unwritten cells take the border: draw-page.ts unwrittenStyle)
 * print on every page they cross, as a bordered empty cell does.
 */
function markStyledLines(workbook: Workbook, plan: SheetPrint, bands: { colBand: Int32Array; rowBand: Int32Array; nCols: number; nRows: number }, mark: (cb: number, rb: number) => void, count: () => number): void {
  const { sheet, range } = plan;
  const bordered = (id: number | undefined) => id !== undefined && id > 0 && hasBorder(workbook, id);
  const colBands = new Set<number>();
  for (const [c, id] of sheet.colStyles ?? []) if (c >= range.left && c - range.left < bands.colBand.length && plan.colWidths[c - range.left] && bordered(id)) colBands.add(bands.colBand[c - range.left]!);
  for (const cb of colBands) for (let rb = 0; rb < bands.nRows && count() < STYLED_MARKS_MAX; rb++) mark(cb, rb);
  for (const [r, id] of sheet.rowStyles ?? []) {
    if (r < range.top || r - range.top >= bands.rowBand.length || !plan.rowHeights[r - range.top] || !bordered(id)) continue;
    for (let cb = 0; cb < bands.nCols && count() < STYLED_MARKS_MAX; cb++) mark(cb, bands.rowBand[r - range.top]!);
  }
}

/** The indexes (in print order, into plan.laid) of the pages the sheet prints. */
export function printedPages(workbook: Workbook, plan: SheetPrint, ctx: LineContext): number[] {
  const { laid, range } = plan;
  if (plan.sheet.chartSheet) return [0];
  const nCols = laid.colBands.length;
  const nRows = laid.rowBands.length;
  const colBand = bandOf(laid.colBands, plan.colWidths.length);
  const rowBand = bandOf(laid.rowBands, plan.rowHeights.length);
  const marked = new Set<number>();
  const mark = (cb: number, rb: number) => {
    if (cb >= 0 && rb >= 0) marked.add(across ? rb * nCols + cb : cb * nRows + rb);
  };
  const across = plan.sheet.print.pageOrder === 'overThenDown';
  const rtl = !!plan.sheet.rightToLeft;
  for (const [row, cells] of plan.sheet.rows) {
    const r = row - range.top;
    if (r < 0 || r >= plan.rowHeights.length || rowBand[r]! < 0) continue;
    // Right to left, so that each cell knows the next one with a value (and, on a right-to-left sheet, the previous one's column).
    let nextFull = plan.colWidths.length;
    const prevFull = rtl ? previousValued(cells, range.left - 1) : undefined;
    for (let k = cells.length - 1; k >= 0; k--) {
      const cell = cells[k]!;
      const c = cell.col - range.left;
      if (c < 0 || c >= plan.colWidths.length || (!cell.value && !hasBorder(workbook, cell.style))) continue;
      mark(colBand[c]!, rowBand[r]!);
      if (!cell.value) continue;
      // Words running past the band's far edge print on the next band's page too.
      const last = reachOf(workbook, cell, nextFull, plan.colWidths, c, ctx, rtl);
      for (let b = colBand[c]! + 1; b <= (colBand[last] ?? -1); b++) mark(b, rowBand[r]!);
      if (rtl) {
        // Read toward A, they reach the bands before it (the previous cell with a value stops them).
        const first = reachTowardA(workbook, cell, prevFull![k]! - range.left, plan.colWidths, c, ctx);
        for (let b = colBand[first]!; b < colBand[c]!; b++) mark(b, rowBand[r]!);
      }
      nextFull = c;
    }
  }
  const markCover = (cols: [number, number], rows: [number, number]) => {
    if (cols[1] < 0 || rows[1] < 0 || cols[0] >= colBand.length || rows[0] >= rowBand.length) return;
    const [cb0, cb1] = [colBand[Math.max(0, cols[0])]!, colBand[Math.min(cols[1], colBand.length - 1)]!];
    const [rb0, rb1] = [rowBand[Math.max(0, rows[0])]!, rowBand[Math.min(rows[1], rowBand.length - 1)]!];
    for (let cb = cb0; cb <= cb1; cb++) for (let rb = rb0; rb <= rb1; rb++) mark(cb, rb);
  };
  // A merged cell with a value prints on every page it spans (an empty one prints on none).
  for (const m of plan.sheet.merges) {
    if (!plan.sheet.rows.get(m.top)?.find((c) => c.col === m.left)?.value) continue;
    markCover([m.left - range.left, m.right - range.left], [m.top - range.top, m.bottom - range.top]);
  }
  for (const d of plan.sheet.drawings ?? []) {
    const { cols, rows } = drawingCover(d, plan);
    markCover(cols, rows);
  }
  markStyledLines(workbook, plan, { colBand, rowBand, nCols, nRows }, mark, () => marked.size);
  return [...marked].sort((a, b) => a - b);
}
