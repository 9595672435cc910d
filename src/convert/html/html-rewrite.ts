/**
 * The page rewritten into what MuPDF's HTML layout draws as a browser prints it (html-to-pdf):
 * - boxes set side by side (flex, grid, columns, floats, inline blocks) become tables
 *   (html-boxes.ts), and tables are centred and their width shared as CSS does (html-tables.ts);
 * - forced page breaks, in either spelling (`break-before: page`, `page-break-before: always`,
 *   `left`/`right`), become an empty block with `page-break-after: always`, the one form MuPDF
 *   honours; breaks before the first content or after the last are dropped, as Chromium does;
 * - absolutely positioned boxes go out of the flow, boxes taller than a page are shortened;
 * - `text-transform` is applied to the text itself;
 * - presentational attributes of older pages (`border`, `cellpadding`, `bgcolor`, `align`,
 *   `<font>`) become the styles a browser gives them.
 * It answers how wide the page must be drawn to hold its widest fixed table or placed rule, and
 * hands back the fixed boxes it took out, to be drawn on every page.
 */
import { Element, Text, type AnyNode, type ParentNode } from 'domhandler';
import { addHint, addStyle, BLOCK_TAGS, elements, insertBefore, nearestTable, relink } from './html-dom';
import { columnCount, columnsToTable, flexToTable, floatedPictures, gridToTable, sideBySide } from './html-boxes';
import { cssLength } from './html-page-decor';
import type { ComputedStyles } from './html-styles';
import { BODY_MARGINS, captionsAbove, centreBoxes, insideSizedBox, shareTableWidth, widestTable } from './html-tables';

/** `page`: the size of a page's content area in points (between the margins). */
export function rewriteForMupdf(root: ParentNode, styles: ComputedStyles, page: { width: number; height: number }): { tableWidth: number; fixed: Element[] } {
  const tableWidth = widestTable(root, styles);
  centreBoxes(root, styles, page.width - BODY_MARGINS);
  shareTableWidth(root, styles, page.width - BODY_MARGINS);
  presentationalHints(root);
  shortenTallBoxes(root, styles, page.height);
  transformText(root, styles, undefined);
  for (const el of elements(root)) {
    const display = styles.get(el)?.get('display');
    // A table set display: block (GitHub's Markdown styles) is still a table inside its box in a
    // browser; MuPDF would stack its cells.
    if (el.name === 'table' && display && display !== 'none' && !display.includes('table')) addStyle(el, 'display:table');
    else if (display === 'flex' || display === 'inline-flex') flexToTable(el, styles);
    else if (display === 'grid' || display === 'inline-grid') gridToTable(el, styles, insideSizedBox(el, styles) ? undefined : page.width - BODY_MARGINS);
    else if (columnCount(styles.get(el)) > 1) columnsToTable(el, styles);
    else sideBySide(el, styles, insideSizedBox(el, styles) ? undefined : page.width - BODY_MARGINS);
  }
  floatedPictures(elements(root), styles);
  placePageBreaks(root, styles);
  captionsAbove(root);
  const { reach, fixed } = positionedLast(root, styles, page.width - BODY_MARGINS);
  return { tableWidth: Math.max(tableWidth, reach), fixed };
}

/**
 * MuPDF places an absolutely positioned box on the first page as CSS does (the page is its
 * containing block), but then carries on the flow from where that box ends, over what came before.
 * As the last thing in the body, such a box disturbs nothing. Boxes inside a positioned ancestor
 * are left where they are, and so are inline boxes placed by nothing but their margins.
 */
function positionedLast(root: ParentNode, styles: ComputedStyles, room: number): { reach: number; fixed: Element[] } {
  const body = elements(root).find((el) => el.name === 'body') ?? root;
  let reach = 0;
  const positioned = (el: Element) => /^(absolute|fixed|relative|sticky)$/.test(styles.get(el)?.get('position') ?? '');
  // Fixed boxes (running headers and footers) are printed on every page by Chromium: taken out
  // here and laid out on a page of their own, drawn over each page (html-to-pdf.ts).
  const fixed = elements(root).filter((el) => styles.get(el)?.get('position') === 'fixed' && !fixedAncestor(el, styles));
  for (const el of fixed) {
    el.parent!.children.splice(el.parent!.children.indexOf(el), 1);
    relink(el.parent!);
    addStyle(el, 'position:absolute');
  }
  const moved = elements(root).filter((el) => {
    const props = styles.get(el);
    if (props?.get('position') !== 'absolute') return false;
    for (let p = el.parent; p; p = p.parent) if (p instanceof Element && positioned(p)) return false;
    // An inline box with no offsets sits where it would in the line (its static position), and
    // stays there: a rule drawn under a signature, which may well run off the page, as in Chromium.
    if (!['top', 'left', 'right', 'bottom'].some((side) => (props?.get(side) ?? 'auto') !== 'auto') && !isBlockLevel(el, props)) {
      addStyle(el, 'position:static');
      reach = Math.max(reach, staticReach(el, styles, room));
      return false;
    }
    return true;
  });
  for (const el of moved) {
    const parent = el.parent!;
    parent.children.splice(parent.children.indexOf(el), 1);
    relink(parent);
    body.children.push(el);
  }
  relink(body);
  return { reach, fixed };
}

