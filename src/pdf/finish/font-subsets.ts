import type * as Mupdf from 'mupdf';
import { subsetTrueType } from '../../fonts/truetype-subset';
import { contentGlyphs, type PdfObject } from './content-glyphs';

/**
 * Subsets the embedded TrueType faces of a PDF MuPDF wrote to the glyphs its pages show, as
 * MuPDF's `subsetFonts` does, without its cost: the glyphs are read off the content streams by a
 * scanner that only follows fonts and strings (content-glyphs.ts), and each face is cut by
 * truetype-subset.ts. Returns the glyph ids shown per font dictionary (by object number), or
 * undefined, with nothing changed, when some content or face is not of the kind these read: the
 * caller then subsets with MuPDF. `skipStreams`: content streams whose fonts are subset already (paint/page-text.ts).
 */
export function subsetPageFonts(pdf: Mupdf.PDFDocument, skipStreams?: Set<number>): Map<number, Set<number>> | undefined {
  const pages = [];
  for (let i = 0; i < pdf.countPages(); i++) {
    const page = pdf.findPage(i);
    pages.push({ contents: page.get('Contents'), resources: page.get('Resources'), annotations: page.get('Annots') } as unknown as { contents: PdfObject; resources: PdfObject; annotations: PdfObject });
  }
  const usage = contentGlyphs(pages, skipStreams);
  if (!usage) return undefined;
  const subsets: { file: Mupdf.PDFObject; fonts: Mupdf.PDFObject[]; bytes: Uint8Array }[] = [];
  for (const { file, fonts, gids } of usage.values()) {
    const stream = (file as unknown as Mupdf.PDFObject).readStream();
    const bytes = subsetTrueType(stream.asUint8Array(), gids);
    stream.destroy();
    if (!bytes) return undefined;
    subsets.push({ file: file as unknown as Mupdf.PDFObject, fonts: fonts as unknown as Mupdf.PDFObject[], bytes });
  }
  const shown = new Map<number, Set<number>>();
  for (const { fonts, gids } of usage.values()) for (const font of fonts) shown.set(font.asIndirect(), gids);
  for (const { file, fonts, bytes } of subsets) {
    file.writeStream(bytes);
    file.put('Length1', bytes.length);
    const tag = subsetTag(bytes);
    for (const font of fonts) {
      const descendant = font.get('DescendantFonts', 0);
      const descriptor = font.get('DescendantFonts', 0, 'FontDescriptor');
      for (const [dict, key] of [[font, 'BaseFont'], [descendant, 'BaseFont'], [descriptor, 'FontName']] as const) {
        const name = dict.get(key);
        if (name.isName() && !/^[A-Z]{6}\+/.test(name.asName())) dict.put(key, pdf.newName(`${tag}+${name.asName()}`));
      }
    }
  }
  return shown;
}

/** Six capital letters from the subset's bytes (FNV-1a), the prefix PDF gives a subset font's name: another subset, another tag. */
export function subsetTag(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  let v = h >>> 0;
  let tag = '';
  for (let k = 0; k < 6; k++) {
    tag += String.fromCharCode(65 + (v % 26));
    v = Math.floor(v / 26);
  }
  return tag;
}
