/**
 * The print range widened to the text that runs past its last column, as LibreOffice widens it
 * (sc/source/core/data/table1.cxx MaybeAddExtraColumn): an unwrapped, left-aligned text in the
 * range's last column that is wider than its cell takes the columns it runs into, and prints on
 * as far as they reach, onto the next page across if they do not fit (draw-page.ts carries it
 * over). Only without a print area: a print area is printed as it is.
 */
import type { LineContext } from '../../layout/blocks/paragraph-lines';
import { cellShown, PADDING } from './cell-text';
import { substituteFamily } from '../../fonts/catalog';
import { gridSizes } from './grid-sizes';
import type { Range, Sheet, Workbook } from './model';

/** Columns a text may add, at most (Excel's last column is the grid's bound anyway). */
const EXTRA_COLUMNS_MAX = 256;

/** How far right (points from the last column's left edge) the texts of the last column reach. */
function reach(workbook: Workbook, sheet: Sheet, range: Range, ctx: LineContext): number {
  let widest = 0;
  for (const [row, cells] of sheet.rows) {
    if (row < range.top || row > range.bottom) continue;
    const cell = cells.at(-1);
    if (!cell || cell.col !== range.right || cell.value?.kind !== 'text') continue;
    const style = workbook.styles[cell.style];
    if (!style || style.wrap || style.shrink || (style.horizontal && style.horizontal !== 'general' && style.horizontal !== 'left')) continue;
    const shown = cellShown(cell, style, workbook);
    if (!shown) continue;
    const font = style.font;
    const width = ctx.fonts.measure(shown.text, substituteFamily(font.name), !!font.bold, !!font.italic, font.size);
    widest = Math.max(widest, PADDING + width);
  }
  return widest;
}

export function withOverflow(workbook: Workbook, sheet: Sheet, range: Range, digit: number, ctx: LineContext): Range {
  if (sheet.print.printArea?.length || sheet.merges.some((m) => m.right >= range.right && m.left <= range.right)) return range;
  const needed = reach(workbook, sheet, range, ctx);
  if (!needed) return range;
  const widths = gridSizes(sheet, { ...range, left: range.right, right: range.right + EXTRA_COLUMNS_MAX }, digit).colWidths;
  let right = range.right;
  let covered = widths[0] ?? 0;
  while (covered < needed && right - range.right < EXTRA_COLUMNS_MAX) covered += widths[++right - range.right] ?? 0;
  return right === range.right ? range : { ...range, right };
}
