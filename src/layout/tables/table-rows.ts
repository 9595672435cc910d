/** Table rows laid out: each cell's paragraphs stacked, shading and borders as rectangles, rows split at a page's foot. */
import { borderShows, type Border, type CellBlock, type ParagraphBlock, type TableBlock } from '../blocks/model';
import type { Line, LineContext } from '../blocks/paragraph-lines';
import { stackParagraphs, type PlacedLine } from '../blocks/paragraph-stack';
import { borderWidth, type PlacedRect } from '../blocks/borders';

/** Header rows repeat on each page a table continues on while they take at most this share of the page's text height. */
export const MOST_FOR_HEADERS = 0.5;

/** A cell's sides as borders and margins see them (any format's: Word's HTML path mirrors its cells too). */
interface Sides {
  borders: { left?: Border; right?: Border };
  margins?: { top: number; right: number; bottom: number; left: number };
}

/** A cell of a right-to-left table as laid out mirrored: its left and right borders and margins swapped. */
export function mirrored<C extends Sides>(cell: C): C {
  const m = cell.margins;
  return { ...cell, borders: { ...cell.borders, left: cell.borders.right, right: cell.borders.left }, margins: m && { ...m, left: m.right, right: m.left } };
}

/** A table row laid out: its height, its cells' lines (x and y from the row's top-left) and rectangles. */
export interface PlacedRow {
  height: number;
  lines: PlacedLine[];
  /** Shading first, then borders: drawn in this order under the text. */
  rects: PlacedRect[];
  notes: string[];
  /** Repeated at the top of each page the table continues on. */
  header: boolean;
  /** Kept whole on one page (w:cantSplit, or an exact height): moved to the next rather than split. */
  whole: boolean;
  /** The row's cells, for splitting it across pages (splitRow). */
  cells: RowCell[];
}

/** A cell of a placed row: its column, its lines (row coordinates), and what it draws around them. */
interface RowCell {
  x: number;
  w: number;
  lines: PlacedLine[];
  marginTop: number;
  marginBottom: number;
  shading?: string;
  top?: Border;
  bottom?: Border;
  left?: Border;
  right?: Border;
  /** Its own top and bottom borders (before collapsing): what the parts of a row split across pages have at the break. */
  ownTop?: Border;
  ownBottom?: Border;
  /** How far its lines sit below the cell's top margin (vertical alignment): a row split across pages sets its cells' text at their tops. */
  aligned: number;
}

const colorOf = (b: Border) => (b.color && b.color !== 'auto' ? b.color : '000000');

/**
 * A table's rows laid out in a column `width` wide: the grid's columns (squeezed when far wider
 * than the column, as Word's HTML path does), placed at the table's indent or alignment; each cell's
 * paragraphs inside its margins, aligned to the top, centre or bottom of its row; a row as tall as
 * its tallest cell or its height rule, and its top border (collapsed with the bottom of the row
 * above; the last row has the table's bottom too). A vertical merge is drawn as the HTML path draws
 * it: the first cell holds the content, the cells it covers are empty and the edges between them open.
 */
