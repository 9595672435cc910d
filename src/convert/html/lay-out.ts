/**
 * The prepared page (prepare.ts) laid out by MuPDF as Chromium prints it: shrunk to fit, boxes kept
 * whole (html-avoid-breaks.ts), the headers of tables that run over pages repeated on each
 * (html-table-headers.ts), and the fixed boxes as an overlay for every page.
 */
import type * as Mupdf from 'mupdf';
import { addEdgeMarkers, breakBefore, cutBoxes, removeEdgeMarkers } from './html-avoid-breaks';
import { addRowMarkers, partsFit, removeRowMarkers, spanningTables, splitRows, splitTables } from './html-table-headers';
import { BODY_MARGINS } from './html-tables';
import type { PreparedHtml } from './prepare';
import { layOutMarkup } from '../../layout/html-engine';

/** Hears of what the layout chose to do differently from Chromium (logged by the operation). */
export type LayoutNote = (event: string, fields: Record<string, unknown>) => void;

/**
 * The page laid out as Chromium prints it, one MuPDF document alive at a time (its heap never
 * shrinks, so two at once would set its size): shrunk to fit (layOutToFit), boxes kept whole
 * (html-avoid-breaks.ts), then with the headers of tables that run over pages repeated on each
 * (html-table-headers.ts). Whatever fails destroys the document it holds.
 */
export function layOutWithHeaders(mupdf: typeof Mupdf, prepared: PreparedHtml, log: LayoutNote): { doc: Mupdf.Document; scale: number } {
  const { box, tables } = prepared;
  const bytes = new TextEncoder().encode(prepared.html);
  const fitted = layOutToFit(mupdf, bytes, box, prepared.tableWidth);
  let doc: Mupdf.Document | undefined = fitted.doc;
  const again = (html: Uint8Array): Mupdf.Document => {
    doc?.destroy();
    doc = undefined;
    return (doc = layOut(mupdf, html, box, fitted.scale));
  };
  const current = () => new TextEncoder().encode(prepared.serialize());
  try {
    let settled = bytes;
    // Boxes asked not to be cut by a page end (break-inside: avoid) start a page where they would be.
    if (prepared.unbroken.length) {
      addEdgeMarkers(prepared.unbroken);
      const measured = again(current());
      removeEdgeMarkers(prepared.unbroken);
      const cut = cutBoxes(measured, prepared.unbroken, (box.h - box.margins[0] - box.margins[2]) * fitted.scale);
      breakBefore(cut);
      settled = cut.length ? current() : bytes;
      again(settled);
    }
    const spanning = spanningTables(doc!, tables);
    if (!spanning.length) return { doc: doc!, scale: fitted.scale };
    addRowMarkers(spanning);
    const measured = again(current());
    removeRowMarkers(spanning);
    const parts = splitTables(spanning, splitRows(measured, spanning));
    const split = again(parts.length ? current() : settled);
    if (parts.length && !partsFit(split, parts)) {
      log('html_table_split_kept_whole', { parts: parts.length });
      again(settled);
    }
    return { doc: doc!, scale: fitted.scale };
  } catch (err) {
    doc?.destroy();
    throw err;
  }
}

/**
 * Laid out so that nothing runs off the page, as Chromium prints it: a table of fixed columns
 * wider than the page is drawn at its widths with the page shrunk to fit (MuPDF would squeeze the
 * columns), then content that still runs off the sheet (a fixed-width layout) is measured and the
 * page laid out on a larger sheet, drawn scaled down (at most to half size). Content that only
 * reaches into the right margin is left as it is: MuPDF's tables come out a little wider than
 * Chromium's, which then needs no shrinking.
 */
function layOutToFit(mupdf: typeof Mupdf, bytes: Uint8Array, box: { w: number; h: number; margins: number[] }, tableWidth: number): { doc: Mupdf.Document; scale: number } {
  const { w, margins } = box;
  const room = w - margins[1]! - margins[3]! - BODY_MARGINS;
  let scale = tableWidth > room + 1 ? Math.min(MAX_SHRINK, tableWidth / room) : 1;
  let doc: Mupdf.Document | undefined = layOut(mupdf, bytes, box, scale);
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      const right = widestRight(mupdf, doc, 10);
      if (right <= scale * w + 1 || scale >= MAX_SHRINK) break;
      scale = Math.min(MAX_SHRINK, Math.max(scale * 1.05, ((right - scale * margins[3]!) / (w - margins[1]! - margins[3]!)) * 1.02));
      doc.destroy();
      doc = undefined;
      doc = layOut(mupdf, bytes, box, scale);
    }
    return { doc, scale };
  } catch (err) {
    doc?.destroy();
    throw err;
  }
}

/** The fixed boxes laid out on a page of their own (where their offsets put them), as a display list to draw over every page. */
export function fixedOverlay(mupdf: typeof Mupdf, html: string, box: { w: number; h: number; margins: number[] }, scale: number): Mupdf.DisplayList | undefined {
  const doc = layOut(mupdf, new TextEncoder().encode(html), box, scale);
  try {
    const page = doc.loadPage(0);
    const list = page.toDisplayList();
    page.destroy();
    return list;
  } catch {
    return undefined; // fixed boxes that cannot be laid out are left out, as before
  } finally {
    doc.destroy();
  }
}

/** Chromium shrinks content to fit the page's width down to this factor. */
const MAX_SHRINK = 2;

/**
 * The page laid out by MuPDF on a sheet `scale` times the page (margins too, so that they come out
 * the page's own when drawn scaled back). MuPDF lets the user style sheet win over the document's
 * (so browser defaults go in the page, before its own rules); the margins given here are already
 * the document's own where it sets them.
 */
function layOut(mupdf: typeof Mupdf, html: Uint8Array, box: { w: number; h: number; margins: number[] }, scale: number): Mupdf.Document {
  const [w, h] = [box.w * scale, box.h * scale];
  mupdf.setUserCSS(`@page { size: ${w}pt ${h}pt; margin: ${box.margins.map((m) => `${m * scale}pt`).join(' ')} }`);
  return layOutMarkup(mupdf, html, 'html', { width: w, height: h, em: 12 });
}

/**
 * The right edge of the furthest text or picture on the first `pages` pages, drawn through a
 * device that keeps what runs off the sheet (the structured text stops at the sheet's edge).
 */
function widestRight(mupdf: typeof Mupdf, doc: Mupdf.Document, pages: number): number {
  let right = 0;
  const device = new mupdf.Device({
    // Where each glyph's advance ends (a glyph's ink box would count italic overhangs and accents).
    fillText: (text, ctm) =>
      text.walk({ showGlyph: (font, trm, glyph) => void (right = Math.max(right, ctm[4] + ctm[0] * (trm[4] + trm[0] * font.advanceGlyph(glyph)))) }),
    fillImage: (_image, ctm) => void (right = Math.max(right, ctm[4] + Math.max(0, ctm[0]), ctm[4] + Math.max(0, ctm[2]))),
  });
  for (let i = 0; i < Math.min(pages, doc.countPages()); i++) {
    const page = doc.loadPage(i);
    page.run(device, mupdf.Matrix.identity);
    page.destroy();
  }
  device.close();
  return right;
}

