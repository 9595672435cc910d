/**
 * How one sheet prints, decided before anything is drawn: its print range and sizes, the paper
 * turned as the sheet asks, the room between the margins, its pages cut by layout's grid pager at
 * the sheet's scale or fitted to N pages (layout/grid/page-bands.ts), and the title rows and
 * columns repeated on the pages that do not hold them. A page is then a few blocks of cells: the
 * body's band, and the titles above and beside it (sheetPageBlocks), each placed on the paper.
 */
import type { GridPage, GridPages, PageRoom } from '../../layout/grid/page-bands';
import { gridPages } from '../../layout/grid/page-bands';
import { gridSizes, printRange } from './grid-sizes';
import type { PrintSettings, Range, Sheet, SheetDrawing, Workbook } from './model';
import { MAX_COLS, MAX_ROWS } from './read/xlsx/cells';
import type { PagePlacement } from './draw-page';
import type { LineContext } from '../../layout/blocks/paragraph-lines';
import { withOverflow } from './overflow-range';

export interface SheetPrint {
  sheet: Sheet;
  range: Range;
  colWidths: number[];
  rowHeights: number[];
  /** Title rows and columns (sheet indexes) with their sizes, when the sheet repeats them. */
  titleRows?: { first: number; heights: number[] };
  titleCols?: { first: number; widths: number[] };
  laid: GridPages;
  /** The paper as the sheet prints it (turned for landscape). */
  paper: PageRoom;
  /** Between the margins (the header's and footer's when the sheet has them): the cells, and the header and footer bands at the sheet's scale. */
  room: PageRoom;
  bands: HeaderBands;
  /** The room printed headings take left of and above the cells (points at 100%), when the sheet prints them. */
  headings?: { width: number; height: number };
}

/**
 * Printed headings (column letters, row numbers) take LibreOffice's PRINT_HEADER_WIDTH, 1 cm, left
 * of the cells and PRINT_HEADER_HEIGHT, 12.8 pt, above them (sc/source/ui/view/printfun.cxx),
 * scaled with the sheet.
 */
export const HEADINGS = { width: 72 / 2.54, height: 12.8 };

/**
 * Where a page's cells begin and end, as LibreOffice prints Excel's margins: a sheet with a header
 * starts its page at the header margin, and the header's band, down to Excel's top margin, scales
 * with the sheet (oox's convertHeaderFooterData makes the band the header's height; ScPrintFunc
 * draws header and cells at one zoom). At 66% the cells of a 0.75in top margin with a 0.3in header
 * start at 0.3in + 0.45in × 0.66. The same below with the footer. Band heights are unscaled.
 */
export interface HeaderBands {
  top: number;
  bottom: number;
  header: number;
  footer: number;
}

export function headerBands(print: PrintSettings): HeaderBands {
  const { margins } = print;
  const header = print.header ? Math.max(0, margins.top - margins.header) : 0;
  const footer = print.footer ? Math.max(0, margins.bottom - margins.footer) : 0;
  return { top: print.header ? Math.min(margins.top, margins.header) : margins.top, bottom: print.footer ? Math.min(margins.bottom, margins.footer) : margins.bottom, header, footer };
}

const sum = (sizes: number[], from = 0, to = sizes.length - 1): number => {
  let total = 0;
  for (let i = from; i <= to; i++) total += sizes[i] ?? 0;
  return total;
};

/** The paper turned as the sheet asks, and the room between its margins. */
function paperOf(print: PrintSettings): { paper: PageRoom; room: PageRoom; bands: HeaderBands } {
  const [w, h] = [print.paper.width, print.paper.height];
  const paper = print.orientation === 'landscape' ? { width: Math.max(w, h), height: Math.min(w, h) } : { width: Math.min(w, h), height: Math.max(w, h) };
  const { margins } = print;
  const bands = headerBands(print);
  return { paper, bands, room: { width: Math.max(36, paper.width - margins.left - margins.right), height: Math.max(36, paper.height - bands.top - bands.bottom) } };
}

/** The cells' room on a page at `zoom` (percent): the room less the header and footer bands. */
export function cellsRoom(plan: Pick<SheetPrint, 'room' | 'bands'>, zoom: number): PageRoom {
  return { width: plan.room.width, height: Math.max(1, plan.room.height - ((plan.bands.header + plan.bands.footer) * zoom) / 100) };
}

