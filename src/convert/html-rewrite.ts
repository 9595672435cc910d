/**
 * The page rewritten into what MuPDF's HTML layout draws as a browser prints it (html-to-pdf):
 * - flex rows and grids become tables (MuPDF lays out tables, not flex or grid);
 * - forced page breaks, in either spelling (`break-before: page`, `page-break-before: always`,
 *   `left`/`right`), become an empty block with `page-break-after: always`, the one form MuPDF
 *   honours; breaks before the first content or after the last are dropped, as Chromium does;
 * - `text-transform` is applied to the text itself;
 * - presentational attributes of older pages (`border`, `cellpadding`, `bgcolor`, `align`,
 *   `<font>`) become the styles a browser gives them.
 */
import { Element, Text, type AnyNode, type ParentNode } from 'domhandler';
import { addHint, addStyle, elements, insertBefore, isBlank, nearestTable, relink } from './html-dom';
import { cssLength } from './html-page-decor';
import type { ComputedStyles } from './html-styles';
import { BODY_MARGINS, captionsAbove, centreBoxes, insideSizedBox, shareTableWidth } from './html-tables';

/** `page`: the size of a page's content area in points (between the margins). */
export function rewriteForMupdf(root: ParentNode, styles: ComputedStyles, page: { width: number; height: number }): void {
  centreBoxes(root, styles, page.width - BODY_MARGINS);
  shareTableWidth(root, styles, page.width - BODY_MARGINS);
  presentationalHints(root);
  shortenTallBoxes(root, styles, page.height);
  transformText(root, styles, undefined);
  for (const el of elements(root)) {
    const display = styles.get(el)?.get('display');
    if (display === 'flex' || display === 'inline-flex') flexToTable(el, styles);
    else if (display === 'grid' || display === 'inline-grid') gridToTable(el, styles, insideSizedBox(el, styles) ? undefined : page.width - BODY_MARGINS);
    else if (columnCount(styles.get(el)) > 1) columnsToTable(el, styles);
    else sideBySide(el, styles);
  }
  placePageBreaks(root, styles);
  captionsAbove(root);
  positionedLast(root, styles);
}

/**
 * MuPDF places an absolutely positioned box on the first page as CSS does (the page is its
 * containing block), but then carries on the flow from where that box ends, over what came before.
 * As the last thing in the body, such a box disturbs nothing. Boxes inside a positioned ancestor
 * are left where they are, and so are inline boxes placed by nothing but their margins.
 */
