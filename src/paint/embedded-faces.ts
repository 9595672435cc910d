/** The faces our own engine's text is drawn in, embedded into the PDF: subset to the glyphs used, with a ToUnicode map. */
import type * as Mupdf from 'mupdf';
import { PRESENTATION_LETTERS } from '../fonts/arabic-forms';
import { subsetTrueType } from '../fonts/truetype-subset';
import { subsetTag } from '../pdf/finish/font-subsets';

/** Entries per beginbfchar block: the CMap format's limit. */
const CMAP_BLOCK = 100;
const hex4 = (n: number) => n.toString(16).padStart(4, '0');

/**
 * A character as the UTF-16BE hex a ToUnicode map gives (a no-break space reads as a space, as in
 * MuPDF's maps after to-unicode.ts; an Arabic presentation form as the letters it shows, so that
 * the text is found and copied as typed).
 */
function utf16(cp: number): string {
  if (cp === 0xa0) cp = 0x20;
  const letters = PRESENTATION_LETTERS.get(cp);
  if (letters) return Array.from(letters, (ch) => hex4(ch.codePointAt(0)!)).join('');
  if (cp < 0x10000) return hex4(cp);
  const v = cp - 0x10000;
  return hex4(0xd800 + (v >> 10)) + hex4(0xdc00 + (v & 0x3ff));
}

/** The face's metrics in 1/1000 em from its head and hhea tables (FontBBox, Ascent, Descent), or undefined when unreadable. */
function metrics(bytes: Uint8Array): { bbox: number[]; ascent: number; descent: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12) return undefined;
  const count = view.getUint16(4);
  const tables = new Map<string, number>();
  for (let i = 0; i < count && 12 + i * 16 + 16 <= bytes.length; i++) {
    const at = 12 + i * 16;
    tables.set(String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!), view.getUint32(at + 8));
  }
  const head = tables.get('head');
  const hhea = tables.get('hhea');
  if (head === undefined || hhea === undefined || head + 44 > bytes.length || hhea + 8 > bytes.length) return undefined;
  const unit = 1000 / (view.getUint16(head + 18) || 1000);
  const bbox = [36, 38, 40, 42].map((o) => Math.round(view.getInt16(head + o) * unit));
  return { bbox, ascent: Math.round(view.getInt16(hhea + 4) * unit), descent: Math.round(view.getInt16(hhea + 6) * unit) };
}

/**
 * A face as a PDF font our content streams show glyph ids of (Type0, Identity-H, CIDFontType2
 * with an identity CIDToGIDMap, as MuPDF's writer embeds faces), cut to the glyphs `used` (glyph
 * id → the character it shows) when we already know them: its widths and ToUnicode map list only
 * those, so neither the subsetter nor the map rewriting of pdf-finish need to read our streams.
 */
export function embedFace(pdf: Mupdf.PDFDocument, font: Mupdf.Font, bytes: Uint8Array, used: Map<number, number>): Mupdf.PDFObject {
  const gids = [...used.keys()].sort((a, b) => a - b);
  const file = subsetTrueType(bytes, gids) ?? bytes;
  const name = `${subsetTag(file)}+${font.getName().replace(/[^A-Za-z0-9-]/g, '')}`;
  const m = metrics(bytes) ?? { bbox: [0, -250, 1000, 1000], ascent: 800, descent: -200 };
  const fontFile = pdf.addStream(file, { Length1: file.length });
  const descriptor = pdf.addObject(
    pdf.newDictionary(),
  );
  descriptor.put('Type', pdf.newName('FontDescriptor'));
  descriptor.put('FontName', pdf.newName(name));
  const bbox = pdf.newArray();
  for (const v of m.bbox) bbox.push(v);
  descriptor.put('FontBBox', bbox);
  descriptor.put('ItalicAngle', 0);
  descriptor.put('Ascent', m.ascent);
  descriptor.put('Descent', m.descent);
  descriptor.put('StemV', 80);
  descriptor.put('Flags', 32);
  descriptor.put('FontFile2', fontFile);
  // Widths of the glyphs shown, runs of consecutive ids together: [first [w w …] …].
  const widths = pdf.newArray();
  for (let k = 0; k < gids.length; ) {
    const first = gids[k]!;
    const run = pdf.newArray();
    // Two decimals: our strings place each glyph by its exact advance, and a viewer by these (MuPDF writes whole units and makes up the difference in TJ).
    while (k < gids.length && gids[k] === first + run.length) run.push(Math.round(font.advanceGlyph(gids[k++]!, 0) * 100000) / 100);
    widths.push(first);
    widths.push(run);
  }
  const info = pdf.newDictionary();
  info.put('Registry', pdf.newString('Adobe'));
  info.put('Ordering', pdf.newString('Identity'));
  info.put('Supplement', 0);
  const cid = pdf.addObject(pdf.newDictionary());
  cid.put('Type', pdf.newName('Font'));
  cid.put('Subtype', pdf.newName('CIDFontType2'));
  cid.put('BaseFont', pdf.newName(name));
  cid.put('CIDSystemInfo', info);
  cid.put('FontDescriptor', descriptor);
  cid.put('W', widths);
  cid.put('CIDToGIDMap', pdf.newName('Identity'));
  const descendants = pdf.newArray();
  descendants.push(cid);
  const type0 = pdf.addObject(pdf.newDictionary());
  type0.put('Type', pdf.newName('Font'));
  type0.put('Subtype', pdf.newName('Type0'));
  type0.put('BaseFont', pdf.newName(name));
  type0.put('Encoding', pdf.newName('Identity-H'));
  type0.put('DescendantFonts', descendants);
  type0.put('ToUnicode', pdf.addStream(toUnicode(gids, used), {}));
  return type0;
}

/** A ToUnicode CMap of the glyphs shown. */
function toUnicode(gids: number[], used: Map<number, number>): string {
  const blocks: string[] = [];
  for (let k = 0; k < gids.length; k += CMAP_BLOCK) {
    const part = gids.slice(k, k + CMAP_BLOCK);
    blocks.push(`${part.length} beginbfchar\n${part.map((g) => `<${hex4(g)}> <${utf16(used.get(g)!)}>`).join('\n')}\nendbfchar`);
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo <</Registry(Adobe)/Ordering(UCS)/Supplement 0>> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    ...blocks,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
}