export function tableRows(t: TableBlock, width: number, ctx: LineContext & { sum: boolean }, laid: Map<ParagraphBlock, Line[]>): PlacedRow[] {
  const total = t.grid.reduce((a, b) => a + b, 0) || width;
  const scale = total > width * 1.5 ? width / total : 1;
  const grid = t.grid.map((g) => g * scale);
  const tableWidth = grid.reduce((a, b) => a + b, 0);
  // A right-to-left table starts (with its indent) at the right margin, its first column on the right, as Word's HTML path places it.
  const rtl = !!t.bidiVisual;
  const atRight = rtl ? t.align !== 'right' : t.align === 'right';
  const x0 = t.align === 'center' ? (width - tableWidth) / 2 : atRight ? width - tableWidth - (rtl ? (t.indent ?? 0) : 0) : rtl ? 0 : (t.indent ?? 0);
  const edges = [x0];
  for (const g of grid) edges.push(edges.at(-1)! + g);
  /** The cell of row `r` that starts at grid column `col`. */
  const cellAt = (r: number, col: number) => t.rows[r]?.cells.find((_, i, cs) => columnOf(cs, i) === col);
  return t.rows.map((row, r) => {
    const cells: { cell: CellBlock; x: number; w: number; col: number; lines: PlacedLine[]; height: number; mergedBelow: boolean; top?: Border; bottom?: Border }[] = [];
    let col = 0;
    for (const own of row.cells) {
      const cell = rtl ? mirrored(own) : own;
      const span = Math.max(1, cell.gridSpan);
      const ltrX = edges[Math.min(col, grid.length)]!;
      const w = (edges[Math.min(col + span, grid.length)]! - ltrX) || cell.width || 0;
      const x = rtl ? 2 * x0 + tableWidth - ltrX - w : ltrX;
      const m = cell.margins;
      const mergedBelow = cellAt(r + 1, col)?.vMerge === 'continue';
      const stacked = cell.vMerge === 'continue' ? { lines: [], height: 0 } : stackParagraphs(cell.blocks, Math.max(w - m.left - m.right, 1), ctx, laid);
      // Collapsed borders: between two rows the wider of the upper cell's bottom and the lower's top,
      // drawn once, in the lower row's room (an open edge inside a vertical merge has none).
      const above = cellAt(r - 1, col);
      const top = cell.vMerge === 'continue' ? undefined : wider(cell.borders.top, above && above !== cell ? above.borders.bottom : undefined);
      cells.push({ cell, x, w, col, lines: stacked.lines, height: stacked.height + m.top + m.bottom, mergedBelow, top, bottom: r === t.rows.length - 1 ? cell.borders.bottom : undefined });
      col += span;
    }
    // A row's room: its top border (shared with the row above), its cells, and the table's bottom border under the last row.
    const topBand = Math.max(0, ...cells.map((c) => (borderShows(c.top) ? borderWidth(c.top) : 0)));
    const bottomBand = Math.max(0, ...cells.map((c) => (borderShows(c.bottom) ? borderWidth(c.bottom) : 0)));
    const content = Math.max(0, ...cells.map((c) => c.height));
    const rule = row.height;
    const inner = rule?.rule === 'exact' ? Math.max(0, rule.value - topBand - bottomBand) : Math.max(content, (rule?.value ?? 0) - topBand - bottomBand);
    const height = topBand + inner + bottomBand;
    const rowCells: RowCell[] = [];
    for (const { cell, x, w, lines, height: cellHeight, top, bottom, mergedBelow } of cells) {
      const m = cell.margins;
      const free = inner - cellHeight;
      const aligned = cell.vAlign === 'center' ? free / 2 : cell.vAlign === 'bottom' ? free : 0;
      const dy = topBand + m.top + aligned;
      const left = borderShows(cell.borders.left) ? borderWidth(cell.borders.left) / 2 : 0;
      const placedLines: PlacedLine[] = [];
      for (const l of lines) {
        // A row of exact height shows the lines that fit in it, as Word clips the rest.
        if (rule?.rule === 'exact' && l.y + dy + l.line.height > topBand + inner + 0.01) continue;
        placedLines.push({ ...l, x: x + left + m.left + (l.x ?? 0), y: l.y + dy, cellWidth: Math.max(w - m.left - m.right, 1) });
      }
      const shading = cell.shading && cell.shading !== 'auto' ? cell.shading : undefined;
      const ownTop = cell.vMerge === 'continue' ? undefined : cell.borders.top;
      const ownBottom = mergedBelow ? undefined : cell.borders.bottom;
      rowCells.push({ x, w, lines: placedLines, marginTop: m.top, marginBottom: m.bottom, shading, top, bottom, left: cell.borders.left, right: cell.borders.right, ownTop, ownBottom, aligned });
    }
    return rowOf(rowCells, height, !!row.header, !!row.cantSplit || rule?.rule === 'exact');
  });
}

