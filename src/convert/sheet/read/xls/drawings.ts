/**
 * A BIFF8 workbook's pictures: OfficeArt (Escher) drawings, read with the Office parts' OfficeArt
 * walker (office/officeart.ts, which the Word .doc reader uses too).
 *
 * The globals' MSODRAWINGGROUP records (and their CONTINUE records), joined, are one
 * OfficeArtDggContainer whose BStore (OfficeArtBStoreContainer) holds an FBSE per picture, the
 * BLIP (the image bytes) embedded after it: an Excel workbook has no Delay stream. Each
 * worksheet's MSODRAWING records, joined, are its OfficeArtDgContainer (split where Excel put the
 * OBJ and TXO records of each shape between them); a picture is a shape (OfficeArtSpContainer)
 * whose properties (OfficeArtFOPT) name its BLIP (pib, 1-based into the BStore) and whose
 * OfficeArtClientAnchorSheet places it over the cells: a corner's column and row, and offsets into
 * them in 1/1024 of the column's width and 1/256 of the row's height. A group's members are placed
 * in the group's own coordinate space (OfficeArtFSPGR, OfficeArtChildAnchor), mapped here onto the
 * group's anchor.
 *
 * A shape that is not a picture (a text box, rectangle, oval, line, WordArt...) is drawn from its
 * properties by the Office parts' OfficeArt shape reader (office/officeart-shape.ts), its text from
 * the TXO of its object (objects.ts: the n-th shape with client data is the n-th OBJ). A comment's
 * box is not drawn here: its place is handed back for its NOTE (sheet.ts).
 *
 * Not read: charts (their own BOF substream, stepped over by sheet.ts), form controls, a
 * picture's crop and its fill or line.
 */
import { u16, u32, u8 } from '../../../../codecs/binary';
import { unzlibSync } from 'fflate';
import { firstBlip, readOpt, records, type Blip, type Rec, type ShapeInfo } from '../../../office/officeart';
import { officeArtShape } from '../../../office/officeart-shape';
import type { CellAnchor, Font, SheetDrawing } from '../../model';
import { DRAWINGS_MAX } from '../xlsx/drawings';
import { objectParagraphs, OT, type SheetObject } from './objects';

/** MSODRAWINGGROUP (globals) and MSODRAWING (sheets). */
export const RT_MSODRAWINGGROUP = 0x00eb;
export const RT_MSODRAWING = 0x00ec;

/** A metafile's inflated bytes at most (the printer does not draw metafiles yet; they are kept for it). */
const METAFILE_MAX = 16 * 1024 * 1024;
/** Containers followed at most this deep (a hostile file could nest them without end). */
const MOST_NESTED = 16;
/** BIFF8's grid: 256 columns, 65,536 rows. */
const LAST_COL = 255;
const LAST_ROW = 65_535;

const PIB = 0x0104;
const FBSE = 0xf007;
const BSTORE = 0xf001;
const DGG_CONTAINER = 0xf000;
const DG_CONTAINER = 0xf002;
const SPGR_CONTAINER = 0xf003;
const SP_CONTAINER = 0xf004;
const FSPGR = 0xf009;
const FOPT = 0xf00b;
const CHILD_ANCHOR = 0xf00f;
const CLIENT_ANCHOR = 0xf010;
const CLIENT_DATA = 0xf011;
const FSP = 0xf00a;

/** Byte runs (views into the stream) joined into one buffer; their total is at most the stream's length. */
export function joinParts(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
}

/** The BLIP store of the drawing group: each picture by its 1-based index, decoded when first asked for. */
export class BlipStore {
  private readonly fbses: Rec[] = [];
  private readonly cache = new Map<number, Blip | undefined>();

  constructor(private readonly dgg: Uint8Array) {
    for (const top of records(dgg, 0, dgg.length)) {
      if (top.type !== DGG_CONTAINER) continue;
      for (const r of records(dgg, top.start, top.end)) if (r.type === BSTORE) for (const f of records(dgg, r.start, r.end)) this.fbses.push(f);
    }
  }

  get size(): number {
    return this.fbses.length;
  }

  blip(pib: number): Blip | undefined {
    if (!this.cache.has(pib)) this.cache.set(pib, this.decode(pib));
    return this.cache.get(pib);
  }

