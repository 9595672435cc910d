/**
 * One block of cells of a printed page as layout's display list (sheet-pages.ts cuts a page into
 * blocks: its band of the print range, and the repeated titles): fills, gridlines when the sheet
 * prints them, borders at Excel's widths, then each cell's text (cell-text.ts). A merged range
 * prints as one cell (its first cell's value, fill and alignment over the whole range); unwrapped
 * text runs into empty neighbours (to the right when left-aligned, the left when right-aligned,
 * both when centred) and is cut where a full one starts or the block ends. Fills hide the
 * gridlines under them.
 */
import type { DisplayItem, FilledBox, ShapeItem } from '../../contracts/display';
import type { LineContext } from '../../layout/blocks/paragraph-lines';
import type { PlacedLine } from '../../layout/blocks/paragraph-stack';
import { displayLines } from '../../layout/display/draw-lines';
import type { GridPage } from '../../layout/grid/page-bands';
import type { Cell, CellStyle, Range, Sheet, Workbook } from './model';
import { borderRule } from './border-rules';
import { turnedCellItems, turnOf } from './cell-rotated';
import { cellShown, placeCellText, type CellShown, type Horizontal, type TextBox } from './cell-text';
import { mirrorX } from '../../layout/display/mirror';
import { sheetLooks } from './conditional';
import { lookBoxes, lookStyle } from './draw-conditional';


/** Printed gridlines: a hairline, as LibreOffice prints them. */
// Printed gridlines as LibreOffice strokes them: black hairlines of 0.1 pt (a device pixel at any resolution).
const GRIDLINE = { width: 0.1, color: '000000' };

/** Where a block goes on the paper: its top-left, the zoom, and the sizes (points at 100%) of the columns and rows its indexes count from `range`'s corner. */
export interface PagePlacement {
  x: number;
  y: number;
  zoom: number;
  range: Range;
  colWidths: number[];
  rowHeights: number[];
}

export interface DrawOptions {
  gridLines?: boolean;
  /** How far right (from the block's left) text may run past the block's last column: to the right margin on a sheet's last band of columns, as LibreOffice prints it. */
  spillTo?: number;
  /**
   * A right-to-left sheet: the block is drawn turned over the line where x + x' = `mirror` (page
   * points), column A at the right. Boxes, borders and gridlines mirror (a cell's left border
   * prints on its right); text keeps its alignment within its mirrored cell, as LibreOffice prints
   * it, and runs into the neighbours on the side it reads towards.
   */
  mirror?: number;
}

/** Which way an unwrapped text runs into its neighbours: the other way, in index order, on a mirrored block. */
const SPILL_MIRRORED: Record<string, Horizontal> = { left: 'right', right: 'left' };

/** A text box (block coordinates) where it lands on a block mirrored over `m` (block coordinates: the page's axis less twice the block's x). */
function mirroredBox(box: TextBox, m: number): TextBox {
  return { ...box, x: m - box.x - box.width, clip: [m - box.clip[1], m - box.clip[0]] };
}

/** The edges (grid coordinates from the block's top-left) of the block's columns and rows: edge i is where index i starts. */
function edges(sizes: number[], band: [number, number], zoom: number): Map<number, number> {
  const at = new Map<number, number>();
  let pos = 0;
  for (let i = band[0]; i <= band[1] + 1; i++) {
    at.set(i, pos);
    pos += (sizes[i] ?? 0) * zoom;
  }
  return at;
}

/** Edge positions (from the block's first index) of any index of the sizes, within the block or past it. */
const PREFIXES = new WeakMap<number[], number[]>();
function unclampedEdges(sizes: number[], first: number, origin: number, zoom: number): (sheetIndex: number) => number {
  let prefix = PREFIXES.get(sizes);
  if (!prefix) {
    prefix = [0];
    for (const size of sizes) prefix.push(prefix.at(-1)! + size);
    PREFIXES.set(sizes, prefix);
  }
  const at = prefix;
  return (sheetIndex) => {
    const i = Math.min(Math.max(sheetIndex - origin, 0), sizes.length);
    return (at[i]! - at[first]!) * zoom;
  };
}

