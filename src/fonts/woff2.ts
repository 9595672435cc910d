/**
 * WOFF2 (W3C) unpacked to the TrueType/OpenType font inside it, for html-to-pdf's data: fonts:
 * the tables Brotli-decompressed (the runtime's native node:zlib; see nativeBrotli), the glyf and
 * loca tables rebuilt from their transformed streams and hmtx from its transformed form, as the
 * format's section 5 describes. Font collections are not read.
 *
 * Every read is checked against the end of what it reads (the file, the decompressed stream, each
 * of the transformed glyf table's streams): a truncated file or a lying length raises a RangeError
 * saying what ended early, never reads past it or takes garbage. Sizes are checked against the
 * font limits (sfnt.ts) before anything is allocated from them, and the Brotli output is bounded
 * by what the directory declares; past a limit, LimitExceeded.
 */
import { brotliDecompressSync } from 'node:zlib';
import { knownSizeInflate } from '../codecs/native-zlib';
import { LimitExceeded, requireAtMost } from '../lib/limits';
import { MAX_FONT_BYTES, MAX_FONT_TABLES, fontMb } from './sfnt';

const KNOWN_TAGS = ['cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'OS/2', 'post', 'cvt ', 'fpgm', 'glyf', 'loca', 'prep', 'CFF ', 'VORG', 'EBDT', 'EBLC', 'gasp', 'hdmx', 'kern', 'LTSH', 'PCLT', 'VDMX', 'vhea', 'vmtx', 'BASE', 'GDEF', 'GPOS', 'GSUB', 'EBSC', 'JSTF', 'MATH', 'CBDT', 'CBLC', 'COLR', 'CPAL', 'SVG ', 'sbix', 'acnt', 'avar', 'bdat', 'bloc', 'bsln', 'cvar', 'fdsc', 'feat', 'fmtx', 'fvar', 'gvar', 'hsty', 'just', 'lcar', 'mort', 'morx', 'opbd', 'prop', 'trak', 'Zapf', 'Silf', 'Glat', 'Gloc', 'Feat', 'Sill'];

export const isWoff2 = (b: Uint8Array): boolean => b[0] === 0x77 && b[1] === 0x4f && b[2] === 0x46 && b[3] === 0x32; // 'wOF2'

/** The WOFF2 header's size: the table directory starts here. */
const HEADER_BYTES = 48;

/** Brotli's decoder: the decompressed bytes of `data`, at most `outSize` of them (it throws past that). */
export type Decompress = (data: Uint8Array, outSize: number) => Uint8Array;

/**
 * The runtime's native Brotli (node:zlib, C++ in workerd and in Node), bounded as native-zlib.ts
 * bounds inflates (workerd grows its buffer in steps: 2x + 64 KiB, the length checked after). The
 * brotli package's JavaScript decoder did not stop at its output size: a 220 KB font whose stream
 * unpacks to 512 MB decoded for 83 s through the service; this one stops within milliseconds.
 */
export const nativeBrotli: Decompress = (data, outSize) => {
  try {
    return brotliDecompressSync(data, knownSizeInflate(outSize));
  } catch (e) {
    if (/memory limit|buffer|too large|exceed/i.test(String(e))) throw new Error('Output buffer is not large enough');
    throw e;
  }
};

interface Entry {
  tag: string;
  data: Uint8Array;
}

const damaged = (why: string) => new RangeError(`WOFF2: ${why}`);

/** Big-endian reads over `b`, each checked against its end (`what` names it in the error). */
class Reader {
  constructor(
    readonly b: Uint8Array,
    readonly what: string,
    public at = 0,
  ) {}
  get left(): number {
    return this.b.length - this.at;
  }
  private need(n: number): void {
    if (!(n <= this.b.length - this.at)) throw damaged(`the ${this.what} ends early (${n} bytes wanted at ${this.at} of ${this.b.length})`);
  }
  u8 = () => {
    this.need(1);
    return this.b[this.at++]!;
  };
  u16 = () => {
    this.need(2);
    const v = (this.b[this.at]! << 8) | this.b[this.at + 1]!;
    this.at += 2;
    return v;
  };
  i16 = () => (this.u16() << 16) >> 16;
  u32 = () => {
    this.need(4);
    const v = ((this.b[this.at]! << 24) | (this.b[this.at + 1]! << 16) | (this.b[this.at + 2]! << 8) | this.b[this.at + 3]!) >>> 0;
    this.at += 4;
    return v;
  };
  bytes = (n: number) => {
    this.need(n);
    return this.b.subarray(this.at, (this.at += n));
  };
  /** The next `n` bytes as a Reader of their own, named `what`. */
  sub = (n: number, what: string) => new Reader(this.bytes(n), what);
  /** UIntBase128: seven bits a byte, high bit set on all but the last; no leading zeros, at most 2^32 - 1. */
  base128 = () => {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = this.u8();
      if (i === 0 && byte === 0x80) throw damaged(`a UIntBase128 in the ${this.what} has a leading zero`);
      value = value * 128 + (byte & 0x7f);
      if (value > 0xffffffff) throw damaged(`a UIntBase128 in the ${this.what} is past 2^32`);
      if (!(byte & 0x80)) return value;
    }
    throw damaged(`a UIntBase128 in the ${this.what} runs over five bytes`);
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

/** A table's size as the directory declares it, checked against the font limit before anything is made from it. */
function tableSize(tag: string, value: number, which: string): number {
  requireAtMost(value, MAX_FONT_BYTES, 'font_table_size', () => `a WOFF2 font's ${tag.trim()} table declares ${fontMb(value)} (${which}); at most ${fontMb(MAX_FONT_BYTES)} is read`);
  return value;
}

/** The font inside a WOFF2 file; RangeError when it is damaged, LimitExceeded past the font limits. */
export function woff2ToSfnt(woff2: Uint8Array, decompress: Decompress = nativeBrotli): Uint8Array {
  const r = new Reader(woff2, 'WOFF2 header');
  if (woff2.length < HEADER_BYTES || !isWoff2(woff2)) throw damaged(`not a WOFF2 file (${woff2.length} bytes)`);
  r.at = 4;
  const flavor = r.u32();
  if (flavor === 0x74746366) throw damaged('font collections are not read'); // 'ttcf'
  r.at = 12;
  const numTables = r.u16();
  r.u16(); // reserved
  const totalSfntSize = r.u32();
  const totalCompressedSize = r.u32();
  if (!numTables) throw damaged('the font has no tables');
  requireAtMost(numTables, MAX_FONT_TABLES, 'font_tables', () => `a WOFF2 font has ${numTables} tables; at most ${MAX_FONT_TABLES} are read`);
  requireAtMost(totalSfntSize, MAX_FONT_BYTES, 'font_size', () => `a WOFF2 font unpacks to ${fontMb(totalSfntSize)}; at most ${fontMb(MAX_FONT_BYTES)} is read`);

  const d = new Reader(woff2, 'WOFF2 table directory', HEADER_BYTES);
  const directory: { tag: string; length: number; transformed: boolean }[] = [];
  const seen = new Set<string>();
  let streamSize = 0;
  for (let i = 0; i < numTables; i++) {
    const flags = d.u8();
    const tag = (flags & 0x3f) === 63 ? String.fromCharCode(...d.bytes(4)) : KNOWN_TAGS[flags & 0x3f]!;
    if (tag === undefined) throw damaged(`table ${i} has the unknown tag index ${flags & 0x3f}`);
    if (seen.has(tag)) throw damaged(`the ${tag} table appears twice`);
    seen.add(tag);
    const transform = flags >> 6;
    const origLength = tableSize(tag, d.base128(), 'origLength');
    // glyf and loca: version 0 is the transform, 3 none; every other table: 0 none, and only hmtx has one (1).
    const transformed = tag === 'glyf' || tag === 'loca' ? transform === 0 : transform !== 0;
    if (transformed && !(tag === 'glyf' || tag === 'loca' || (tag === 'hmtx' && transform === 1))) throw damaged(`the ${tag} table has the unknown transform ${transform}`);
    const length = transformed ? tableSize(tag, d.base128(), 'transformLength') : origLength;
    if (tag === 'loca' && transformed && length !== 0) throw damaged('a transformed loca table has data of its own');
    streamSize += length;
    requireAtMost(streamSize, MAX_FONT_BYTES, 'font_size', () => `a WOFF2 font's tables add up to more than ${fontMb(MAX_FONT_BYTES)}; at most that is read`);
    directory.push({ tag, length, transformed });
  }
  const glyfEntry = directory.find((t) => t.tag === 'glyf');
  const locaEntry = directory.find((t) => t.tag === 'loca');
  if (!!glyfEntry !== !!locaEntry || (glyfEntry && glyfEntry.transformed !== locaEntry!.transformed)) throw damaged('glyf and loca must come together, both transformed or neither');

  // The compressed stream: totalCompressedSize bytes after the directory (the file may hold metadata after it).
  if (totalCompressedSize > d.left) throw damaged(`the compressed data declares ${totalCompressedSize} bytes; the file has ${d.left} after the directory`);
  let stream: Uint8Array;
  try {
    // Never more than the tables declared: the decoder writes into a buffer of that size and stops past it.
    stream = decompress(woff2.subarray(d.at, d.at + totalCompressedSize), streamSize);
  } catch (e) {
    const message = (e as Error).message;
    throw damaged(/not large enough/.test(message) ? `the compressed data unpacks to more than the ${streamSize} bytes the table directory declares` : `the compressed data does not decompress (${message})`);
  }
  if (stream.length !== streamSize) throw damaged(`the compressed data unpacks to ${stream.length} bytes; the table directory declares ${streamSize}`);

  let offset = 0;
  const raw = new Map<string, { data: Uint8Array; transformed: boolean }>();
  for (const t of directory) {
    raw.set(t.tag, { data: stream.subarray(offset, offset + t.length), transformed: t.transformed });
    offset += t.length;
  }
  let glyfLoca: { glyf: Uint8Array; loca: Uint8Array; xMins: Int16Array; longLoca: boolean } | undefined;
  const glyf = raw.get('glyf');
  if (glyf?.transformed) glyfLoca = rebuildGlyf(glyf.data);
  const tables: Entry[] = [];
  for (const t of directory) {
    const table = raw.get(t.tag)!;
    if (t.tag === 'glyf' && glyfLoca) tables.push({ tag: 'glyf', data: glyfLoca.glyf });
    else if (t.tag === 'loca' && glyfLoca) tables.push({ tag: 'loca', data: glyfLoca.loca });
    else if (t.tag === 'hmtx' && table.transformed) tables.push({ tag: 'hmtx', data: rebuildHmtx(table.data, raw, glyfLoca?.xMins) });
    else if (t.tag === 'head' && glyfLoca?.longLoca) tables.push({ tag: 'head', data: withLongLoca(table.data) });
    else tables.push({ tag: t.tag, data: table.data });
  }
  return writeSfnt(flavor, tables);
}

/** The head table saying that loca holds 32-bit offsets (indexToLocFormat 1). */
function withLongLoca(head: Uint8Array): Uint8Array {
  if (head.length < 54) throw damaged(`the head table has ${head.length} bytes, fewer than 54`);
  const copy = head.slice();
  copy[50] = 0;
  copy[51] = 1;
  return copy;
}

/** glyf and loca from the transformed glyf table (section 5.1). */
function rebuildGlyf(data: Uint8Array): { glyf: Uint8Array; loca: Uint8Array; xMins: Int16Array; longLoca: boolean } {
  const h = new Reader(data, 'transformed glyf table');
  h.u16(); // reserved
  h.u16(); // optionFlags: bit 0, an overlap bitmap after the streams, which TrueType keeps in the flags; not needed to draw
  const numGlyphs = h.u16();
  const indexFormat = h.u16();
  const names = ['nContour', 'nPoints', 'flag', 'glyph', 'composite', 'bbox', 'instruction'];
  const sizes = names.map(() => h.u32());
  const [nContours, nPoints, flags, glyphs, composites, bboxes, instructions] = names.map((name, i) => h.sub(sizes[i]!, `glyf ${name} stream`)) as [Reader, Reader, Reader, Reader, Reader, Reader, Reader];
  // A glyph is its contour count (two bytes) at least: more glyphs than that stream holds is a lie.
  if (nContours.left < 2 * numGlyphs) throw damaged(`the glyf table declares ${numGlyphs} glyphs; its nContour stream holds ${nContours.left / 2}`);
  const bboxBitmap = bboxes.bytes(((numGlyphs + 31) >> 5) * 4);
  const hasBox = (i: number) => (bboxBitmap[i >> 3]! & (0x80 >> (i & 7))) !== 0;
  const out: Uint8Array[] = [];
  const offsets = new Uint32Array(numGlyphs + 1);
  const xMins = new Int16Array(numGlyphs);
  let total = 0;
  for (let g = 0; g < numGlyphs; g++) {
    const contours = nContours.i16();
    let glyph: Uint8Array;
    if (contours === 0) {
      if (hasBox(g)) throw damaged(`glyph ${g} is empty but has a bounding box`);
      glyph = new Uint8Array(0);
    } else if (contours > 0) {
      glyph = simpleGlyph(contours, nPoints, flags, glyphs, instructions, hasBox(g) ? bboxes : undefined);
      xMins[g] = ((glyph[2]! << 24) >> 16) | glyph[3]!;
    } else {
      if (!hasBox(g)) throw damaged(`composite glyph ${g} has no bounding box`);
      glyph = compositeGlyph(composites, glyphs, instructions, bboxes);
      xMins[g] = ((glyph[2]! << 24) >> 16) | glyph[3]!;
    }
    out.push(glyph);
    total += (glyph.length + 3) & ~3;
    requireAtMost(total, MAX_FONT_BYTES, 'font_size', () => `a WOFF2 font's glyphs unpack to more than ${fontMb(MAX_FONT_BYTES)}; at most that is read`);
    offsets[g + 1] = total;
  }
  const glyf = new Uint8Array(total);
  let o = 0;
  for (const piece of out) {
    glyf.set(piece, o);
    o += (piece.length + 3) & ~3;
  }
  // Glyphs are written with every coordinate 16 bits wide, so the table can outgrow short offsets
  // (at most 128 KB): then loca is written long and head says so.
  const longLoca = indexFormat !== 0 || total > 0x1fffe;
  const loca = new Uint8Array(offsets.length * (longLoca ? 4 : 2));
  const lv = new DataView(loca.buffer);
  offsets.forEach((value, i) => (longLoca ? lv.setUint32(i * 4, value) : lv.setUint16(i * 2, value / 2)));
  return { glyf, loca, xMins, longLoca: longLoca && indexFormat === 0 };
}

function simpleGlyph(contours: number, nPoints: Reader, flags: Reader, glyphs: Reader, instructions: Reader, bboxes: Reader | undefined): Uint8Array {
  const endPts = new Uint16Array(contours);
  let points = 0;
  for (let c = 0; c < contours; c++) {
    points += nPoints.u255();
    if (points > 0xffff) throw damaged(`a glyph has ${points} points, more than TrueType counts`);
    endPts[c] = points - 1;
  }
  // A point is one flag byte: more points than the flag stream has left is a lie, refused before the arrays are made.
  if (points > flags.left) throw damaged(`a glyph declares ${points} points; the flag stream has ${flags.left} bytes left`);
  const xs = new Int32Array(points);
  const ys = new Int32Array(points);
  const on = new Uint8Array(points);
  let [x, y] = [0, 0];
  for (let p = 0; p < points; p++) {
    const flag = flags.u8();
    const [dx, dy] = triplet(flag & 0x7f, glyphs);
    x += dx;
    y += dy;
    xs[p] = x;
    ys[p] = y;
    on[p] = flag & 0x80 ? 0 : 1;
  }
  const instructionLength = glyphs.u255();
  const code = instructions.bytes(instructionLength);
  let box: number[];
  if (bboxes) box = [bboxes.i16(), bboxes.i16(), bboxes.i16(), bboxes.i16()];
  else {
    box = points ? [xs[0]!, ys[0]!, xs[0]!, ys[0]!] : [0, 0, 0, 0];
    for (let p = 1; p < points; p++) box = [Math.min(box[0]!, xs[p]!), Math.min(box[1]!, ys[p]!), Math.max(box[2]!, xs[p]!), Math.max(box[3]!, ys[p]!)];
  }
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
  out.set(on, at);
  at += points;
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
function rebuildHmtx(data: Uint8Array, raw: Map<string, { data: Uint8Array }>, xMins: Int16Array | undefined): Uint8Array {
  const hhea = raw.get('hhea')?.data;
  const maxp = raw.get('maxp')?.data;
  if (!hhea || hhea.length < 36 || !maxp || maxp.length < 6) throw damaged('a transformed hmtx table needs hhea and maxp tables, which are missing or short');
  const numberOfHMetrics = (hhea[34]! << 8) | hhea[35]!;
  const numGlyphs = (maxp[4]! << 8) | maxp[5]!;
  if (numberOfHMetrics < 1 || numberOfHMetrics > numGlyphs) throw damaged(`hhea declares ${numberOfHMetrics} metrics for the ${numGlyphs} glyphs maxp counts`);
  if (xMins && xMins.length !== numGlyphs) throw damaged(`maxp counts ${numGlyphs} glyphs, the glyf table ${xMins.length}`);
  const r = new Reader(data, 'transformed hmtx table');
  const flags = r.u8();
  if (flags & 0xfc) throw damaged(`the transformed hmtx table has the reserved flags ${flags}`);
  if (flags && !xMins) throw damaged('a transformed hmtx table leaves out side bearings, but glyf is not transformed');
  const out = new Uint8Array(4 * numberOfHMetrics + 2 * (numGlyphs - numberOfHMetrics));
  const v = new DataView(out.buffer);
  for (let i = 0; i < numberOfHMetrics; i++) v.setUint16(4 * i, r.u16());
  for (let i = 0; i < numberOfHMetrics; i++) v.setInt16(4 * i + 2, flags & 1 ? xMins![i]! : r.i16());
  for (let i = numberOfHMetrics; i < numGlyphs; i++) v.setInt16(4 * numberOfHMetrics + 2 * (i - numberOfHMetrics), flags & 2 ? xMins![i]! : r.i16());
  return out;
}

function writeSfnt(flavor: number, tables: Entry[]): Uint8Array {
  const sorted = [...tables].sort((a, b) => (a.tag < b.tag ? -1 : 1));
  const headerSize = 12 + 16 * sorted.length;
  const size = sorted.reduce((sum, t) => sum + ((t.data.length + 3) & ~3), headerSize);
  if (size > MAX_FONT_BYTES) throw new LimitExceeded('font_size', `a WOFF2 font unpacks to ${fontMb(size)}; at most ${fontMb(MAX_FONT_BYTES)} is read`);
  const out = new Uint8Array(size);
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
