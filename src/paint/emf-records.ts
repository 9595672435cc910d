/**
 * The EMF records the player draws ([MS-EMF] 2.3), each a small handler by record type: state
 * (mapping, colours, modes), objects (pens, brushes, fonts), shapes and paths, clipping, text and
 * bitmaps. emf.ts walks the records and calls these; records not listed draw nothing.
 */
import { averageColor, crop, decodeDib, type Rgb } from '../codecs/dib';
import { colorRef, IDENTITY, multiply, stockObject, type Font, type Gdi, type GdiObject, type Matrix } from './gdi';
import { decode8, unSymbol } from './metafile-text';

/**
 * One record: its fields by offset from its start. The checked reader (`at`) gives 0 past the
 * record's end; the others read the file as it is and throw past its end (which ends the drawing).
 */
export class EmfRecord {
  constructor(
    readonly type: number,
    private readonly b: Uint8Array,
    private readonly dv: DataView,
    /** Where the record starts in the file. */
    private readonly r: number,
    readonly size: number,
  ) {}

  /** The signed 32-bit field at k, or 0 when the record is too short to hold it. */
  at(k: number): number {
    return k + 4 <= this.size ? this.dv.getInt32(this.r + k, true) : 0;
  }

  i32(k: number): number {
    return this.dv.getInt32(this.r + k, true);
  }

  u32(k: number): number {
    return this.dv.getUint32(this.r + k, true);
  }

  u16(k: number): number {
    return this.dv.getUint16(this.r + k, true);
  }

  i16(k: number): number {
    return this.dv.getInt16(this.r + k, true);
  }

  f32(k: number): number {
    return this.dv.getFloat32(this.r + k, true);
  }

  byte(k: number): number | undefined {
    return this.b[this.r + k];
  }

  bytes(from: number, to: number): Uint8Array {
    return this.b.subarray(this.r + from, this.r + to);
  }

  /** `count` points from `first` (16-bit ones when `small`), as many as the record holds. */
  points(first: number, count: number, small: boolean): [number, number][] {
    const step = small ? 4 : 8;
    const max = Math.max(0, Math.min(count, Math.floor((this.size - first) / step)));
    const list: [number, number][] = [];
    for (let i = 0; i < max; i++) {
      const p = first + i * step;
      list.push(small ? [this.i16(p), this.i16(p + 2)] : [this.i32(p), this.i32(p + 4)]);
    }
    return list;
  }

  /** The device-independent bitmap whose header and bits the record holds at these offsets. */
  dib(offBmi: number, cbBmi: number, offBits: number, cbBits: number, alpha = false): Rgb | undefined {
    if (cbBmi <= 0 || offBmi + cbBmi > this.size || offBits + cbBits > this.size) return undefined;
    return decodeDib(this.bytes(offBmi, offBmi + cbBmi), this.bytes(offBits, offBits + cbBits), alpha);
  }
}

/** The player's state a record changes: the device context and the object table. */
export interface EmfPlayback {
  g: Gdi;
  objects: Map<number, GdiObject>;
}

type RecordHandler = (rec: EmfRecord, play: EmfPlayback) => void;

/** POLYBEZIER, POLYBEZIERTO, POLYGON, POLYLINE, POLYLINETO, and their 16-bit forms (85-89). */
function poly(rec: EmfRecord, { g }: EmfPlayback): void {
  const small = rec.type >= 85;
  const list = rec.points(28, rec.u32(24), small);
  if (!list.length) return;
  const kind = small ? rec.type - 83 : rec.type;
  if (kind === 2 || kind === 5) g.shape(g.bezier(list, kind === 5), false, true);
  else if (kind === 3) g.shape(g.poly(list, true), true, true);
  else g.shape(g.poly(list, false, kind === 6), false, true);
  if (kind === 5 || kind === 6) g.s.cp = list[list.length - 1]!;
}

