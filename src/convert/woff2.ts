/**
 * WOFF2 (W3C) unpacked to the TrueType/OpenType font inside it, for html-to-pdf's data: fonts:
 * the tables Brotli-decompressed (brotli, a JavaScript port of Google's decoder), the glyf and
 * loca tables rebuilt from their transformed streams and hmtx from its transformed form, as the
 * format's section 5 describes. Font collections are not read.
 */
import brotliDecompress from 'brotli/decompress';

const KNOWN_TAGS = ['cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'OS/2', 'post', 'cvt ', 'fpgm', 'glyf', 'loca', 'prep', 'CFF ', 'VORG', 'EBDT', 'EBLC', 'gasp', 'hdmx', 'kern', 'LTSH', 'PCLT', 'VDMX', 'vhea', 'vmtx', 'BASE', 'GDEF', 'GPOS', 'GSUB', 'EBSC', 'JSTF', 'MATH', 'CBDT', 'CBLC', 'COLR', 'CPAL', 'SVG ', 'sbix', 'acnt', 'avar', 'bdat', 'bloc', 'bsln', 'cvar', 'fdsc', 'feat', 'fmtx', 'fvar', 'gvar', 'hsty', 'just', 'lcar', 'mort', 'morx', 'opbd', 'prop', 'trak', 'Zapf', 'Silf', 'Glat', 'Gloc', 'Feat', 'Sill'];

export const isWoff2 = (b: Uint8Array): boolean => b[0] === 0x77 && b[1] === 0x4f && b[2] === 0x46 && b[3] === 0x32; // 'wOF2'

interface Entry {
  tag: string;
  data: Uint8Array;
}

class Reader {
  constructor(
    readonly b: Uint8Array,
    public at = 0,
  ) {}
  u8 = () => this.b[this.at++]!;
  u16 = () => (this.u8() << 8) | this.u8();
  i16 = () => (this.u16() << 16) >> 16;
  u32 = () => ((this.u16() << 16) | this.u16()) >>> 0;
  bytes = (n: number) => this.b.subarray(this.at, (this.at += n));
  /** UIntBase128: seven bits a byte, high bit set on all but the last. */
  base128 = () => {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = this.u8();
      value = value * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) return value;
    }
    throw new RangeError('WOFF2: a UIntBase128 runs over five bytes');
  };
  /** 255UInt16. */
  u255 = () => {
    const code = this.u8();
    if (code === 253) return this.u16();
    if (code === 255) return this.u8() + 253;
    if (code === 254) return this.u8() + 506;
    return code;
  };
}

/** The font inside a WOFF2 file. */
export function woff2ToSfnt(woff2: Uint8Array): Uint8Array {
  const r = new Reader(woff2);
  r.at = 4;
  const flavor = r.u32();
  if (flavor === 0x74746366) throw new RangeError('WOFF2: font collections are not read'); // 'ttcf'
  r.at = 12;
  const numTables = r.u16();
  r.at = 48;
  const directory: { tag: string; length: number; transform: number; transformed: boolean }[] = [];
  for (let i = 0; i < numTables; i++) {
    const flags = r.u8();
    const tag = (flags & 0x3f) === 63 ? String.fromCharCode(...r.bytes(4)) : KNOWN_TAGS[flags & 0x3f]!;
    const transform = flags >> 6;
    const origLength = r.base128();
    const transformed = tag === 'glyf' || tag === 'loca' ? transform === 0 : transform !== 0;
    const length = transformed ? r.base128() : origLength;
    directory.push({ tag, length, transform, transformed });
  }
  const stream = Uint8Array.from(brotliDecompress(woff2.subarray(r.at)));
  let offset = 0;
  const raw = new Map<string, { data: Uint8Array; transformed: boolean }>();
  for (const t of directory) {
    raw.set(t.tag, { data: stream.subarray(offset, offset + t.length), transformed: t.transformed });
    offset += t.length;
  }
  const tables: Entry[] = [];
  let glyfLoca: { glyf: Uint8Array; loca: Uint8Array; xMins: number[] } | undefined;
  const glyf = raw.get('glyf');
  if (glyf?.transformed) glyfLoca = rebuildGlyf(glyf.data);
  for (const t of directory) {
    const table = raw.get(t.tag)!;
    if (t.tag === 'glyf' && glyfLoca) tables.push({ tag: 'glyf', data: glyfLoca.glyf });
    else if (t.tag === 'loca' && glyfLoca) tables.push({ tag: 'loca', data: glyfLoca.loca });
    else if (t.tag === 'hmtx' && table.transformed) tables.push({ tag: 'hmtx', data: rebuildHmtx(table.data, raw, glyfLoca?.xMins ?? []) });
    else tables.push({ tag: t.tag, data: table.data });
  }
  return writeSfnt(flavor, tables);
}