function fixedAncestor(el: Element, styles: ComputedStyles): boolean {
  for (let p = el.parent; p instanceof Element; p = p.parent) if (styles.get(p)?.get('position') === 'fixed') return true;
  return false;
}

/**
 * How far right an absolutely positioned inline box at the start of an otherwise empty line
 * reaches in a browser: from where the line would begin (the middle of a centred block, its right
 * edge if right-aligned), plus its left margin and width. Chromium shrinks a page to fit such a box
 * (Word's HTML places signature rules so); MuPDF draws it in the line, so html-to-pdf shrinks by
 * this. Zero where it is not known.
 */
function staticReach(el: Element, styles: ComputedStyles, room: number): number {
  const parent = el.parent;
  if (!(parent instanceof Element)) return 0;
  const before = parent.children.slice(0, parent.children.indexOf(el));
  const text = before.map((node) => (node instanceof Text ? node.data : node instanceof Element ? textIn(node) : '')).join('');
  if (text.replace(/[\s\u00a0]/g, '')) return 0;
  const own = (node: Element, property: string) => new RegExp(`(?:^|;)\\s*${property}\\s*:\\s*([^;]+)`, 'i').exec(node.attribs.style ?? '')?.[1]?.trim() ?? styles.get(node)?.get(property);
  const width = cssLength(own(el, 'width') ?? '', room);
  const left = cssLength(own(el, 'margin-left') ?? '0', room) ?? 0;
  if (width === undefined) return 0;
  const align = own(parent, 'text-align');
  const start = align === 'center' ? room / 2 : align === 'right' ? room : 0;
  return start + left + width;
}

function textIn(node: Element): string {
  return node.children.map((c) => (c instanceof Text ? c.data : c instanceof Element ? textIn(c) : '')).join('');
}

/**
 * A box set taller than a page (a cover `height: 297mm` meant for a page without margins) as tall
 * as its content: it would otherwise spill onto a blank next page, where a browser fits it to the
 * first page's own margins.
 */
function shortenTallBoxes(root: ParentNode, styles: ComputedStyles, pageHeight: number): void {
  for (const [el, props] of styles) {
    const tall = ['height', 'min-height'].some((p) => (cssLength(props.get(p) ?? '', 0) ?? 0) > pageHeight);
    if (tall && el.parent) addStyle(el, 'height:auto;min-height:0');
  }
}

/** text-transform applied to the text (MuPDF draws text as written); inherited as in CSS. */
function transformText(node: ParentNode, styles: ComputedStyles, inherited: string | undefined): void {
  for (const child of node.children) {
    if (child instanceof Element) {
      if (child.name === 'style' || child.name === 'script') continue;
      transformText(child, styles, styles.get(child)?.get('text-transform') ?? inherited);
    } else if (child instanceof Text && inherited) {
      if (inherited === 'uppercase') child.data = child.data.toUpperCase();
      else if (inherited === 'lowercase') child.data = child.data.toLowerCase();
      else if (inherited === 'capitalize') child.data = child.data.replace(/(^|[\s\p{P}])(\p{Ll})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());
    }
  }
}

const FORCED = /^(page|always|left|right|recto|verso)$/;

function isBlockLevel(el: Element, props: Map<string, string> | undefined): boolean {
  const display = props?.get('display');
  if (display) return /^(block|list-item|table|flex|grid|flow-root)$/.test(display);
  return BLOCK_TAGS.has(el.name);
}

/**
 * Forced breaks as empty blocks that end a page. Walking in document order: a break before an
 * element is placed only once some content has come (Chromium ignores a break before the first),
 * two breaks with nothing between make one, and a break with nothing after it is removed.
 */
