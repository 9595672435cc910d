/**
 * A table's pictures and charts: draw:frame elements anchored in a cell (table:table-cell >
 * draw:frame, svg:x and svg:y the offset into that cell, table:end-cell-address with
 * table:end-x/-y the corner they run to) or to the page (table:table > table:shapes, svg:x and
 * svg:y from the sheet's corner, placed on the cells they cover). A frame shows a picture
 * (draw:image in the package's Pictures/) or an embedded object (draw:object xlink:href="./Object
 * 1"): a chart there is read from the object's content.xml (chart.ts), anything else prints its
 * replacement image when that is a PNG or JPEG.
 */
import { attr, child, children, parseXml, type XmlElement } from '../../../../codecs/xml';
import { LimitExceeded } from '../../../../lib/limits';
import { imageContentType } from '../../../office/package';
import { packagePath, type PartReader } from '../../../office/odf/package';
import type { CellAnchor, SheetDrawing } from '../../model';
import { cellRef } from '../xlsx/cells';
import { DRAWINGS_MAX } from '../xlsx/drawings';
import { readOdfChart } from '../../../office/odf/chart';
import { lengthPoints } from './styles';
import type { PlacedShape } from '../../../office/odf/shapes';

export { DRAWINGS_MAX };

/** A frame as the table's reader found it: in the cell at row, col, or (without them) in table:shapes. */
export interface FrameAt {
  el: XmlElement;
  row?: number;
  col?: number;
}

export type { PartReader };

/** Where a length from the sheet's corner falls: the column (or row) and the offset into it. */
export type Locate = (points: number) => { index: number; offset: number };

const PICTURE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif']);

const length = (v: string | undefined) => {
  const n = lengthPoints(v);
  return n !== undefined && Number.isFinite(n) ? Math.max(0, Math.min(n, 1e6)) : 0;
};

function picture(image: XmlElement, read: PartReader): SheetDrawing['content'] | undefined {
  const path = packagePath(attr(image, 'href'));
  const data = path ? read(path) : undefined;
  if (!data || !path) return undefined;
  const contentType = imageContentType(path, data);
  return PICTURE_TYPES.has(contentType) ? { kind: 'picture', data, contentType } : undefined;
}

function chartOf(object: XmlElement, read: PartReader): SheetDrawing['content'] | undefined {
  const path = packagePath(attr(object, 'href'));
  const xml = path ? read(`${path}/content.xml`) : undefined;
  if (!xml) return undefined;
  try {
    const chart = readOdfChart(parseXml(xml));
    return chart ? { kind: 'chart', chart } : undefined;
  } catch (e) {
    if (e instanceof LimitExceeded) throw e;
    return undefined; // an unreadable object prints its replacement image, if any
  }
}

/** What a frame shows: its object's chart, else its first image a print can show. */
function contentOf(frame: XmlElement, read: PartReader): SheetDrawing['content'] | undefined {
  const object = child(frame, 'object');
  const chart = object ? chartOf(object, read) : undefined;
  if (chart) return chart;
  for (const image of children(frame, 'image')) {
    const shown = picture(image, read);
    if (shown) return shown;
  }
  return undefined;
}

/** The cell part of "Sheet2.P19" or "'My sheet'.$D$43". */
function endCell(address: string | undefined): { row: number; col: number } | undefined {
  if (!address) return undefined;
  let dot = -1;
  let quoted = false;
  for (let i = 0; i < address.length; i++) {
    if (address[i] === "'") quoted = !quoted;
    else if (address[i] === '.' && !quoted) dot = i;
  }
  return cellRef(address.slice(dot + 1));
}

/** Reads a shape element (or a frame's text box) as shapes placed from its anchor cell's corner (shapes.ts). */
export type ShapeReader = (el: XmlElement) => PlacedShape[];

/** Shapes as one drawing: their frame the box round them all, from the cell's corner. */
function shapesDrawing(shapes: PlacedShape[]): { content: SheetDrawing['content']; x: number; y: number; width: number; height: number } | undefined {
  if (!shapes.length) return undefined;
  const x = Math.min(...shapes.map((s) => s.x)), y = Math.min(...shapes.map((s) => s.y));
  const width = Math.max(1, Math.max(...shapes.map((s) => s.x + s.width)) - x), height = Math.max(1, Math.max(...shapes.map((s) => s.y + s.height)) - y);
  const framed = shapes.map((s) => ({ box: { x: s.x - x, y: s.y - y, width: s.width, height: s.height }, shape: s.shape }));
  return { content: { kind: 'shapes', frame: { width, height }, shapes: framed }, x, y, width, height };
}

/** What an element shows and its box from the cell's corner: a frame's picture or chart, or shapes. */
function shownBy(el: XmlElement, read: PartReader, shapesOf: ShapeReader | undefined): { content: SheetDrawing['content']; x: number; y: number; width: number; height: number; shapes?: true } | undefined {
  const content = el.name === 'frame' ? contentOf(el, read) : undefined;
  if (content) return { content, x: length(attr(el, 'x')), y: length(attr(el, 'y')), width: length(attr(el, 'width')), height: length(attr(el, 'height')) };
  const drawn = shapesOf && (el.name !== 'frame' || child(el, 'text-box')) ? shapesDrawing(shapesOf(el)) : undefined;
  return drawn && { ...drawn, shapes: true };
}

/** The frames' and shapes' drawings, in the order they were read (LibreOffice writes them by z-index within each cell). */
export function readDrawings(frames: FrameAt[], read: PartReader, locate: { col: Locate; row: Locate }, shapesOf?: ShapeReader): SheetDrawing[] {
  const out: SheetDrawing[] = [];
  for (const { el, row, col } of frames) {
    if (out.length >= DRAWINGS_MAX) break;
    const shown = shownBy(el, read, shapesOf);
    if (!shown) continue;
    const { content, x, y, width, height } = shown;
    if (row === undefined || col === undefined) {
      // Anchored to the page: placed on the cells under its corners, as LibreOffice prints it.
      const at = (px: number, py: number): CellAnchor => {
        const c = locate.col(px);
        const r = locate.row(py);
        return { col: c.index, colOffset: c.offset, row: r.index, rowOffset: r.offset };
      };
      out.push({ from: at(x, y), to: at(x + width, y + height), content });
      continue;
    }
    const from: CellAnchor = { col, colOffset: x, row, rowOffset: y };
    const end = endCell(attr(el, 'end-cell-address'));
    // Shapes keep their own sizes: their end cell is the box round them turned, and their offsets may run past their cell.
    if (end && end.row >= row && end.col >= col && !shown.shapes) {
      out.push({ from, to: { col: end.col, colOffset: length(attr(el, 'end-x')), row: end.row, rowOffset: length(attr(el, 'end-y')) }, content });
    } else out.push({ from, size: { width, height }, content });
  }
  return out;
}
