// WOFF and WOFF2 fonts whose declared sizes lie, for html-to-pdf's data: fonts. Built from a real
// TrueType face (Arimo, an npm dependency): the tables are kept, the sizes in the headers changed.
// Node (node:zlib for zlib and Brotli).
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, createBrotliCompress, deflateSync } from 'node:zlib';
import { once } from 'node:events';

/** The tables of a TrueType/OpenType file: [{ tag, data, checksum }], and its flavor. */
export function sfntTables(ttf) {
  const v = new DataView(ttf.buffer, ttf.byteOffset, ttf.byteLength);
  const flavor = v.getUint32(0);
  const tables = [];
  for (let i = 0; i < v.getUint16(4); i++) {
    const at = 12 + i * 16;
    const tag = String.fromCharCode(ttf[at], ttf[at + 1], ttf[at + 2], ttf[at + 3]);
    const offset = v.getUint32(at + 8);
    const length = v.getUint32(at + 12);
    tables.push({ tag, checksum: v.getUint32(at + 4), data: Buffer.from(ttf.subarray(offset, offset + length)) });
  }
  return { flavor, tables };
}

export const arimo = (root) => readFileSync(`${root}/node_modules/@expo-google-fonts/arimo/400Regular/Arimo_400Regular.ttf`);

const pad4 = (n) => (n + 3) & ~3;

/**
 * A WOFF 1.0 file. `lie` changes what it declares: { totalSfntSize }, { origLength: { tag, value } },
 * or { bomb: bytes } (an extra table 'bomb' whose zlib data inflates to that many zero bytes, honestly declared).
 */
export function woff(ttf, lie = {}) {
  const { flavor, tables } = sfntTables(ttf);
  const entries = tables.map((t) => {
    const z = deflateSync(t.data, { level: 9 });
    const comp = z.length < t.data.length ? z : t.data;
    let origLength = t.data.length;
    if (lie.origLength && lie.origLength.tag === t.tag) origLength = lie.origLength.value;
    return { tag: t.tag, comp, origLength, checksum: t.checksum };
  });
  if (lie.bomb) entries.push({ tag: 'bomb', comp: deflateSync(Buffer.alloc(lie.bomb), { level: 9 }), origLength: lie.bomb, checksum: 0 });
  entries.sort((a, b) => (a.tag < b.tag ? -1 : 1));
  const headLen = 44 + entries.length * 20;
  let at = headLen;
  const dir = Buffer.alloc(entries.length * 20);
  entries.forEach((e, i) => {
    dir.write(e.tag, i * 20, 'latin1');
    dir.writeUInt32BE(at, i * 20 + 4);
    dir.writeUInt32BE(e.comp.length, i * 20 + 8);
    dir.writeUInt32BE(e.origLength >>> 0, i * 20 + 12);
    dir.writeUInt32BE(e.checksum >>> 0, i * 20 + 16);
    e.offset = at;
    at += pad4(e.comp.length);
  });
  const total = at;
  const sfntSize = lie.totalSfntSize ?? 12 + 16 * entries.length + entries.reduce((n, e) => n + pad4(e.origLength), 0);
  const head = Buffer.alloc(44);
  head.write('wOFF', 0, 'latin1');
  head.writeUInt32BE(flavor, 4);
  head.writeUInt32BE(total, 8);
  head.writeUInt16BE(entries.length, 12);
  head.writeUInt32BE(sfntSize >>> 0, 16);
  head.writeUInt16BE(1, 20);
  const out = Buffer.alloc(total);
  head.copy(out, 0);
  dir.copy(out, 44);
  for (const e of entries) e.comp.copy(out, e.offset);
  return out;
}

const KNOWN = ['cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'OS/2', 'post', 'cvt ', 'fpgm', 'glyf', 'loca', 'prep', 'CFF ', 'VORG', 'EBDT', 'EBLC', 'gasp', 'hdmx', 'kern', 'LTSH', 'PCLT', 'VDMX', 'vhea', 'vmtx', 'BASE', 'GDEF', 'GPOS', 'GSUB'];

function base128(n) {
  const bytes = [];
  do {
    bytes.unshift(n % 128);
    n = Math.floor(n / 128);
  } while (n > 0);
  return bytes.map((b, i) => (i < bytes.length - 1 ? b | 0x80 : b));
}

/**
 * A WOFF2 file with every table untransformed (glyf and loca with the null transform 3). `lie`:
 * { totalSfntSize }, { origLength: { tag, value } }, or { bomb: bytes } (extra zero bytes at the end of
 * the Brotli stream, past every table: the stream inflates to far more than the tables declare).
 */
export async function woff2(ttf, lie = {}) {
  const { flavor, tables } = sfntTables(ttf);
  const dir = [];
  for (const t of tables) {
    const known = KNOWN.indexOf(t.tag);
    const nullTransform = t.tag === 'glyf' || t.tag === 'loca' ? 3 : 0;
    dir.push((known >= 0 ? known : 63) | (nullTransform << 6));
    if (known < 0) dir.push(...Buffer.from(t.tag, 'latin1'));
    const orig = lie.origLength && lie.origLength.tag === t.tag ? lie.origLength.value : t.data.length;
    dir.push(...base128(orig));
  }
  const stream = Buffer.concat(tables.map((t) => t.data));
  let compressed;
  if (lie.bomb) {
    const z = createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
    const out = [];
    z.on('data', (d) => out.push(d));
    const ended = once(z, 'end');
    z.write(stream);
    const zeros = Buffer.alloc(1 << 22);
    for (let left = lie.bomb; left > 0; left -= zeros.length) if (!z.write(left >= zeros.length ? zeros : zeros.subarray(0, left))) await once(z, 'drain');
    z.end();
    await ended;
    compressed = Buffer.concat(out);
  } else compressed = brotliCompressSync(stream, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } });
  const header = Buffer.alloc(48);
  const total = 48 + dir.length + pad4(compressed.length);
  header.write('wOF2', 0, 'latin1');
  header.writeUInt32BE(flavor, 4);
  header.writeUInt32BE(total, 8);
  header.writeUInt16BE(tables.length, 12);
  const sfntSize = lie.totalSfntSize ?? 12 + 16 * tables.length + tables.reduce((n, t) => n + pad4(t.data.length), 0);
  header.writeUInt32BE(sfntSize >>> 0, 16);
  header.writeUInt32BE(compressed.length, 20);
  header.writeUInt16BE(1, 24);
  const out = Buffer.alloc(total);
  header.copy(out, 0);
  Buffer.from(dir).copy(out, 48);
  compressed.copy(out, 48 + dir.length);
  return out;
}
