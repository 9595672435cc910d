/**
 * A sheet's print range and the sizes of its columns and rows in points, as Excel defines them:
 * a column's width is counted in the maximum digit width of the workbook's default font (MDW, in
 * pixels at 96 dpi), the stored width already holding the 5-pixel padding; px = trunc(((256·w +
 * trunc(128/MDW)) / 256) · MDW). Hidden columns and rows are 0 wide and tall.
 */
import { substituteFamily } from '../../fonts/catalog';
import type { FontBook } from '../../layout/text/font-book';
import type { GridSizes } from '../../layout/grid/page-bands';
import type { Font, Range, Sheet, Workbook } from './model';

/** The maximum digit width of a font in whole pixels at 96 dpi, as Excel rounds it (Calibri 11: 7). */
export function maxDigitWidth(fonts: FontBook, font: Font): number {
  const family = substituteFamily(font.name);
  let widest = 0;
  for (let d = 0; d <= 9; d++) widest = Math.max(widest, fonts.measure(String(d), family, false, false, font.size));
  return Math.max(1, Math.round((widest * 96) / 72));
}

/** A stored column width (characters) in points. */
export function columnPoints(width: number, mdw: number): number {
  const px = Math.trunc(((256 * width + Math.trunc(128 / mdw)) / 256) * mdw);
  return (px * 72) / 96;
}

/** Whether a cell prints something: a value, a fill or a border. */
function prints(workbook: Workbook, style: number, hasValue: boolean): boolean {
  if (hasValue) return true;
  const s = workbook.styles[style];
  return !!s && (!!s.fill || Object.keys(s.borders).length > 0);
}

/** The range a sheet prints: its first print area, else the cells that print something (undefined: nothing to print). */
export function printRange(workbook: Workbook, sheet: Sheet): Range | undefined {
  const area = sheet.print.printArea?.[0];
  let found: Range | undefined;
  for (const [row, cells] of sheet.rows) {
    for (const c of cells) {
      if (!prints(workbook, c.style, !!c.value)) continue;
      if (!found) found = { top: row, bottom: row, left: c.col, right: c.col };
      else Object.assign(found, { top: Math.min(found.top, row), bottom: Math.max(found.bottom, row), left: Math.min(found.left, c.col), right: Math.max(found.right, c.col) });
    }
  }
  for (const m of sheet.merges) {
    if (found && m.top <= found.bottom && m.left <= found.right) Object.assign(found, { bottom: Math.max(found.bottom, m.bottom), right: Math.max(found.right, m.right) });
  }
  if (!area) return found;
  // A print area of whole rows or columns ends where the sheet's content does.
  return found ? { top: area.top, left: area.left, bottom: Math.min(area.bottom, Math.max(found.bottom, area.top)), right: Math.min(area.right, Math.max(found.right, area.left)) } : area;
}

/** The column widths and row heights (points at 100%) of a range of the sheet, manual breaks within it. */
export function gridSizes(sheet: Sheet, range: Range, mdw: number): GridSizes {
  // The default column: the stored default width, or the base width padded by 5 pixels and rounded up to 8 (Calibri 11: 64 px).
  const points = (width: number) => (sheet.widthsInPoints ? width : columnPoints(width, mdw));
  const defaultWidth = sheet.defaultColWidth !== undefined ? points(sheet.defaultColWidth) : (Math.ceil((sheet.baseColWidth * mdw + 5) / 8) * 8 * 72) / 96;
  const colWidths: number[] = [];
  for (let c = range.left; c <= range.right; c++) {
    const stored = sheet.colWidths.get(c);
    colWidths.push(sheet.hiddenCols.has(c) ? 0 : stored !== undefined ? points(stored) : defaultWidth);
  }
  const rowHeights: number[] = [];
  for (let r = range.top; r <= range.bottom; r++) rowHeights.push(sheet.hiddenRows.has(r) ? 0 : (sheet.rowHeights.get(r) ?? sheet.defaultRowHeight));
  const within = (breaks: number[], first: number, last: number) => breaks.filter((b) => b > first && b <= last).map((b) => b - first);
  return {
    colWidths,
    rowHeights,
    colBreaks: within(sheet.print.colBreaks, range.left, range.right),
    rowBreaks: within(sheet.print.rowBreaks, range.top, range.bottom),
  };
}
