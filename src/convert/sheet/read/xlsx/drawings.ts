/**
 * A worksheet's drawing part (xdr): its pictures and charts with their anchors, as the sheet model
 * keeps them. Two-cell anchors keep both corners, one-cell and absolute anchors their size; charts
 * are read by the Office parts' chart reader (office/chart/read.ts) in the workbook theme's colours.
 * Shapes and text boxes are not drawn yet.
 */
import { attr, child, descendant, type XmlElement } from '../../../../codecs/xml';
import type { Package } from '../../../office/package';
import { partPicture } from '../../../office/drawingml/picture';
import { readChart } from '../../../office/chart/read';
import type { CellAnchor, SheetDrawing } from '../../model';
import { MAX_COLS, MAX_ROWS } from './cells';

/** Drawings a sheet may hold here. */
export const DRAWINGS_MAX = 1_000;

const EMU_PER_POINT = 12_700;
const emu = (v: string | undefined) => Math.max(0, Math.min(Number(v ?? 0) || 0, 2e10)) / EMU_PER_POINT;

function corner(el: XmlElement | undefined): CellAnchor | undefined {
  if (!el) return undefined;
  const value = (name: string) => child(el, name)?.children.map((n) => (typeof n === 'string' ? n : '')).join('') ?? '';
  const col = Number(value('col'));
  const row = Number(value('row'));
  if (!Number.isInteger(col) || !Number.isInteger(row) || col < 0 || row < 0 || col >= MAX_COLS || row >= MAX_ROWS) return undefined;
  return { col, row, colOffset: emu(value('colOff')), rowOffset: emu(value('rowOff')) };
}

const size = (ext: XmlElement | undefined) => (ext ? { width: emu(attr(ext, 'cx')), height: emu(attr(ext, 'cy')) } : undefined);

/** What an anchor shows: its picture, or the chart its graphic frame names. */
function content(pkg: Package, part: string, anchor: XmlElement, palette: string[] | undefined): SheetDrawing['content'] | undefined {
  const pic = child(anchor, 'pic');
  if (pic) {
    const picture = partPicture(pkg, part, attr(descendant(child(pic, 'blipFill'), 'blip'), 'r:embed'));
    return picture && { kind: 'picture', data: picture.data, contentType: picture.contentType };
  }
  const chartRef = descendant(child(anchor, 'graphicFrame'), 'chart');
  const rel = chartRef && pkg.rels(part).get(attr(chartRef, 'r:id') ?? '');
  if (!rel || rel.external) return undefined;
  const xml = pkg.read(rel.target);
  const chart = xml && readChart(xml, palette);
  return chart ? { kind: 'chart', chart } : undefined;
}

/** The drawings of the drawing part `part`. */
export function readDrawingPart(pkg: Package, part: string, palette?: string[]): SheetDrawing[] {
  // Anchors are sorted as they are parsed: shapes (not drawn) and those past the first DRAWINGS_MAX are not kept in the tree (a part of 100,000 held 300 MB).
  let kept = 0;
  const drawn = (el: XmlElement) => !el.name.endsWith('Anchor') || !!child(el, 'pic') || !!child(el, 'graphicFrame');
  const root = pkg.xml(part, { depth: 2, element: (el) => drawn(el) && ++kept <= DRAWINGS_MAX });
  if (!root) return [];
  const out: SheetDrawing[] = [];
  for (const anchor of root.children) {
    if (typeof anchor === 'string' || out.length >= DRAWINGS_MAX) continue;
    const shown = content(pkg, part, anchor, palette);
    if (!shown) continue;
    if (anchor.name === 'twoCellAnchor') {
      const [from, to] = [corner(child(anchor, 'from')), corner(child(anchor, 'to'))];
      if (from && to) out.push({ from, to, content: shown });
    } else if (anchor.name === 'oneCellAnchor') {
      const from = corner(child(anchor, 'from'));
      const ext = size(child(anchor, 'ext'));
      if (from && ext) out.push({ from, size: ext, content: shown });
    } else if (anchor.name === 'absoluteAnchor') {
      const pos = child(anchor, 'pos');
      const ext = size(child(anchor, 'ext'));
      // Placed from A1's corner, which is where the sheet's print starts.
      if (ext) out.push({ from: { col: 0, row: 0, colOffset: emu(attr(pos, 'x')), rowOffset: emu(attr(pos, 'y')) }, size: ext, content: shown });
    }
  }
  return out;
}

/** The drawings a worksheet or chart sheet part names with its <drawing r:id>. */
export function sheetDrawings(pkg: Package, sheetPart: string, drawing: XmlElement | undefined, palette?: string[]): SheetDrawing[] {
  const rel = drawing && pkg.rels(sheetPart).get(attr(drawing, 'r:id') ?? '');
  if (!rel || rel.external) return [];
  return readDrawingPart(pkg, rel.target, palette);
}
