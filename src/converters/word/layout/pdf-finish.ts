import type * as Mupdf from 'mupdf';
import type { PicturePassThrough } from './picture-passthrough';
import { letterToUnicode, pageFonts } from './to-unicode';
import type { DocumentOutline } from './outline';

type MupdfModule = typeof Mupdf;

/** Each font's ToUnicode map, taken off the font (the subsetter loads fonts faster without: see finish). */
function takeToUnicode(fonts: Mupdf.PDFObject[]): [Mupdf.PDFObject, Mupdf.PDFObject][] {
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
 * Adds the hyperlinks and subsets the fonts: the writer embeds whole faces (Carlito alone is
 * 600 KB); keeping only the glyphs used makes a one-page letter a few KB instead of megabytes.
 */
export function finish(mupdf: MupdfModule, written: Mupdf.Buffer, links: { page: number; rect: Mupdf.Rect; uri: string }[], pictures: PicturePassThrough, outline?: DocumentOutline): Uint8Array {
  const pdf = mupdf.Document.openDocument(written, 'application/pdf') as Mupdf.PDFDocument;
  try {
    for (const link of links) {
      const page = pdf.loadPage(link.page);
      page.createLink(link.rect, link.uri).destroy();
      page.destroy();
    }
    pictures.replaceIn(pdf);
    outline?.write(pdf);
    // The subsetter loads every font, and loading one turns its ToUnicode map into a lookup table
    // of 65,536 entries (a tenth of a short document's time): the maps are taken off for it.
    const fonts = pageFonts(pdf);
    const maps = takeToUnicode(fonts);
    pdf.subsetFonts();
    for (const [font, map] of maps) font.put('ToUnicode', map);
    letterToUnicode(fonts);
    // Deflate is a fifth of a long document's time. MuPDF's effort 45 (of 100; 0 is zlib's default) was measured
    // 10% faster for files 4-7% larger (stress008 745 → 636 ms, 726 → 780 KB; LibreOffice's is 783 KB).
    const saved = pdf.saveToBuffer('compress,garbage=compact,compression-effort=45');
    const bytes = saved.asUint8Array().slice();
    saved.destroy();
    return bytes;
  } finally {
    pdf.destroy();
  }
}