  /**
   * An FBSE's embedded BLIP: its 36-byte header and name, then the BLIP record. Bitmaps (PNG, JPEG,
   * DIB as a .bmp) are officeart.ts's firstBlip; a metafile (EMF, WMF, PICT) is inflated here, into
   * no more than the size its header gives (at most METAFILE_MAX), as firstBlip would inflate it unbounded.
   */
  private decode(pib: number): Blip | undefined {
    const f = this.fbses[pib - 1];
    const b = this.dgg;
    if (!f || f.type !== FBSE || f.start + 36 > f.end) return undefined;
    const embedded = f.start + 36 + u8(b, f.start + 33);
    if (embedded + 8 > f.end) return undefined; // in the Delay stream, which a workbook has not
    const rec = records(b, embedded, f.end).next().value;
    // A BLIP must lie within its FBSE as both are stored: one cut short is not decoded.
    if (!rec || rec.start + u32(b, rec.start - 4) > Math.min(f.end, f.start + u32(b, f.start - 4))) return undefined;
    const metafile = METAFILES[rec.type];
    if (!metafile) {
      const blip = firstBlip(b, embedded, f.end, undefined);
      return blip?.data.length ? blip : undefined;
    }
    const h = rec.start + (rec.inst & 1 ? 32 : 16);
    if (h + 34 > rec.end) return undefined;
    const size = u32(b, h);
    const raw = b.subarray(h + 34, rec.end);
    if (u8(b, h + 32) !== 0) return { data: raw, contentType: metafile };
    if (size === 0 || size > METAFILE_MAX) return undefined;
    try {
      // A given output buffer is not grown: a stream that inflates past `size` is cut there.
      return { data: unzlibSync(raw, { out: new Uint8Array(size) }), contentType: metafile };
    } catch {
      return undefined;
    }
  }
}

const METAFILES: Record<number, string> = { 0xf01a: 'image/x-emf', 0xf01b: 'image/x-wmf', 0xf01c: 'image/pict' };

/** A client anchor as stored: corners' column and row, offsets in 1/1024 of the column and 1/256 of the row. */
interface RawAnchor {
  colL: number;
  dxL: number;
  rwT: number;
  dyT: number;
  colR: number;
  dxR: number;
  rwB: number;
  dyB: number;
}

/** A shape as the sheet's drawing has it: its properties (picture, geometry, fill...), its client anchor or its place in its group, and its object. */
interface SheetShape {
  info: ShapeInfo;
  anchor?: RawAnchor;
  inGroup?: [number, number, number, number];
  /** Index of its OBJ among the sheet's (shapes with client data, in order). */
  object?: number;
}

/** A group: its anchor, its coordinate space, and its members (shapes and groups). */
interface Group {
  shape: SheetShape;
  space?: [number, number, number, number];
  members: (SheetShape | Group)[];
}

const rect = (b: Uint8Array, at: number): [number, number, number, number] => [u32(b, at) | 0, u32(b, at + 4) | 0, u32(b, at + 8) | 0, u32(b, at + 12) | 0];

function readClientAnchor(b: Uint8Array, r: Rec): RawAnchor | undefined {
  if (r.start + 18 > r.end) return undefined;
  const s16 = (o: number) => (u16(b, r.start + o) << 16) >> 16;
  return { colL: u16(b, r.start + 2), dxL: s16(4), rwT: u16(b, r.start + 6), dyT: s16(8), colR: u16(b, r.start + 10), dxR: s16(12), rwB: u16(b, r.start + 14), dyB: s16(16) };
}

function readSpContainer(b: Uint8Array, r: Rec, budget: Budget, group?: Group): SheetShape {
  const shape: SheetShape = { info: { props: new Map(), order: 0 } };
  for (const c of records(b, r.start, r.end)) {
    if (c.type === FOPT) readOpt(b, c, shape.info);
    else if (c.type === FSP && c.start + 8 <= c.end) {
      // OfficeArtFSP: spid, then flags (fFlipH 0x40, fFlipV 0x80); the shape type is the record's instance.
      const flags = u32(b, c.start + 4);
      Object.assign(shape.info, { type: c.inst, flipH: (flags & 0x40) !== 0, flipV: (flags & 0x80) !== 0 });
    } else if (c.type === CLIENT_DATA) shape.object = budget.objects++;
    else if (c.type === CLIENT_ANCHOR) shape.anchor = readClientAnchor(b, c);
    else if (c.type === CHILD_ANCHOR && c.start + 16 <= c.end) shape.inGroup = rect(b, c.start);
    else if (c.type === FSPGR && c.start + 16 <= c.end && group) group.space = rect(b, c.start);
  }
  return shape;
}

