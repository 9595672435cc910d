/**
 * The laid-out page drawn as the PDF html-to-pdf returns: each page with its @page decor, then
 * finished by the one PDF finisher (pdf/finish/: links, title, fonts subset, text that extracts as
 * it reads).
 */
import type * as Mupdf from 'mupdf';
import { finishPdf } from '../../pdf/finish';
import type { PageDecor } from './html-page-decor';
import { roundingDevice, type Rounded } from './html-rounded';

/**
 * Each laid-out page drawn into a new PDF (with the @page decor behind and around it, marked boxes
 * rounded: html-rounded.ts), then its links added and the title set; `release` lets the layout go
 * once drawn.
 */
export function writePdf(mupdf: typeof Mupdf, source: Mupdf.Document, sheet: { w: number; h: number; scale: number; decor: PageDecor | undefined; rounded: Map<number, Rounded>; overlay?: Mupdf.DisplayList }, release: () => void): Uint8Array[] {
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
  return finishPdf(mupdf, written, {
    // Places in the page were made `#page=` URIs (pdfLinkUri), which a PDF link carries as they are.
    links: links.filter((l): l is { page: number; rect: Mupdf.Rect; uri: string } => l.uri !== null),
    title: title || undefined,
  });
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