/** The index of the size an extent measured from the start of size `from` ends in (the last when it runs past them all). */
export function reach(sizes: readonly number[], extent: number, from = 0): number {
  let i = Math.max(0, from);
  for (let left = extent; i + 1 < sizes.length && left > sizes[i]!; i++) left -= sizes[i]!;
  return i;
}

/** The cell under a drawing's far corner: its `to`, or for one given a size (an ODS frame, an absolute anchor) the cell its size reaches. */
function farCorner(sheet: Sheet, d: SheetDrawing, digit: number): { row: number; col: number } {
  if (d.to || !d.size) return { row: d.to?.row ?? d.from.row, col: d.to?.col ?? d.from.col };
  const { from } = d;
  const sizes = gridSizes(sheet, { top: from.row, left: from.col, bottom: Math.min(MAX_ROWS - 1, from.row + 2000), right: Math.min(MAX_COLS - 1, from.col + 256) }, digit);
  return { col: from.col + reach(sizes.colWidths, from.colOffset + d.size.width), row: from.row + reach(sizes.rowHeights, from.rowOffset + d.size.height) };
}

/** The print range grown to the corners of the sheet's pictures and charts (without a print area), as LibreOffice prints them. */
function withDrawings(sheet: Sheet, range: Range | undefined, digit: number): Range | undefined {
  if (sheet.print.printArea?.length || !sheet.drawings?.length) return range;
  let { bottom, right } = range ?? { bottom: 0, right: 0 };
  for (const d of sheet.drawings) {
    const corner = farCorner(sheet, d, digit);
    [bottom, right] = [Math.max(bottom, corner.row), Math.max(right, corner.col)];
  }
  return { top: 0, left: 0, bottom, right };
}

/** A chart sheet: one page, the chart over the room (draw-drawings.ts). */
function chartSheetPlan(sheet: Sheet): SheetPrint {
  const band: [number, number] = [0, 0];
  return { sheet, range: { top: 0, left: 0, bottom: 0, right: 0 }, colWidths: [0], rowHeights: [0], laid: { zoom: 100, pageCount: 1, page: () => ({ cols: band, rows: band }), colBands: [band], rowBands: [band] }, ...paperOf(sheet.print) };
}

/** The sheet's print plan; undefined when it prints nothing. */
export function planSheet(workbook: Workbook, sheet: Sheet, digit: number, ctx: LineContext): SheetPrint | undefined {
  if (sheet.chartSheet) return chartSheetPlan(sheet);
  const found = withDrawings(sheet, printRange(workbook, sheet), digit);
  if (!found) return undefined;
  const range = withOverflow(workbook, sheet, found, digit, ctx);
  // Rows keep the heights the file gives: LibreOffice prints wrapped text over the rows around it rather than growing them.
  const sizes = gridSizes(sheet, range, digit);
  const { print } = sheet;
  const { paper, room, bands } = paperOf(print);
  const t = print.titleRows && print.titleRows.last >= print.titleRows.first ? print.titleRows : undefined;
  const titleHeights = t && (t.first >= range.top && t.last <= range.bottom ? sizes.rowHeights.slice(t.first - range.top, t.last - range.top + 1) : gridSizes(sheet, { ...range, top: t.first, bottom: t.last }, digit).rowHeights);
  const titleRows = t && titleHeights ? { first: t.first, heights: titleHeights } : undefined;
  const titleCols = print.titleCols && print.titleCols.last >= print.titleCols.first ? { first: print.titleCols.first, widths: gridSizes(sheet, { ...range, left: print.titleCols.first, right: print.titleCols.last }, digit).colWidths } : undefined;
  const headings = print.headings ? HEADINGS : undefined;
  const inRange = (first: number, from: number, to: number) => (first >= from && first <= to ? { at: first - from } : undefined);
  const rowsAt = titleRows && inRange(titleRows.first, range.top, range.bottom);
  const colsAt = titleCols && inRange(titleCols.first, range.left, range.right);
  const laid = gridPages({
    ...sizes,
    titleWidth: titleCols ? sum(titleCols.widths) : 0,
    titleHeight: titleRows ? sum(titleRows.heights) : 0,
    ...(rowsAt ? { titleRowsAt: rowsAt.at } : {}),
    ...(colsAt ? { titleColsAt: colsAt.at } : {}),
    reservedHeight: bands.header + bands.footer + (headings?.height ?? 0),
    reservedWidth: headings?.width ?? 0,
  }, room, {
    zoom: print.scale,
    ...(print.fitTo ? { fit: print.fitTo } : {}),
    order: print.pageOrder,
  });
  return { sheet, range, colWidths: sizes.colWidths, rowHeights: sizes.rowHeights, ...(titleRows ? { titleRows } : {}), ...(titleCols ? { titleCols } : {}), laid, paper, room, bands, ...(headings ? { headings } : {}) };
}

