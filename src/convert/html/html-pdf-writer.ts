/**
 * The laid-out page written as the PDF html-to-pdf returns: each page drawn with its @page decor,
 * links carried over (places in the page as internal links), the title set, fonts subset, and
 * text that extracts as it reads.
 */
import type * as Mupdf from 'mupdf';
import { saveBytes } from '../../pdf/pdf';
import type { PageDecor } from './html-page-decor';
import { roundingDevice, type Rounded } from './html-rounded';

/**
 * Each laid-out page drawn into a new PDF (with the @page decor behind and around it, marked boxes
 * rounded: html-rounded.ts), then its links added and the title set; `release` lets the layout go
 * once drawn.
 */
export function writePdf(mupdf: typeof Mupdf, source: Mupdf.Document, sheet: { w: number; h: number; scale: number; decor: PageDecor | undefined; rounded: Map<number, Rounded>; overlay?: Mupdf.DisplayList }, release: () => void): Uint8Array {
  const { w, h, scale, decor, rounded, overlay } = sheet;
  const out = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(out, 'pdf', '');
  const links: { page: number; rect: Mupdf.Rect; uri: string | null }[] = [];
  const count = pagesWithInk(mupdf, source);
  for (let i = 0; i < count; i++) {
    const page = source.loadPage(i);
    const device = writer.beginPage([0, 0, w, h]);
    decor?.(device, i, count, 'behind');
    page.run(rounded.size ? roundingDevice(mupdf, device, rounded) : device, mupdf.Matrix.scale(1 / scale, 1 / scale));
    overlay?.run(device, mupdf.Matrix.scale(1 / scale, 1 / scale)); // fixed boxes, on every page
    decor?.(device, i, count, 'above');
    writer.endPage();
    for (const link of page.getLinks()) links.push({ page: i, rect: link.getBounds().map((v) => v / scale) as Mupdf.Rect, uri: pdfLinkUri(source, link, h, scale) });
    page.destroy();
  }
  writer.close();
  // The layout and the writer's buffer go before the written PDF is opened again: one copy of
  // the document in MuPDF's heap at a time.
  const title = source.getMetaData('info:Title');
  const written = out.asUint8Array().slice();
  out.destroy();
  release();
  const pdf = mupdf.Document.openDocument(written, 'application/pdf').asPDF()!;
  try {
    for (const link of links) {
      if (!link.uri) continue;
      try {
        (pdf.loadPage(link.page) as Mupdf.PDFPage).createLink(link.rect, link.uri);
      } catch {
        // A scheme a PDF link cannot carry (javascript:, a file path): the text stays, unlinked.
      }
    }
    if (title) pdf.setMetaData('info:Title', title);
    pdf.subsetFonts(); // only the glyphs the page uses: a whole face is 60-400 KB
    hyphensAsHyphens(pdf);
    return saveBytes(pdf, 'garbage=compact,compress=yes');
  } finally {
    pdf.destroy();
  }
}

/**
 * The number of pages up to the last that shows anything: trailing pages holding only blank lines
 * (empty paragraphs a page ends with that ran over by a line) are not printed. At least one page.
 */
function pagesWithInk(mupdf: typeof Mupdf, doc: Mupdf.Document): number {
  let count = doc.countPages();
  while (count > 1) {
    let ink = false;
    const mark = () => void (ink = true);
    const device = new mupdf.Device({
      fillText: (text) => text.walk({ showGlyph: (_font, _trm, _glyph, unicode) => void (ink ||= !/^\s$/u.test(String.fromCodePoint(unicode))) }),
      strokeText: mark,
      fillPath: mark,
      strokePath: mark,
      fillImage: mark,
      fillImageMask: mark,
      fillShade: mark,
    });
    const page = doc.loadPage(count - 1);
    page.run(device, mupdf.Matrix.identity);
    device.close();
    page.destroy();
    if (ink) break;
    count--;
  }
  return count;
}

/**
 * Fonts whose hyphen glyph also serves the soft hyphen (Liberation's designs, many embedded faces)
 * came out with that glyph mapped to U+00AD, so "e-mail" extracted and searched as "e\u00admail".
 * Each such mapping in the fonts' ToUnicode tables is made U+002D.
 */
function hyphensAsHyphens(pdf: Mupdf.PDFDocument): void {
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

/**
 * A link's target as a PDF link takes it: external URIs as they are; a place in the document as
 * its page and the height to show at the top (PDF user space, y up, on pages `h` points tall, the
 * layout drawn `scale` times smaller).
 */
function pdfLinkUri(source: Mupdf.Document, link: Mupdf.Link, h: number, scale: number): string | null {
  const uri = link.getURI();
  if (!link.isExternal()) {
    try {
      const at = source.resolveLinkDestination(link);
      return `#page=${at.page + 1}&view=FitH,${Math.round(h - at.y / scale)}`;
    } catch {
      return null;
    }
  }
  return /^(https?|mailto|ftp):/i.test(uri) ? uri : null;
}
