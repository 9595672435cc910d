/**
 * The print range widened to the text that runs past it, as LibreOffice widens it
 * (sc/source/core/data/table1.cxx ExtendPrintArea and MaybeAddExtraColumn): every unwrapped text
 * cell of the range that is wider than its column runs over the empty cells to its right (half its
 * excess for centred text, none for right-aligned; mirrored on a right-to-left sheet), and the range takes the columns it reaches,
 * onto the next page across if they do not fit (draw-page.ts carries the text over). Only without
 * a print area: a print area is printed as it is.
 */
import type { LineContext } from '../../layout/blocks/paragraph-lines';
import { cellShown, PADDING } from './cell-text';
import { substituteFamily } from '../../fonts/catalog';
import { gridSizes } from './grid-sizes';
import type { Cell, Range, Sheet, Workbook } from './model';

/** Columns a text may add, at most (Excel's last column is the grid's bound anyway). */
const EXTRA_COLUMNS_MAX = 256;

/**
 * How far past its column (points) a cell's text runs toward higher columns, or with `toward`
 * 'lower' toward column A; 0 when it does not (printed-pages.ts asks it too). Left-aligned text
 * runs toward higher columns on a left-to-right sheet and toward A on a right-to-left one, which
 * prints mirrored; right-aligned text the other way; centred text both ways, half its excess each.
 */
export function textExcess(workbook: Workbook, cell: Cell, columnWidth: number, ctx: LineContext, how: { rightToLeft?: boolean; toward?: 'higher' | 'lower' } = {}): number {
  if (cell.value?.kind !== 'text') return 0;
  const style = workbook.styles[cell.style];
  if (!style || style.wrap || style.shrink) return 0;
  const shown = cellShown(cell, style, workbook);
  const runs = (how.toward === 'lower') === !how.rightToLeft ? 'right' : 'left';
  if (!shown || (shown.horizontal !== runs && shown.horizontal !== 'center')) return 0;
  const font = style.font;
  // No face draws a character wider than 1.1 em: a text that short is not measured.
  if (PADDING + shown.text.length * font.size * 1.1 <= columnWidth) return 0;
  const missing = PADDING + ctx.fonts.measure(shown.text, substituteFamily(font.name), !!font.bold, !!font.italic, font.size) - columnWidth;
  return shown.horizontal === 'center' ? missing / 2 : missing;
}

export function withOverflow(workbook: Workbook, sheet: Sheet, range: Range, digit: number, ctx: LineContext): Range {
  if (sheet.print.printArea?.length) return range;
  const widths = gridSizes(sheet, { ...range, right: range.right + EXTRA_COLUMNS_MAX }, digit).colWidths;
  const widthOf = (col: number) => widths[col - range.left] ?? 0;
  const origins = new Set(sheet.merges.map((m) => `${m.top}:${m.left}`));
  let right = range.right;
  for (const [row, cells] of sheet.rows) {
    if (row < range.top || row > range.bottom) continue;
    // Right to left, so that each cell knows where the next full cell stops its text.
    let nextFull = range.right + EXTRA_COLUMNS_MAX + 1;
    for (let k = cells.length - 1; k >= 0; k--) {
      const cell = cells[k]!;
      if (!cell.value) continue;
      const col = cell.col;
      // Text followed by a full cell runs nowhere: measured only when its neighbour is empty.
      if (col >= range.left && col <= range.right && nextFull > col + 1 && !origins.has(`${row}:${col}`)) {
        let missing = textExcess(workbook, cell, widthOf(col), ctx, { rightToLeft: !!sheet.rightToLeft });
        let reached = col;
        while (missing > 0 && reached + 1 < nextFull && reached - range.right < EXTRA_COLUMNS_MAX) missing -= widthOf(++reached);
        right = Math.max(right, reached);
      }
      nextFull = col;
    }
  }
  return right === range.right ? range : { ...range, right };
}
