/**
 * The pictures, charts and shapes of a sheet on its printed pages, as display items: on each page whose
 * band of rows and columns its box overlaps, placed by its cell anchors at the page's zoom and cut
 * to the page's cells. A chart is drawn by the Office parts' chart layout (office/chart/draw.ts): its
 * bars, lines and areas as vector shapes, its title, labels and legend as text laid out by
 * layout's line breaker, so they stay words. A chart sheet's chart is its page's only content.
 */
import type { DisplayItem } from '../../contracts/display';
import type { LineContext } from '../../layout/blocks/paragraph-lines';
import type { CellAnchor, SheetDrawing } from './model';
import { cellsRoom, type PageBlock, type SheetPrint } from './sheet-pages';
import { framedShapeItems } from '../office-layout/draw-shapes';
import { chartItems } from '../office-layout/draw-chart';

/** Edges of the print range's columns and rows (points at 100% from its corner): edge i is where index i starts. */
const prefixes = new WeakMap<number[], number[]>();
function edgesOf(sizes: number[]): number[] {
  let edges = prefixes.get(sizes);
  if (!edges) {
    edges = [0];
    for (const size of sizes) edges.push(edges.at(-1)! + size);
    prefixes.set(sizes, edges);
  }
  return edges;
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Where a drawing lies on the page of `block`, and the block's cells it is cut to: on every page
 * its box overlaps, as LibreOffice prints a picture that runs over a page break (undefined on the
 * others, and for one anchored above or left of the print range).
 */
function placed(d: SheetDrawing, plan: SheetPrint, block: PageBlock): { box: Rect; cells: Rect } | undefined {
  const { range } = plan;
  if (d.from.col < range.left || d.from.row < range.top) return undefined;
  const { cols, rows } = block.page;
  const xs = edgesOf(plan.colWidths);
  const ys = edgesOf(plan.rowHeights);
  const at = (a: CellAnchor) => ({ x: (xs[Math.min(a.col - range.left, xs.length - 1)] ?? 0) + a.colOffset, y: (ys[Math.min(a.row - range.top, ys.length - 1)] ?? 0) + a.rowOffset });
  const from = at(d.from);
  const to = d.to && d.to.col >= range.left && d.to.row >= range.top ? at(d.to) : { x: from.x + (d.size?.width ?? 0), y: from.y + (d.size?.height ?? 0) };
  const [left, right, top, bottom] = [xs[cols[0]]!, xs[cols[1] + 1]!, ys[rows[0]]!, ys[rows[1] + 1]!];
  // The box starts on this page or runs into it (one ending exactly on the edge does not); an empty box belongs where it starts.
  const overlaps = (a0: number, a1: number, b0: number, b1: number) => a0 < b1 && (a1 > b0 || (a1 <= a0 && a0 >= b0));
  if (!overlaps(from.x, to.x, left, right) || !overlaps(from.y, to.y, top, bottom)) return undefined;
  const zoom = block.at.zoom;
  return {
    box: { x: block.at.x + (from.x - left) * zoom, y: block.at.y + (from.y - top) * zoom, width: Math.max(0, to.x - from.x) * zoom, height: Math.max(0, to.y - from.y) * zoom },
    cells: { x: block.at.x, y: block.at.y, width: (right - left) * zoom, height: (bottom - top) * zoom },
  };
}

const mirroredRect = (r: Rect, axis: number): Rect => ({ ...r, x: axis - r.x - r.width });

function itemsOf(d: SheetDrawing, box: Rect, ctx: LineContext, zoom: number): DisplayItem[] {
  // A line is a shape with no height (or no width).
  if (d.content.kind === 'shapes') return box.width + box.height >= 1 ? framedShapeItems(d.content.frame, d.content.shapes, box, zoom, ctx) : [];
  if (box.width < 1 || box.height < 1) return [];
  if (d.content.kind === 'chart') return chartItems(d.content.chart, box, ctx);
  return [{ kind: 'picture', data: d.content.data, contentType: d.content.contentType, at: [box.width, 0, 0, box.height, box.x, box.y] }];
}

/** A chart sheet's chart at the top-left margin, at its own size or shrunk to the room, as LibreOffice prints one (the room when it has no size). */
function chartSheetBox(d: SheetDrawing, plan: SheetPrint): Rect {
  const room = cellsRoom(plan, 100);
  const x = plan.sheet.print.margins.left;
  const y = plan.bands.top + plan.bands.header;
  const size = d.size && d.size.width > 0 && d.size.height > 0 ? d.size : room;
  const scale = Math.min(1, room.width / size.width, room.height / size.height);
  return { x, y, width: size.width * scale, height: size.height * scale };
}

/**
 * The drawings a page's body block shows; on a right-to-left sheet (`mirror`: the page's axis, as
 * draw-page.ts takes it) each moved to its mirrored box, drawn as it is, and cut to the mirrored cells.
 */
export function drawingItems(plan: SheetPrint, block: PageBlock, ctx: LineContext, mirror?: number): DisplayItem[] {
  const out: DisplayItem[] = [];
  for (const d of plan.sheet.drawings ?? []) {
    if (plan.sheet.chartSheet) {
      out.push(...itemsOf(d, chartSheetBox(d, plan), ctx, 1));
      continue;
    }
    const where = placed(d, plan, block);
    if (!where) continue;
    const { box, cells } = mirror === undefined ? where : { box: mirroredRect(where.box, mirror), cells: mirroredRect(where.cells, mirror) };
    const items = itemsOf(d, box, ctx, block.at.zoom);
    const within = box.x >= cells.x - 0.01 && box.y >= cells.y - 0.01 && box.x + box.width <= cells.x + cells.width + 0.01 && box.y + box.height <= cells.y + cells.height + 0.01;
    if (within || !items.length) out.push(...items);
    else out.push({ kind: 'clip', rect: [cells.x, cells.y, cells.x + cells.width, cells.y + cells.height], items });
  }
  return out;
}