/** POLYPOLYLINE, POLYPOLYGON (and 16-bit): the point counts, then all the points. */
function polyPoly(rec: EmfRecord, { g }: EmfPlayback): void {
  const small = rec.type >= 90;
  const closed = rec.type === 8 || rec.type === 91;
  const polys = Math.min(rec.u32(24), Math.floor((rec.size - 32) / 4));
  let first = 32 + polys * 4;
  let d = '';
  for (let i = 0; i < polys; i++) {
    const c = rec.u32(32 + i * 4);
    d += g.poly(rec.points(first, c, small), closed);
    first += c * (small ? 4 : 8);
    if (first > rec.size) break;
  }
  g.shape(d, closed, true);
}

/** SETWORLDTRANSFORM (35) and MODIFYWORLDTRANSFORM (36, by its mode). */
function worldTransform(rec: EmfRecord, { g }: EmfPlayback): void {
  if (rec.size < 32) return;
  const x: Matrix = [0, 4, 8, 12, 16, 20].map((k) => rec.f32(8 + k)) as Matrix;
  if (x.some((v) => !Number.isFinite(v))) return;
  const mode = rec.type === 35 ? 4 : rec.at(32);
  g.s.world = mode === 1 ? IDENTITY : mode === 2 ? multiply(x, g.s.world) : mode === 3 ? multiply(g.s.world, x) : mode === 4 ? x : g.s.world;
  g.changed();
}

/** CREATEMONOBRUSH / CREATEDIBPATTERNBRUSHPT: drawn flat in the pattern's average colour. */
function patternBrush(rec: EmfRecord, { objects }: EmfPlayback): void {
  const img = rec.dib(rec.at(16), rec.at(20), rec.at(24), rec.at(28));
  const [cr, cg, cb] = img ? averageColor(img) : [128, 128, 128];
  objects.set(rec.at(8), { kind: 'brush', style: 0, color: colorRef(cr | (cg << 8) | (cb << 16)) });
}

/** EXTCREATEFONTINDIRECTW: the LOGFONT's height, escapement, weight, styles, charset and face. */
function createFont(rec: EmfRecord, { objects }: EmfPlayback): void {
  if (rec.size < 104) return;
  let face = '';
  for (let i = 0; i < 32; i++) {
    const c = rec.u16(40 + i * 2);
    if (!c) break;
    face += String.fromCharCode(c);
  }
  const font: Font = {
    kind: 'font', height: rec.at(12), escapement: rec.at(20), weight: rec.at(28),
    italic: !!rec.byte(32), underline: !!rec.byte(33), strike: !!rec.byte(34), charset: rec.byte(35) ?? 0, face,
  };
  objects.set(rec.at(8), font);
}

/** EXTSELECTCLIPRGN: the region's rectangles are in device units (our output's). */
function selectClipRegion(rec: EmfRecord, { g }: EmfPlayback): void {
  const cb = rec.u32(8), mode = rec.at(12);
  let d = '';
  if (cb >= 32 && 16 + cb <= rec.size) {
    const count = Math.min(rec.u32(16 + 8), (cb - 32) / 16);
    for (let i = 0; i < count; i++) {
      const q = 16 + 32 + i * 16;
      const [l, t, rr, bb] = [rec.i32(q), rec.i32(q + 4), rec.i32(q + 8), rec.i32(q + 12)];
      d += `M${l} ${t}L${rr} ${t}L${rr} ${bb}L${l} ${bb}Z`;
    }
  }
  g.setClip(d || undefined, mode);
}

/** EXTTEXTOUTA / EXTTEXTOUTW: the string, its advances, its opaque and clip rectangle. */
function textOut(rec: EmfRecord, { g }: EmfPlayback): void {
  if (rec.size < 76) return;
  const chars = rec.u32(44), offString = rec.u32(48), options = rec.u32(52), offDx = rec.u32(72);
  const wide = rec.type === 84;
  if (chars > 100_000 || offString + chars * (wide ? 2 : 1) > rec.size) return;
  if (options & 2) g.fillRect(rec.at(56), rec.at(60), rec.at(64), rec.at(68), g.s.bkColor);
  let text = '';
  if (wide) for (let i = 0; i < chars; i++) text += String.fromCharCode(rec.u16(offString + i * 2));
  else text = decode8(rec.bytes(offString, offString + chars), g.s.font.charset, g.s.font.face);
  if (wide) text = unSymbol(text, g.s.font.face);
  const dx: number[] = [];
  if (offDx && offDx + chars * 4 <= rec.size && !(options & 0x10)) for (let i = 0; i < chars; i++) dx.push(rec.i32(offDx + i * 4));
  g.text(rec.at(36), rec.at(40), text, dx.length ? dx : undefined, options & 4 ? [rec.at(56), rec.at(60), rec.at(64), rec.at(68)] : undefined);
}