/** Shapes left to read, and the objects counted so far. */
interface Budget {
  left: number;
  objects: number;
}

/** A group container: its first shape is the group's own, then its members; `budget` bounds the shapes read. */
function readGroup(b: Uint8Array, r: Rec, depth: number, budget: Budget): Group {
  const group: Group = { shape: { info: { props: new Map(), order: 0 } }, members: [] };
  let first = true;
  for (const c of records(b, r.start, r.end)) {
    if (budget.left <= 0) break;
    if (c.type === SP_CONTAINER) {
      budget.left--;
      const shape = readSpContainer(b, c, budget, first ? group : undefined);
      if (first) group.shape = shape;
      else group.members.push(shape);
    } else if (c.type === SPGR_CONTAINER && depth < MOST_NESTED) group.members.push(readGroup(b, c, depth + 1, budget));
    first = false;
  }
  return group;
}

/** What the sheet knows of its grid: a column's width and a row's height, in points. */
export interface GridMeasure {
  colWidth(col: number): number;
  rowHeight(row: number): number;
}

/** A position `x`, `y` points right of and below the top-left corner of cell (col, row) as a cell and an offset into it. */
function anchorAt(x: number, y: number, grid: GridMeasure, col: number, row: number): CellAnchor {
  // Walked from the group's corner: members lie within the group's columns and rows.
  let left = x;
  while (left < 0 && col > 0) left += grid.colWidth(--col);
  while (col < LAST_COL && left >= grid.colWidth(col) && grid.colWidth(col) > 0) left -= grid.colWidth(col++);
  let top = y;
  while (top < 0 && row > 0) top += grid.rowHeight(--row);
  while (row < LAST_ROW && top >= grid.rowHeight(row) && grid.rowHeight(row) > 0) top -= grid.rowHeight(row++);
  return { col, colOffset: Math.max(0, left), row, rowOffset: Math.max(0, top) };
}

/** The span in points from corner `a` to corner `b` (b at or after a). */
function span(a: CellAnchor, b: CellAnchor, grid: GridMeasure): { width: number; height: number } {
  let width = b.colOffset - a.colOffset;
  for (let c = a.col; c < b.col; c++) width += grid.colWidth(c);
  let height = b.rowOffset - a.rowOffset;
  for (let r = a.row; r < b.row; r++) height += grid.rowHeight(r);
  return { width: Math.max(0, width), height: Math.max(0, height) };
}

/**
 * A client anchor's corners in the model's terms. The offsets are fractions of the column's width
 * and the row's height; the model keeps points. A row's height is known in points (ROW, twips);
 * a column's width only in characters of the default font's digit, whose width in points is known
 * at print time alone. Excel's fractions are of the column's width in pixels, so the width is
 * taken as Excel at 96 dpi shows Arial 10's, 7 pixels a character (0.75 pt a pixel): the offset
 * is approximate by the ratio of the printed digit to 5.25 pt (Arial 10's 5.56 pt: 6% short).
 */
function corners(a: RawAnchor, grid: GridMeasure): { from: CellAnchor; to: CellAnchor } | undefined {
  if (a.colL > LAST_COL || a.colR > LAST_COL || a.colR < a.colL || a.rwB < a.rwT) return undefined;
  const at = (col: number, dx: number, row: number, dy: number): CellAnchor => ({
    col,
    colOffset: (Math.min(Math.max(dx, 0), 1024) / 1024) * grid.colWidth(col),
    row,
    rowOffset: (Math.min(Math.max(dy, 0), 256) / 256) * grid.rowHeight(row),
  });
  return { from: at(a.colL, a.dxL, a.rwT, a.dyT), to: at(a.colR, a.dxR, a.rwB, a.dyB) };
}

/** What a sheet's drawing shows: its pictures and shapes, and where each comment's box lies (by its object's id). */
export interface SheetDrawn {
  drawings: SheetDrawing[];
  noteBoxes: Map<number, { from: CellAnchor; to: CellAnchor }>;
}

