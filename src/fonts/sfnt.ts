/**
 * The table directory of TrueType/OpenType fonts, read and written (html-to-pdf's fonts): WOFF
 * unpacked to the font inside it, and fonts without their ligatures.
 */
import { inflateKnownSize } from '../codecs/native-zlib';
import { requireAtMost } from '../lib/limits';

/**
 * The largest font a WOFF or WOFF2 file may unpack to, and any one of its tables: the fonts pages
 * really use are under 20 MB (Noto Sans CJK, one of the largest, is 16 MB), and unpacking holds
 * the packed file, the unpacked tables and the font written from them at once, which at this
 * size still fits a 128 MB isolate beside the page.
 */
export const MAX_FONT_BYTES = 32_000_000;
/** The most tables a font file may list: real fonts have 10 to 30; the sfnt format counts them in 16 bits. */
export const MAX_FONT_TABLES = 256;
/** A byte count for the font limits' messages ("32 MB", "2.1 GB"). */
export const fontMb = (n: number): string => (n >= 1e9 ? `${(n / 1e9).toFixed(1)} GB` : `${Math.max(0.1, Math.round(n / 1e5) / 10)} MB`);

interface Table {
  tag: number;
  checksum: number;
  data: Uint8Array;
}

/** A font from its flavour (TrueType or CFF) and tables, with the directory the format asks for. */
function writeSfnt(flavor: number, tables: Table[]): Uint8Array {
  const n = tables.length;
  const headerSize = 12 + 16 * n;
  const out = new Uint8Array(tables.reduce((sum, t) => sum + ((t.data.length + 3) & ~3), headerSize));
  const o = new DataView(out.buffer);
  const entrySelector = Math.floor(Math.log2(Math.max(1, n)));
  o.setUint32(0, flavor);
  o.setUint16(4, n);
  o.setUint16(6, 16 << entrySelector);
  o.setUint16(8, entrySelector);
  o.setUint16(10, n * 16 - (16 << entrySelector));
  let offset = headerSize;
  tables.forEach((t, i) => {
    o.setUint32(12 + i * 16, t.tag);
    o.setUint32(16 + i * 16, t.checksum);
    o.setUint32(20 + i * 16, offset);
    o.setUint32(24 + i * 16, t.data.length);
    out.set(t.data, offset);
    offset += (t.data.length + 3) & ~3;
  });
  return out;
}

/**
 * WOFF 1.0 (W3C): the same tables as the font inside, each zlib-compressed; written back out as
 * that font. RangeError when the file is damaged (a table past its end, data that does not
 * inflate to its declared length); LimitExceeded, before inflating, when it declares more than the
 * font limits. Each inflate is bounded by the table's declared length, so a lying one stops there.
 */
export function woffToSfnt(woff: Uint8Array): Uint8Array {
  if (woff.length < 44) throw new RangeError(`WOFF: the header is cut short (${woff.length} bytes)`);
  const view = new DataView(woff.buffer, woff.byteOffset, woff.byteLength);
  const numTables = view.getUint16(12);
  const totalSfntSize = view.getUint32(16);
  requireAtMost(numTables, MAX_FONT_TABLES, 'font_tables', () => `a WOFF font has ${numTables} tables; at most ${MAX_FONT_TABLES} are read`);
  requireAtMost(totalSfntSize, MAX_FONT_BYTES, 'font_size', () => `a WOFF font unpacks to ${fontMb(totalSfntSize)}; at most ${fontMb(MAX_FONT_BYTES)} is read`);
  if (44 + numTables * 20 > woff.length) throw new RangeError(`WOFF: the directory of ${numTables} tables runs past the file's ${woff.length} bytes`);
  const entries = Array.from({ length: numTables }, (_, i) => {
    const at = 44 + i * 20;
    return { tag: view.getUint32(at), offset: view.getUint32(at + 4), compLength: view.getUint32(at + 8), origLength: view.getUint32(at + 12), checksum: view.getUint32(at + 16) };
  });
  // Every size checked before anything is inflated.
  let total = 12 + 16 * numTables;
  for (const e of entries) {
    const name = tagName(e.tag);
    requireAtMost(e.origLength, MAX_FONT_BYTES, 'font_table_size', () => `a WOFF font's ${name} table unpacks to ${fontMb(e.origLength)}; at most ${fontMb(MAX_FONT_BYTES)} is read`);
    total += (e.origLength + 3) & ~3;
    requireAtMost(total, MAX_FONT_BYTES, 'font_size', () => `a WOFF font's tables unpack to more than ${fontMb(MAX_FONT_BYTES)} together; at most that is read`);
    if (e.offset > woff.length || e.compLength > woff.length - e.offset) throw new RangeError(`WOFF: the ${name} table runs past the end of the file`);
    if (e.compLength > e.origLength) throw new RangeError(`WOFF: the ${name} table is stored in more bytes (${e.compLength}) than it unpacks to (${e.origLength})`);
  }
  const tables: Table[] = entries.map((e) => {
    const stored = woff.subarray(e.offset, e.offset + e.compLength);
    if (e.compLength === e.origLength) return { tag: e.tag, checksum: e.checksum, data: stored };
    let data: Uint8Array;
    try {
      data = inflateKnownSize(stored, e.origLength);
    } catch (err) {
      throw new RangeError(`WOFF: the ${tagName(e.tag)} table does not inflate (${(err as Error).message})`);
    }
    if (data.length !== e.origLength) throw new RangeError(`WOFF: the ${tagName(e.tag)} table inflates to ${data.length} bytes, not the ${e.origLength} declared`);
    return { tag: e.tag, checksum: e.checksum, data };
  });
  return writeSfnt(view.getUint32(4), tables);
}

const tagName = (tag: number) => String.fromCharCode(tag >>> 24, (tag >>> 16) & 255, (tag >>> 8) & 255, tag & 255).trim() || `0x${tag.toString(16)}`;

const tagOf = (s: string) => ((s.charCodeAt(0) << 24) | (s.charCodeAt(1) << 16) | (s.charCodeAt(2) << 8) | s.charCodeAt(3)) >>> 0;
const GSUB = tagOf('GSUB');
/** The optional ligature features; `rlig` (required ligatures, Arabic) stays. */
const LIGATURES = new Set(['liga', 'clig', 'dlig', 'hlig'].map(tagOf));

/**
 * The font with its optional ligature features renamed out of reach, so that no ligature is formed:
 * MuPDF writes a ligature's glyph into the PDF with no text behind it, so "Action" in Calibri's
 * twin extracted and searched as "Ac�on". Every other substitution (Arabic forms, required
 * ligatures, localised forms) stays. A copy; the input is not changed.
 */
export function withoutLigatures(font: Uint8Array): Uint8Array {
  try {
    const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
    let gsub = -1;
    for (let i = 0; i < view.getUint16(4); i++) if (view.getUint32(12 + i * 16) >>> 0 === GSUB) gsub = view.getUint32(12 + i * 16 + 8);
    if (gsub < 0) return font;
    const features = gsub + view.getUint16(gsub + 6);
    const hits: number[] = [];
    for (let i = 0; i < view.getUint16(features); i++) if (LIGATURES.has(view.getUint32(features + 2 + 6 * i) >>> 0)) hits.push(features + 2 + 6 * i);
    if (!hits.length) return font;
    const copy = font.slice();
    const out = new DataView(copy.buffer);
    for (const at of hits) out.setUint32(at, tagOf('xlig'));
    return copy;
  } catch {
    return font; // not a font this reads: given to MuPDF as it is
  }
}
