/**
 * A worksheet's drawing part (xdr): its pictures, charts, shapes and text boxes with their anchors,
 * as the sheet model keeps them. Two-cell anchors keep both corners, one-cell and absolute anchors
 * their size; charts are read by the Office parts' chart reader (office/chart/read.ts) in the
 * workbook theme's colours, shapes and groups of them by their DrawingML shape-tree reader
 * (office/drawingml/shape-tree.ts), their text 11 pt in the theme's minor font unless it says.
 */
import { attr, child, descendant, XmlError, type XmlElement } from '../../../../codecs/xml';
import type { Package } from '../../../office/package';
import { partPicture } from '../../../office/drawingml/picture';
import { readChart } from '../../../office/chart/read';
import { framedShapes } from '../../../office/drawingml/shape-tree';
import type { Theme } from '../../../office/theme';
import type { CellAnchor, SheetDrawing } from '../../model';
import { MAX_COLS, MAX_ROWS } from './cells';
import { ownCopy } from '../packed-rows';
import { streamedList } from './sheet-stream';

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

/** What a sheet's drawings are read in: the workbook's theme, and its colours in the order charts take them. */
export interface DrawingStyle {
  theme: Theme;
  palette?: string[];
}

/** Shape text's size where the file does not say (Excel's default for a new shape's text). */
const SHAPE_TEXT_SIZE = 11;
const SHAPES = new Set(['sp', 'cxnSp', 'grpSp']);
const ANCHORS = ['twoCellAnchor', 'oneCellAnchor', 'absoluteAnchor'];
/** Characters of shape text a drawing part prints at most, all shapes together (1,000 shapes of Excel's 32,767 each would be 32 million). */
export const SHAPE_TEXT_MAX = 262_144;

/** What an anchor shows: its picture, the chart its graphic frame names, or its shapes. */
function content(pkg: Package, part: string, anchor: XmlElement, style: DrawingStyle, left: { shapes: number; text: { left: number } }): SheetDrawing['content'] | undefined {
  const shapes = anchor.children.find((c): c is XmlElement => typeof c !== 'string' && SHAPES.has(c.name));
  if (shapes) {
    const framed = framedShapes(shapes, { theme: style.theme, textSize: SHAPE_TEXT_SIZE, picture: (id) => partPicture(pkg, part, id), most: left.shapes, text: left.text });
    return framed && { kind: 'shapes', ...framed };
  }
  const pic = child(anchor, 'pic');
  if (pic) {
    const picture = partPicture(pkg, part, attr(descendant(child(pic, 'blipFill'), 'blip'), 'r:embed'));
    return picture && { kind: 'picture', data: picture.data, contentType: picture.contentType };
  }
  const chartRef = descendant(child(anchor, 'graphicFrame'), 'chart');
  const rel = chartRef && pkg.rels(part).get(attr(chartRef, 'r:id') ?? '');
  if (!rel || rel.external) return undefined;
  const xml = pkg.read(rel.target);
  const chart = xml && readChart(xml, style.palette);
  return chart ? { kind: 'chart', chart } : undefined;
}

/** Cuts the text of `el`'s a:t elements to what `budget` has left, counting it down. */
export function cutText(el: XmlElement, budget: { left: number }): void {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.name !== 't') {
      cutText(c, budget);
      continue;
    }
    c.children = c.children.map((s) => {
      if (typeof s !== 'string') return s;
      const kept = s.length <= budget.left ? s : s.slice(0, Math.max(0, budget.left));
      budget.left -= kept.length;
      return ownCopy(kept);
    });
  }
}

/** The drawings of the drawing part `part`. */
export function readDrawingPart(pkg: Package, part: string, style: DrawingStyle): SheetDrawing[] {
  // Anchors are sorted as they are parsed: those that show nothing we draw (form controls), and those past the first DRAWINGS_MAX, are not kept in the tree (a part of 100,000 held 300 MB).
  let kept = 0;
  const drawn = (el: XmlElement) => !el.name.endsWith('Anchor') || el.children.some((c) => typeof c !== 'string' && (c.name === 'pic' || c.name === 'graphicFrame' || SHAPES.has(c.name)));
  // Text past the part's budget is cut as each anchor is parsed, not after: 1,000 boxes of 32,767 characters held 85 MB as a tree.
  const treeText = { left: SHAPE_TEXT_MAX };
  // Shapes within anchors (a group's members, at any depth) past the first DRAWINGS_MAX are dropped as they are parsed too: a group of 100,000 held 260 MB as a tree.
  let members = 0;
  const shapeChild = (el: XmlElement) => el.children.some((c) => typeof c !== 'string' && (SHAPES.has(c.name) || c.name === 'pic'));
  // The anchor's own shape (depth 3) is kept: the anchors have their budget. A group is kept while it holds a kept member.
  const member = (el: XmlElement, depth: number) =>
    depth <= 3 || (el.name === 'grpSp' ? members <= DRAWINGS_MAX || shapeChild(el) : !SHAPES.has(el.name) && el.name !== 'pic' ? true : ++members <= DRAWINGS_MAX);
  const anchors: XmlElement[] = [];
  const keep = (el: XmlElement) => {
    if (drawn(el) && ++kept <= DRAWINGS_MAX) anchors.push((cutText(el, treeText), el));
  };
  // Read as the part inflates, cut between anchors (sheet-stream.ts): a 39 MB part of text boxes was held whole as one string.
  try {
    if (!pkg.has(part)) return [];
    streamedList({ pieces: (onPiece) => void pkg.readPieces(part, onPiece) }, 'wsDr', ANCHORS, keep, undefined, member);
  } catch (e) {
    if (!(e instanceof XmlError)) throw e;
    return []; // a drawing that is not XML: the sheet prints without it
  }
  const out: SheetDrawing[] = [];
  let shapes = 0;
  const text = { left: SHAPE_TEXT_MAX };
  for (const anchor of anchors) {
    if (out.length >= DRAWINGS_MAX) continue;
    // "Print object" unticked: shown on screen, left off the print.
    const prints = attr(child(anchor, 'clientData'), 'fPrintsWithSheet');
    if (prints === '0' || prints === 'false') continue;
    // Shapes and their text count against one budget for the part: a group of 100,000 members keeps DRAWINGS_MAX of them, as 100,000 anchors do.
    const shown = content(pkg, part, anchor, style, { shapes: DRAWINGS_MAX - shapes, text });
    if (shown?.kind === 'shapes') shapes += shown.shapes.length;
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
export function sheetDrawings(pkg: Package, sheetPart: string, drawing: XmlElement | undefined, style: DrawingStyle): SheetDrawing[] {
  const rel = drawing && pkg.rels(sheetPart).get(attr(drawing, 'r:id') ?? '');
  if (!rel || rel.external) return [];
  return readDrawingPart(pkg, rel.target, style);
}
