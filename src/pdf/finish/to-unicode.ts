import type * as Mupdf from 'mupdf';
import { latin1Bytes, latin1String } from '../../lib/latin1';

/**
 * Arabic and Persian text in the written PDF reads as the letters it is made of, not as
 * presentation forms. MuPDF's PDF writer derives a font's ToUnicode map from the face's own
 * character map, and DejaVu maps its joining forms (initial, medial, final) to the presentation
 * form characters (U+FB50–U+FDFF, U+FE70–U+FEFF; Hebrew and Latin ligatures sit in U+FB00–U+FB4F).
 * Copy, search and extraction by tools that read ToUnicode as it is (poppler's) would then see
 * "ﮐﻠﯿﺪ" where the document says "کلید". Each such target is replaced by its compatibility
 * decomposition (NFKC), which is the letter (or, for the lam-alef ligature, the two letters).
 *
 * Likewise for spaces: where a face maps both U+0020 and U+00A0 to its space glyph (Tinos, the
 * Times New Roman stand-in, does), MuPDF's map says U+00A0, and text copied or extracted from the
 * PDF (MuPDF's, PDF.js') had no-break spaces between its words. Such a glyph reads as U+0020: a
 * ToUnicode map names one character per glyph, and Word's no-break spaces are the rare ones.
 * Hyphens the same: faces that map U+002D and U+00AD (soft hyphen) to one glyph had every hyphen
 * read as a soft hyphen, which copies as nothing and defeats search ("meeting-type" was not found).
 * The glyph is only drawn where a line breaks at a soft hyphen, and reads as a hyphen there too.
 */
export function letterToUnicode(fonts: Mupdf.PDFObject[], shown?: Map<number, Set<number>>): void {
  for (const font of fonts) {
    const map = font.get('ToUnicode');
    if (!map.isStream()) continue;
    const stream = map.readStream();
    const text = latin1String(stream.asUint8Array());
    stream.destroy();
    // MuPDF's writer maps every glyph of the face (Carlito's map is 24 KB); where the glyphs the
    // pages show are known, the map keeps only those (stress008's maps: 171 KB → 20 KB before deflate).
    const keep = font.isIndirect() ? shown?.get(font.asIndirect()) : undefined;
    if (!keep && !PRESENTATION_TARGET.test(text)) continue;
    map.writeStream(latin1Bytes(rewrite(text, keep)));
  }
}

/** The font dictionaries the document's pages use, each once. */
export function pageFonts(pdf: Mupdf.PDFDocument): Mupdf.PDFObject[] {
  const fonts: Mupdf.PDFObject[] = [];
  const seen = new Set<number>();
  for (let i = 0; i < pdf.countPages(); i++) {
    const dict = pdf.findPage(i).get('Resources').get('Font');
    if (!dict.isDictionary()) continue;
    dict.forEach((font) => {
      if (!font.isIndirect() || seen.has(font.asIndirect())) return;
      seen.add(font.asIndirect());
      fonts.push(font);
    });
  }
  return fonts;
}

/** A hex target in the presentation-form blocks, a no-break space or a soft hyphen, as MuPDF writes it (UTF-16BE, 4 digits). */
const PRESENTATION_TARGET = /<(?:f[b-d][0-9a-f]{2}|fe[7-9a-f][0-9a-f]|00a[0d])>/i;
const NO_BREAK_SPACE = 0xa0;
const SOFT_HYPHEN = 0xad;
/** Targets read as another character: the glyph is that character's too, and that is what it shows. */
const READ_AS: Record<number, string> = { [NO_BREAK_SPACE]: ' ', [SOFT_HYPHEN]: '-' };
/** Alphabetic (Latin ligatures, Hebrew, Arabic A) and Arabic B presentation forms. */
const isPresentationForm = (cp: number) => (cp >= 0xfb00 && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfeff);
const BLOCK = 100; // entries per beginbfchar/beginbfrange block, the CMap format's limit

