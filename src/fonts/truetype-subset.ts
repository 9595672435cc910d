/**
 * A TrueType (glyf) font cut down to some of its glyphs, for embedding as a PDF CIDFontType2
 * whose CIDs are glyph ids (Identity-H, CIDToGIDMap Identity): glyph ids are kept, so the page
 * content that shows them stays as written. Unused glyphs keep their slot with no outline, the
 * ids past the highest one used are cut off, and only the tables a PDF viewer reads for such a
 * font are kept (head, hhea, hmtx, maxp, loca, glyf, and OS/2 with the hinting tables cvt, fpgm,
 * prep): no cmap, post or name, as the PDF's own encoding and ToUnicode map stand for them. This
 * is the table set MuPDF's own subsetter writes for CID fonts.
 *
 * Why our own: MuPDF's `subsetFonts` finds the glyphs by interpreting every content stream again
 * and loading each font as a PDF font, and sorts every glyph occurrence: a fifth of a long Word
 * document's conversion (stress008: 160 of 880 ms). The caller here already has the glyph ids.
 */

const KEPT_TABLES = ['OS/2', 'cvt ', 'fpgm', 'glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp', 'prep'] as const;

/** Composite glyph component flags (OpenType glyf table). */
const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;

interface TableRecord {
  offset: number;
  length: number;
}

/** The table directory by tag; undefined when the bytes are not a TrueType font with glyf outlines. */
function tableDirectory(view: DataView): Map<string, TableRecord> | undefined {
  if (view.byteLength < 12) return undefined;
  const version = view.getUint32(0);
  if (version !== 0x00010000 && version !== 0x74727565 /* 'true' */) return undefined;
  const count = view.getUint16(4);
  if (12 + count * 16 > view.byteLength) return undefined;
  const tables = new Map<string, TableRecord>();
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    const tag = String.fromCharCode(view.getUint8(at), view.getUint8(at + 1), view.getUint8(at + 2), view.getUint8(at + 3));
    const offset = view.getUint32(at + 8);
    const length = view.getUint32(at + 12);
    if (offset + length > view.byteLength) return undefined;
    tables.set(tag, { offset, length });
  }
  for (const tag of ['head', 'hhea', 'hmtx', 'maxp', 'loca', 'glyf']) if (!tables.has(tag)) return undefined;
  return tables;
}

/**
 * The font with only `gids` (and glyph 0, and the components of composite glyphs) outlined.
 * Undefined when the bytes are not a TrueType font this can read (CFF outlines, a collection,
 * damaged tables): the caller embeds the font as it is or subsets it another way.
 */
export function subsetTrueType(font: Uint8Array, gids: Iterable<number>): Uint8Array | undefined {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const tables = tableDirectory(view);
  if (!tables) return undefined;
  const head = tables.get('head')!;
  const maxp = tables.get('maxp')!;
  const hhea = tables.get('hhea')!;
  const hmtx = tables.get('hmtx')!;
  const loca = tables.get('loca')!;
  const glyf = tables.get('glyf')!;
  if (head.length < 54 || maxp.length < 6 || hhea.length < 36) return undefined;
  const numGlyphs = view.getUint16(maxp.offset + 4);
  const longLoca = view.getInt16(head.offset + 50) === 1;
  if (loca.length < (numGlyphs + 1) * (longLoca ? 4 : 2)) return undefined;
  const glyphStart = (g: number) => (longLoca ? view.getUint32(loca.offset + g * 4) : view.getUint16(loca.offset + g * 2) * 2);

  const kept = keptGlyphs(view, glyf, numGlyphs, glyphStart, gids);
  if (!kept) return undefined;
  const { keep, highest } = kept;
  const count = highest + 1;
  const { newGlyf, newLoca, shortLoca } = outlinesOfKept(font, glyf, keep, count, glyphStart);

  // hmtx for glyphs 0..highest: long metrics while the original has them, then left side bearings.
  const longMetrics = view.getUint16(hhea.offset + 34);
  const newLongMetrics = Math.min(longMetrics, count);
  const hmtxLength = newLongMetrics * 4 + (count - newLongMetrics) * 2;
  if (hmtxLength > hmtx.length) return undefined;

  // Copies, whatever the input's kind: a Node Buffer's slice() is a view of its pool (a document's own face comes from node:zlib), which the edits below would write through.
  const copy = (r: TableRecord) => new Uint8Array(font.subarray(r.offset, r.offset + r.length));
  const newHead = copy(head);
  new DataView(newHead.buffer).setInt16(50, shortLoca ? 0 : 1);
  new DataView(newHead.buffer).setUint32(8, 0); // checkSumAdjustment, set below
  const newMaxp = copy(maxp);
  new DataView(newMaxp.buffer).setUint16(4, count);
  const newHhea = copy(hhea);
  new DataView(newHhea.buffer).setUint16(34, newLongMetrics);

  const content = new Map<string, Uint8Array>([
    ['head', newHead],
    ['hhea', newHhea],
    ['maxp', newMaxp],
    ['hmtx', metricsOfKept(new Uint8Array(font.subarray(hmtx.offset, hmtx.offset + hmtxLength)), keep, newLongMetrics)],
    ['loca', newLoca],
    ['glyf', newGlyf],
  ]);
  for (const tag of ['OS/2', 'cvt ', 'fpgm', 'prep']) {
    const r = tables.get(tag);
    if (r) content.set(tag, copy(r));
  }
  return writeFont(content);
}

/**
 * The glyphs to keep: those asked for, glyph 0 (.notdef), and every component of a kept composite;
 * with the highest id among them. Undefined when a composite glyph runs past its data.
 */