/** The sheet's merges that reach into the block, by their first cell; and every other cell they cover. */
function mergesWithin(sheet: Sheet, rows: [number, number], cols: [number, number]): { byCorner: Map<string, Range>; covered: Set<string> } {
  const byCorner = new Map<string, Range>();
  const covered = new Set<string>();
  for (const m of sheet.merges) {
    if (m.bottom < rows[0] || m.top > rows[1] || m.right < cols[0] || m.left > cols[1]) continue;
    byCorner.set(`${m.top}:${m.left}`, m);
    for (let r = Math.max(m.top, rows[0]); r <= Math.min(m.bottom, rows[1]); r++) {
      for (let c = Math.max(m.left, cols[0]); c <= Math.min(m.right, cols[1]); c++) if (r !== m.top || c !== m.left) covered.add(`${r}:${c}`);
    }
  }
  return { byCorner, covered };
}

/** The cell's border rules, pushed onto `out` (a page's cells make many: no array is made per cell). */
function borderBoxes(style: CellStyle, x0: number, y0: number, x1: number, y1: number, zoom: number, out: FilledBox[]): void {
  const { left, right, top, bottom } = style.borders;
  if (top) for (const b of borderRule(top, true, y0, x0, x1, zoom)) out.push(b);
  if (bottom) for (const b of borderRule(bottom, true, y1, x0, x1, zoom)) out.push(b);
  if (left) for (const b of borderRule(left, false, x0, y0, y1, zoom)) out.push(b);
  if (right) for (const b of borderRule(right, false, x1, y0, y1, zoom)) out.push(b);
}

/**
 * A row's cells in the block's columns and the one just right of them (where a label may spill),
 * by sheet column, and the nearest cell with a value left of the block (whose text may run in):
 * found by bisection, so a wide sheet's row is not mapped whole on each of its pages across.
 */
function rowCells(sheet: Sheet, row: number, band: [number, number]): { cells: Map<number, Cell>; left?: Cell } {
  const all = sheet.rows.get(row) ?? [];
  let [lo, hi] = [0, all.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (all[mid]!.col < band[0]) lo = mid + 1;
    else hi = mid;
  }
  const cells = new Map<number, Cell>();
  for (let i = lo; i < all.length && all[i]!.col <= band[1] + 1; i++) cells.set(all[i]!.col, all[i]!);
  let k = lo - 1;
  while (k >= 0 && !all[k]!.value) k--;
  return k >= 0 ? { cells, left: all[k]! } : { cells };
}

/** How far (grid x) an unwrapped text in column `col` may run: over empty, unmerged neighbours within the block. */
function spill(shown: CellShown, col: number, cells: Map<number, Cell>, covered: Set<string>, row: number, band: [number, number], xs: Map<number, number>, spillTo?: number): [number, number] {
  const empty = (c: number) => !cells.get(c)?.value && !(covered.size && covered.has(`${row}:${c}`));
  let from = col;
  let to = col;
  if (shown.horizontal === 'left' || shown.horizontal === 'center') while (to < band[1] && empty(to + 1)) to++;
  if (shown.horizontal === 'right' || shown.horizontal === 'center') while (from > band[0] && empty(from - 1)) from--;
  const right = to === band[1] && spillTo !== undefined && (shown.horizontal === 'left' || shown.horizontal === 'center') && empty(to + 1) ? Math.max(xs.get(to + 1)!, spillTo) : xs.get(to + 1)!;
  return [xs.get(from)!, right];
}

/**
 * The text of the nearest cell left of the block when it runs into the block over empty cells: the
 * rest of a long label on the next page across, laid out where it starts and cut to the block.
 */
