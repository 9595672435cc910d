/**
 * WOFF2 and WOFF limits (src/fonts/woff2.ts, src/fonts/sfnt.ts): every read bounded, sizes
 * checked before anything is allocated from them. Brotli does not load inside the test runner
 * (see test/html-to-pdf.test.ts), so these WOFF2 files carry their tables as they are and the
 * test's decoder hands them back, bounded as brotli's is by the size it is given.
 */
import { describe, expect, it } from 'vitest';
import { zlibSync } from 'fflate';
import { woff2ToSfnt, type Decompress } from '../src/fonts/woff2';
import { MAX_FONT_BYTES, woffToSfnt } from '../src/fonts/sfnt';
import { LimitExceeded } from '../src/lib/limits';

const TAGS = ['cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'OS/2', 'post', 'cvt ', 'fpgm', 'glyf', 'loca'];

const base128 = (n: number): number[] => {
  const out = [n & 0x7f];
  for (n = Math.floor(n / 128); n > 0; n = Math.floor(n / 128)) out.unshift(0x80 | (n & 0x7f));
  return out;
};
const u16 = (n: number) => [(n >> 8) & 255, n & 255];
const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

interface Woff2Table {
  tag: string;
  data: Uint8Array;
  /** What the directory says; the data's length unless the test lies. */
  origLength?: number;
  /** glyf and loca: transformed (version 0). */
  transformed?: boolean;
  /** What the directory says of a transformed table's data; its length unless the test lies. */
  transformLength?: number;
}

/** A WOFF2 file of `tables`, its "compressed" stream the tables as they are. */
function woff2(tables: Woff2Table[], header: { numTables?: number; totalSfntSize?: number; totalCompressedSize?: number } = {}): Uint8Array {
  const dir: number[] = [];
  for (const t of tables) {
    const known = TAGS.indexOf(t.tag);
    const version = t.tag === 'glyf' || t.tag === 'loca' ? (t.transformed ? 0 : 3) : 0;
    dir.push((version << 6) | (known >= 0 ? known : 63), ...(known >= 0 ? [] : [...t.tag].map((c) => c.charCodeAt(0))));
    dir.push(...base128(t.origLength ?? t.data.length));
    if (t.transformed) dir.push(...base128(t.transformLength ?? t.data.length));
  }
  const stream = new Uint8Array(tables.reduce((n, t) => n + t.data.length, 0));
  let at = 0;
  for (const t of tables) (stream.set(t.data, at), (at += t.data.length));
  const head = [
    ...[0x77, 0x4f, 0x46, 0x32], ...u32(0x00010000), ...u32(48 + dir.length + stream.length),
    ...u16(header.numTables ?? tables.length), ...u16(0), ...u32(header.totalSfntSize ?? 12 + 16 * tables.length + stream.length),
    ...u32(header.totalCompressedSize ?? stream.length), ...new Array(24).fill(0),
  ];
  return new Uint8Array([...head, ...dir, ...stream]);
}

/** The test's decoder: the data as it is, and like brotli's never more than `outSize` bytes. */
const calls: number[] = [];
const identity: Decompress = (data, outSize) => {
  calls.push(outSize);
  if (data.length > outSize) throw new Error('Output buffer is not large enough');
  return data.slice();
};

/** A transformed glyf table (WOFF2 section 5.1) of simple glyphs, each a list of [flag, glyph stream bytes] points. */
function transformedGlyf(glyphs: { points: [number, number[]][] }[], options: { numGlyphs?: number; flagStreamCut?: number } = {}): Uint8Array {
  const nContour: number[] = [], nPoints: number[] = [], flags: number[] = [], glyph: number[] = [];
  for (const g of glyphs) {
    nContour.push(...u16(1));
    const n = g.points.length;
    nPoints.push(...(n < 253 ? [n] : [253, ...u16(n)]));
    for (const [flag, bytes] of g.points) (flags.push(flag), glyph.push(...bytes));
    glyph.push(0); // no instructions
  }
  const numGlyphs = options.numGlyphs ?? glyphs.length;
  const bbox = new Array(((numGlyphs + 31) >> 5) * 4).fill(0);
  const cutFlags = flags.slice(0, options.flagStreamCut ?? flags.length);
  const streams = [nContour, nPoints, cutFlags, glyph, [], bbox, []];
  return new Uint8Array([...u16(0), ...u16(0), ...u16(numGlyphs), ...u16(0), ...streams.flatMap((s) => u32(s.length)), ...streams.flat()]);
}

/** The tables of an sfnt by tag. */
function sfntTables(font: Uint8Array): Map<string, Uint8Array> {
  const v = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const out = new Map<string, Uint8Array>();
  for (let i = 0; i < v.getUint16(4); i++) {
    const at = 12 + 16 * i;
    out.set(String.fromCharCode(...font.subarray(at, at + 4)), font.subarray(v.getUint32(at + 8), v.getUint32(at + 8) + v.getUint32(at + 12)));
  }
  return out;
}

const head = () => new Uint8Array(54);
// A triangle: (0,0), (0,100), (100,100), by the triplet encoding's one-byte deltas.
const triangle = { points: [[1, [0]], [1, [100]], [11, [100]]] as [number, number[]][] };

const thrown = (f: () => unknown): Error => {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('nothing thrown');
};

describe('WOFF2 limits and bounds', () => {
  it('a transformed glyf table is rebuilt into glyf and loca (the reader works)', () => {
    const font = woff2ToSfnt(woff2([{ tag: 'head', data: head() }, { tag: 'glyf', data: transformedGlyf([triangle]), origLength: 100, transformed: true }, { tag: 'loca', data: new Uint8Array(0), origLength: 4, transformed: true }]), identity);
    const t = sfntTables(font);
    const glyf = t.get('glyf')!;
    expect([...glyf.subarray(0, 10)]).toEqual([0, 1, 0, 0, 0, 0, 0, 100, 0, 100]); // one contour, box (0,0)-(100,100)
    expect([...t.get('loca')!]).toEqual([0, 0, 0, glyf.length / 2]);
  });

  it('glyphs that outgrow short loca offsets get long ones, and head says so', () => {
    const big = { points: Array.from({ length: 30_000 }, () => [1, [0]] as [number, number[]]) };
    const t = sfntTables(woff2ToSfnt(woff2([{ tag: 'head', data: head() }, { tag: 'glyf', data: transformedGlyf([big]), transformed: true }, { tag: 'loca', data: new Uint8Array(0), origLength: 4, transformed: true }]), identity));
    expect(t.get('glyf')!.length).toBeGreaterThan(0x1fffe);
    expect(t.get('loca')!.length).toBe(8);
    expect(t.get('head')![51]).toBe(1);
  });

  it('sizes past the limit are refused from the header and directory, before the decoder is called', () => {
    calls.length = 0;
    const sfnt = thrown(() => woff2ToSfnt(woff2([{ tag: 'head', data: head() }], { totalSfntSize: 2_000_000_000 }), identity));
    expect(sfnt).toBeInstanceOf(LimitExceeded);
    expect((sfnt as LimitExceeded).limit).toBe('font_size');
    expect(sfnt.message).toBe('a WOFF2 font unpacks to 2.0 GB; at most 32 MB is read');
    const table = thrown(() => woff2ToSfnt(woff2([{ tag: 'glyf', data: new Uint8Array(10), origLength: 0xfffffff0 }, { tag: 'loca', data: new Uint8Array(0) }]), identity));
    expect((table as LimitExceeded).limit).toBe('font_table_size');
    expect(table.message).toMatch(/glyf table declares 4\.3 GB \(origLength\)/);
    const transform = thrown(() => woff2ToSfnt(woff2([{ tag: 'glyf', data: new Uint8Array(10), transformed: true, transformLength: 1 << 30 }, { tag: 'loca', data: new Uint8Array(0), transformed: true }]), identity));
    expect(transform.message).toMatch(/glyf table declares 1\.1 GB \(transformLength\)/);
    const many = thrown(() => woff2ToSfnt(woff2([{ tag: 'head', data: head() }], { numTables: 5000 }), identity));
    expect((many as LimitExceeded).limit).toBe('font_tables');
    // Tables that each fit but add up past the limit.
    const sum = thrown(() => woff2ToSfnt(woff2(['cmap', 'name', 'post'].map((tag) => ({ tag, data: new Uint8Array(1), origLength: MAX_FONT_BYTES / 2 }))), identity));
    expect((sum as LimitExceeded).limit).toBe('font_size');
    expect(calls).toEqual([]); // nothing decompressed, nothing allocated from the lying sizes
  });

  it('the decoder is bounded by the sizes the directory declares: data that unpacks to more, or less, is damage', () => {
    calls.length = 0;
    const file = woff2([{ tag: 'head', data: head() }, { tag: 'name', data: new Uint8Array(100), origLength: 40 }]);
    const longer = thrown(() => woff2ToSfnt(file, identity));
    expect(calls).toEqual([94]); // 54 + 40: not the 154 the stream holds
    expect(longer).toBeInstanceOf(RangeError);
    expect(longer.message).toBe('WOFF2: the compressed data unpacks to more than the 94 bytes the table directory declares');
    const shorter = thrown(() => woff2ToSfnt(woff2([{ tag: 'head', data: head() }, { tag: 'name', data: new Uint8Array(10), origLength: 40 }]), (d) => d.slice()));
    expect(shorter.message).toMatch(/unpacks to 64 bytes; the table directory declares 94/);
  });

  it('a truncated file, a directory past its end and compressed data past the file raise a clear RangeError', () => {
    const file = woff2([{ tag: 'head', data: head() }, { tag: 'XYZW', data: new Uint8Array(8) }]);
    for (const n of [0, 10, 47, 49, 51, 53]) {
      const e = thrown(() => woff2ToSfnt(file.subarray(0, n), identity));
      expect(e, `${n} bytes`).toBeInstanceOf(RangeError);
      expect(e.message, `${n} bytes`).toMatch(/^WOFF2: (not a WOFF2 file|the WOFF2 table directory ends early)/);
    }
    expect(thrown(() => woff2ToSfnt(file.subarray(0, file.length - 1), identity)).message).toMatch(/compressed data declares 62 bytes; the file has 61/);
    expect(thrown(() => woff2ToSfnt(woff2([{ tag: 'head', data: head() }], { totalCompressedSize: 0x7fffffff }), identity)).message).toMatch(/compressed data declares/);
  });

  it('transformed glyf streams that lie are refused before anything is made from them', () => {
    const tables = (glyf: Uint8Array): Woff2Table[] => [{ tag: 'head', data: head() }, { tag: 'glyf', data: glyf, origLength: 1000, transformed: true }, { tag: 'loca', data: new Uint8Array(0), origLength: 8, transformed: true }];
    // 65535 glyphs claimed, one glyph's worth of streams.
    expect(thrown(() => woff2ToSfnt(woff2(tables(transformedGlyf([triangle], { numGlyphs: 65535 }))), identity)).message).toMatch(/declares 65535 glyphs; its nContour stream holds 1/);
    // Three points claimed, two flag bytes.
    expect(thrown(() => woff2ToSfnt(woff2(tables(transformedGlyf([triangle], { flagStreamCut: 2 }))), identity)).message).toMatch(/declares 3 points; the flag stream has 2 bytes left/);
    // A stream size running past the table.
    const glyf = transformedGlyf([triangle]);
    glyf.set(u32(0x7fffffff), 8 + 4 * 3); // the glyph stream's size
    expect(thrown(() => woff2ToSfnt(woff2(tables(glyf)), identity)).message).toMatch(/transformed glyf table ends early/);
    // Cut anywhere, never anything but a RangeError.
    const whole = transformedGlyf([triangle, triangle]);
    for (let n = 0; n < whole.length; n++) expect(thrown(() => woff2ToSfnt(woff2(tables(whole.subarray(0, n))), identity)), `${n} bytes`).toBeInstanceOf(RangeError);
  });
});

/** A WOFF 1.0 file of tables given as [tag, data as stored, origLength declared]. */
function woff(tables: [string, Uint8Array, number][], totalSfntSize?: number): Uint8Array {
  let size = 44 + 20 * tables.length;
  const offsets = tables.map(([, data]) => ((size += data.length), size - data.length));
  const out = new Uint8Array(size);
  const o = new DataView(out.buffer);
  o.setUint32(0, 0x774f4646);
  o.setUint32(4, 0x00010000);
  o.setUint32(8, size);
  o.setUint16(12, tables.length);
  o.setUint32(16, totalSfntSize ?? 12 + 16 * tables.length + tables.reduce((n, [, , orig]) => n + orig, 0));
  tables.forEach(([tag, data, orig], i) => {
    const at = 44 + 20 * i;
    for (let k = 0; k < 4; k++) out[at + k] = tag.charCodeAt(k);
    o.setUint32(at + 4, offsets[i]!);
    o.setUint32(at + 8, data.length);
    o.setUint32(at + 12, orig);
    out.set(data, offsets[i]!);
  });
  return out;
}

describe('WOFF limits and bounds', () => {
  const text = new TextEncoder().encode('name table '.repeat(100));

  it('reads its tables, stored and inflated', () => {
    const t = sfntTables(woffToSfnt(woff([['head', head(), 54], ['name', zlibSync(text), text.length]])));
    expect(t.get('head')!.length).toBe(54);
    expect(t.get('name')).toEqual(text);
  });

  it('a table declaring 2 GB, or a font declaring 2 GB in all, is refused before inflating', () => {
    const table = thrown(() => woffToSfnt(woff([['glyf', zlibSync(text), 2_000_000_000]], 1000)));
    expect(table).toBeInstanceOf(LimitExceeded);
    expect((table as LimitExceeded).limit).toBe('font_table_size');
    expect(table.message).toBe("a WOFF font's glyf table unpacks to 2.0 GB; at most 32 MB is read");
    const total = thrown(() => woffToSfnt(woff([['name', zlibSync(text), text.length]], 2_000_000_000)));
    expect((total as LimitExceeded).limit).toBe('font_size');
  });

  it('a table whose declared length lies small is stopped at it: damage, not memory', () => {
    const zeros = zlibSync(new Uint8Array(20_000_000)); // 20 MB of zeros in about 20 KB
    const e = thrown(() => woffToSfnt(woff([['glyf', zeros, 100_000]])));
    expect(e).toBeInstanceOf(RangeError);
    expect(e.message).toMatch(/^WOFF: the glyf table does not inflate \(inflates to more than the 100000 bytes declared\)/);
  });

  it('a directory or a table past the end of the file is damage', () => {
    const file = woff([['name', zlibSync(text), text.length]]);
    expect(thrown(() => woffToSfnt(file.subarray(0, file.length - 1))).message).toMatch(/runs past the end of the file/);
    expect(thrown(() => woffToSfnt(file.subarray(0, 50))).message).toMatch(/directory of 1 tables runs past/);
    expect(thrown(() => woffToSfnt(file.subarray(0, 20)))).toBeInstanceOf(RangeError);
  });
});
