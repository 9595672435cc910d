/**
 * One printed page of a sheet as layout's display list: each cell's fill, its borders, and its
 * value as formatted (number-format.ts), laid out by layout's own line breaker as a paragraph in
 * the cell's font (fallback faces, bidi and wrapping come with it) and aligned as Excel aligns it:
 * text to the left, numbers to the right, booleans and errors centred unless the cell says
 * otherwise; at the foot of the cell unless it says otherwise. A number too wide for its cell
 * prints as ####. Not yet: text spilling into empty neighbours is not clipped by full ones,
 * merged cells print as their first cell, rotation and shrink to fit.
 */
import type { DisplayItem, FilledBox } from '../../contracts/display';
import { substituteFamily } from '../../fonts/catalog';
import type { ParagraphBlock } from '../../layout/blocks/model';
import { paragraphLines, type LineContext } from '../../layout/blocks/paragraph-lines';
import type { PlacedLine } from '../../layout/blocks/paragraph-stack';
import { displayLines } from '../../layout/display/draw-lines';
import type { GridPage } from '../../layout/grid/page-bands';
import type { BorderSide, Cell, CellStyle, Range, Sheet, Workbook } from './model';
import { formatValue } from './number-format';

/** Room between a cell's edges and its text, points at 100% (Excel's 2 pixels). */
const PADDING = 1.5;

/** A border's drawn width in points at 100% (thin is a pixel). */
const BORDER_WIDTH: Record<BorderSide['style'], number> = {
  hair: 0.5, thin: 0.75, dotted: 0.75, dashed: 0.75, dashDot: 0.75, dashDotDot: 0.75, double: 2.25,
  medium: 1.5, mediumDashed: 1.5, mediumDashDot: 1.5, mediumDashDotDot: 1.5, slantDashDot: 1.5, thick: 2.25,
};

/** Where the page puts the grid: its top-left on the paper, the zoom, and the sizes of the range's columns and rows. */
export interface PagePlacement {
  x: number;
  y: number;
  zoom: number;
  range: Range;
  colWidths: number[];
  rowHeights: number[];
}

function cellText(cell: Cell, style: CellStyle, width: number, workbook: Workbook, ctx: LineContext, zoom: number): ParagraphBlock | undefined {
  if (!cell.value) return undefined;
  const formatted = formatValue(cell.value, style.format, workbook.date1904);
  if (!formatted.text) return undefined;
  const font = style.font;
  const family = substituteFamily(font.name);
  const size = font.size * zoom;
  const face = { family, bold: !!font.bold, italic: !!font.italic, size, kern: false };
  const natural = cell.value.kind === 'number' ? 'right' : cell.value.kind === 'text' ? 'left' : 'center';
  const h = style.horizontal && style.horizontal !== 'general' ? style.horizontal : natural;
  const align = h === 'right' ? 'right' : h === 'center' || h === 'centerContinuous' ? 'center' : h === 'justify' || h === 'distributed' ? 'justify' : 'left';
  let text = formatted.text;
  // A number that does not fit its cell prints as #### across it, as Excel prints it.
  if (cell.value.kind === 'number' && !style.wrap && ctx.fonts.measure(text, family, face.bold, face.italic, size) > width) {
    text = '#'.repeat(Math.max(1, Math.floor(width / Math.max(1, ctx.fonts.measure('#', family, face.bold, face.italic, size)))));
  }
  const color = formatted.color ?? font.color;
  const look = { rise: 0, ...(color ? { color } : {}), ...(font.underline ? { underline: true } : {}), ...(font.strike ? { strike: true } : {}) };
  const indent = (style.indent ?? 0) * 3 * font.size * zoom * 0.5;
  return { kind: 'paragraph', props: { align, markFace: { family, size }, ...(indent ? (align === 'right' ? { indentRight: indent } : { indentLeft: indent }) : {}) }, items: [{ kind: 'text', text, style: { face, look, sizes: { family, size } } }] };
}

