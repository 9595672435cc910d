/**
 * HTML → PDF as the convert Worker runs it. The page is decoded and cleaned (html-source.ts),
 * rewritten on a DOM where MuPDF's HTML layout falls short of Chromium's print (html-rewrite.ts and
 * the files it calls), laid out by MuPDF on the document's own sheet (html-page-box.ts), shrunk to
 * fit and with table headers repeated as Chromium prints them, and written with the @page decor
 * (html-page-decor.ts, html-pdf-writer.ts). Nothing is fetched: MuPDF in WASM has no network and
 * nothing here requests a URL; only data: pictures and fonts show.
 */
import type * as Mupdf from 'mupdf';
import renderHtml from 'dom-serializer';
import { Element as ElementNode, type Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { bundledFonts } from '../../fonts/bundled';
import { loadMupdf } from '../../pdf/mupdf';
import { PDF_MIME } from '../../pdf/pdf';
import type { OperationDef, OperationResult, RunContext } from '../define';
import htmlToPdf from '../html-to-pdf';
import { TaskError } from '../../contracts/failures';
import { LimitExceeded, findLimitExceeded } from '../../lib/limits';
import { customPropertiesOf, flattenCss, pageRules, printRules, pxToPt, type PageRule } from '../../convert/html/css-flatten';
import { DEFAULT_MEDIA } from '../../convert/html/css-media';
import { writeCounters } from '../../convert/html/html-counters';
import { limitDepth } from '../../convert/html/html-dom';
import { embeddedFaces, installEmbeddedFaces, quoteFamilies, type EmbeddedFace } from '../../convert/html/html-fonts';
import { withDrawablePictures } from '../../convert/html/html-images';
import { pageBox, type Params } from '../../convert/html/html-page-box';
import { pageDecor } from '../../convert/html/html-page-decor';
import { writePdf } from '../../convert/html/html-pdf-writer';
import { rewriteForMupdf } from '../../convert/html/html-rewrite';
import { tagRoundedBoxes, type Rounded } from '../../convert/html/html-rounded';
import { decodeHtml, forPrint, inPoints, withoutActiveContent } from '../../convert/html/html-source';
import { computeStyles, styledBy } from '../../convert/html/html-styles';
import { addEdgeMarkers, breakBefore, cutBoxes, keptTogether, removeEdgeMarkers, type Kept } from '../../convert/html/html-avoid-breaks';
import { addRowMarkers, markTableRows, partsFit, removeRowMarkers, spanningTables, splitRows, splitTables, type MarkedTable } from '../../convert/html/html-table-headers';
import { BODY_MARGINS } from '../../convert/html/html-tables';

/**
 * `line-height: normal` as Chromium takes it from the common faces' metrics (Liberation Serif and
 * Sans, Arimo, Tinos: 1.149); MuPDF's own normal is 1.2, which adds a line in every 24.
 */
const NORMAL_LINE_HEIGHT = '1.15';

/**
 * Where MuPDF's built-in style sheet differs from a browser's (Chromium's html.css): body margin,
 * heading sizes and spacing, list indents, table cell padding. The first style sheet of the page, so
 * that the page's own rules win.
 */
const BROWSER_DEFAULTS = [
  `html { line-height: ${NORMAL_LINE_HEIGHT} } body { margin: 8px }`,
  'h1 { font-size: 2em; margin: .67em 0 } h2 { font-size: 1.5em; margin: .83em 0 } h3 { font-size: 1.17em; margin: 1em 0 }',
  'h4 { font-size: 1em; margin: 1.33em 0 } h5 { font-size: .83em; margin: 1.67em 0 } h6 { font-size: .67em; margin: 2.33em 0 }',
  'p, ul, ol, dl, blockquote, pre { margin-top: 1em; margin-bottom: 1em } ul, ol { padding-left: 40px }',
  'ul ul, ul ol, ol ul, ol ol { margin-top: 0; margin-bottom: 0 } ul ul { list-style-type: circle } ul ul ul { list-style-type: square }',
  'td, th { padding: 1px } th { font-weight: bold; text-align: center } center { display: block; text-align: center }',
  'blockquote, figure { margin: 1em 40px } dd { margin-left: 40px } figcaption { text-align: left }',
  // Chromium's monospace text is 13px where other text is 16px.
  'pre, code, kbd, samp, tt { font-size: 0.8125em } pre code, pre kbd, pre samp { font-size: 1em }',
].join(' ');

const DEFAULTS: Params = { page_size: 'A4', orientation: 'portrait', margin: 'standard' };

export const htmlToPdfWithLayout = { ...htmlToPdf, run: convertHtml } as unknown as OperationDef;

async function convertHtml({ inputs, params, log }: RunContext<Params>): Promise<OperationResult> {
  const mupdf = await loadMupdf();
  let source: Mupdf.Document | undefined;
  let uninstallFaces = () => {};
  try {
    const prepared = prepareHtml(await withDrawablePictures(decodeHtml(inputs[0]!.bytes)), params);
    const { pages, box } = prepared;
    const { w, h, margins } = box;
    const faces = installEmbeddedFaces(mupdf, box.faces, bundledFonts);
    uninstallFaces = faces.uninstall;
    const { doc, scale } = layOutWithHeaders(mupdf, prepared, log);
    source = doc;
    const decor = pageDecor(mupdf, pages, { w, h, margins }, faces);
    const overlay = prepared.fixedHtml ? fixedOverlay(mupdf, prepared.fixedHtml, box, scale) : undefined;
    const release = () => {
      source?.destroy();
      source = undefined;
    };
    return { chunks: [writePdf(mupdf, source, { w, h, scale, decor, rounded: prepared.rounded, overlay }, release)], ext: 'pdf', contentType: PDF_MIME };
  } catch (err) {
    // A page past a limit: the consumer fails the task with the limit's message and refunds it.
    if (err instanceof TaskError || findLimitExceeded(err)) throw err;
    log('html_layout_failed', { error: String(err) });
    throw new TaskError({ reason: 'document_unreadable', message: 'The HTML could not be laid out: save the page again from a browser and upload it again (the payment was returned).' });
  } finally {
    source?.destroy();
    uninstallFaces();
    mupdf.setUserCSS('');
  }
}

/**
 * Elements a page may hold: counted in its source (start tags) before it is parsed, past it
 * LimitExceeded. A 20 MB page of one table took 2.1 GB; a table of 25,000 rows (125,000
 * elements, 1.3 MB of HTML) took MuPDF's heap to 79 MB and 12 s to lay out, near the isolate's
 * 128 MB with the page's DOM beside it. 100,000 elements are some 2,000 pages of text.
 */
export const HTML_ELEMENTS_MAX = 100_000;

function requireFewElements(html: string): void {
  let count = 0;
  for (let at = html.indexOf('<'); at >= 0; at = html.indexOf('<', at + 1)) {
    const c = html.charCodeAt(at + 1) | 0x20;
    if (c >= 97 && c <= 122) count++; // a letter: a start tag
  }
  const n = (v: number) => String(v).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  if (count > HTML_ELEMENTS_MAX) throw new LimitExceeded('html_elements', `The page holds ${n(count)} elements; at most ${n(HTML_ELEMENTS_MAX)} are laid out.`);
}

/** How deep boxes may nest for MuPDF's layout, which overflows its stack past about 30 levels (html-dom.ts limitDepth). */
const MAX_DEPTH = 24;

/**
 * The page laid out as Chromium prints it, one MuPDF document alive at a time (its heap never
 * shrinks, so two at once would set its size): shrunk to fit (layOutToFit), boxes kept whole
 * (html-avoid-breaks.ts), then with the headers of tables that run over pages repeated on each
 * (html-table-headers.ts). Whatever fails destroys the document it holds.
 */
function layOutWithHeaders(mupdf: typeof Mupdf, prepared: ReturnType<typeof prepareHtml>, log: RunContext<Params>['log']): { doc: Mupdf.Document; scale: number } {
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
function fixedOverlay(mupdf: typeof Mupdf, html: string, box: { w: number; h: number; margins: number[] }, scale: number): Mupdf.DisplayList | undefined {
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
  const doc = mupdf.Document.openDocument(html, 'text/html');
  doc.layout(w, h, 12);
  return doc;
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

/**
 * The page as MuPDF gets it: active content removed (withoutActiveContent), then rewritten on a
 * DOM where MuPDF's layout falls short of a browser's (html-rewrite.ts), with the print rules of
 * its style sheets, which also carry its @page and @font-face rules.
 */
export function prepareHtml(text: string, params: Params = DEFAULTS): { html: string; pages: PageRule[]; box: ReturnType<typeof pageBox> & { faces: EmbeddedFace[] }; tables: MarkedTable[]; unbroken: Kept[]; rounded: Map<number, Rounded>; serialize(): string; tableWidth: number; fixedHtml: string | undefined } {
  const written = [...text.matchAll(/<style\b([^>]*)>([\s\S]*?)<\/style\s*>/gi)].filter((m) => forPrint(m[1]!)).map((m) => m[2]!);
  const pages = pageRules(written.join('\n'));
  // The sheet first (from the @page rules), then the rest read for a page of its content width.
  const wrapper = /<body\b[^>]*>\s*<div\s[^>]*\bclass\s*=\s*["']?([\w-]+)/i.exec(text)?.[1];
  const box = pageBox(printRules(written.map((css) => flattenCss(css, { ...DEFAULT_MEDIA, forMupdf: false })).join('\n')), params, wrapper);
  const media = { width: (box.w - box.margins[1] - box.margins[3]) / 0.75, height: (box.h - box.margins[0] - box.margins[2]) / 0.75 };
  const rules = printRules(written.map((css) => flattenCss(css, { ...media, forMupdf: false })).join('\n'));
  const cleaned = withoutActiveContent(text, media, customPropertiesOf(written.join('\n')));
  requireFewElements(cleaned);
  const dom = parseDocument(cleaned);
  limitDepth(dom, MAX_DEPTH, styledBy(dom.children, rules));
  writeCounters(dom, rules);
  const styles = computeStyles(dom.children, rules);
  const { tableWidth, fixed } = rewriteForMupdf(dom, styles, { width: box.w - box.margins[1] - box.margins[3], height: box.h - box.margins[0] - box.margins[2] });
  const unbroken = keptTogether(dom, styles);
  const rounded = tagRoundedBoxes(dom, styles);
  const tables = markTableRows(dom);
  const finish = (html: string) => `<style>${pxToPt(BROWSER_DEFAULTS)}</style>${inPoints(quoteFamilies(html).replace(/line-height\s*:\s*normal/gi, `line-height: ${NORMAL_LINE_HEIGHT}`), media)}`;
  const serialize = () => finish(renderHtml(dom, { encodeEntities: 'utf8' }));
  // The fixed boxes on a page of their own, with the page's style sheets.
  const head = dom.children.flatMap((n) => (n instanceof ElementNode ? [n, ...n.children] : [])).find((n): n is Element => n instanceof ElementNode && n.name === 'head');
  const fixedHtml = fixed.length ? finish(`<html>${head ? renderHtml(head, { encodeEntities: 'utf8' }) : ''}<body>${renderHtml(fixed, { encodeEntities: 'utf8' })}</body></html>`) : undefined;
  return { html: serialize(), pages, box: { ...box, faces: embeddedFaces(rules) }, tables, unbroken, rounded, serialize, tableWidth, fixedHtml };
}

