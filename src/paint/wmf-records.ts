/**
 * The WMF records the player draws ([MS-WMF] 2.3), each a small handler by function number:
 * state (window, modes, colours), objects (pens, brushes, fonts in the lowest free slot), shapes,
 * clipping, text and bitmaps. wmf.ts walks the records and calls these; others draw nothing.
 */
import { averageColor, crop, decodeDib, type Rgb } from '../codecs/dib';
import { colorRef, type Gdi, type GdiObject } from './gdi';
import { decode8 } from './metafile-text';

/** Reads the file's little-endian fields; 0 past its end. */
export class WmfBytes {
  readonly dv: DataView;

  constructor(readonly b: Uint8Array) {
    this.dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  u16(o: number): number {
    return o + 2 <= this.b.length ? this.dv.getUint16(o, true) : 0;
  }

  i16(o: number): number {
    return o + 2 <= this.b.length ? this.dv.getInt16(o, true) : 0;
  }

  u32(o: number): number {
    return o + 4 <= this.b.length ? this.dv.getUint32(o, true) : 0;
  }
}

/** One record's parameters, by offset from their start (after the size and function words). */
export class WmfRecord {
  constructor(
    readonly fn: number,
    private readonly file: WmfBytes,
    /** Where the parameters start in the file. */
    private readonly r: number,
    readonly size: number,
  ) {}

  /** The signed 16-bit parameter at k, or 0 when the record is too short to hold it. */
  p(k: number): number {
    return k + 2 <= this.size ? this.file.i16(this.r + k) : 0;
  }

  u16(k: number): number {
    return this.file.u16(this.r + k);
  }

  u32(k: number): number {
    return this.file.u32(this.r + k);
  }

  byte(k: number): number | undefined {
    return this.file.b[this.r + k];
  }

  bytes(from: number, to: number): Uint8Array {
    return this.file.b.subarray(this.r + from, this.r + to);
  }

  /** `count` 16-bit points from `first`, as many as the record holds. */
  points(first: number, count: number): [number, number][] {
    const list: [number, number][] = [];
    for (let i = 0; i < count && first + i * 4 + 4 <= this.size; i++) list.push([this.p(first + i * 4), this.p(first + i * 4 + 2)]);
    return list;
  }

