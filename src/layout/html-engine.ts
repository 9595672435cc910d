/**
 * Layout's second engine: MuPDF's HTML engine lays out CSS boxes. HTML pages go through it (CSS is
 * its language; our own engine, layout/blocks/, has none), and Word's blocks that our line breaker
 * and pager do not take (convert/word/blocks/eligible.ts). Both converters open their markup here;
 * what it lays out is drawn page by page (Document.loadPage(n).run) into the PDF writer, and the
 * one finisher (pdf/finish/) closes the PDF as it does our own engine's.
 */
import type * as Mupdf from 'mupdf';

/** Markup laid out on pages `width` × `height` points, `em` the default font size. */
export interface MarkupPage {
  width: number;
  height: number;
  em: number;
}

/**
 * `markup` laid out by MuPDF's HTML engine: 'xhtml' parses it as XML (well-formed markup of ours,
 * kept as written), 'html' with the HTML5 parser (a page from the web).
 */
export function layOutMarkup(mupdf: typeof Mupdf, markup: string | Uint8Array, parser: 'html' | 'xhtml', page: MarkupPage): Mupdf.Document {
  const bytes = typeof markup === 'string' ? new TextEncoder().encode(markup) : markup;
  const doc = mupdf.Document.openDocument(bytes, parser === 'xhtml' ? 'application/xhtml+xml' : 'text/html');
  doc.layout(page.width, page.height, page.em);
  return doc;
}