/** BITBLT, STRETCHBLT, ALPHABLEND: the source bitmap, or without one a fill by raster operation. */
function blit(rec: EmfRecord, { g }: EmfPlayback): void {
  if (rec.size < 100) return;
  const x = rec.at(24), y = rec.at(28), w = rec.at(32), h = rec.at(36), rop = rec.u32(40) >>> 0;
  // ALPHABLEND's blend function: AC_SRC_ALPHA (byte 3 = 1) means per-pixel premultiplied alpha.
  const img = rec.dib(rec.u32(84), rec.u32(88), rec.u32(92), rec.u32(96), rec.type === 114 && rec.byte(43) === 1);
  if (img) {
    const [sx, sy] = [rec.at(44), rec.at(48)];
    const [sw, sh] = rec.type !== 76 && rec.size >= 108 ? [rec.at(100), rec.at(104)] : [w, h];
    g.blit(crop(img, sx, sy, sw, sh), x, y, w, h, rec.type === 114 ? 0xcc0020 : rop);
  } else if (rop === 0x00f00021 && g.s.brush.style !== 1) g.fillRect(x, y, x + w, y + h, g.s.brush.color);
  else if (rop === 0x00000042) g.fillRect(x, y, x + w, y + h, '#000000');
  else if (rop === 0x00ff0062) g.fillRect(x, y, x + w, y + h, '#ffffff');
}

/** SETDIBITSTODEVICE, STRETCHDIBITS. */
function dibToDevice(rec: EmfRecord, { g }: EmfPlayback): void {
  if (rec.size < 80) return;
  const img = rec.dib(rec.u32(48), rec.u32(52), rec.u32(56), rec.u32(60));
  if (!img) return;
  const x = rec.at(24), y = rec.at(28), sx = rec.at(32), sy = rec.at(36), sw = rec.at(40), sh = rec.at(44);
  const stretch = rec.type === 81;
  const [w, h] = stretch ? [rec.at(72), rec.at(76)] : [sw, sh];
  g.blit(stretch ? crop(img, sx, img.height - sy - sh, sw, sh) : img, x, y, w, h, stretch ? rec.u32(68) >>> 0 : 0xcc0020);
}

/** The device context's settings: mapping (window, viewport, map mode), modes, colours, position, saved states. */
const STATE: [number[], RecordHandler][] = [
  [[9], (rec, { g }) => ((g.s.winExt = [rec.at(8), rec.at(12)]), g.changed())],
  [[10], (rec, { g }) => ((g.s.winOrg = [rec.at(8), rec.at(12)]), g.changed())],
  [[11], (rec, { g }) => ((g.s.vpExt = [rec.at(8), rec.at(12)]), g.changed())],
  [[12], (rec, { g }) => ((g.s.vpOrg = [rec.at(8), rec.at(12)]), g.changed())],
  [[17], (rec, { g }) => ((g.s.mapMode = rec.at(8)), g.changed())],
  [[18], (rec, { g }) => void (g.s.bkMode = rec.at(8))],
  [[19], (rec, { g }) => void (g.s.polyFill = rec.at(8))],
  [[22], (rec, { g }) => void (g.s.textAlign = rec.at(8))],
  [[24], (rec, { g }) => void (g.s.textColor = colorRef(rec.at(8)))],
  [[25], (rec, { g }) => void (g.s.bkColor = colorRef(rec.at(8)))],
  [[27], (rec, { g }) => { // MOVETOEX
    g.s.cp = [rec.at(8), rec.at(12)];
    if (g.path !== undefined) g.path += `M${g.pt(rec.at(8), rec.at(12))}`;
  }],
  [[33], (_, { g }) => g.save()],
  [[34], (rec, { g }) => g.restore(rec.at(8))],
  [[35, 36], worldTransform],
];

