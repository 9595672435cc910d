/**
 * HTML → PDF as the convert Worker runs it: a first cut on MuPDF's own HTML layout (issue 33 asks
 * for more: flex, grid, rounded borders and the rest of print CSS). The file is decoded from its
 * encoding (byte order mark, <meta charset>, else UTF-8) and given to MuPDF as UTF-8 with scripts,
 * frames, objects and meta refreshes removed. Nothing is fetched: MuPDF in WASM has no network, and
 * nothing here requests a URL; only data: images and fonts can show. Pages are the requested size
 * with the requested margins as user CSS, which the document's own @page rules override. Links
 * are carried over as PDF links, the title into the PDF's metadata.
 */
import type * as Mupdf from 'mupdf';
import { bundledFonts } from '../converters/fonts/bundled';
import { loadMupdf } from '../engines/mupdf';
import { PDF_MIME, saveBytes } from '../engines/pdf';
import type { OperationDef, OperationResult, RunContext } from '../operations/define';
import htmlToPdf from '../operations/html-to-pdf';
import { TaskError } from '../tasks/failures';
import { parseDocument } from 'htmlparser2';
import renderHtml from 'dom-serializer';
import { customPropertiesOf, flattenCss, pageRules, printRules, pxToPt, resolveInlineVars, type PageRule } from './css-flatten';
import { opaqueColors } from './css-colors';
import { DEFAULT_MEDIA, matchesPrint, resolveViewportAndCalc, type PrintedMedia } from './css-media';
import { writeCounters } from './html-counters';
import { limitDepth } from './html-dom';
import { withDrawablePictures } from './html-images';
import { embeddedFaces, installEmbeddedFaces, quoteFamilies, type EmbeddedFace } from './html-fonts';
import { rewriteForMupdf } from './html-rewrite';
import { BODY_MARGINS } from './html-tables';
import { computeStyles, styledBy } from './html-styles';
import { addRowMarkers, markTableRows, partsFit, removeRowMarkers, spanningTables, splitRows, splitTables, type MarkedTable } from './html-table-headers';
import { pageBox, type Params } from './html-page-box';
import { pageDecor, type PageDecor } from './html-page-decor';


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
    const release = () => {
      source?.destroy();
      source = undefined;
    };
    return { chunks: [writePdf(mupdf, source, w, h, decor, scale, release)], ext: 'pdf', contentType: PDF_MIME };
  } catch (err) {
    if (err instanceof TaskError) throw err;
    log('html_layout_failed', { error: String(err) });
    throw new TaskError({ reason: 'document_unreadable', message: 'The HTML could not be laid out: save the page again from a browser and upload it again (the payment was returned).' });
  } finally {
    source?.destroy();
    uninstallFaces();
    mupdf.setUserCSS('');
  }
}

/**
 * Lengths as MuPDF reads them (px as points, pxToPt; viewport units and calc() worked out,
 * resolveViewportAndCalc) and colours as it draws them (opaqueColors), in style sheets and style
 * attributes.
 */
