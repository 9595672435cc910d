/**
 * Boxes a browser sets side by side and MuPDF stacks, rewritten as tables, which MuPDF does lay out
 * side by side (html-to-pdf): flex rows and wrapping flex lines, grids, multi-column boxes, runs of
 * floats and inline blocks.
 */
import { Element, Text, type AnyNode } from 'domhandler';
import { addStyle, BLOCK_TAGS, isBlank, relink } from './html-dom';
import { cssLength } from './html-page-decor';
import type { ComputedStyles } from './html-styles';

/**
 * Runs of two or more sibling boxes that a browser sets side by side, which MuPDF stacks: floats
 * with a width or pictures (an older CSS column layout) and inline blocks, or a lone float and the
 * block after it. Each run becomes a one-row table, left floats in order, then right floats from
 * the right edge inwards.
 */
export function sideBySide(parent: Element, styles: ComputedStyles, room: number | undefined): void {
  const float = (el: Element) => {
    const props = styles.get(el);
    const side = props?.get('float');
    const sized = (props?.get('width') && props.get('width') !== 'auto') || el.name === 'img';
    return (side === 'left' || side === 'right') && sized ? side : undefined;
  };
  const beside = (el: Element) => float(el) ?? (styles.get(el)?.get('display') === 'inline-block' ? 'left' : undefined);
  let run: Element[] = [];
  const close = () => {
    if (run.length >= 2) {
      const ordered = [...run.filter((el) => beside(el) !== 'right'), ...run.filter((el) => beside(el) === 'right').reverse()];
      const full = run.some((el) => beside(el) !== 'left');
      for (const el of ordered) addStyle(el, `display:table-cell;vertical-align:top;float:none${cellWidth(el, styles, room, !beside(el))}`);
      const row = new Element('div', { style: 'display:table-row' }, ordered);
      const table = new Element('div', { style: `display:table;border-collapse:separate${full ? ';width:100%' : ''}` }, [row]);
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
    else {
      // A lone float and the block after it (a picture beside its paragraph, a sidebar beside the
      // main column): side by side, the block taking the rest of the width, as its text would.
      if (run.length === 1 && float(run[0]!) && child instanceof Element && BLOCK_TAGS.has(child.name) && styles.get(child)?.get('display') !== 'none') run.push(child);
      close();
    }
  }
  close();
}

/**
 * A side-by-side cell's width as MuPDF takes it: a percentage in points of the room (MuPDF squeezes
 * a percentage cell beside an automatic one to nothing), or automatic where the room is not known.
 * The block beside a float takes the rest, without the margin it kept clear of the float.
 */
function cellWidth(el: Element, styles: ComputedStyles, room: number | undefined, rest: boolean): string {
  if (rest) return ';width:auto;margin-left:0;margin-right:0';
  const percent = /^([\d.]+)%$/.exec(styles.get(el)?.get('width') ?? '');
  if (!percent) return '';
  return room === undefined ? ';width:auto' : `;width:${((room * Number(percent[1])) / 100).toFixed(1)}pt`;
}

/** `columns: 2`, `columns: 12em 3`, `column-count: 3` as a number of columns (1 for none). */
export function columnCount(props: Map<string, string> | undefined): number {
  const value = props?.get('column-count') ?? props?.get('columns') ?? '';
  const count = value.split(/\s+/).map(Number).find((n) => Number.isInteger(n) && n > 0);
  return Math.min(count ?? 1, 6);
}

/**
 * A multi-column box (which MuPDF lays out as one column) as a one-row table: its children dealt
 * into the columns in order, each column taking about an equal share of the text, as a browser
 * balances them. A column break falls only between children, so a long paragraph is not split.
 */
export function columnsToTable(el: Element, styles: ComputedStyles): void {
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
export function flexToTable(el: Element, styles: ComputedStyles): void {
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
export function gridToTable(el: Element, styles: ComputedStyles, room: number | undefined): void {
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

/**
 * A floated picture at the start of a paragraph (`<p><img style="float: right">text…`), which
 * MuPDF draws inline: the paragraph and the picture set side by side in a one-row table, the text
 * beside the picture as a browser wraps it (a long paragraph stays beside it, where a browser
 * would run it on below).
 */
export function floatedPictures(root: Element[], styles: ComputedStyles): void {
  for (const img of root.filter((el) => el.name === 'img')) {
    const side = styles.get(img)?.get('float');
    const paragraph = img.parent;
    if ((side !== 'left' && side !== 'right') || !(paragraph instanceof Element) || !BLOCK_TAGS.has(paragraph.name) || !paragraph.parent) continue;
    const before = paragraph.children.slice(0, paragraph.children.indexOf(img));
    if (before.some((node) => !isBlank(node) && !(node instanceof Element && node.name === 'br'))) continue;
    paragraph.children = paragraph.children.filter((node) => node !== img);
    relink(paragraph);
    const holder = paragraph.parent;
    const picture = new Element('div', { style: `display:table-cell;vertical-align:top;padding-${side === 'left' ? 'right' : 'left'}:10pt` }, [img]);
    addStyle(img, 'float:none');
    const text = new Element('div', { style: 'display:table-cell;vertical-align:top;width:auto' }, [paragraph]);
    const row = new Element('div', { style: 'display:table-row' }, side === 'left' ? [picture, text] : [text, picture]);
    const table = new Element('div', { style: 'display:table;width:100%;border-collapse:separate' }, [row]);
    holder.children.splice(holder.children.indexOf(paragraph), 1, table);
    for (const node of [picture, text, row, table, holder as Element]) relink(node);
  }
}