function carriedText(workbook: Workbook, cells: Map<number, Cell>, source: Cell | undefined, band: [number, number], g: { x0: (col: number) => number; y0: number; y1: number; xs: Map<number, number>; spillTo?: number }): { shown: CellShown; style: CellStyle; box: TextBox } | undefined {
  const style = source && workbook.styles[source.style];
  if (!source || !style || style.wrap || cells.get(band[0])?.value) return undefined;
  const shown = cellShown(source, style, workbook);
  if (!shown || shown.numeric || (shown.horizontal !== 'left' && shown.horizontal !== 'center')) return undefined;
  let to = band[0];
  while (to < band[1] && !cells.get(to + 1)?.value) to++;
  const end = g.xs.get(to + 1)!;
  const right = to === band[1] && g.spillTo !== undefined ? Math.max(end, g.spillTo) : end;
  const [x0, x1] = [g.x0(source.col), g.x0(source.col + 1)];
  return { shown, style, box: { x: x0, y: g.y0, width: x1 - x0, height: g.y1 - g.y0, clip: [0, right] } };
}

/** The nearest cell with a value right of column `last` in `row` (found by bisection). */
function valuedRightOf(sheet: Sheet, row: number, last: number): Cell | undefined {
  const all = sheet.rows.get(row) ?? [];
  let [lo, hi] = [0, all.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (all[mid]!.col <= last) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < all.length; i++) if (all[i]!.value) return all[i];
  return undefined;
}

/**
 * On a right-to-left sheet, where text reads toward column A: the text of the nearest cell right
 * of the block (in columns) when it runs into the block over empty cells, as carriedText is for a
 * left-to-right one. The box is the source's in unmirrored grid space, cut to the empty run.
 */
function carriedTowardA(workbook: Workbook, cells: Map<number, Cell>, source: Cell | undefined, band: [number, number], g: { x0: (col: number) => number; y0: number; y1: number; xs: Map<number, number> }): { shown: CellShown; style: CellStyle; box: TextBox } | undefined {
  const style = source && workbook.styles[source.style];
  if (!source || !style || style.wrap || cells.get(band[1])?.value) return undefined;
  const shown = cellShown(source, style, workbook);
  if (!shown || shown.numeric || (shown.horizontal !== 'left' && shown.horizontal !== 'center')) return undefined;
  let from = band[1];
  while (from > band[0] && !cells.get(from - 1)?.value) from--;
  const [x0, x1] = [g.x0(source.col), g.x0(source.col + 1)];
  return { shown, style, box: { x: x0, y: g.y0, width: x1 - x0, height: g.y1 - g.y0, clip: [g.xs.get(from)!, g.xs.get(band[1] + 1)!] } };
}

/** The style a cell the row does not write takes: its row's when the row is formatted, else its column's. */
export function unwrittenStyle(sheet: Sheet, row: number, col: number): number | undefined {
  const own = sheet.rowStyles?.get(row);
  return own !== undefined ? own : sheet.colStyles?.get(col);
}

/** The fills and borders of a row's unwritten cells in the block, from their row's or column's style. */
function unwrittenLooks(workbook: Workbook, sheet: Sheet, r: number, cells: Map<number, Cell>, g: { colBand: [number, number]; colX: (c: number) => number; y0: number; y1: number; at: PagePlacement; skip: (key: string) => boolean }, fills: FilledBox[], borders: FilledBox[]): void {
  if (!sheet.colStyles?.size && sheet.rowStyles?.get(r) === undefined) return;
  const { at } = g;
  for (let c = g.colBand[0]; c <= g.colBand[1]; c++) {
    if (cells.has(c) || !at.colWidths[c - at.range.left] || g.skip(`${r}:${c}`)) continue;
    const id = unwrittenStyle(sheet, r, c);
    const style = id ? workbook.styles[id] : undefined;
    if (!style || (!style.fill && !style.borders)) continue;
    const [x0, x1] = [at.x + g.colX(c), at.x + g.colX(c + 1)];
    if (style.fill) fills.push({ kind: 'fill', x0, y0: at.y + g.y0, x1, y1: at.y + g.y1, color: style.fill });
    borderBoxes(style, x0, at.y + g.y0, x1, at.y + g.y1, at.zoom, borders);
  }
}