/** A row of these cells `height` tall: its lines, the footnotes they call, and its rectangles (shading, then borders). */
function rowOf(cells: RowCell[], height: number, header: boolean, whole: boolean): PlacedRow {
  const placed: PlacedRow = { height, lines: [], rects: [], notes: [], header, whole, cells };
  const borders: PlacedRect[] = [];
  for (const { x, w, lines, shading, top, bottom, left, right } of cells) {
    for (const l of lines) {
      placed.lines.push(l);
      placed.notes.push(...l.line.notes);
    }
    if (shading) placed.rects.push({ x0: x, y0: 0, x1: x + w, y1: height, color: shading });
    if (borderShows(top)) borders.push({ x0: x, y0: 0, x1: x + w, y1: borderWidth(top), color: colorOf(top) });
    if (borderShows(bottom)) borders.push({ x0: x, y0: height - borderWidth(bottom), x1: x + w, y1: height, color: colorOf(bottom) });
    // Side borders centred on the cell's edges (a wider neighbour's covers a narrower one).
    for (const [border, edge] of [[left, x], [right, x + w]] as const) {
      if (!borderShows(border)) continue;
      const half = borderWidth(border) / 2;
      borders.push({ x0: edge - half, y0: 0, x1: edge + half, y1: height, color: colorOf(border) });
    }
  }
  placed.rects.push(...borders);
  return placed;
}

/**
 * A row split where a page ends, `room` below its top, as Word and LibreOffice break a row that
 * may break across pages: each cell keeps the lines that end above the page's foot and carries the
 * rest to a part of the row on the next page, under its own top border. The first part fills the
 * room. Undefined when a cell's first line does not fit in the room (the row moves to the next page whole).
 */
export function splitRow(row: PlacedRow, room: number): [PlacedRow, PlacedRow] | undefined {
  const firstCells: RowCell[] = [];
  const restCells: RowCell[] = [];
  let restHeight = 0;
  for (const c of row.cells) {
    const cell = c.aligned ? { ...c, lines: c.lines.map((l) => ({ ...l, y: l.y - c.aligned })), aligned: 0 } : c;
    const cut = cell.lines.findIndex((l) => l.y + l.line.height - l.line.trailing > room - cell.marginBottom + 0.01);
    // Each cell keeps its first line at least (LibreOffice moves a row whose tall picture does not fit, bug59058.docx).
    if (cut === 0) return undefined;
    const stays = cut < 0 ? cell.lines : cell.lines.slice(0, cut);
    const goes = cut < 0 ? [] : cell.lines.slice(cut);
    firstCells.push({ ...cell, lines: stays, bottom: cell.ownBottom });
    const top = borderShows(cell.ownTop) ? borderWidth(cell.ownTop) : 0;
    const shift = goes.length ? goes[0]!.y - top - cell.marginTop : 0;
    const moved = goes.map((l) => ({ ...l, y: l.y - shift }));
    const end = moved.length ? moved.at(-1)!.y + moved.at(-1)!.line.height + cell.marginBottom : top + cell.marginTop + cell.marginBottom;
    restHeight = Math.max(restHeight, end + (borderShows(cell.bottom) ? borderWidth(cell.bottom) : 0));
    restCells.push({ ...cell, lines: moved, top: cell.ownTop });
  }
  return [rowOf(firstCells, room, row.header, false), rowOf(restCells, restHeight, row.header, row.whole)];
}

/** Of two borders meeting between rows, the one drawn: the wider (the first when equal). */
function wider(a: Border | undefined, b: Border | undefined): Border | undefined {
  if (!borderShows(a)) return borderShows(b) ? b : undefined;
  if (!borderShows(b)) return a;
  return borderWidth(b) > borderWidth(a) ? b : a;
}

function columnOf(cells: CellBlock[], index: number): number {
  let col = 0;
  for (let i = 0; i < index; i++) col += Math.max(1, cells[i]!.gridSpan);
  return col;
}