  /** The device-independent bitmap from k to the record's end. */
  dibAt(k: number): Rgb | undefined {
    return k < this.size ? decodeDib(this.bytes(k, this.size), undefined) : undefined;
  }
}

/** The player's state a record changes: the device context and the object table. */
export interface WmfPlayback {
  g: Gdi;
  objects: (GdiObject | undefined)[];
  /** Puts an object in the table's lowest free slot, as GDI does. */
  create(obj: GdiObject): void;
}

type RecordHandler = (rec: WmfRecord, play: WmfPlayback) => void;

/** POLYPOLYGON: the polygon count, their point counts, then all the points. */
function polyPolygon(rec: WmfRecord, { g }: WmfPlayback): void {
  const polys = rec.p(0);
  let first = 2 + polys * 2, d = '';
  for (let i = 0; i < polys && first < rec.size; i++) {
    const c = rec.p(2 + i * 2);
    d += g.poly(rec.points(first, c), true);
    first += c * 4;
  }
  g.shape(d, true, true);
}

/** CREATEFONTINDIRECT: the LOGFONT's height, escapement, weight, styles, charset and face. */
function createFont(rec: WmfRecord, { create }: WmfPlayback): void {
  let face = '';
  for (let i = 18; i < Math.min(rec.size, 50) && rec.byte(i); i++) face += String.fromCharCode(rec.byte(i)!);
  create({
    kind: 'font', height: rec.p(0), escapement: rec.p(4), weight: rec.p(8),
    italic: !!rec.byte(10), underline: !!rec.byte(11), strike: !!rec.byte(12), charset: rec.byte(13) ?? 0, face,
  });
}

/** EXTTEXTOUT: y, x, count, options, [rect], string, [dx]. */
function extTextOut(rec: WmfRecord, { g }: WmfPlayback): void {
  const p = (k: number) => rec.p(k);
  const count = rec.u16(4), opts = rec.u16(6);
  let k = 8;
  if (opts & 6) {
    if (opts & 2) g.fillRect(p(8), p(10), p(12), p(14), g.s.bkColor);
    k += 8;
  }
  if (k + count > rec.size) return;
  const text = decode8(rec.bytes(k, k + count), g.s.font.charset, g.s.font.face);
  k += count + (count & 1);
  const dx: number[] = [];
  if (k + count * 2 <= rec.size) for (let i = 0; i < count; i++) dx.push(p(k + i * 2));
  g.text(p(2), p(0), text, dx.length ? dx : undefined, opts & 4 ? [p(8), p(10), p(12), p(14)] : undefined);
}

/** DIBBITBLT, DIBSTRETCHBLT, STRETCHDIB: the source bitmap, or without one a black or white fill. */
function dibBlit(rec: WmfRecord, { g }: WmfPlayback): void {
  const { fn, size } = rec;
  const stretch = fn !== 0x0940;
  const base = fn === 0x0f43 ? 6 : 4; // after rop (and colour usage)
  // Without a bitmap (the record is just its parameters) a reserved word follows the source origin.
  const fixed = base + (stretch ? 16 : 12);
  const noBitmap = fn !== 0x0f43 && size <= fixed + 2;
  const q = (i: number) => rec.p(base + i * 2 + (noBitmap && i >= (stretch ? 4 : 2) ? 2 : 0));
  const [sh, sw, sy, sx] = stretch ? [q(0), q(1), q(2), q(3)] : [0, 0, q(0), q(1)];
  const off = stretch ? 4 : 2;
  const [dh, dw, dy, dx] = [q(off), q(off + 1), q(off + 2), q(off + 3)];
  const img = noBitmap ? undefined : rec.dibAt(fixed);
  const rop = rec.u32(0);
  // StretchDIBits counts a bottom-up DIB's source rows from its bottom; the blits take the DIB
  // as a bitmap selected into a device context, counted from the top (an icon's mask, stored
  // with its image below it, is the top half).
  if (img) g.blit(fn === 0x0f43 ? crop(img, sx, img.height - sy - sh, sw, sh) : crop(img, sx, sy, stretch ? sw : dw, stretch ? sh : dh), dx, dy, dw, dh, rop >>> 0);
  else if (rop === 0x42 || rop === 0xff0062) g.fillRect(dx, dy, dx + dw, dy + dh, rop === 0x42 ? '#000000' : '#ffffff');
}

/** The device context's settings: window, modes, colours, position, clip and saved states. */
const STATE: [number[], RecordHandler][] = [
  [[0x0102], (rec, { g }) => void (g.s.bkMode = rec.p(0))],
  [[0x0103], (rec, { g }) => void (g.s.mapMode = rec.p(0))],
  [[0x0106], (rec, { g }) => void (g.s.polyFill = rec.p(0))],
  [[0x0209], (rec, { g }) => void (g.s.textColor = colorRef(rec.u32(0)))],
  [[0x0201], (rec, { g }) => void (g.s.bkColor = colorRef(rec.u32(0)))],
  [[0x012e], (rec, { g }) => void (g.s.textAlign = rec.p(0))],
  [[0x020b], (rec, { g }) => ((g.s.winOrg = [rec.p(2), rec.p(0)]), g.changed())],
  [[0x020c], (rec, { g }) => ((g.s.winExt = [rec.p(2), rec.p(0)]), g.changed())],
  [[0x020f], (rec, { g }) => ((g.s.winOrg = [g.s.winOrg[0] + rec.p(2), g.s.winOrg[1] + rec.p(0)]), g.changed())],
  [[0x0410], (rec, { g }) => { // SCALEWINDOWEXT: yDenom, yNum, xDenom, xNum
    const p = (k: number) => rec.p(k);
    if (p(0) && p(4)) g.s.winExt = [(g.s.winExt[0] * p(6)) / p(4), (g.s.winExt[1] * p(2)) / p(0)];
    g.changed();
  }],
  [[0x0416], (rec, { g }) => g.intersectClip(rec.p(6), rec.p(4), rec.p(2), rec.p(0))], // INTERSECTCLIPRECT: bottom, right, top, left
  [[0x001e], (_, { g }) => g.save()],
  [[0x0127], (rec, { g }) => g.restore(rec.p(0))],
  [[0x0214], (rec, { g }) => void (g.s.cp = [rec.p(2), rec.p(0)])],
];

/** The object table: pens, brushes, fonts made, selected and deleted. */
const OBJECTS: [number[], RecordHandler][] = [
  [[0x02fa], (rec, { create }) => create({ kind: 'pen', style: rec.u16(0), width: rec.p(2), color: colorRef(rec.u32(6)) })],
  [[0x02fc], (rec, { create }) => create({ kind: 'brush', style: rec.u16(0) === 1 ? 1 : 0, color: colorRef(rec.u32(2)) })],
  [[0x0142], (rec, { create }) => { // DIBCREATEPATTERNBRUSH: a flat fill in the pattern's average colour
    const img = rec.dibAt(4);
    const [cr, cg, cb] = img ? averageColor(img) : [128, 128, 128];
    create({ kind: 'brush', style: 0, color: colorRef(cr | (cg << 8) | (cb << 16)) });
  }],
  [[0x02fb], createFont],
  // CREATEPALETTE, CREATEPATTERNBRUSH, CREATEREGION: not drawn with, but they take a slot.
  [[0x00f7, 0x01f9, 0x06ff], (_, { create }) => create({ kind: 'other' })],
  [[0x012d], (rec, { g, objects }) => g.select(objects[rec.u16(0)])],
  [[0x01f0], (rec, { objects }) => void (objects[rec.u16(0)] = undefined)],
];

/** What is drawn: lines and shapes, text and bitmaps. */
const DRAWING: [number[], RecordHandler][] = [
  [[0x0213], (rec, { g }) => { // LINETO
    g.shape(g.poly([[rec.p(2), rec.p(0)]], false, true), false, true);
    g.s.cp = [rec.p(2), rec.p(0)];
  }],
  [[0x041b], (rec, { g }) => g.shape(g.rect(rec.p(6), rec.p(4), rec.p(2), rec.p(0)), true, true)],
  [[0x061c], (rec, { g }) => g.shape(g.roundRect(rec.p(10), rec.p(8), rec.p(6), rec.p(4), rec.p(2), rec.p(0)), true, true)],
  [[0x0418], (rec, { g }) => g.shape(g.ellipse(rec.p(6), rec.p(4), rec.p(2), rec.p(0)), true, true)],
  [[0x0817, 0x081a, 0x0830], (rec, { g }) => { // ARC, PIE, CHORD
    const p = (k: number) => rec.p(k);
    const kind = rec.fn === 0x0817 ? 0 : rec.fn === 0x0830 ? 1 : 2;
    g.shape(g.arc(kind, p(14), p(12), p(10), p(8), p(6), p(4), p(2), p(0)), kind !== 0, true);
  }],
  [[0x0324], (rec, { g }) => g.shape(g.poly(rec.points(2, rec.p(0)), true), true, true)],
  [[0x0325], (rec, { g }) => g.shape(g.poly(rec.points(2, rec.p(0)), false), false, true)],
  [[0x0538], polyPolygon],
  [[0x0521], (rec, { g }) => { // TEXTOUT: count, string (even length), y, x
    const count = rec.u16(0);
    const padded = count + (count & 1);
    if (2 + padded + 4 > rec.size) return;
    g.text(rec.p(4 + padded), rec.p(2 + padded), decode8(rec.bytes(2, 2 + count), g.s.font.charset, g.s.font.face));
  }],
  [[0x0a32], extTextOut],
  [[0x061d], (rec, { g }) => { // PATBLT: rop, height, width, y, x
    const rop = rec.u32(0), h = rec.p(4), w = rec.p(6), y = rec.p(8), x = rec.p(10);
    const color = rop === 0x42 ? '#000000' : rop === 0xff0062 ? '#ffffff' : g.s.brush.style !== 1 ? g.s.brush.color : undefined;
    if (color) g.fillRect(x, y, x + w, y + h, color);
  }],
  [[0x0940, 0x0b41, 0x0f43], dibBlit],
];

/** Every record function the player draws, with its handler. */
export const WMF_RECORDS = new Map<number, RecordHandler>(
  [...STATE, ...OBJECTS, ...DRAWING].flatMap(([types, handler]) => types.map((t) => [t, handler] as const)),
);