function positionedLast(root: ParentNode, styles: ComputedStyles): void {
  const body = elements(root).find((el) => el.name === 'body') ?? root;
  const positioned = (el: Element) => /^(absolute|fixed|relative|sticky)$/.test(styles.get(el)?.get('position') ?? '');
  const moved = elements(root).filter((el) => {
    const props = styles.get(el);
    if (!/^(absolute|fixed)$/.test(props?.get('position') ?? '')) return false;
    for (let p = el.parent; p; p = p.parent) if (p instanceof Element && positioned(p)) return false;
    // An inline box with no offsets sits where it would in the line (its static position), and
    // stays there: a rule drawn under a signature, which may well run off the page, as in Chromium.
    if (!['top', 'left', 'right', 'bottom'].some((side) => (props?.get(side) ?? 'auto') !== 'auto') && !isBlockLevel(el, props)) {
      addStyle(el, 'position:static');
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

/**
 * Runs of two or more sibling boxes that a browser sets side by side, which MuPDF stacks: floats
 * with a width (an older CSS column layout) and inline blocks. Each run becomes a one-row table,
 * left floats in order, then right floats from the right edge inwards.
 */
function sideBySide(parent: Element, styles: ComputedStyles): void {
  const beside = (el: Element) => {
    const props = styles.get(el);
    const float = props?.get('float');
    if ((float === 'left' || float === 'right') && props?.get('width') && props.get('width') !== 'auto') return float;
    return props?.get('display') === 'inline-block' ? 'left' : undefined;
  };
  let run: Element[] = [];
  const close = () => {
    if (run.length >= 2) {
      const ordered = [...run.filter((el) => beside(el) === 'left'), ...run.filter((el) => beside(el) === 'right').reverse()];
      const rights = ordered.some((el) => beside(el) === 'right');
      for (const el of ordered) addStyle(el, 'display:table-cell;vertical-align:top;float:none');
      const row = new Element('div', { style: 'display:table-row' }, ordered);
      const table = new Element('div', { style: `display:table;border-collapse:separate${rights ? ';width:100%' : ''}` }, [row]);
      const at = parent.children.indexOf(run[0]!);
      const inRun = new Set<AnyNode>(run);
      parent.children = [...parent.children.slice(0, at).filter((c) => !inRun.has(c)), table, ...parent.children.slice(at).filter((c) => !inRun.has(c))];
      relink(parent);
      relink(table);
      relink(row);
    }
    run = [];
  };
  for (const child of [...parent.children]) {
    if (isBlank(child)) continue;
    if (child instanceof Element && beside(child)) run.push(child);
    else close();
  }
  close();
}

/** `columns: 2`, `columns: 12em 3`, `column-count: 3` as a number of columns (1 for none). */
function columnCount(props: Map<string, string> | undefined): number {
  const value = props?.get('column-count') ?? props?.get('columns') ?? '';
  const count = value.split(/\s+/).map(Number).find((n) => Number.isInteger(n) && n > 0);
  return Math.min(count ?? 1, 6);
}

/**
 * A multi-column box (which MuPDF lays out as one column) as a one-row table: its children dealt
 * into the columns in order, each column taking about an equal share of the text, as a browser
 * balances them. A column break falls only between children, so a long paragraph is not split.
 */
function columnsToTable(el: Element, styles: ComputedStyles): void {
  const count = columnCount(styles.get(el));
  const children = el.children.filter((c) => !isBlank(c));
  const weight = (node: AnyNode) => Math.max(20, textLength(node));
  const total = children.reduce((sum, c) => sum + weight(c), 0);
  const columns: AnyNode[][] = Array.from({ length: count }, () => []);
  let done = 0;
  for (const child of children) {
    const at = Math.min(count - 1, Math.floor(((done + weight(child) / 2) / total) * count));
    columns[at]!.push(child);
    done += weight(child);
  }
  const gap = 'padding-right:1em';
  const cells = columns.filter((c) => c.length).map((nodes, i, all) => new Element('div', { style: `display:table-cell;vertical-align:top;width:${(100 / all.length).toFixed(2)}%${i < all.length - 1 ? `;${gap}` : ''}` }, nodes));
  for (const cell of cells) relink(cell);
  const row = new Element('div', { style: 'display:table-row' }, cells);
  relink(row);
  const table = new Element('div', { style: 'display:table;width:100%;border-collapse:separate' }, [row]);
  relink(table);
  el.children = [table];
  relink(el);
}

function textLength(node: AnyNode): number {
  if (node instanceof Text) return node.data.replace(/\s+/g, ' ').length;
  return node instanceof Element ? node.children.reduce((sum, c) => sum + textLength(c), 0) : 0;
}

/** The item's share of the free space (`flex: 1`, `flex: 2 1 0`, `flex-grow: 1`; `flex: none`/`auto` as CSS reads them). */
function flexGrow(props: Map<string, string> | undefined): number {
  const grow = props?.get('flex-grow');
  if (grow) return Number.parseFloat(grow) || 0;
  const flex = props?.get('flex');
  if (!flex || flex === 'none' || flex === 'initial') return 0;
  if (flex === 'auto') return 1;
  const first = Number.parseFloat(flex);
  return Number.isFinite(first) && /^[\d.]+(\s|$)/.test(flex) ? first : 0;
}

const VERTICAL = { center: 'middle', 'flex-end': 'bottom', end: 'bottom', baseline: 'baseline' } as Record<string, string>;

/**
 * A flex container in a row becomes a one-row table: each item a cell, grown items sharing the
 * width that is left, `space-between` pushing the last item to the right edge. A column (or
 * wrapping) container stays a block: its items stack, as they do in a column.
 */
function flexToTable(el: Element, styles: ComputedStyles): void {
  const props = styles.get(el)!;
  if ((props.get('flex-direction') ?? 'row').startsWith('column')) return addStyle(el, 'display:block');
  const items = flexItems(el, styles);
  if (items.length < 2) return addStyle(el, 'display:block');
  if (props.get('flex-wrap')?.startsWith('wrap')) return wrappedFlexToTables(el, items, styles);
  const totalGrow = items.reduce((sum, item) => sum + flexGrow(styles.get(item)), 0);
  const justify = props.get('justify-content') ?? '';
  const spread = totalGrow > 0 || /space-|stretch/.test(justify);
  const valign = VERTICAL[props.get('align-items') ?? ''] ?? 'top';
  // No widths on the cells: MuPDF squeezes a percentage column beside an automatic one to its
  // narrowest, while automatic columns share the row by their content, which is near enough to
  // a grown item beside items of their own size.
  items.forEach((item, i) => {
    let css = `display:table-cell;vertical-align:${valign}`;
    if (totalGrow === 0 && /space-(between|around|evenly)/.test(justify) && i > 0) css += i === items.length - 1 ? ';text-align:right' : ';text-align:center';
    addStyle(item, css);
  });
  wrapInRows(el, [items]);
  addStyle(el, `display:table;border-collapse:separate;${spread ? 'width:100%' : ''}`);
}

/**
 * A wrapping flex container: items fill lines by their widths (`width` or the `flex` basis as a
 * percentage; a block of unknown width takes a line, an inline one a quarter), each line of two or
 * more items a one-row table of its own (one table would line up the cells of different lines).
 */
function wrappedFlexToTables(el: Element, items: Element[], styles: ComputedStyles): void {
  const lines: { items: Element[]; widths: (number | undefined)[] }[] = [];
  let used = Infinity;
  for (const item of items) {
    const width = itemShare(item, styles);
    const share = width ?? (BLOCK_TAGS.has(item.name) ? 1 : 0.25);
    if (used + share > 1.001) {
      lines.push({ items: [], widths: [] });
      used = 0;
    }
    lines[lines.length - 1]!.items.push(item);
    lines[lines.length - 1]!.widths.push(width);
    used += share;
  }
  const valign = VERTICAL[styles.get(el)?.get('align-items') ?? ''] ?? 'top';
  const blocks: Element[] = [];
  for (const line of lines) {
    if (line.items.length === 1) {
      blocks.push(line.items[0]!);
      continue;
    }
    // Percentages only when every cell of the line has one (beside an automatic cell MuPDF squeezes them).
    const allKnown = line.widths.every((w) => w !== undefined);
    line.items.forEach((item, i) => addStyle(item, `display:table-cell;vertical-align:${valign}${allKnown ? `;width:${(100 * line.widths[i]!).toFixed(2)}%` : ''}`));
    const row = new Element('div', { style: 'display:table-row' }, line.items);
    relink(row);
    const table = new Element('div', { style: 'display:table;width:100%;border-collapse:separate' }, [row]);
    relink(table);
    blocks.push(table);
  }
  const inItems = new Set(items);
  el.children = [...el.children.filter((child) => !inItems.has(child as Element) && !isBlank(child)), ...blocks];
  relink(el);
  addStyle(el, 'display:block');
}

/** An item's width as a share of its line: `width: 30%`, `flex: 1 50%`, `flex-basis: 100%`. */
function itemShare(item: Element, styles: ComputedStyles): number | undefined {
  const props = styles.get(item);
  for (const value of [props?.get('flex-basis'), props?.get('flex')?.split(/\s+/).find((t) => t.endsWith('%')), props?.get('width')]) {
    const m = /^([\d.]+)%$/.exec(value?.trim() ?? '');
    if (m) return Math.min(1, Number(m[1]) / 100);
  }
  return undefined;
}

/** The container's element children, with runs of loose text wrapped in spans (each is an item, as in CSS). */
function flexItems(el: Element, styles: ComputedStyles): Element[] {
  const items: Element[] = [];
  for (const child of [...el.children]) {
    if (child instanceof Element) {
      const props = styles.get(child);
      if (props?.get('display') === 'none' || props?.get('position') === 'absolute' || props?.get('position') === 'fixed') continue;
      items.push(child);
    } else if (child instanceof Text && !isBlank(child)) {
      const span = new Element('span', {}, [new Text(child.data)]);
      el.children.splice(el.children.indexOf(child), 1, span);
      relink(el);
      relink(span);
      items.push(span);
    }
  }
  return items;
}

/** Puts each group of items into a table row under `table`, in place of the items. */
function wrapInRows(table: Element, groups: Element[][]): void {
  const rows = groups.map((group) => new Element('div', { style: 'display:table-row' }, group));
  const inGroups = new Set(groups.flat());
  const kept = table.children.filter((child) => !inGroups.has(child as Element) && !isBlank(child));
  table.children = [...kept, ...rows];
  relink(table);
  for (const row of rows) relink(row);
}

/**
 * A grid becomes a table with as many columns as `grid-template-columns` lists (repeat() written
 * out); `fr` tracks become percentages of what fixed tracks leave.
 */
function gridToTable(el: Element, styles: ComputedStyles, room: number | undefined): void {
  const tracks = gridTracks(styles.get(el)!.get('grid-template-columns') ?? '');
  const items = flexItems(el, styles);
  if (tracks.length < 2 || items.length < 2) return addStyle(el, 'display:block');
  const widths = trackWidths(tracks, room);
  const groups: Element[][] = [];
  items.forEach((item, i) => {
    if (i % tracks.length === 0) groups.push([]);
    groups[groups.length - 1]!.push(item);
    const width = widths[i % tracks.length];
    addStyle(item, `display:table-cell;vertical-align:top${width ? `;width:${width.toFixed(1)}pt` : ''}`);
  });
  wrapInRows(el, groups);
  addStyle(el, 'display:table;width:100%;border-collapse:separate');
}

/**
 * Column widths in points (MuPDF ignores percentages on cells): fixed tracks as given, `fr`
 * tracks sharing what they leave of `room`, the container's width where it is known.
 */
function trackWidths(tracks: string[], room: number | undefined): (number | undefined)[] {
  const fixed = tracks.map((t) => (t.endsWith('fr') ? undefined : cssLength(t, room ?? 0)));
  if (room === undefined) return fixed.map((w, i) => (tracks[i]!.endsWith('%') ? undefined : w));
  const frTotal = tracks.reduce((sum, t) => sum + (t.endsWith('fr') ? Number.parseFloat(t) : 0), 0);
  const left = room - fixed.reduce<number>((sum, w) => sum + (w ?? 0), 0);
  if (tracks.some((t, i) => !t.endsWith('fr') && fixed[i] === undefined)) return fixed; // auto, minmax(): the table shares the rest
  return tracks.map((t, i) => (t.endsWith('fr') ? (left * Number.parseFloat(t)) / frTotal : fixed[i]));
}

/** The column tracks of a grid-template-columns value: `repeat(3, 1fr) 200px` → 1fr 1fr 1fr 200px. */
export function gridTracks(value: string): string[] {
  const expanded = value.replace(/repeat\(\s*(\d+)\s*,\s*([^()]*(?:\([^()]*\)[^()]*)*)\)/gi, (_, n: string, track: string) => Array(Math.min(Number(n), 24)).fill(track.trim()).join(' '));
  const tracks: string[] = [];
  let [depth, current] = [0, ''];
  for (const ch of expanded.replace(/\[[^\]]*\]/g, ' ')) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (/\s/.test(ch) && depth === 0) {
      if (current) tracks.push(current);
      current = '';
    } else current += ch;
  }
  if (current) tracks.push(current);
  return tracks.filter((t) => t !== 'none' && !/^repeat\(/i.test(t));
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

/** Elements that are blocks unless styled otherwise (breaks apply to block boxes only: a `<br>` with `page-break-before` breaks nothing in Chromium). */
const BLOCK_TAGS = new Set('address article aside blockquote body center dd details dialog dir div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr li main menu nav ol p pre section summary table ul'.split(' '));

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