/** What the drawing's shapes are drawn with: the pictures, the sheet's objects, the workbook's fonts. */
export interface DrawingSources {
  store?: BlipStore;
  objects: readonly SheetObject[];
  fontAt: (index: number) => Font;
}

/** A shape that is not a picture, drawn in its box; undefined when its object does not print or it shows nothing. */
function shapeContent(shape: SheetShape, object: SheetObject | undefined, size: { width: number; height: number }, fontAt: DrawingSources['fontAt']): SheetDrawing['content'] | undefined {
  if (!object?.prints || object.type === OT.comment || object.type === OT.group) return undefined;
  const paragraphs = object.text?.text ? objectParagraphs(object.text, fontAt) : undefined;
  const drawn = officeArtShape(shape.info, size.width, size.height, paragraphs);
  if (!drawn) return undefined;
  if (object.text && drawn.blocks) drawn.textAnchor = object.text.anchor;
  return { kind: 'shapes', frame: { width: Math.max(size.width, 1), height: Math.max(size.height, 1) }, shapes: [{ box: { x: 0, y: 0, width: Math.max(size.width, 1), height: Math.max(size.height, 1) }, shape: drawn }] };
}

/** A sheet's pictures and shapes from its joined MSODRAWING records, at most DRAWINGS_MAX, and its comments' boxes. */
export function sheetDrawings(dg: Uint8Array, { store, objects, fontAt }: DrawingSources, grid: GridMeasure): SheetDrawn {
  const out: SheetDrawing[] = [];
  const noteBoxes = new Map<number, { from: CellAnchor; to: CellAnchor }>();
  const budget: Budget = { left: 10 * DRAWINGS_MAX, objects: 0 };
  const content = (shape: SheetShape, box: { from: CellAnchor; to: CellAnchor }): SheetDrawing['content'] | undefined => {
    const object = shape.object === undefined ? undefined : objects[shape.object];
    if (object?.type === OT.comment) noteBoxes.set(object.id, box);
    const pib = shape.info.pib ?? shape.info.props.get(PIB);
    const blip = pib !== undefined && pib > 0 ? store?.blip(pib) : undefined;
    if (blip) return object && !object.prints ? undefined : { kind: 'picture', data: blip.data, contentType: blip.contentType };
    return shapeContent(shape, object, span(box.from, box.to, grid), fontAt);
  };
  /** A group's members placed by mapping their child anchors from the group's space onto its corners. */
  const place = (g: Group, box: { from: CellAnchor; to: CellAnchor } | undefined, depth: number): void => {
    const size = box && span(box.from, box.to, grid);
    const [l, t, r, b] = g.space ?? [0, 0, 0, 0];
    for (const m of g.members) {
      if (out.length >= DRAWINGS_MAX) return;
      const shape = 'members' in m ? m.shape : m;
      let mine: { from: CellAnchor; to: CellAnchor } | undefined;
      if (shape.anchor) mine = corners(shape.anchor, grid);
      else if (box && size && shape.inGroup && r > l && b > t) {
        const [cl, ct, cr, cb] = shape.inGroup;
        const x = (v: number) => ((v - l) / (r - l)) * size.width;
        const y = (v: number) => ((v - t) / (b - t)) * size.height;
        const at = (cx: number, cy: number) => anchorAt(box.from.colOffset + x(cx), box.from.rowOffset + y(cy), grid, box.from.col, box.from.row);
        mine = { from: at(cl, ct), to: at(cr, cb) };
      }
      if ('members' in m) {
        if (depth < MOST_NESTED) place(m, mine, depth + 1);
        continue;
      }
      const shown = mine && content(m, mine);
      if (mine && shown) out.push({ from: mine.from, to: mine.to, content: shown });
    }
  };
  for (const top of records(dg, 0, dg.length)) {
    if (top.type !== DG_CONTAINER) continue;
    for (const r of records(dg, top.start, top.end)) {
      // The drawing's root group (its first shape the patriarch, of no anchor); its members are anchored to cells.
      if (r.type === SPGR_CONTAINER) place(readGroup(dg, r, 0, budget), undefined, 0);
    }
  }
  return { drawings: out, noteBoxes };
}