/** The object table: pens, brushes, fonts made, selected and deleted. */
const OBJECTS: [number[], RecordHandler][] = [
  [[37], (rec, { g, objects }) => { // SELECTOBJECT
    const ih = rec.u32(8);
    g.select(ih & 0x80000000 ? stockObject(ih & 0x7fffffff) : objects.get(ih));
  }],
  [[38], (rec, { objects }) => void objects.set(rec.at(8), { kind: 'pen', style: rec.at(12), width: rec.at(16), color: colorRef(rec.at(24)) })],
  [[95], (rec, { objects }) => { // EXTCREATEPEN
    const brushStyle = rec.at(36);
    objects.set(rec.at(8), { kind: 'pen', style: brushStyle === 1 ? 5 : rec.at(28), width: rec.at(32), color: colorRef(rec.at(40)) });
  }],
  [[39], (rec, { objects }) => void objects.set(rec.at(8), { kind: 'brush', style: rec.at(12) === 1 ? 1 : 0, color: colorRef(rec.at(16)) })],
  [[93, 94], patternBrush],
  [[82], createFont],
  [[40], (rec, { objects }) => void objects.delete(rec.at(8))],
  [[49, 99, 122], (rec, { objects }) => void objects.set(rec.at(8), { kind: 'other' })],
];

/** What is drawn: lines and shapes, path brackets, clipping, text and bitmaps. */
const DRAWING: [number[], RecordHandler][] = [
  [[2, 85, 5, 88, 3, 86, 4, 87, 6, 89], poly],
  [[7, 8, 90, 91], polyPoly],
  [[54], (rec, { g }) => { // LINETO
    g.shape(g.poly([[rec.at(8), rec.at(12)]], false, true), false, true);
    g.s.cp = [rec.at(8), rec.at(12)];
  }],
  [[42], (rec, { g }) => g.shape(g.ellipse(rec.at(8), rec.at(12), rec.at(16), rec.at(20)), true, true)],
  [[43], (rec, { g }) => g.shape(g.rect(rec.at(8), rec.at(12), rec.at(16), rec.at(20)), true, true)],
  [[44], (rec, { g }) => g.shape(g.roundRect(rec.at(8), rec.at(12), rec.at(16), rec.at(20), rec.at(24), rec.at(28)), true, true)],
  [[45, 46, 47, 55], (rec, { g }) => { // ARC, CHORD, PIE, ARCTO
    const kind = rec.type === 46 ? 1 : rec.type === 47 ? 2 : 0;
    g.shape(g.arc(kind, rec.at(8), rec.at(12), rec.at(16), rec.at(20), rec.at(24), rec.at(28), rec.at(32), rec.at(36)), kind !== 0, true);
  }],
  [[59], (_, { g }) => g.beginPath()],
  [[60, 68], (_, { g }) => g.endPath()],
  [[61], (_, { g }) => g.closeFigure()],
  [[62], (_, { g }) => g.drawPath(true, false)],
  [[63], (_, { g }) => g.drawPath(true, true)],
  [[64], (_, { g }) => g.drawPath(false, true)],
  [[67], (rec, { g }) => g.clipToPath(rec.at(8))], // SELECTCLIPPATH
  [[30], (rec, { g }) => g.intersectClip(rec.at(8), rec.at(12), rec.at(16), rec.at(20))], // INTERSECTCLIPRECT
  [[75], selectClipRegion],
  [[83, 84], textOut],
  [[76, 77, 114], blit],
  [[80, 81], dibToDevice],
];

/** Every record type the player draws, with its handler. */
export const EMF_RECORDS = new Map<number, RecordHandler>(
  [...STATE, ...OBJECTS, ...DRAWING].flatMap(([types, handler]) => types.map((t) => [t, handler] as const)),
);