function inPoints(html: string, media: PrintedMedia): string {
  return html
    .replace(/(<style\b[^>]*>)([\s\S]*?)(<\/style\s*>)/gi, (_, open: string, css: string, close: string) => open + forMupdf(css, media) + close)
    .replace(/(\sstyle\s*=\s*")([^"]*)"/gi, (_, head: string, css: string) => `${head}${forMupdf(css, media)}"`);
}

function forMupdf(css: string, media: PrintedMedia): string {
  return opaqueColors(pxToPt(resolveViewportAndCalc(css, media)));
}

/** How deep boxes may nest for MuPDF's layout, which overflows its stack past about 30 levels (html-dom.ts limitDepth). */
const MAX_DEPTH = 24;

/**
 * The page laid out as Chromium prints it, one MuPDF document alive at a time (its heap never
 * shrinks, so two at once would set its size): shrunk to fit (layOutToFit), then with the headers
 * of tables that run over pages repeated on each (html-table-headers.ts). Whatever fails destroys
 * the document it holds.
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
  try {
    const spanning = spanningTables(doc, tables);
    if (!spanning.length) return { doc, scale: fitted.scale };
    addRowMarkers(spanning);
    const measured = again(new TextEncoder().encode(prepared.serialize()));
    removeRowMarkers(spanning);
    const parts = splitTables(spanning, splitRows(measured, spanning));
    const split = again(parts.length ? new TextEncoder().encode(prepared.serialize()) : bytes);
    if (parts.length && !partsFit(split, parts)) {
      log('html_table_split_kept_whole', { parts: parts.length });
      again(bytes);
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
export function prepareHtml(text: string, params: Params = DEFAULTS): { html: string; pages: PageRule[]; box: ReturnType<typeof pageBox> & { faces: EmbeddedFace[] }; tables: MarkedTable[]; serialize(): string; tableWidth: number } {
  const written = [...text.matchAll(/<style\b([^>]*)>([\s\S]*?)<\/style\s*>/gi)].filter((m) => forPrint(m[1]!)).map((m) => m[2]!);
  const pages = pageRules(written.join('\n'));
  // The sheet first (from the @page rules), then the rest read for a page of its content width.
  const wrapper = /<body\b[^>]*>\s*<div\s[^>]*\bclass\s*=\s*["']?([\w-]+)/i.exec(text)?.[1];
  const box = pageBox(printRules(written.map((css) => flattenCss(css, { ...DEFAULT_MEDIA, forMupdf: false })).join('\n')), params, wrapper);
  const media = { width: (box.w - box.margins[1] - box.margins[3]) / 0.75, height: (box.h - box.margins[0] - box.margins[2]) / 0.75 };
  const rules = printRules(written.map((css) => flattenCss(css, { ...media, forMupdf: false })).join('\n'));
  const dom = parseDocument(withoutActiveContent(text, media, customPropertiesOf(written.join('\n'))));
  limitDepth(dom, MAX_DEPTH, styledBy(dom.children, rules));
  writeCounters(dom, rules);
  const { tableWidth } = rewriteForMupdf(dom, computeStyles(dom.children, rules), { width: box.w - box.margins[1] - box.margins[3], height: box.h - box.margins[0] - box.margins[2] });
  const tables = markTableRows(dom);
  const serialize = () => `<style>${pxToPt(BROWSER_DEFAULTS)}</style>${inPoints(quoteFamilies(renderHtml(dom, { encodeEntities: 'utf8' })).replace(/line-height\s*:\s*normal/gi, `line-height: ${NORMAL_LINE_HEIGHT}`), media)}`;
  return { html: serialize(), pages, box: { ...box, faces: embeddedFaces(rules) }, tables, serialize, tableWidth };
}

/** Each laid-out page drawn into a new PDF (with the @page decor behind and around it), then its links added and the title set; `release` lets the layout go once drawn. */
function writePdf(mupdf: typeof Mupdf, source: Mupdf.Document, w: number, h: number, decor: PageDecor | undefined, scale: number, release: () => void): Uint8Array {
  const out = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(out, 'pdf', '');
  const links: { page: number; rect: Mupdf.Rect; uri: string | null }[] = [];
  const count = pagesWithInk(mupdf, source);
  for (let i = 0; i < count; i++) {
    const page = source.loadPage(i);
    const device = writer.beginPage([0, 0, w, h]);
    decor?.(device, i, count, 'behind');
    page.run(device, mupdf.Matrix.scale(1 / scale, 1 / scale));
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
  for (let i = 1; i < pdf.countObjects(); i++) {
    const obj = pdf.newIndirect(i);
    if (!obj.isStream()) continue;
    const text = obj.readStream().asString();
    if (!text.includes('beginbfchar') || !/<00ad>/i.test(text)) continue;
    // One mapping per line, `<glyph> <unicode>`: only a destination is rewritten, never a glyph number.
    const fixed = text.replace(/(beginbfchar[\s\S]*?endbfchar)/g, (block) => block.replace(/^(\s*<[0-9a-f]+>[ \t]+)<00ad>[ \t]*$/gim, '$1<002d>'));
    if (fixed !== text) obj.writeStream(fixed);
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

/** The file's text: UTF-16 or UTF-8 by byte order mark, else the charset its <meta> declares, else UTF-8 if it is that, else a guess between windows-1251, KOI8-R and windows-1252. */
export function decodeHtml(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
  const declared = /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  if (declared) {
    try {
      return new TextDecoder(declared).decode(bytes);
    } catch {
      // A charset TextDecoder does not know: guessed below, as for none.
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder(eightBitCharset(bytes)).decode(bytes);
  }
}

/**
 * The 8-bit charset of a file that declares none and is not UTF-8 (saved without HTTP headers).
 * In the text between tags, Russian is mostly letters above 0x7F, Western text mostly ASCII letters
 * with an accented one here and there (windows-1252). Russian is mostly lower case, which
 * windows-1251 codes at 0xE0-0xFF and KOI8-R at 0xC0-0xDF.
 */
export function eightBitCharset(bytes: Uint8Array): string {
  let [ascii, high, c0df, e0ff, inTag] = [0, 0, 0, 0, false];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x3c) inTag = true;
    else if (b === 0x3e) inTag = false;
    if (inTag) continue;
    if ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)) ascii++;
    if (b < 0x80) continue;
    high++;
    if (b >= 0xe0) e0ff++;
    else if (b >= 0xc0) c0df++;
  }
  if (high < ascii * 0.3 || (c0df + e0ff) * 2 < high) return 'windows-1252';
  return e0ff >= c0df ? 'windows-1251' : 'koi8-r';
}

/**
 * Scripts (never run), frames, objects and meta refreshes removed, every <meta charset> made
 * UTF-8 (the text is UTF-8 from here on), @font-face rules with data: fonts dropped, style
 * sheets flattened (css-flatten.ts) and long data: URLs taken out of styles (withoutLongUrls).
 */
export function withoutActiveContent(html: string, media: PrintedMedia = DEFAULT_MEDIA, sheetVars = new Map<string, string>()): string {
  return html
    .replace(/<style\b([^>]*)>[\s\S]*?<\/style\s*>/gi, (sheet, attributes: string) => (forPrint(attributes) ? sheet : ''))
    .replace(/<script\b[\s\S]*?(<\/script\s*>|$)/gi, '')
    .replace(/<(iframe|object|embed|frame|frameset)\b[\s\S]*?(<\/\1\s*>|\/>|$)/gi, '')
    .replace(/<meta[^>]+http-equiv\s*=\s*["']?refresh[^>]*>/gi, '')
    // Word's namespaced tags (<o:p></o:p> ends every paragraph it saves): MuPDF reads o:p as a p and
    // put an empty paragraph after each one; browsers draw their content inline, as here.
    .replace(/<\/?[a-z][\w-]*:[\w-]+(\s[^>]*)?\/?>/gi, '')
    .replace(/<meta[^>]+charset[^>]*>/gi, '<meta charset="utf-8">')
    // MuPDF's CSS reader stops at the first over-long token, so a @font-face carrying a data: font
    // ended the whole stylesheet (every rule after it lost). Those faces go; the text falls back
    // to MuPDF's own faces and the rest of the stylesheet applies.
    .replace(/@font-face\s*\{[^{}]*url\(\s*["']?data:[^{}]*\}/gi, '')
    // Nesting, custom properties and @page margin boxes written out as MuPDF reads CSS.
    .replace(/(<style\b[^>]*>)([\s\S]*?)(<\/style\s*>)/gi, (_, open: string, css: string, close: string) => open + withoutLongUrls(flattenCss(css, { ...media, forMupdf: true })) + close)
    .replace(/(\sstyle\s*=\s*)(["'])([\s\S]*?)\2/gi, (_, head: string, quote: string, value: string) => head + quote + withoutLongUrls(resolveInlineVars(value, sheetVars)) + quote);
}

/** Whether a <style> element's `media` attribute (if any) holds for print. */
function forPrint(attributes: string): boolean {
  const media = /\bmedia\s*=\s*["']?([^"'>]*)/i.exec(attributes)?.[1];
  return media === undefined || !media.trim() || matchesPrint(media);
}

/**
 * MuPDF's CSS reader gives up on a token over 1 KB, and the rest of the style sheet with it. The
 * long ones are data: URLs of background pictures, which its layout does not draw anyway: each is
 * taken out, so the colour, size and position beside it still apply, and a declaration left
 * empty goes (`none` in its place would read as black). Fonts come through html-fonts.ts.
 */
export function withoutLongUrls(css: string): string {
  if (css.length < 1000) return css;
  return css
    .replace(/url\(\s*(?:"[^"]*"|'[^']*'|[^)"']*)\s*\)\s*(format\([^)]*\))?,?/gi, (token) => (token.length > 1000 ? '\u0000' : token))
    .replace(/([{;"']\s*)[\w-]+\s*:\s*\u0000[\s\u0000]*(;|(?=[}"']))/g, '$1')
    .replaceAll('\u0000', '');
}
