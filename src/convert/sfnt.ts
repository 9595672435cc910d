/**
 * The table directory of TrueType/OpenType fonts, read and written (html-to-pdf's fonts): WOFF
 * unpacked to the font inside it, and fonts without their ligatures.
 */
import { unzlibSync } from 'fflate';

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

/** WOFF 1.0 (W3C): the same tables as the font inside, each zlib-compressed; written back out as that font. */
export function woffToSfnt(woff: Uint8Array): Uint8Array {
  const view = new DataView(woff.buffer, woff.byteOffset, woff.byteLength);
  const tables: Table[] = [];
  for (let i = 0; i < view.getUint16(12); i++) {
    const at = 44 + i * 20;
    const [tag, offset, compLength, origLength, checksum] = [view.getUint32(at), view.getUint32(at + 4), view.getUint32(at + 8), view.getUint32(at + 12), view.getUint32(at + 16)];
    const stored = woff.subarray(offset, offset + compLength);
    tables.push({ tag, checksum, data: compLength < origLength ? unzlibSync(stored) : stored });
  }
  return writeSfnt(view.getUint32(4), tables);
}

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
