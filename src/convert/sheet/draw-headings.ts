/**
 * Printed headings, when a sheet asks for them (printOptions@headings, XLS PRINTHEADERS, ODS
 * print="headers"): the column letters in a strip above a page's cells and the row numbers in a
 * strip left of them, as LibreOffice prints them (sc/source/ui/view/printfun.cxx PrintColHdr and
 * PrintRowHdr): each heading a hairline box with its name centred in it, in the default cell
 * font of LibreOffice (Liberation Sans 10, whatever the workbook's font), and a hairline frame
 * round the headings and cells together. The strips follow the page's blocks, so repeated title
 * rows and columns are named where they print.
 */
import type { DisplayItem, ShapeItem } from '../../contracts/display';
import type { LineContext } from '../../layout/blocks/paragraph-lines';
import { displayLines } from '../../layout/display/draw-lines';
import type { PlacedLine } from '../../layout/blocks/paragraph-stack';
import { alphabeticNumeral } from '../../lib/numerals';
import { placeCellText } from './cell-text';
import type { CellStyle } from './model';
import type { PageBlock } from './sheet-pages';

const HAIRLINE = { color: '000000', width: 0.1 };
const HEADING_STYLE: CellStyle = { format: 'General', font: { name: 'Liberation Sans', size: 10 }, borders: {}, horizontal: 'center', vertical: 'center' };

/** A column's letters as Excel names it (0-based): A … Z, AA … XFD. */
export const columnName = (col: number): string => alphabeticNumeral(col + 1);

const box = (x0: number, y0: number, x1: number, y1: number): ShapeItem => ({ kind: 'shape', points: [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]], stroke: HAIRLINE });

interface Strip {
  /** Where the heading boxes start across (columns) or down (rows), and their sizes, sheet index by index. */
  from: number;
  sizes: number[];
  first: number;
  band: [number, number];
}

/** Each visible index of a block's band as a heading: its box along the strip and its name. */
function headings(strip: Strip, zoom: number, name: (index: number) => string): { start: number; end: number; name: string }[] {
  const out: { start: number; end: number; name: string }[] = [];
  let pos = strip.from;
  for (let i = strip.band[0]; i <= strip.band[1]; i++) {
    const size = (strip.sizes[i] ?? 0) * zoom;
    if (size > 0) out.push({ start: pos, end: pos + size, name: name(strip.first + i) });
    pos += size;
  }
  return out;
}

/** The headings of a page whose blocks are `blocks` (sheet-pages.ts sheetPageBlocks), headings room `room` (points at 100%). */
export function headingItems(blocks: PageBlock[], room: { width: number; height: number }, ctx: LineContext): DisplayItem[] {
  if (!blocks.length) return [];
  const zoom = blocks[0]!.at.zoom;
  const [w, h] = [room.width * zoom, room.height * zoom];
  const top = Math.min(...blocks.map((b) => b.at.y));
  const left = Math.min(...blocks.map((b) => b.at.x));
  const frames: ShapeItem[] = [];
  const lines: PlacedLine[] = [];
  const label = (text: string, x: number, y: number, width: number, height: number) =>
    lines.push(...placeCellText({ text, horizontal: 'center', numeric: false }, HEADING_STYLE, { x, y, width, height, clip: [x, x + width] }, ctx, zoom));
  let right = left;
  let bottom = top;
  for (const { at, page } of blocks) {
    const cols = headings({ from: at.x, sizes: at.colWidths, first: at.range.left, band: page.cols }, zoom, columnName);
    const rows = headings({ from: at.y, sizes: at.rowHeights, first: at.range.top, band: page.rows }, zoom, (r) => String(r + 1));
    right = Math.max(right, cols.at(-1)?.end ?? at.x);
    bottom = Math.max(bottom, rows.at(-1)?.end ?? at.y);
    if (at.y === top) {
      for (const c of cols) {
        frames.push(box(c.start, top - h, c.end, top));
        label(c.name, c.start, top - h, c.end - c.start, h);
      }
    }
    if (at.x === left) {
      for (const r of rows) {
        frames.push(box(left - w, r.start, left, r.end));
        label(r.name, left - w, r.start, w, r.end - r.start);
      }
    }
  }
  frames.push(box(left - w, top - h, right, bottom));
  return [...frames, ...displayLines(lines, 0, 0, () => {})];
}
