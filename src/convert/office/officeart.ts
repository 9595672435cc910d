/**
 * OfficeArt (Escher) records: the drawing layer Word 97+ stores pictures in. Inline pictures carry
 * a shape and its BLIP (the image bytes) after the PICF in the Data stream; floating pictures are
 * shapes in the table stream's drawing group whose BLIPs live in the BStore (embedded, or at
 * foDelay in the WordDocument stream).
 */
import { unzlibSync } from 'fflate';
import { u16, u32, u8 } from '../../codecs/binary';
import { SEGMENTS, VERTICES } from './custom-geometry';

export interface Blip {
  data: Uint8Array;
  contentType: string;
}

export interface Rec {
  ver: number;
  inst: number;
  type: number;
  /** Offset of the record's data (after the 8-byte header). */
  start: number;
  end: number;
}

/** The OfficeArt records in [start, end) of `b`, one level (a container's children are walked from its start to its end). */
export function* records(b: Uint8Array, start: number, end: number): Generator<Rec> {
  let o = start;
  while (o + 8 <= end && o + 8 <= b.length) {
    const verInst = u16(b, o);
    const type = u16(b, o + 2);
    const len = u32(b, o + 4);
    const rec = { ver: verInst & 0xf, inst: verInst >> 4, type, start: o + 8, end: Math.min(o + 8 + len, b.length) };
    if (type < 0xf000) return; // not a record: stop instead of reading garbage
    yield rec;
    o = rec.end;
  }
}

const BITMAPS: Record<number, string> = { 0xf01d: 'image/jpeg', 0xf02a: 'image/jpeg', 0xf01e: 'image/png', 0xf029: 'image/tiff', 0xf01f: 'image/bmp' };
const METAFILES: Record<number, string> = { 0xf01a: 'image/x-emf', 0xf01b: 'image/x-wmf', 0xf01c: 'image/pict' };

/** The image of a BLIP record (0xF018..0xF117). */
function blipOf(b: Uint8Array, r: Rec): Blip | undefined {
  // An odd instance means the record carries a second 16-byte UID.
  const uids = r.inst & 1 ? 32 : 16;
  const bitmap = BITMAPS[r.type];
  if (bitmap) {
    let data = b.subarray(r.start + uids + 1, r.end);
    if (r.type === 0xf01f) data = dibToBmp(data);
    return { data, contentType: bitmap };
  }
  const meta = METAFILES[r.type];
  if (meta) {
    const h = r.start + uids;
    if (h + 34 > r.end) return undefined;
    const compressed = u8(b, h + 32) === 0;
    const raw = b.subarray(h + 34, r.end);
    let data = raw;
    if (compressed) {
      try {
        data = unzlibSync(raw);
      } catch {
        return undefined;
      }
    }
    return { data, contentType: meta };
  }
  return undefined;
}

/** A DIB has no file header; prepend one so it is a valid .bmp. */
function dibToBmp(dib: Uint8Array): Uint8Array {
  if (dib.length < 40) return dib;
  const headerSize = u32(dib, 0);
  const bitCount = u16(dib, 14);
  const clrUsed = u32(dib, 32);
  const palette = bitCount <= 8 ? (clrUsed || 1 << bitCount) * 4 : u32(dib, 16) === 3 ? 12 : 0;
  const out = new Uint8Array(14 + dib.length);
  const v = new DataView(out.buffer);
  out[0] = 0x42;
  out[1] = 0x4d;
  v.setUint32(2, out.length, true);
  v.setUint32(10, 14 + headerSize + palette, true);
  out.set(dib, 14);
  return out;
}

/** The BLIP an FBSE holds: embedded after its 36-byte header (and name), or at foDelay in `delay`. */
function blipOfFbse(b: Uint8Array, r: Rec, delay: Uint8Array | undefined): Blip | undefined {
  if (r.start + 36 > r.end) return undefined;
  const cbName = u8(b, r.start + 33);
  const embedded = r.start + 36 + cbName;
  if (embedded + 8 <= r.end) return firstBlip(b, embedded, r.end, delay);
  const size = u32(b, r.start + 20);
  const foDelay = u32(b, r.start + 28);
  if (delay && foDelay !== 0xffffffff && foDelay + 8 <= delay.length) return firstBlip(delay, foDelay, Math.min(delay.length, foDelay + size), undefined);
  return undefined;
}

