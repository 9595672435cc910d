import type * as Mupdf from 'mupdf';
import { deflateUnfilteredStream } from '../../../pdf/finish/stream-deflate';
import type { PicturePassThrough } from './picture-passthrough';
import { letterToUnicode, pageFonts } from '../../../pdf/finish/to-unicode';
import { subsetPageFonts } from '../../../pdf/finish/font-subsets';
import type { DocumentOutline } from './outline';
import type { PageText } from '../flow/page-text';
import { writeReachable } from '../../../pdf/rewrite';

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

/** zlib level of the streams deflated here: MuPDF's effort 45 is zlib's level 4 (effort × 9 / 100). */
const STREAM_DEFLATE_LEVEL = 4;

/**
 * Deflates every stream still unfiltered (the content streams MuPDF's device wrote, the subset
 * faces, the ToUnicode maps, ICC profiles) with the runtime's native zlib, so the save finds them
 * compressed: a quarter of a shape-heavy document's time went to the save's deflate in WASM.
 */
function deflateUnfiltered(pdf: Mupdf.PDFDocument): void {
  const count = pdf.countObjects();
  for (let num = 1; num < count; num++) {
    const obj = pdf.newIndirect(num);
    const type = obj.isStream() ? obj.get('Type') : undefined;
    // XMP metadata stays readable as it is, as the save leaves it.
    if (type && !(type.isName() && type.asName() === 'Metadata')) deflateUnfilteredStream(pdf, obj, STREAM_DEFLATE_LEVEL);
  }
}

/**
 * Adds the hyperlinks and subsets the fonts: the writer embeds whole faces (Carlito alone is
 * 600 KB); keeping only the glyphs used makes a one-page letter a few KB instead of megabytes.
 */
export function finish(mupdf: MupdfModule, written: Mupdf.Buffer, links: { page: number; rect: Mupdf.Rect; uri: string }[], pictures: PicturePassThrough, outline?: DocumentOutline, within: { page: number; rect: Mupdf.Rect; to: { page: number; y: number } }[] = [], pageText?: PageText, fontBytes?: (font: Mupdf.Font) => Uint8Array | undefined): Uint8Array[] {
  const pdf = mupdf.Document.openDocument(written, 'application/pdf') as Mupdf.PDFDocument;
  try {
    // Links within the document go to the page and height where their bookmark was drawn.
    const all = [...links, ...within.map((l) => ({ page: l.page, rect: l.rect, uri: pdf.formatLinkURI({ type: 'XYZ', chapter: 0, page: l.to.page, x: 0, y: l.to.y, width: 0, height: 0, zoom: 0 }) }))];
    // Each page loaded once for all its links (a table of contents has hundreds).
    const byPage = new Map<number, typeof all>();
    for (const link of all) byPage.set(link.page, [...(byPage.get(link.page) ?? []), link]);
    for (const [index, pageLinks] of byPage) {
      const page = pdf.loadPage(index);
      for (const link of pageLinks) page.createLink(link.rect, link.uri).destroy();
      page.destroy();
    }
    const own = pageText?.writeInto(pdf, (font) => fontBytes?.(font));
    pictures.replaceIn(pdf);
    outline?.write(pdf);
    // Our subsetter (font-subsets.ts) reads the glyphs off the content streams; where it cannot
    // account for some content, MuPDF's does it. That one loads every font, and loading one turns its
    // ToUnicode map into a lookup table of 65,536 entries (a tenth of a short document's time): the
    // maps are taken off for it.
    // Our engine's text and faces (flow/page-text.ts) are written subset, their maps listing only the glyphs shown.
    const fonts = pageFonts(pdf).filter((font) => !own?.fonts.has(font.asIndirect()));
    const shown = subsetPageFonts(pdf, own?.streams);
    if (!shown) {
      const maps = takeToUnicode(fonts);
      pdf.subsetFonts();
      for (const [font, map] of maps) font.put('ToUnicode', map);
    }
    letterToUnicode(fonts, shown);
    // Deflate is a fifth of a long document's time: zlib's level 4 natively (MuPDF's effort 45 was
    // measured 10% faster than its default for files 4-7% larger: stress008 726 → 780 KB).
    deflateUnfiltered(pdf);
    // Written by us, not by MuPDF's save (../../../engines/rewrite.ts): every stream is deflated
    // already, the objects no page reaches are dropped the same, no output buffer doubles in the
    // heap, and large JPEGs the pictures kept out of MuPDF go from the document's bytes to the output.
    return writeReachable(pdf, { rawStreams: pictures.deferred });
  } finally {
    pdf.destroy();
  }
}