/** glyf and loca from the transformed glyf table (section 5.1). */
function rebuildGlyf(data: Uint8Array): { glyf: Uint8Array; loca: Uint8Array; xMins: number[] } {
  const h = new Reader(data);
  h.u16(); // reserved
  const optionFlags = h.u16();
  const numGlyphs = h.u16();
  const indexFormat = h.u16();
  const sizes = Array.from({ length: 7 }, () => h.u32());
  let at = h.at;
  const streams = sizes.map((size) => {
    const s = new Reader(data.subarray(at, at + size));
    at += size;
    return s;
  });
  const [nContours, nPoints, flags, glyphs, composites, bboxes, instructions] = streams as [Reader, Reader, Reader, Reader, Reader, Reader, Reader];
  void optionFlags; // bit 0: an overlap bitmap follows, which TrueType keeps in the flags; not needed to draw
  const bboxBitmap = bboxes.bytes(((numGlyphs + 31) >> 5) * 4);
  const hasBox = (i: number) => (bboxBitmap[i >> 3]! & (0x80 >> (i & 7))) !== 0;
  const out: Uint8Array[] = [];
  const offsets: number[] = [0];
  const xMins: number[] = [];
  let total = 0;
  for (let g = 0; g < numGlyphs; g++) {
    const contours = nContours.i16();
    let glyph: Uint8Array;
    if (contours === 0) {
      glyph = new Uint8Array(0);
      xMins.push(0);
    } else if (contours > 0) {
      glyph = simpleGlyph(contours, nPoints, flags, glyphs, instructions, hasBox(g) ? bboxes : undefined);
      xMins.push(glyph.length ? new DataView(glyph.buffer).getInt16(2) : 0);
    } else {
      glyph = compositeGlyph(composites, glyphs, instructions, bboxes);
      xMins.push(new DataView(glyph.buffer).getInt16(2));
    }
    const padded = (glyph.length + 3) & ~3;
    const copy = new Uint8Array(padded);
    copy.set(glyph);
    out.push(copy);
    total += padded;
    offsets.push(total);
  }
  const glyf = new Uint8Array(total);
  let o = 0;
  for (const piece of out) {
    glyf.set(piece, o);
    o += piece.length;
  }
  const loca = new Uint8Array(offsets.length * (indexFormat ? 4 : 2));
  const lv = new DataView(loca.buffer);
  offsets.forEach((value, i) => (indexFormat ? lv.setUint32(i * 4, value) : lv.setUint16(i * 2, value / 2)));
  return { glyf, loca, xMins };
}