function rewrite(cmap: string, keep?: Set<number>): string {
  const first = cmap.search(/\d+\s+beginbf(?:char|range)/);
  const lastEnd = Math.max(cmap.lastIndexOf('endbfchar'), cmap.lastIndexOf('endbfrange'));
  if (first < 0 || lastEnd < 0) return cmap;
  const tail = cmap.slice(lastEnd).replace(/^endbf(?:char|range)/, '');
  const chars: [number, string][] = [];
  const ranges: string[] = [];
  const sections = /beginbf(char|range)([\s\S]*?)endbf\1/g;
  for (let m = sections.exec(cmap); m; m = sections.exec(cmap)) {
    if (m[1] === 'char') {
      for (const e of m[2]!.matchAll(/<([0-9a-f]+)>\s*<([0-9a-f]*)>/gi)) {
        const cid = parseInt(e[1]!, 16);
        if (!keep || keep.has(cid)) chars.push([cid, letters(decodeTarget(e[2]!))]);
      }
      continue;
    }
    for (const e of m[2]!.matchAll(/<([0-9a-f]+)>\s*<([0-9a-f]+)>\s*(<[0-9a-f]*>|\[[^\]]*\])/gi)) {
      const [lo, hi] = [parseInt(e[1]!, 16), parseInt(e[2]!, 16)];
      const target = e[3]!;
      if (target.startsWith('[')) {
        [...target.matchAll(/<([0-9a-f]*)>/gi)].forEach((t, k) => (!keep || keep.has(lo + k)) && chars.push([lo + k, letters(decodeTarget(t[1]!))]));
        continue;
      }
      const start = decodeTarget(target.slice(1, -1));
      const base = start.codePointAt(0) ?? 0;
      const end = base + (hi - lo);
      // A range over presentation forms (or U+00A0, U+00AD): its targets are no longer consecutive, so one entry each.
      if (keep && start.length && [...start].length === 1) {
        // Only the glyphs shown, one entry each (a page of text shows a few hundred at most).
        for (let cid = lo; cid <= hi; cid++) if (keep.has(cid)) chars.push([cid, letters(String.fromCodePoint(base + cid - lo))]);
      } else if (keep && !(lo <= hi && [...keep].some((cid) => cid >= lo && cid <= hi))) {
        // A range of ligature targets (several characters) none of whose glyphs is shown.
      } else if (start.length && [...start].length === 1 && ((base <= 0xfeff && end >= 0xfb00) || (base <= SOFT_HYPHEN && end >= NO_BREAK_SPACE))) {
        for (let cid = lo; cid <= hi; cid++) chars.push([cid, letters(String.fromCodePoint(base + cid - lo))]);
      } else ranges.push(`<${e[1]}> <${e[2]}> ${target}`);
    }
  }
  let body = '';
  for (let i = 0; i < ranges.length; i += BLOCK) {
    const part = ranges.slice(i, i + BLOCK);
    body += `${part.length} beginbfrange\n${part.join('\n')}\nendbfrange\n`;
  }
  for (let i = 0; i < chars.length; i += BLOCK) {
    const part = chars.slice(i, i + BLOCK);
    body += `${part.length} beginbfchar\n${part.map(([cid, t]) => `<${hex(cid, 4)}> <${encodeTarget(t)}>`).join('\n')}\nendbfchar\n`;
  }
  return cmap.slice(0, first) + body + tail.replace(/^\s*/, '');
}

/** The letters a presentation form stands for, a space for a no-break space, a hyphen for a soft one; anything else as it is. */
function letters(s: string): string {
  const cp = s.codePointAt(0);
  if (cp !== undefined && s.length === 1 && READ_AS[cp]) return READ_AS[cp];
  return cp !== undefined && isPresentationForm(cp) ? s.normalize('NFKC') : s;
}

/** A target as MuPDF writes it: UTF-16BE in groups of 4 hex digits, or one code point of 5 or 6 digits. */
function decodeTarget(h: string): string {
  if (h.length % 4 !== 0) return String.fromCodePoint(Math.min(parseInt(h || '0', 16), 0x10ffff));
  let s = '';
  for (let i = 0; i < h.length; i += 4) s += String.fromCharCode(parseInt(h.slice(i, i + 4), 16));
  return s;
}

function encodeTarget(s: string): string {
  let h = '';
  for (let i = 0; i < s.length; i++) h += hex(s.charCodeAt(i), 4);
  return h;
}

const hex = (n: number, digits: number) => n.toString(16).padStart(digits, '0');

/** Each font's ToUnicode map, taken off the font (MuPDF's subsetter loads fonts faster without: finish/index.ts). */
export function takeToUnicode(fonts: Mupdf.PDFObject[]): [Mupdf.PDFObject, Mupdf.PDFObject][] {
  const taken: [Mupdf.PDFObject, Mupdf.PDFObject][] = [];
  for (const font of fonts) {
    const map = font.get('ToUnicode');
    if (!map.isIndirect()) continue;
    taken.push([font, map]);
    font.delete('ToUnicode');
  }
  return taken;
}

/**
 * Fonts whose hyphen glyph also serves the soft hyphen (Liberation's designs, many embedded faces)
 * come out of MuPDF's writer with that glyph mapped to U+00AD, so "e-mail" extracted and searched
 * as "e\u00admail". letterToUnicode mends the maps it rewrites; this mends every other font's map
 * (those MuPDF subset), making each such mapping U+002D.
 */
export function hyphensAsHyphens(pdf: Mupdf.PDFDocument): void {
  const seen = new Set<number>();
  for (let i = 1; i < pdf.countObjects(); i++) {
    // Only the fonts' ToUnicode tables are read: reading every stream would unpack every picture.
    const font = pdf.newIndirect(i);
    if (!font.isDictionary()) continue;
    const table = font.get('ToUnicode');
    if (!table.isStream() || seen.has(table.asIndirect())) continue;
    seen.add(table.asIndirect());
    const text = table.readStream().asString();
    if (!/<00ad>/i.test(text)) continue;
    // One mapping per line, `<glyph> <unicode>`: only a destination is rewritten, never a glyph number.
    const fixed = text.replace(/(beginbfchar[\s\S]*?endbfchar)/g, (block) => block.replace(/^(\s*<[0-9a-f]+>[ \t]+)<00ad>[ \t]*$/gim, '$1<002d>'));
    if (fixed !== text) table.writeStream(fixed);
  }
}
