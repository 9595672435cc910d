/**
 * Tables drawn as a browser lays them out, where MuPDF's layout differs (html-to-pdf): centred
 * tables, a table's width shared among its columns, captions.
 */
import { Element, Text, type AnyNode, type ParentNode } from 'domhandler';
import { addHint, addStyle, elements, insertBefore, nearestTable, relink } from './html-dom';
import { cssLength } from './html-page-decor';
import type { ComputedStyles } from './html-styles';

/** A browser's body margins left and right (8px each), in points. */
export const BODY_MARGINS = 12;

/**
 * Boxes centred by `margin: 0 auto` (a page container `width: 600px`, a table), a table with
 * `align="center"` or inside `<center>`, a rule `<hr width="80%">`: MuPDF draws them at the left,
 * so each gets the left margin that centres it, from its width (`max-width` where that is less
 * than the room), or for a table the widths of its first row's cells. Only boxes in the page's own
 * width (not inside tables or boxes with a width).
 */
export function centreBoxes(root: ParentNode, styles: ComputedStyles, width: number): void {
  for (const box of elements(root).filter((el) => CENTRABLE.has(el.name))) {
    const props = styles.get(box);
    if (!centred(box, props) || insideSizedBox(box, styles)) continue;
    const own = props?.get('width') ?? (box.name === 'table' || box.name === 'hr' ? box.attribs.width : undefined);
    const percent = /^([\d.]+)%$/.exec(own ?? '');
    if (percent) {
      addStyle(box, `margin-left:${((100 - Number(percent[1])) / 2).toFixed(2)}%`);
      continue;
    }
    const limit = props?.get('max-width') ? cssLength(props.get('max-width')!, width) : undefined;
    const given = own && own !== 'auto' ? cssLength(/^\d+$/.test(own) ? `${own}px` : own, width) : undefined;
    const boxWidth = given ?? (box.name === 'table' ? firstRowWidth(box, styles) : limit);
    if (boxWidth && boxWidth < width) addStyle(box, `margin-left:${((width - Math.min(boxWidth, limit ?? Infinity)) / 2).toFixed(1)}pt`);
  }
}

const CENTRABLE = new Set(['table', 'div', 'section', 'main', 'article', 'header', 'footer', 'form', 'hr', 'p', 'figure']);

function centred(box: Element, props: Map<string, string> | undefined): boolean {
  const margin = props?.get('margin')?.split(/\s+/) ?? [];
  const [left, right] = [props?.get('margin-left') ?? margin[3] ?? margin[1] ?? margin[0], props?.get('margin-right') ?? margin[1] ?? margin[0]];
  if (left === 'auto' && right === 'auto') return true;
  if (box.name === 'hr') return left === undefined && right === undefined; // a browser's hr is centred by default
  if (box.name !== 'table') return false;
  if (box.attribs.align?.toLowerCase() === 'center') return true;
  const parent = box.parent instanceof Element ? box.parent : undefined;
  return !!parent && (parent.name === 'center' || parent.attribs.align?.toLowerCase() === 'center');
}

/**
 * A table given a width (`width: 100%`) but no column widths: MuPDF hands nearly all of the room
 * to its first column, where a browser shares it in proportion to each column's widest content.
 * Each cell is given its column's share in points (MuPDF ignores percentages on cells), estimated
 * from the longest text in the column. Only tables in the page's own width, whose width is known.
 */
export function shareTableWidth(root: ParentNode, styles: ComputedStyles, pageWidth: number): void {
  for (const table of elements(root).filter((el) => el.name === 'table')) {
    const own = styles.get(table)?.get('width') ?? (table.attribs.width && /^\d+$/.test(table.attribs.width) ? `${table.attribs.width}px` : table.attribs.width);
    const width = own && !insideSizedBox(table, styles) ? cssLength(own, pageWidth) : undefined;
    if (!width || width > pageWidth * 1.01) continue;
    const rows = elements(table).filter((el) => el.name === 'tr' && nearestTable(el) === table);
    const cells = rows.map((row) => row.children.filter((c): c is Element => c instanceof Element && (c.name === 'td' || c.name === 'th')));
    const columns = Math.max(0, ...cells.map((row) => row.length));
    const regular = cells.every((row) => row.length === columns && row.every((cell) => !cell.attribs.colspan && !cell.attribs.rowspan && !cell.attribs.width && !styles.get(cell)?.get('width')));
    if (columns < 2 || columns > 24 || !regular) continue;
    const texts = Array.from({ length: columns }, (_, i) => cells.map((row) => textOf(row[i]!)));
    const longest = texts.map((column) => Math.max(1, ...column.map((t) => t.length)) * CHAR_WIDTH);
    const longestWord = texts.map((column) => Math.max(1, ...column.flatMap((t) => t.split(' ').map((word) => word.length))) * CHAR_WIDTH);
    const shares = autoColumnWidths(longestWord, longest, width);
    for (const row of cells) row.forEach((cell, i) => addStyle(cell, `width:${shares[i]!.toFixed(1)}pt`));
  }
}