function simpleGlyph(contours: number, nPoints: Reader, flags: Reader, glyphs: Reader, instructions: Reader, bboxes: Reader | undefined): Uint8Array {
  const endPts: number[] = [];
  let points = 0;
  for (let c = 0; c < contours; c++) endPts.push((points += nPoints.u255()) - 1);
  const xs: number[] = [];
  const ys: number[] = [];
  const on: boolean[] = [];
  let [x, y] = [0, 0];
  for (let p = 0; p < points; p++) {
    const flag = flags.u8();
    const [dx, dy] = triplet(flag & 0x7f, glyphs);
    x += dx;
    y += dy;
    xs.push(x);
    ys.push(y);
    on.push(!(flag & 0x80));
  }
  const instructionLength = glyphs.u255();
  const code = instructions.bytes(instructionLength);
  const box = bboxes ? [bboxes.i16(), bboxes.i16(), bboxes.i16(), bboxes.i16()] : [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  // Every coordinate as a 16-bit delta: plain, and what any TrueType reader takes.
  const size = 10 + 2 * contours + 2 + instructionLength + points + 4 * points;
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  v.setInt16(0, contours);
  box.forEach((value, i) => v.setInt16(2 + 2 * i, value!));
  endPts.forEach((value, i) => v.setUint16(10 + 2 * i, value));
  let at = 10 + 2 * contours;
  v.setUint16(at, instructionLength);
  out.set(code, at + 2);
  at += 2 + instructionLength;
  for (let p = 0; p < points; p++) out[at++] = on[p] ? 1 : 0;
  for (let p = 0; p < points; p++, at += 2) v.setInt16(at, xs[p]! - (p ? xs[p - 1]! : 0));
  for (let p = 0; p < points; p++, at += 2) v.setInt16(at, ys[p]! - (p ? ys[p - 1]! : 0));
  return out;
}

/** A point's deltas from its flag and the glyph stream (the format's triplet encoding). */
function triplet(flag: number, s: Reader): [number, number] {
  const sign = (f: number, value: number) => (f & 1 ? value : -value);
  if (flag < 10) return [0, sign(flag, ((flag & 14) << 7) + s.u8())];
  if (flag < 20) return [sign(flag, (((flag - 10) & 14) << 7) + s.u8()), 0];
  if (flag < 84) {
    const [b0, b1] = [flag - 20, s.u8()];
    return [sign(flag, 1 + (b0 & 0x30) + (b1 >> 4)), sign(flag >> 1, 1 + ((b0 & 0x0c) << 2) + (b1 & 0x0f))];
  }
  if (flag < 120) {
    const b0 = flag - 84;
    const [x, y] = [s.u8(), s.u8()];
    return [sign(flag, 1 + (Math.floor(b0 / 12) << 8) + x), sign(flag >> 1, 1 + (((b0 % 12) >> 2) << 8) + y)];
  }
  if (flag < 124) {
    const [a, b, c] = [s.u8(), s.u8(), s.u8()];
    return [sign(flag, (a << 4) + (b >> 4)), sign(flag >> 1, ((b & 0x0f) << 8) + c)];
  }
  const [a, b, c, d] = [s.u8(), s.u8(), s.u8(), s.u8()];
  return [sign(flag, (a << 8) + b), sign(flag >> 1, (c << 8) + d)];
}

function compositeGlyph(composites: Reader, glyphs: Reader, instructions: Reader, bboxes: Reader): Uint8Array {
  const start = composites.at;
  let haveInstructions = false;
  for (let more = true; more; ) {
    const flags = composites.u16();
    composites.u16(); // glyph index
    composites.bytes(flags & 0x0001 ? 4 : 2);
    composites.bytes(flags & 0x0008 ? 2 : flags & 0x0040 ? 4 : flags & 0x0080 ? 8 : 0);
    haveInstructions ||= (flags & 0x0100) !== 0;
    more = (flags & 0x0020) !== 0;
  }
  const components = composites.b.subarray(start, composites.at);
  const instructionLength = haveInstructions ? glyphs.u255() : 0;
  const code = instructions.bytes(instructionLength);
  const out = new Uint8Array(10 + components.length + (haveInstructions ? 2 + instructionLength : 0));
  const v = new DataView(out.buffer);
  v.setInt16(0, -1);
  for (let i = 0; i < 4; i++) v.setInt16(2 + 2 * i, bboxes.i16());
  out.set(components, 10);
  if (haveInstructions) {
    v.setUint16(10 + components.length, instructionLength);
    out.set(code, 12 + components.length);
  }
  return out;
}

/** hmtx from its transformed form (section 5.4): left side bearings left out are the glyphs' xMin. */
function rebuildHmtx(data: Uint8Array, raw: Map<string, { data: Uint8Array }>, xMins: number[]): Uint8Array {
  const hhea = raw.get('hhea')!.data;
  const maxp = raw.get('maxp')!.data;
  const numberOfHMetrics = (hhea[34]! << 8) | hhea[35]!;
  const numGlyphs = (maxp[4]! << 8) | maxp[5]!;
  const r = new Reader(data);
  const flags = r.u8();
  const advances = Array.from({ length: numberOfHMetrics }, () => r.u16());
  const lsbs = Array.from({ length: numberOfHMetrics }, (_, i) => (flags & 1 ? (xMins[i] ?? 0) : r.i16()));
  const monoLsbs = Array.from({ length: numGlyphs - numberOfHMetrics }, (_, i) => (flags & 2 ? (xMins[numberOfHMetrics + i] ?? 0) : r.i16()));
  const out = new Uint8Array(4 * numberOfHMetrics + 2 * monoLsbs.length);
  const v = new DataView(out.buffer);
  advances.forEach((a, i) => {
    v.setUint16(4 * i, a);
    v.setInt16(4 * i + 2, lsbs[i]!);
  });
  monoLsbs.forEach((l, i) => v.setInt16(4 * numberOfHMetrics + 2 * i, l));
  return out;
}

function writeSfnt(flavor: number, tables: Entry[]): Uint8Array {
  const sorted = [...tables].sort((a, b) => (a.tag < b.tag ? -1 : 1));
  const headerSize = 12 + 16 * sorted.length;
  const out = new Uint8Array(sorted.reduce((sum, t) => sum + ((t.data.length + 3) & ~3), headerSize));
  const v = new DataView(out.buffer);
  const entrySelector = Math.floor(Math.log2(sorted.length));
  v.setUint32(0, flavor);
  v.setUint16(4, sorted.length);
  v.setUint16(6, 16 << entrySelector);
  v.setUint16(8, entrySelector);
  v.setUint16(10, sorted.length * 16 - (16 << entrySelector));
  let offset = headerSize;
  sorted.forEach((t, i) => {
    for (let k = 0; k < 4; k++) out[12 + 16 * i + k] = t.tag.charCodeAt(k);
    v.setUint32(20 + 16 * i, offset);
    v.setUint32(24 + 16 * i, t.data.length);
    out.set(t.data, offset);
    offset += (t.data.length + 3) & ~3;
  });
  return out;
}
