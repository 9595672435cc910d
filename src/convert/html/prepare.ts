/**
 * The page as MuPDF's HTML engine gets it: decoded and cleaned (html-source.ts), its print style
 * sheets flattened, its counters written, rewritten on a DOM where MuPDF's layout falls short of
 * Chromium's print (html-rewrite.ts and the files it calls), with the boxes to keep whole, the
 * rounded boxes and the tables whose headers repeat marked for the layout (lay-out.ts).
 */
import renderHtml from 'dom-serializer';
import { Element as ElementNode, type Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { LimitExceeded } from '../../lib/limits';
import { customPropertiesOf, flattenCss, pageRules, printRules, pxToPt, type PageRule } from './css-flatten';
import { DEFAULT_MEDIA } from './css-media';
import { writeCounters } from './html-counters';
import { limitDepth } from './html-dom';
import { embeddedFaces, quoteFamilies, type EmbeddedFace } from './html-fonts';
import { pageBox, type Params } from './html-page-box';
import { rewriteForMupdf } from './html-rewrite';
import { tagRoundedBoxes, type Rounded } from './html-rounded';
import { forPrint, inPoints, withoutActiveContent } from './html-source';
import { computeStyles, styledBy } from './html-styles';
import { keptTogether, type Kept } from './html-avoid-breaks';
import { markTableRows, type MarkedTable } from './html-table-headers';

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

export const DEFAULT_PAGE: Params = { page_size: 'A4', orientation: 'portrait', margin: 'standard' };

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
 * The page as MuPDF gets it: active content removed (withoutActiveContent), then rewritten on a
 * DOM where MuPDF's layout falls short of a browser's (html-rewrite.ts), with the print rules of
 * its style sheets, which also carry its @page and @font-face rules.
 */
/** The prepared page, and what the layout needs to lay it out as Chromium prints it. */
export interface PreparedHtml {
  html: string;
  pages: PageRule[];
  box: ReturnType<typeof pageBox> & { faces: EmbeddedFace[] };
  tables: MarkedTable[];
  unbroken: Kept[];
  rounded: Map<number, Rounded>;
  /** The DOM as it is now (the layout marks it and measures it again). */
  serialize(): string;
  tableWidth: number;
  fixedHtml: string | undefined;
}

export function prepareHtml(text: string, params: Params = DEFAULT_PAGE): PreparedHtml {
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