/** One block of cells on a page: which of them (indexes into the placement's sizes) and where. */
export interface PageBlock {
  page: GridPage;
  at: PagePlacement;
  /** How far right of the block its text may run (to the right margin), on the body's columns. */
  spillTo?: number;
}

/**
 * The blocks a page prints: the body's band, the title rows above it and the title columns left of
 * it when the band does not already hold them (and their corner when both repeat), placed from the
 * top-left margin, centred in the room when the sheet asks.
 */
export function sheetPageBlocks(plan: SheetPrint, page: GridPage): PageBlock[] {
  const { range, sheet, laid } = plan;
  const zoom = laid.zoom / 100;
  const bodyRowsFrom = range.top + page.rows[0];
  const bodyColsFrom = range.left + page.cols[0];
  const rows = plan.titleRows && bodyRowsFrom > plan.titleRows.first + plan.titleRows.heights.length - 1 ? plan.titleRows : undefined;
  const cols = plan.titleCols && bodyColsFrom > plan.titleCols.first + plan.titleCols.widths.length - 1 ? plan.titleCols : undefined;
  const titleHeight = rows ? sum(rows.heights) : 0;
  const titleWidth = cols ? sum(cols.widths) : 0;
  const head = plan.headings ?? { width: 0, height: 0 };
  const width = (head.width + titleWidth + sum(plan.colWidths, page.cols[0], page.cols[1])) * zoom;
  const height = (head.height + titleHeight + sum(plan.rowHeights, page.rows[0], page.rows[1])) * zoom;
  const { margins, centerHorizontally, centerVertically } = sheet.print;
  const cells = cellsRoom(plan, laid.zoom);
  // The headings are centred with the cells, which start past them.
  const x = margins.left + head.width * zoom + (centerHorizontally ? Math.max(0, (cells.width - width) / 2) : 0);
  const y = plan.bands.top + (plan.bands.header + head.height) * zoom + (centerVertically ? Math.max(0, (cells.height - height) / 2) : 0);
  const blocks: PageBlock[] = [];
  const block = (rowsAt: { top: number; heights: number[]; band: [number, number] }, colsAt: { left: number; widths: number[]; band: [number, number] }, bx: number, by: number) =>
    blocks.push({
      // Text may run past the band's last column into the room left on the page, as LibreOffice prints it (the page across carries it on too).
      ...(colsAt.widths === plan.colWidths ? { spillTo: margins.left + plan.room.width - bx } : {}),
      page: { rows: rowsAt.band, cols: colsAt.band },
      at: { x: bx, y: by, zoom, range: { top: rowsAt.top, left: colsAt.left, bottom: rowsAt.top + rowsAt.heights.length - 1, right: colsAt.left + colsAt.widths.length - 1 }, colWidths: colsAt.widths, rowHeights: rowsAt.heights },
    });
  const bodyRows = { top: range.top, heights: plan.rowHeights, band: page.rows };
  const bodyCols = { left: range.left, widths: plan.colWidths, band: page.cols };
  const titleRowsAt = rows && { top: rows.first, heights: rows.heights, band: [0, rows.heights.length - 1] as [number, number] };
  const titleColsAt = cols && { left: cols.first, widths: cols.widths, band: [0, cols.widths.length - 1] as [number, number] };
  if (titleRowsAt && titleColsAt) block(titleRowsAt, titleColsAt, x, y);
  if (titleRowsAt) block(titleRowsAt, bodyCols, x + titleWidth * zoom, y);
  if (titleColsAt) block(bodyRows, titleColsAt, x, y + titleHeight * zoom);
  block(bodyRows, bodyCols, x + titleWidth * zoom, y + titleHeight * zoom);
  return blocks;
}
