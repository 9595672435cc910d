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

/** Whether a style shows on an empty cell: a fill or a border. */
function visible(workbook: Workbook, style: number): boolean {
  const s = workbook.styles[style];
  return !!s && (!!s.fill || Object.keys(s.borders).length > 0);
}

/**
 * LibreOffice stops counting a column's formatting at a run of this many rows formatted alike
 * (sc/source/core/data/attarray.cxx GetLastVisibleAttr, SC_VISATTR_STOP): a sheet whose white
 * fill runs 700 rows past its data prints its data, not 700 empty rows.
 */
const SAME_FORMAT_RUN = 84;

/** Each column's formatted empty cells as runs of rows formatted alike: [first row, last row, style]. */
function formatRuns(workbook: Workbook, sheet: Sheet): Map<number, [number, number, number][]> {
  const runs = new Map<number, [number, number, number][]>();
  const rows = [...sheet.rows.keys()].sort((a, b) => a - b);
  for (const row of rows) {
    for (const c of sheet.rows.get(row)!) {
      if (c.value || !visible(workbook, c.style)) continue;
      const col = runs.get(c.col) ?? runs.set(c.col, []).get(c.col)!;
      const last = col.at(-1);
      if (last && last[1] === row - 1 && last[2] === c.style) last[1] = row;
      else col.push([row, row, c.style]);
    }
  }
  return runs;
}

/** The bottom-right corner of what a sheet prints: its values, and its formatting as LibreOffice counts it (undefined: nothing). */
function printedExtent(workbook: Workbook, sheet: Sheet): { bottom: number; right: number } | undefined {
  let bottom = -1;
  let right = -1;
  for (const [row, cells] of sheet.rows) {
    for (const c of cells) if (c.value) [bottom, right] = [Math.max(bottom, row), Math.max(right, c.col)];
  }
  const runs = formatRuns(workbook, sheet);
  let previous = '';
  for (const col of [...runs.keys()].sort((a, b) => a - b)) {
    const colRuns = runs.get(col)!;
    const last = colRuns.at(-1)!;
    bottom = Math.max(bottom, last[1] - last[0] + 1 >= SAME_FORMAT_RUN ? last[0] : last[1]);
    // Trailing columns formatted as the one before them do not widen the print, as LibreOffice's GetPrintArea skips them.
    const signature = JSON.stringify(colRuns);
    if (signature !== previous || col !== right + 1) right = Math.max(right, col);
    previous = signature;
  }
  for (const m of sheet.merges) {
    if (bottom >= 0 && m.top <= bottom && m.left <= right) [bottom, right] = [Math.max(bottom, m.bottom), Math.max(right, m.right)];
  }
  return bottom < 0 ? undefined : { bottom, right };
}

/** The range a sheet prints: its first print area, else from A1 to what prints (undefined: nothing to print). */
export function printRange(workbook: Workbook, sheet: Sheet): Range | undefined {
  const area = sheet.print.printArea?.[0];
  const found = printedExtent(workbook, sheet);
  // Printing starts at A1: empty leading rows and columns print as space, as LibreOffice and Excel print them.
  if (!area) return found && { top: 0, left: 0, ...found };
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
