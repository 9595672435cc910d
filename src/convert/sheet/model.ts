/**
 * A workbook as the spreadsheet converter prints it (issue 42), whatever file it came from (XLSX,
 * XLS, ODS): its visible sheets in order, each with its cells' values and styles, column widths
 * and row heights, merges, pictures, charts and shapes, and print settings. Readers build it; the
 * converter pages and draws it on layout's grid pager and line breaker.
 */
import type { Chart, FramedShape, TextParagraph } from '../office/model';
import type { ConditionalFormat, DifferentialStyle } from './conditional-model';

/** A cell's value as the file caches it: formulas print their cached value (no recalculation). */
export type CellValue =
  | { kind: 'number'; value: number }
  | { kind: 'text'; value: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'error'; value: string };

export interface Cell {
  /** 0-based row and column. */
  row: number;
  col: number;
  /** Absent: a styled empty cell (its fill and borders still print). */
  value?: CellValue;
  /** Index into Workbook.styles. */
  style: number;
}

export interface Font {
  name: string;
  size: number;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  /** RRGGBB. */
  color?: string;
}

export interface BorderSide {
  style: 'thin' | 'medium' | 'thick' | 'double' | 'dotted' | 'dashed' | 'hair' | 'mediumDashed' | 'dashDot' | 'mediumDashDot' | 'dashDotDot' | 'mediumDashDotDot' | 'slantDashDot';
  color?: string;
}

/** A cell format: what `style` of a cell names (cellXfs). */
export interface CellStyle {
  /** The number format code ("General", "0.00", "#,##0 ₽", "dd.mm.yyyy"). */
  format: string;
  font: Font;
  /** Solid fill colour (RRGGBB), or a pattern's foreground. */
  fill?: string;
  borders: { left?: BorderSide; right?: BorderSide; top?: BorderSide; bottom?: BorderSide };
  horizontal?: 'general' | 'left' | 'center' | 'right' | 'fill' | 'justify' | 'centerContinuous' | 'distributed';
  vertical?: 'top' | 'center' | 'bottom' | 'justify' | 'distributed';
  wrap?: boolean;
  indent?: number;
  /** Degrees counter-clockwise (0-90), or 255 for stacked text. */
  rotation?: number;
  shrink?: boolean;
}

/** A rectangle of cells, 0-based and inclusive. */
export interface Range {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export interface PrintSettings {
  orientation: 'portrait' | 'landscape';
  /** Paper size in points (width, height in portrait). */
  paper: { width: number; height: number };
  /** Margins in points; header and footer distances from the edge. */
  margins: { left: number; right: number; top: number; bottom: number; header: number; footer: number };
  /** Percent, 10-400. */
  scale: number;
  /** Fit to this many pages wide and tall (0: as many as it takes); only where the sheet asks to fit. */
  fitTo?: { width: number; height: number };
  pageOrder: 'downThenOver' | 'overThenDown';
  centerHorizontally?: boolean;
  centerVertically?: boolean;
  gridLines?: boolean;
  headings?: boolean;
  printArea?: Range[];
  /** Rows and columns repeated on every page (print titles). */
  titleRows?: { first: number; last: number };
  titleCols?: { first: number; last: number };
  /** Manual breaks: a page starts at these rows and columns (0-based index of the first row/column after the break). */
  rowBreaks: number[];
  colBreaks: number[];
  header?: HeaderFooter;
  footer?: HeaderFooter;
  /**
   * Cell comments (notes) printed: listed on pages after the sheet's (Excel's "At end of sheet",
   * LibreOffice's "Comments"), or drawn where they are shown (Excel's "As displayed on sheet"; the
   * shown ones are among the sheet's drawings). Absent: comments do not print.
   */
  comments?: 'atEnd' | 'asDisplayed';
}

/** A header or footer as its codes write it (&L, &C, &R sections; &P, &N, &D, &T, &A, &F), first and even pages apart. */
export interface HeaderFooter {
  odd: string;
  even?: string;
  first?: string;
}

/** A corner of a drawing: a cell (0-based) and the offset into it, in points. */
export interface CellAnchor {
  col: number;
  colOffset: number;
  row: number;
  rowOffset: number;
}

/**
 * A picture, chart or shapes drawn over a sheet: from a cell corner to another, or at a size
 * (points). Shapes are one shape or a group's members, each in the group's `frame`.
 */
export interface SheetDrawing {
  from: CellAnchor;
  to?: CellAnchor;
  size?: { width: number; height: number };
  content:
    | { kind: 'picture'; data: Uint8Array; contentType: string }
    | { kind: 'chart'; chart: Chart }
    | { kind: 'shapes'; frame: { width: number; height: number }; shapes: FramedShape<TextParagraph>[] };
}

/** A cell comment as it prints in the list after the sheet: the cell and its text, lines apart by '\n'. */
export interface SheetNote {
  row: number;
  col: number;
  text: string;
}

export interface Sheet {
  name: string;
  /** The comments listed after the sheet's pages, in the order they print (by row, then column), when it prints them at the end. */
  notes?: SheetNote[];
  /** Pictures and charts over the cells; a chart sheet's chart fills its page. */
  drawings?: SheetDrawing[];
  chartSheet?: boolean;
  /** Cells by row, each row's cells in column order (read/packed-rows.ts keeps them compact: a row read is made anew each time). */
  rows: ReadonlyMap<number, Cell[]>;
  /** Column widths in characters of the default font's maximum digit (Excel's unit), by 0-based column. */
  colWidths: Map<number, number>;
  hiddenCols: Set<number>;
  /** Row heights in points, by 0-based row. */
  rowHeights: Map<number, number>;
  /**
   * The style of a column's and a row's cells that are not written (a formatted column, a row with
   * customFormat): Excel and LibreOffice draw their fills and borders. A row's wins over a column's.
   * Columns are kept with a style other than the default; rows with one at all (even the default).
   */
  colStyles?: Map<number, number>;
  rowStyles?: Map<number, number>;
  hiddenRows: Set<number>;
  /** The stored default width of columns (characters, padding included), when the sheet gives one. */
  defaultColWidth?: number;
  /** Otherwise: the default width in characters without padding (Excel's 8), which Excel pads and rounds up to 8 pixels. */
  baseColWidth: number;
  /** colWidths and defaultColWidth are points, not characters: OpenDocument stores lengths. */
  widthsInPoints?: boolean;
  defaultRowHeight: number;
  merges: Range[];
  rightToLeft?: boolean;
  print: PrintSettings;
  /** The used range: every cell with a value or a style lies within it. */
  used?: Range;
  /** Conditional formatting rules (conditional-model.ts). */
  conditional?: ConditionalFormat[];
}

export interface Workbook {
  /** The visible sheets, in the workbook's order. */
  sheets: Sheet[];
  styles: CellStyle[];
  /** The workbook's default font (the first of styles.xml): column widths are counted in its digits. */
  defaultFont: Font;
  /** Dates count from 1904-01-01 rather than 1899-12-30. */
  date1904: boolean;
  /** Points an indent level moves when it is a fixed step (LibreOffice's XLS filter: 200 twips); otherwise three spaces of the default font. */
  indentStep?: number;
  /** Differential formats conditional formatting rules name (styles.xml <dxfs>). */
  dxfs?: DifferentialStyle[];
}