function keptGlyphs(view: DataView, glyf: TableRecord, numGlyphs: number, glyphStart: (g: number) => number, gids: Iterable<number>): { keep: Uint8Array; highest: number } | undefined {
  const keep = new Uint8Array(numGlyphs);
  const pending: number[] = [0];
  for (const g of gids) if (g >= 0 && g < numGlyphs) pending.push(g);
  let highest = 0;
  while (pending.length) {
    const g = pending.pop()!;
    if (keep[g]) continue;
    keep[g] = 1;
    if (g > highest) highest = g;
    const start = glyphStart(g);
    const end = glyphStart(g + 1);
    if (end - start < 10 || start + 10 > glyf.length || end > glyf.length) continue;
    if (view.getInt16(glyf.offset + start) >= 0) continue; // a simple glyph
    let at = glyf.offset + start + 10;
    const limit = glyf.offset + end;
    for (;;) {
      if (at + 4 > limit) return undefined;
      const flags = view.getUint16(at);
      const component = view.getUint16(at + 2);
      if (component < numGlyphs && !keep[component]) pending.push(component);
      at += 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
      if (flags & WE_HAVE_A_SCALE) at += 2;
      else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) at += 4;
      else if (flags & WE_HAVE_A_TWO_BY_TWO) at += 8;
      if (!(flags & MORE_COMPONENTS)) break;
    }
  }
  return { keep, highest };
}

/**
 * glyf and loca for glyphs 0..count - 1; each kept glyph's data padded to 4 bytes, so that the
 * short loca (offsets / 2) serves whenever the outlines take under 128 KB, as they mostly do.
 */
function outlinesOfKept(font: Uint8Array, glyf: TableRecord, keep: Uint8Array, count: number, glyphStart: (g: number) => number): { newGlyf: Uint8Array; newLoca: Uint8Array; shortLoca: boolean } {
  // A glyph's data as the loca gives it, cut at the glyf table's end: a damaged loca (a document's own face) asks no more than the table holds.
  const start = (g: number) => Math.min(glyphStart(g), glyf.length);
  const lengthOf = (g: number) => Math.max(0, Math.min(glyphStart(g + 1), glyf.length) - start(g));
  let glyfLength = 0;
  for (let g = 0; g < count; g++) if (keep[g]) glyfLength += (lengthOf(g) + 3) & ~3;
  const shortLoca = glyfLength <= 0x1fffe;
  const newGlyf = new Uint8Array(glyfLength);
  const newLoca = new DataView(new ArrayBuffer((count + 1) * (shortLoca ? 2 : 4)));
  const setLoca = (g: number, offset: number) => (shortLoca ? newLoca.setUint16(g * 2, offset / 2) : newLoca.setUint32(g * 4, offset));
  let written = 0;
  for (let g = 0; g < count; g++) {
    setLoca(g, written);
    if (!keep[g]) continue;
    const length = lengthOf(g);
    newGlyf.set(font.subarray(glyf.offset + start(g), glyf.offset + start(g) + length), written);
    written += (length + 3) & ~3;
  }
  setLoca(count, written);
  return { newGlyf, newLoca: new Uint8Array(newLoca.buffer), shortLoca };
}

/**
 * hmtx with the unused glyphs' entries zeroed: the PDF's widths stand for the font's, and runs of
 * zeros deflate to nothing.
 */
function metricsOfKept(hmtx: Uint8Array, keep: Uint8Array, longMetrics: number): Uint8Array {
  let at = 0;
  for (let g = 0; at < hmtx.length; g++) {
    const size = g < longMetrics ? 4 : 2;
    if (!keep[g]) hmtx.fill(0, at, at + size);
    at += size;
  }
  return hmtx;
}

/** A font file of these tables (in tag order, 4-byte aligned, with checksums and head's adjustment). */
function writeFont(content: Map<string, Uint8Array>): Uint8Array {
  const tags = KEPT_TABLES.filter((t) => content.has(t));
  const n = tags.length;
  let size = 12 + n * 16;
  for (const t of tags) size += (content.get(t)!.length + 3) & ~3;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  const entrySelector = Math.floor(Math.log2(n));
  const searchRange = 2 ** entrySelector * 16;
  view.setUint32(0, 0x00010000);
  view.setUint16(4, n);
  view.setUint16(6, searchRange);
  view.setUint16(8, entrySelector);
  view.setUint16(10, n * 16 - searchRange);
  let at = 12 + n * 16;
  let headAt = -1;
  tags.forEach((tag, i) => {
    const data = content.get(tag)!;
    const rec = 12 + i * 16;
    for (let k = 0; k < 4; k++) out[rec + k] = tag.charCodeAt(k);
    out.set(data, at);
    view.setUint32(rec + 4, checksum(view, at, data.length));
    view.setUint32(rec + 8, at);
    view.setUint32(rec + 12, data.length);
    if (tag === 'head') headAt = at;
    at += (data.length + 3) & ~3;
  });
  if (headAt >= 0) view.setUint32(headAt + 8, (0xb1b0afba - checksum(view, 0, out.length)) >>> 0);
  return out;
}

/** The sum of big-endian 32-bit words over [at, at + length), zero-padded (OpenType's table checksum). */
function checksum(view: DataView, at: number, length: number): number {
  let sum = 0;
  const end = at + (length & ~3);
  for (let i = at; i < end; i += 4) sum = (sum + view.getUint32(i)) >>> 0;
  let tail = 0;
  for (let i = end, k = 0; k < 4; i++, k++) tail = (tail << 8) | (i < at + length ? view.getUint8(i) : 0);
  return (sum + (tail >>> 0)) >>> 0;
}
