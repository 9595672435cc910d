/**
 * A sheet's print range and the sizes of its columns and rows in points, as LibreOffice prints
 * them (our references; oox/source/xls/worksheethelper.cxx and unitconverter.cxx): a column's
 * width is counted in "digits", the widest digit of the workbook's default font (the first
 * <font> of styles.xml) at its size, unrounded (Arial 10: 5.56 pt, so LibreOffice's
 * 11.535-digit column is 64 pt); a default width given only as a base (sheetFormatPr
 * baseColWidth, 8 by default) gets 5 screen pixels of padding (3.75 pt). Hidden columns and
 * rows are 0 wide and tall. The range starts at A1, as both programs print a sheet.
 */
import { substituteFamily } from '../../fonts/catalog';
import type { FontBook } from '../../layout/text/font-book';
import type { GridSizes } from '../../layout/grid/page-bands';
import type { Font, Range, Sheet, Workbook } from './model';

/** The widest digit of a font, in points: the unit column widths are counted in. */
export function maxDigitWidth(fonts: FontBook, font: Font): number {
  const family = substituteFamily(font.name);
  let widest = 0;
  for (let d = 0; d <= 9; d++) widest = Math.max(widest, fonts.measure(String(d), family, false, false, font.size));
  return widest > 0 ? widest : font.size / 2;
}

/** A stored column width (digits) in points. */
export const columnPoints = (width: number, digit: number): number => width * digit;

/** The padding LibreOffice adds to a base width: 5 pixels at 96 dpi. */
const BASE_PADDING = 3.75;

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
  // Printing starts at A1: empty leading rows and columns print as space, as LibreOffice and Excel print them.
  if (!area) return found && { ...found, top: 0, left: 0 };
  // A print area of whole rows or columns ends where the sheet's content does.
  return found ? { top: area.top, left: area.left, bottom: Math.min(area.bottom, Math.max(found.bottom, area.top)), right: Math.min(area.right, Math.max(found.right, area.left)) } : area;
}

/** The column widths and row heights (points at 100%) of a range of the sheet, manual breaks within it. */
export function gridSizes(sheet: Sheet, range: Range, digit: number): GridSizes {
  // The default column: the stored default width, or the base width and its padding (Calibri 11: 8 digits of 5.57 pt, 48.3 pt).
  const points = (width: number) => (sheet.widthsInPoints ? width : columnPoints(width, digit));
  const defaultWidth = sheet.defaultColWidth !== undefined ? points(sheet.defaultColWidth) : sheet.baseColWidth * digit + BASE_PADDING;
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