/** The display list of one block of a page: fills, gridlines, borders, then the cells' text. */
export function sheetPageItems(workbook: Workbook, sheet: Sheet, page: GridPage, at: PagePlacement, ctx: LineContext, options: DrawOptions = {}): DisplayItem[] {
  const { range, zoom } = at;
  const { mirror } = options;
  const rowBand: [number, number] = [range.top + page.rows[0], range.top + page.rows[1]];
  const colBand: [number, number] = [range.left + page.cols[0], range.left + page.cols[1]];
  const xs = edges(at.colWidths, page.cols, zoom);
  const ys = edges(at.rowHeights, page.rows, zoom);
  const colX = (c: number) => xs.get(Math.min(Math.max(c - range.left, page.cols[0]), page.cols[1] + 1))!;
  const rowY = (r: number) => ys.get(Math.min(Math.max(r - range.top, page.rows[0]), page.rows[1] + 1))!;
  const sheetXs = new Map([...xs].map(([i, x]) => [i + range.left, x]));
  // A merged range's whole extent, past the block's edges: its text is laid out over all of it and cut to the block.
  const spanX = unclampedEdges(at.colWidths, page.cols[0], range.left, zoom);
  const spanY = unclampedEdges(at.rowHeights, page.rows[0], range.top, zoom);
  const { byCorner, covered } = mergesWithin(sheet, rowBand, colBand);
  // Conditional formatting: each cell's look, counted once per sheet (draw-conditional.ts lays it over the style).
  const looks = sheet.conditional?.length ? sheetLooks(workbook, sheet) : undefined;
  const keyed = covered.size > 0 || byCorner.size > 0 || !!looks?.size;
  const fills: FilledBox[] = [];
  const borders: FilledBox[] = [];
  const lines: PlacedLine[] = [];
  const turned: DisplayItem[] = [];
  for (let r = rowBand[0]; r <= rowBand[1]; r++) {
    if (!at.rowHeights[r - range.top]) continue;
    const { cells, left } = rowCells(sheet, r, colBand);
    for (const cell of cells.values()) {
      if (cell.col < colBand[0] || cell.col > colBand[1] || !at.colWidths[cell.col - range.left]) continue;
      // A key only when merges or conditional looks can answer it: most sheets have neither, and a string per cell is garbage.
      const key = keyed ? `${r}:${cell.col}` : '';
      if (keyed && covered.has(key)) continue;
      const own = workbook.styles[cell.style];
      if (!own) continue;
      const look = keyed ? looks?.get(key) : undefined;
      const style = look ? lookStyle(own, look) : own;
      const merge = keyed ? byCorner.get(key) : undefined;
      const [x0, x1] = [colX(cell.col), colX((merge?.right ?? cell.col) + 1)];
      const [y0, y1] = [rowY(r), rowY((merge?.bottom ?? r) + 1)];
      if (style.fill) fills.push({ kind: 'fill', x0: at.x + x0, y0: at.y + y0, x1: at.x + x1, y1: at.y + y1, color: style.fill });
      if (look) fills.push(...lookBoxes(look, at.x + x0, at.y + y0, at.x + x1, at.y + y1, zoom));
      if (!merge) borderBoxes(style, at.x + x0, at.y + y0, at.x + x1, at.y + y1, zoom, borders);
      const shown = look?.hideValue ? undefined : cellShown(cell, style, workbook);
      if (!shown) continue;
      const runs = !merge && !style.wrap && !shown.numeric && shown.horizontal !== 'justify' && shown.horizontal !== 'fill';
      const spillAs = mirror === undefined ? shown : { ...shown, horizontal: SPILL_MIRRORED[shown.horizontal] ?? shown.horizontal };
      const clip = runs ? spill(spillAs, cell.col, cells, covered, r, colBand, sheetXs, options.spillTo) : ([x0, x1] as [number, number]);
      const [tx0, tx1, ty0, ty1] = merge ? [spanX(cell.col), spanX(merge.right + 1), spanY(r), spanY(merge.bottom + 1)] : [x0, x1, y0, y1];
      const ltrBox = { x: tx0, y: ty0, width: tx1 - tx0, height: ty1 - ty0, clip };
      const textBox = mirror === undefined ? ltrBox : mirroredBox(ltrBox, mirror - 2 * at.x);
      const angle = turnOf(style);
      if (angle) turned.push(...turnedCellItems(shown, style, textBox, angle, ctx, zoom, at));
      else lines.push(...placeCellText(shown, style, textBox, ctx, zoom));
    }
    unwrittenLooks(workbook, sheet, r, cells, { colBand, colX, y0: rowY(r), y1: rowY(r + 1), at, skip: (key) => covered.has(key) || byCorner.has(key) }, fills, borders);
    if (mirror === undefined && colBand[0] > range.left && !(covered.size && covered.has(`${r}:${colBand[0]}`))) {
      const carried = carriedText(workbook, cells, left, colBand, { x0: spanX, y0: rowY(r), y1: rowY(r + 1), xs: sheetXs, spillTo: options.spillTo });
      if (carried) lines.push(...placeCellText(carried.shown, carried.style, carried.box, ctx, zoom));
    }
    if (mirror !== undefined && colBand[1] < range.right && !(covered.size && covered.has(`${r}:${colBand[1]}`))) {
      const source = valuedRightOf(sheet, r, colBand[1]);
      const carried = source && source.col <= range.right ? carriedTowardA(workbook, cells, source, colBand, { x0: spanX, y0: rowY(r), y1: rowY(r + 1), xs: sheetXs }) : undefined;
      if (carried) lines.push(...placeCellText(carried.shown, carried.style, mirroredBox(carried.box, mirror - 2 * at.x), ctx, zoom));
    }
  }
  mergedBorders(workbook, sheet, byCorner, { colX, rowY, at, zoom }, borders);
  const grid = options.gridLines ? gridLines(xs, ys, at, page) : [];
  const under: DisplayItem[] = [...grid, ...fills, ...borders];
  return [...(mirror === undefined ? under : mirrorX(under, mirror)), ...displayLines(lines, at.x, at.y, () => {}), ...turned];
}