/** The width of an average character of 12-pt text (with a cell's padding in the sums), for estimating columns. */
const CHAR_WIDTH = 6.2;

/**
 * CSS's automatic table layout in short, from each column's narrowest (its longest word) and
 * widest (its longest text unbroken): room for every widest is shared in proportion to the
 * widests; less room gives each its narrowest and shares the rest by how much wider each would be.
 */
export function autoColumnWidths(min: number[], max: number[], width: number): number[] {
  const narrowest = min.map((m) => m + 2 * CHAR_WIDTH);
  const widest = max.map((m, i) => Math.max(m + 2 * CHAR_WIDTH, narrowest[i]!));
  const [floor, ceiling] = [narrowest, widest].map((list) => list.reduce((a, b) => a + b, 0)) as [number, number];
  if (width >= ceiling) return widest.map((w) => (w * width) / ceiling);
  if (floor >= width) return narrowest.map((m) => (m * width) / floor);
  return narrowest.map((m, i) => m + ((width - floor) * (widest[i]! - m)) / (ceiling - floor));
}

/** An element's text, whitespace collapsed (its widest line when nothing wraps). */
function textOf(node: AnyNode): string {
  if (node instanceof Text) return node.data;
  if (!(node instanceof Element) || node.name === 'style' || node.name === 'script') return '';
  return node.children.map(textOf).join('').replace(/\s+/g, ' ').trim();
}

export function insideSizedBox(el: Element, styles: ComputedStyles): boolean {
  for (let p = el.parent; p instanceof Element; p = p.parent) if (p.name === 'table' || p.name === 'td' || styles.get(p)?.get('width')) return true;
  return false;
}

/** The summed widths (with horizontal padding) of a table's first row, if every cell has one in absolute units. */
function firstRowWidth(table: Element, styles: ComputedStyles): number | undefined {
  const row = elements(table).find((el) => el.name === 'tr');
  if (!row) return undefined;
  let sum = 0;
  for (const cell of row.children) {
    if (!(cell instanceof Element) || (cell.name !== 'td' && cell.name !== 'th')) continue;
    const own = /width\s*:\s*([\d.]+(?:pt|px|cm|mm|in))/i.exec(cell.attribs.style ?? '')?.[1] ?? styles.get(cell)?.get('width') ?? (cell.attribs.width && /^\d+$/.test(cell.attribs.width) ? `${cell.attribs.width}px` : undefined);
    const w = own ? cssLength(own, 0) : undefined;
    if (w === undefined || own?.endsWith('%')) return undefined;
    sum += w + horizontalPadding(cell.attribs.style ?? '');
  }
  return sum || undefined;
}

/** A table's <caption> (which MuPDF leaves out) as a centred block just above the table, where a browser draws it. */
/** Left and right padding of a style attribute, from `padding` (one to four values) and its longhands, in points. */
function horizontalPadding(style: string): number {
  let [left, right] = [0, 0];
  for (const m of style.matchAll(/(?:^|;)\s*padding(-left|-right)?\s*:\s*([^;]+)/gi)) {
    const values = m[2]!.trim().split(/\s+/).map((v) => cssLength(v, 0) ?? 0);
    if (m[1]?.toLowerCase() === '-left') left = values[0]!;
    else if (m[1]?.toLowerCase() === '-right') right = values[0]!;
    else [right, left] = [values[1] ?? values[0]!, values[3] ?? values[1] ?? values[0]!];
  }
  return left + right;
}

/**
 * How wide the widest table in the page's own width asks to be, by its first row's cell widths
 * (a Word table of fixed columns). MuPDF squeezes such a table into the page; a browser keeps
 * its widths and shrinks the whole page to fit, so this is how far html-to-pdf shrinks it.
 */
export function widestTable(root: ParentNode, styles: ComputedStyles): number {
  let widest = 0;
  for (const table of elements(root).filter((el) => el.name === 'table' && !nearestTable(el))) widest = Math.max(widest, firstRowWidth(table, styles) ?? 0);
  return widest;
}

export function captionsAbove(root: ParentNode): void {
  for (const caption of elements(root).filter((el) => el.name === 'caption')) {
    const table = caption.parent;
    if (!(table instanceof Element) || table.name !== 'table' || !table.parent) continue;
    table.children.splice(table.children.indexOf(caption), 1);
    relink(table);
    const block = new Element('div', { ...caption.attribs }, caption.children);
    relink(block);
    addHint(block, 'text-align:center');
    insertBefore(table, block);
  }
}