function placePageBreaks(root: ParentNode, styles: ComputedStyles): void {
  let contentSince = false;
  let lastMarker: Element | undefined;
  const placeMarker = (before: AnyNode | null, parent: ParentNode): void => {
    if (!contentSince) return;
    const marker = new Element('div', { style: 'page-break-after:always;margin:0;padding:0;height:0' });
    if (before) insertBefore(before, marker);
    else {
      parent.children.push(marker);
      relink(parent);
    }
    [contentSince, lastMarker] = [false, marker];
  };
  const walk = (node: ParentNode, inTable: boolean): void => {
    for (const child of [...node.children]) {
      if (child instanceof Text) {
        if (child.data.trim()) contentSince = true;
        continue;
      }
      if (!(child instanceof Element) || child.name === 'style' || child.name === 'script' || child.name === 'head' || child.name === 'title') continue;
      const props = styles.get(child);
      const breakable = !inTable && isBlockLevel(child, props) && props?.get('position') !== 'absolute';
      if (breakable && (FORCED.test(props?.get('break-before') ?? '') || FORCED.test(props?.get('page-break-before') ?? ''))) placeMarker(child, node);
      if (child.name === 'img' || child.name === 'svg' || child.name === 'hr') contentSince = true;
      walk(child, inTable || child.name === 'table');
      const after = props?.get('break-after') ?? props?.get('page-break-after') ?? '';
      if (breakable && FORCED.test(after)) {
        addStyle(child, 'page-break-after:auto');
        placeMarker(child.next, node);
      } else if (/page-break-after\s*:\s*always/i.test(child.attribs.style ?? '') && !breakable) addStyle(child, 'page-break-after:auto');
    }
  };
  walk(root, false);
  // A break with no content after it would leave a blank last page, which Chromium does not print.
  if (lastMarker && !contentSince) {
    const parent = lastMarker.parent!;
    parent.children.splice(parent.children.indexOf(lastMarker), 1);
    relink(parent);
  }
}

/** Old HTML's presentational attributes as the styles Chromium maps them to (the page's own styles still win). */
function presentationalHints(root: ParentNode): void {
  for (const el of elements(root)) {
    const a = el.attribs;
    const hints: string[] = [];
    if (a.bgcolor) hints.push(`background-color:${a.bgcolor}`);
    if (a.align && el.name !== 'img' && el.name !== 'table') hints.push(`text-align:${a.align === 'middle' ? 'center' : a.align}`);
    if (a.valign) hints.push(`vertical-align:${a.valign}`);
    if (a.width && /^(table|td|th|col|div|hr|img)$/.test(el.name)) hints.push(`width:${/^\d+$/.test(a.width) ? `${a.width}px` : a.width}`);
    if (a.height && /^(img|td|th|tr)$/.test(el.name) && /^\d+%?$/.test(a.height)) hints.push(`height:${a.height.endsWith('%') ? a.height : `${a.height}px`}`);
    if (el.name === 'table') tableHints(el, hints);
    if ((el.name === 'ol' || el.name === 'li') && a.type && LIST_TYPES[a.type]) hints.push(`list-style-type:${LIST_TYPES[a.type]}`);
    if (el.name === 'font') {
      if (a.color) hints.push(`color:${a.color}`);
      if (a.face) hints.push(`font-family:${a.face}`);
      const size = FONT_SIZES[a.size?.trim() ?? ''];
      if (size) hints.push(`font-size:${size}`);
      // A block inside <font> (a list, a paragraph) does not inherit from it in MuPDF's layout.
      if (hints.length) for (const block of elements(el).filter((d) => BLOCK_TAGS.has(d.name))) addHint(block, hints.join(';'));
    }
    if (hints.length) addHint(el, hints.join(';'));
    // MuPDF sizes a picture by its attributes even where CSS says otherwise; the hints carry them now.
    if (el.name === 'img') {
      delete a.width;
      delete a.height;
    }
  }
}

/** `<ol type>` as list-style-type (case matters: `a` and `A` differ). */
const LIST_TYPES: Record<string, string> = { '1': 'decimal', a: 'lower-alpha', A: 'upper-alpha', i: 'lower-roman', I: 'upper-roman', disc: 'disc', circle: 'circle', square: 'square' };

/** `<font size>` 1-7 (and relative +n/-n from 3) as Chromium sizes them. */
const FONT_SIZES: Record<string, string> = { '1': '10px', '2': '13px', '3': '16px', '4': '18px', '5': '24px', '6': '32px', '7': '48px', '-2': '10px', '-1': '13px', '+1': '18px', '+2': '24px', '+3': '32px', '+4': '48px' };

/** A table's `border`, `cellpadding` and `align` on the table and its cells. */
function tableHints(table: Element, hints: string[]): void {
  const border = table.attribs.border === '' ? 1 : Number.parseInt(table.attribs.border ?? '0', 10) || 0;
  const padding = table.attribs.cellpadding;
  if (border > 0) hints.push(`border:${border}px outset #808080`);
  if (table.attribs.align === 'center') hints.push('margin-left:auto;margin-right:auto');
  if (border === 0 && padding === undefined) return;
  for (const cell of elements(table)) {
    if (cell.name !== 'td' && cell.name !== 'th') continue;
    if (nearestTable(cell) !== table) continue;
    const cellHints = [border > 0 ? 'border:1px inset #808080' : '', padding !== undefined ? `padding:${Number.parseInt(padding, 10) || 0}px` : ''].filter(Boolean);
    addHint(cell, cellHints.join(';'));
  }
}