/** The first image found among the records in [start, end), looking into containers and FBSEs. */
export function firstBlip(b: Uint8Array, start: number, end: number, delay: Uint8Array | undefined): Blip | undefined {
  for (const r of records(b, start, end)) {
    if (r.type === 0xf007) {
      const blip = blipOfFbse(b, r, delay);
      if (blip) return blip;
    } else if (r.type >= 0xf018 && r.type <= 0xf117) {
      const blip = blipOf(b, r);
      if (blip) return blip;
    } else if (r.ver === 0xf) {
      const blip = firstBlip(b, r.start, r.end, delay);
      if (blip) return blip;
    }
  }
  return undefined;
}

export interface ShapeInfo {
  /** 1-based index into the BStore of the picture the shape shows. */
  pib?: number;
  /** Text box story link (lTxid). */
  txid?: number;
  /** Shape type (MSOSPT, the FSP record's instance): 1 rectangle, 2 rounded, 3 ellipse, 20 line, 202 text box. */
  type?: number;
  flipH?: boolean;
  flipV?: boolean;
  /** Every simple (not complex) property's value by id; doc/shapes.ts reads what a shape looks like from them. */
  props: Map<number, number>;
  /** WordArt's text and font name (the complex properties gtextUNICODE and gtextFont), when the shape has them. */
  gtext?: { text: string; font?: string };
  /** Position in the drawing: later shapes are drawn over earlier ones. */
  order: number;
  /** Complex properties' data kept for reading later: the vertices and segments of a custom geometry (custom-geometry.ts). */
  complex?: Map<number, Uint8Array>;
  /** The document's background shape (fBackground): its fill is the page colour. */
  background?: boolean;
  /** A group's own shape: the spids of its members, in drawing order. */
  members?: number[];
  /** A group's coordinate space (OfficeArtFSPGR: left, top, right, bottom), which its members' places are in. */
  groupSpace?: [number, number, number, number];
  /** A member's place in its group's space (OfficeArtChildAnchor: left, top, right, bottom). */
  inGroup?: [number, number, number, number];
}

export interface DrawingGroup {
  blip(pib: number): Blip | undefined;
  shapes: Map<number, ShapeInfo>;
}

/** The OfficeArtContent of the table stream: the BStore and every shape's picture and text link. */
export function readDrawingGroup(table: Uint8Array, fc: number, lcb: number, word: Uint8Array): DrawingGroup {
  const fbses: Rec[] = [];
  const shapes = new Map<number, ShapeInfo>();
  const empty: DrawingGroup = { blip: () => undefined, shapes };
  if (lcb < 8 || fc + lcb > table.length) return empty;
  const end = fc + lcb;
  let o = fc;
  let first = true;
  while (o + 8 <= end) {
    // After the DggContainer come drawings, each a 1-byte dgglbl then an OfficeArtDgContainer.
    if (!first) o += 1;
    first = false;
    const rec = records(table, o, end).next().value;
    if (!rec) break;
    if (rec.type === 0xf000) {
      for (const r of records(table, rec.start, rec.end)) {
        if (r.type === 0xf001) for (const f of records(table, r.start, r.end)) fbses.push(f);
      }
    } else if (rec.type === 0xf002) collectShapes(table, rec.start, rec.end, shapes);
    o = rec.end;
  }
  const cache = new Map<number, Blip | undefined>();
  return {
    shapes,
    blip(pib) {
      if (!cache.has(pib)) {
        const f = fbses[pib - 1];
        cache.set(pib, f && f.type === 0xf007 ? blipOfFbse(table, f, word) : undefined);
      }
      return cache.get(pib);
    },
  };
}

/** Containers followed at most this deep (a damaged or hostile file could nest them without end). */
const MOST_NESTED = 32;

/** Every shape of a drawing into `shapes` (a group's members listed on the group's own shape: readGroup). */
function collectShapes(b: Uint8Array, start: number, end: number, shapes: Map<number, ShapeInfo>, depth = 0): void {
  if (depth > MOST_NESTED) return;
  for (const r of records(b, start, end)) {
    if (r.type === 0xf004) readShape(b, r, shapes);
    else if (r.type === 0xf003) readGroup(b, r, shapes, depth + 1);
    else if (r.ver === 0xf) collectShapes(b, r.start, r.end, shapes, depth + 1);
  }
}

/**
 * A group (OfficeArtSpgrContainer): its first shape is the group's own (its coordinate space, and
 * where it sits in the group above it, or the drawing's root); the records after it are its members.
 */