function borderBoxes(style: CellStyle, x0: number, y0: number, x1: number, y1: number, zoom: number): FilledBox[] {
  const out: FilledBox[] = [];
  const { left, right, top, bottom } = style.borders;
  const w = (b: BorderSide) => BORDER_WIDTH[b.style] * zoom;
  const box = (b: BorderSide, bx0: number, by0: number, bx1: number, by1: number): FilledBox => ({ kind: 'fill', x0: bx0, y0: by0, x1: bx1, y1: by1, ...(b.color ? { color: b.color } : {}) });
  if (top) out.push(box(top, x0, y0 - w(top) / 2, x1, y0 + w(top) / 2));
  if (bottom) out.push(box(bottom, x0, y1 - w(bottom) / 2, x1, y1 + w(bottom) / 2));
  if (left) out.push(box(left, x0 - w(left) / 2, y0, x0 + w(left) / 2, y1));
  if (right) out.push(box(right, x1 - w(right) / 2, y0, x1 + w(right) / 2, y1));
  return out;
}

/**
 * A cell's text placed in its box (page coordinates from the grid's top-left): wrapped to the
 * room, or on one line that may run past the cell, aligned in the room, and set at the top,
 * centre or foot of the cell.
 */
function placeText(block: ParagraphBlock, wrap: boolean, vertical: NonNullable<CellStyle['vertical']>, box: { x: number; y: number; room: number; height: number }, ctx: LineContext): PlacedLine[] {
  const align = block.props.align;
  // One line whatever its length: laid out flush left on a wide line, then moved into place.
  const laid = wrap ? paragraphLines(block, box.room, ctx) : paragraphLines({ ...block, props: { ...block.props, align: 'left' } }, 100_000, ctx);
  const total = laid.reduce((sum, l) => sum + l.height, 0);
  let top = vertical === 'top' ? box.y : vertical === 'center' ? box.y + (box.height - total) / 2 : box.y + box.height - total;
  return laid.map((line) => {
    const width = Math.max(0, ...line.texts.map((t) => t.x + t.width));
    const shift = wrap ? 0 : align === 'right' ? box.room - width : align === 'center' ? (box.room - width) / 2 : 0;
    const placed = { line, y: top, x: box.x + shift };
    top += line.height;
    return placed;
  });
}

/** The display list of one page of a sheet: fills first, then borders, then the cells' text. */
export function sheetPageItems(workbook: Workbook, sheet: Sheet, page: GridPage, at: PagePlacement, ctx: LineContext): DisplayItem[] {
  const { range, zoom } = at;
  const fills: FilledBox[] = [];
  const borders: FilledBox[] = [];
  const lines: PlacedLine[] = [];
  let y = at.y;
  for (let r = page.rows[0]; r <= page.rows[1]; r++) {
    const height = at.rowHeights[r]! * zoom;
    if (!height) continue;
    const cells = new Map((sheet.rows.get(range.top + r) ?? []).map((c) => [c.col, c]));
    let x = at.x;
    for (let c = page.cols[0]; c <= page.cols[1]; c++) {
      const width = at.colWidths[c]! * zoom;
      const cell = width ? cells.get(range.left + c) : undefined;
      const style = cell ? workbook.styles[cell.style] : undefined;
      if (cell && style) {
        if (style.fill) fills.push({ kind: 'fill', x0: x, y0: y, x1: x + width, y1: y + height, color: style.fill });
        borders.push(...borderBoxes(style, x, y, x + width, y + height, zoom));
        const room = Math.max(1, width - 2 * PADDING * zoom);
        const shown = cellText(cell, style, room, workbook, ctx, zoom);
        if (shown) lines.push(...placeText(shown, !!style.wrap, style.vertical ?? 'bottom', { x: x - at.x + PADDING * zoom, y: y - at.y, room, height }, ctx));
      }
      x += width;
    }
    y += height;
  }
  return [...fills, ...borders, ...displayLines(lines, at.x, at.y, () => {})];
}