/** Each cell of a merged range draws its own borders (Excel keeps them per cell), over the range's edges only. */
function mergedBorders(workbook: Workbook, sheet: Sheet, byCorner: Map<string, Range>, g: { colX: (c: number) => number; rowY: (r: number) => number; at: PagePlacement; zoom: number }, out: FilledBox[]): void {
  for (const m of byCorner.values()) {
    for (let r = m.top; r <= m.bottom; r++) {
      const { cells } = rowCells(sheet, r, [m.left, m.right]);
      for (let c = m.left; c <= m.right; c++) {
        const style = workbook.styles[cells.get(c)?.style ?? -1];
        if (!style) continue;
        const outer: CellStyle = { ...style, borders: { ...(c === m.left ? { left: style.borders.left } : {}), ...(c === m.right ? { right: style.borders.right } : {}), ...(r === m.top ? { top: style.borders.top } : {}), ...(r === m.bottom ? { bottom: style.borders.bottom } : {}) } };
        borderBoxes(outer, g.at.x + g.colX(c), g.at.y + g.rowY(r), g.at.x + g.colX(c + 1), g.at.y + g.rowY(r + 1), g.zoom, out);
      }
    }
  }
}

/** The block's gridlines: every column and row edge across the block (drawn under the fills, which hide them as Excel's do). */
function gridLines(xs: Map<number, number>, ys: Map<number, number>, at: PagePlacement, page: GridPage): ShapeItem[] {
  const [left, right] = [xs.get(page.cols[0])!, xs.get(page.cols[1] + 1)!];
  const [top, bottom] = [ys.get(page.rows[0])!, ys.get(page.rows[1] + 1)!];
  const out: ShapeItem[] = [];
  const stroke = { color: GRIDLINE.color, width: GRIDLINE.width };
  for (const x of new Set(xs.values())) out.push({ kind: 'shape', points: [[at.x + x, at.y + top], [at.x + x, at.y + bottom]], stroke });
  for (const y of new Set(ys.values())) out.push({ kind: 'shape', points: [[at.x + left, at.y + y], [at.x + right, at.y + y]], stroke });
  return out;
}