function readGroup(b: Uint8Array, r: Rec, shapes: Map<number, ShapeInfo>, depth: number): number | undefined {
  if (depth > MOST_NESTED) return undefined;
  let spid: number | undefined;
  const members: number[] = [];
  let first = true;
  for (const c of records(b, r.start, r.end)) {
    if (first && c.type === 0xf004) spid = readShape(b, c, shapes);
    else {
      const member = c.type === 0xf004 ? readShape(b, c, shapes) : c.type === 0xf003 ? readGroup(b, c, shapes, depth + 1) : undefined;
      if (member !== undefined) members.push(member);
    }
    first = false;
  }
  const info = spid === undefined ? undefined : shapes.get(spid);
  if (info) info.members = members;
  return spid;
}

/** Four signed 32-bit numbers: left, top, right, bottom. */
const rect = (b: Uint8Array, at: number): [number, number, number, number] => [u32(b, at) | 0, u32(b, at + 4) | 0, u32(b, at + 8) | 0, u32(b, at + 12) | 0];

/** One shape (OfficeArtSpContainer) into `shapes`; returns its spid. */
function readShape(b: Uint8Array, r: Rec, shapes: Map<number, ShapeInfo>): number | undefined {
  let spid: number | undefined;
  const info: ShapeInfo = { props: new Map(), order: shapes.size };
  for (const c of records(b, r.start, r.end)) {
    if (c.type === 0xf00a && c.start + 8 <= c.end) {
      // OfficeArtFSP: spid, then flags (fFlipH 0x40, fFlipV 0x80).
      spid = u32(b, c.start);
      const flags = u32(b, c.start + 4);
      info.type = c.inst;
      info.flipH = (flags & 0x40) !== 0;
      info.flipV = (flags & 0x80) !== 0;
      if (flags & 0x400) info.background = true; // fBackground: the page's background shape
    } else if (c.type === 0xf009 && c.start + 16 <= c.end) info.groupSpace = rect(b, c.start);
    else if (c.type === 0xf00f && c.start + 16 <= c.end) info.inGroup = rect(b, c.start);
    else if (c.type === 0xf00b || c.type === 0xf121 || c.type === 0xf122) readOpt(b, c, info);
  }
  if (spid !== undefined) shapes.set(spid, info);
  return spid;
}

/** Complex properties that are arrays (IMsoArray): vertices, connection sites, segments, handles, guides, text rectangles, shade colours. */
const ARRAYS = new Set([0x0145, 0x0146, 0x0151, 0x0152, 0x0155, 0x0156, 0x0157, 0x0197]);
const GTEXT_UNICODE = 0x00c0;
const GTEXT_FONT = 0x00c5;

export function readOpt(b: Uint8Array, r: Rec, info: ShapeInfo): void {
  // Complex properties' data follow the table, one after another in the table's order.
  let data = r.start + 6 * r.inst;
  for (let i = 0; i < r.inst && r.start + 6 * i + 6 <= r.end; i++) {
    const op = u16(b, r.start + 6 * i);
    const id = op & 0x3fff;
    const value = u32(b, r.start + 6 * i + 2);
    if (op & 0x8000) {
      // A complex property's value is the length of its data; an array's (IMsoArray) is often
      // written without its 6-byte header (LibreOffice reads it so too), which still comes first.
      let length = value;
      if (ARRAYS.has(id) && data + 6 <= r.end) {
        const cbElem = u16(b, data + 4);
        if (u16(b, data) * (cbElem === 0xfff0 ? 4 : cbElem) === value) length = value + 6;
      }
      if ((id === VERTICES || id === SEGMENTS) && data + length <= r.end) (info.complex ??= new Map()).set(id, b.subarray(data, data + length));
      if ((id === GTEXT_UNICODE || id === GTEXT_FONT) && data + value <= r.end) {
        const text = utf16z(b, data, data + value);
        if (id === GTEXT_UNICODE) info.gtext = { ...info.gtext, text };
        else info.gtext = { text: info.gtext?.text ?? '', font: text };
      }
      data += length;
      continue;
    }
    if (id === 0x0104 || (id === 0x0186 && info.pib === undefined)) info.pib = value;
    else if (id === 0x0080) info.txid = value;
    info.props.set(id, value);
  }
}

/** UTF-16LE text up to its terminating NUL. */
function utf16z(b: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let o = start; o + 1 < end; o += 2) {
    const c = b[o]! | (b[o + 1]! << 8);
    if (!c) break;
    s += String.fromCharCode(c);
  }
  return s;
}
