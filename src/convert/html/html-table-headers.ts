/**
 * Table headers repeated on every page a table runs over, as browsers print them (html-to-pdf).
 * MuPDF's layout draws a `<thead>` once. So the rows are given ids, the page is laid out, the
 * tables that run over pages are found, and where each of their rows landed is read from markers
 * laid out with them (addRowMarkers). Then each table is split
 * into one table per page. Each part after the first starts on a new page with a copy of the
 * header. A part holds the rows that fit below that header, going by the row heights and the
 * lowest row bottom of the first layout; if a part still runs over its page, the first layout
 * (header once) is kept instead.
 */
import type * as Mupdf from 'mupdf';
import { Element, Text, type ParentNode } from 'domhandler';

export interface MarkedTable {
  table: Element;
  header: Element;
  rows: Element[];
}

/** Tables with a `<thead>` row and at least two body rows, not inside another table and without row spans: their rows given ids. */
export function markTableRows(root: ParentNode): MarkedTable[] {
  const marked: MarkedTable[] = [];
  const walk = (node: ParentNode, inTable: boolean): void => {
    for (const child of node.children) {
      if (!(child instanceof Element)) continue;
      if (child.name === 'table' && !inTable) {
        const found = tableRows(child);
        if (found) marked.push(found);
      }
      walk(child, inTable || child.name === 'table');
    }
  };
  walk(root, false);
  marked.forEach((t, n) => {
    t.header.attribs.id ||= `pe-t${n}-h`;
    t.rows.forEach((row, i) => (row.attribs.id ||= `pe-t${n}-r${i}`));
  });
  return marked;
}

function tableRows(table: Element): MarkedTable | undefined {
  const sections = table.children.filter((c): c is Element => c instanceof Element);
  const header = sections.find((s) => s.name === 'thead')?.children.find((c): c is Element => c instanceof Element && c.name === 'tr');
  const rows = sections.filter((s) => s.name === 'tbody' || s.name === 'tr').flatMap((s) => (s.name === 'tr' ? [s] : s.children.filter((c): c is Element => c instanceof Element && c.name === 'tr')));
  const spans = rows.some((row) => row.children.some((c) => c instanceof Element && Number(c.attribs.rowspan ?? 1) > 1));
  return header && rows.length >= 2 && !spans ? { table, header, rows } : undefined;
}

interface Placed {
  page: number;
  y: number;
}

/** Where the element with this id landed in `doc`. */
function placeOf(doc: Mupdf.Document, id: string | undefined): Placed | undefined {
  try {
    const dest = doc.resolveLinkDestination(`#${id}`);
    return dest.page >= 0 && typeof dest.y === 'number' ? { page: dest.page, y: dest.y } : undefined;
  } catch {
    return undefined;
  }
}

/** The tables whose first and last rows landed on different pages of `doc`. */
export function spanningTables(doc: Mupdf.Document, tables: MarkedTable[]): MarkedTable[] {
  return tables.filter((t) => {
    const [first, last] = [placeOf(doc, t.rows[0]!.attribs.id), placeOf(doc, t.rows.at(-1)!.attribs.id)];
    return first && last && first.page !== last.page;
  });
}

const MARKER = 'pe-row:';

/**
 * Puts a link of no width at the start of each row (and header row), so that one pass over the
 * pages' links tells where every row landed: resolving each row's id costs MuPDF a walk of the
 * document per row, seconds for a table of thousands. The markers come out again before the
 * page is laid out for good (removeRowMarkers).
 */
export function addRowMarkers(tables: MarkedTable[]): void {
  for (const t of tables) {
    for (const row of [t.header, ...t.rows]) {
      const cell = row.children.find((c): c is Element => c instanceof Element);
      if (!cell) continue;
      const marker = new Element('a', { href: `${MARKER}${row.attribs.id}` }, [new Text('\u200b')]);
      cell.children.unshift(marker);
      relink(cell);
      relink(marker);
    }
  }
}

export function removeRowMarkers(tables: MarkedTable[]): void {
  for (const t of tables) {
    for (const row of [t.header, ...t.rows]) {
      const cell = row.children.find((c): c is Element => c instanceof Element);
      const first = cell?.children[0];
      if (cell && first instanceof Element && first.attribs.href?.startsWith(MARKER)) {
        cell.children.shift();
        relink(cell);
      }
    }
  }
}

/** Where each zero-width marker link (`<prefix><name>`) landed: its page and top, by name, in one pass over the pages' links. */
export function markerPlaces(doc: Mupdf.Document, prefix: string): Map<string, Placed> {
  const places = new Map<string, Placed>();
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.loadPage(i);
    for (const link of page.getLinks()) {
      const uri = link.getURI();
      if (uri.startsWith(prefix)) places.set(uri.slice(prefix.length), { page: i, y: link.getBounds()[1] });
    }
    page.destroy();
  }
  return places;
}

/** Where the split must fall in each table (row indices that start a part), from a layout with row markers. */
export function splitRows(doc: Mupdf.Document, tables: MarkedTable[]): number[][] {
  const places = markerPlaces(doc, MARKER);
  return tables.map((t) => {
    const rows = t.rows.map((row) => places.get(row.attribs.id!));
    if (rows.some((r) => !r) || rows[0]!.page === rows.at(-1)!.page) return [];
    return paginate(rows as Placed[], places.get(t.header.attribs.id!));
  });
}

/** Row indices that start parts, from the rows' places: the first page's rows as they are, then as many as fit below a copy of the header. */
export function paginate(rows: Placed[], header: Placed | undefined): number[] {
  const heights = rows.map((r, i) => (rows[i + 1]?.page === r.page ? rows[i + 1]!.y - r.y : NaN));
  const known = heights.filter((h) => Number.isFinite(h)).sort((a, b) => a - b);
  const typical = known[Math.floor(known.length / 2)] ?? 12;
  const height = (i: number) => (Number.isFinite(heights[i]) ? heights[i]! : typical);
  const headerHeight = header && header.page === rows[0]!.page ? rows[0]!.y - header.y : typical;
  // A page's top (where rows start on a page of their own) and the lowest row bottom seen.
  let top = Infinity;
  let bottom = 0;
  rows.forEach((r, i) => {
    if (i > 0 && r.page !== rows[i - 1]!.page) top = Math.min(top, r.y);
    bottom = Math.max(bottom, r.y + height(i));
  });
  // Each part is a table of its own, with its own bottom border and spacing: a little room is
  // kept for those, or a full part would push its last line onto a page of its own.
  const room = bottom - top - headerHeight - (4 + typical / 2);
  const starts: number[] = [];
  let used = Infinity;
  rows.forEach((r, i) => {
    if (i === 0) return;
    const onFirstPage = r.page === rows[0]!.page;
    if (onFirstPage) return;
    if (starts.length === 0 || used + height(i) > room + 0.5) {
      starts.push(i);
      used = 0;
    }
    used += height(i);
  });
  return room > typical ? starts : [];
}

/**
 * Each table cut before the given rows: every part after the first is a copy of the table (its
 * attributes, <colgroup> and header) holding its rows, after an empty block that ends the page.
 */
export function splitTables(tables: MarkedTable[], splits: number[][]): Part[] {
  const made: Part[] = [];
  tables.forEach((t, n) => {
    const starts = splits[n] ?? [];
    if (!starts.length) return;
    [0, ...starts].forEach((start, k) => made.push({ first: t.rows[start]!.attribs.id!, last: t.rows[(starts[k] ?? t.rows.length) - 1]!.attribs.id! }));
    const parent = t.table.parent!;
    const { id: _id, ...attribs } = t.table.attribs;
    const columns = t.table.children.filter((c): c is Element => c instanceof Element && (c.name === 'colgroup' || c.name === 'col'));
    const moving = new Set(t.rows.slice(starts[0]));
    for (const section of new Set([...moving].map((row) => row.parent!))) {
      section.children = section.children.filter((c) => !moving.has(c as Element));
      relink(section);
    }
    const parts: Element[] = [];
    starts.forEach((start, k) => {
      const rows = t.rows.slice(start, starts[k + 1] ?? t.rows.length);
      const header = cloneElement(t.header);
      delete header.attribs.id;
      const style = `${attribs.style ? `${attribs.style};` : ''}margin-top:0`;
      const part = new Element('table', { ...attribs, style }, [...columns.map(cloneElement), new Element('thead', {}, [header]), new Element('tbody', {}, rows)]);
      relinkTree(part);
      parts.push(new Element('div', { style: 'page-break-after:always;margin:0;padding:0;height:0' }), part);
    });
    const at = parent.children.indexOf(t.table) + 1;
    parent.children.splice(at, 0, ...parts);
    relink(parent);
  });
  return made;
}

/** A part of a split table: the ids of its first and last rows. */
export interface Part {
  first: string;
  last: string;
}

/** Whether every part came out on one page (an estimate that ran over would leave a page with a few rows and no header). */
export function partsFit(doc: Mupdf.Document, parts: Part[]): boolean {
  return parts.every((p) => {
    const [first, last] = [placeOf(doc, p.first), placeOf(doc, p.last)];
    return first && last && first.page === last.page;
  });
}


function cloneElement(el: Element): Element {
  return el.cloneNode(true) as Element;
}

/** Parent and sibling links of `parent`'s children set right after an edit. */
function relink(parent: ParentNode): void {
  parent.children.forEach((child, i) => {
    child.parent = parent;
    child.prev = parent.children[i - 1] ?? null;
    child.next = parent.children[i + 1] ?? null;
  });
}

/** relink for a new subtree, all the way down. */
function relinkTree(parent: ParentNode): void {
  parent.children.forEach((child, i) => {
    child.parent = parent;
    child.prev = parent.children[i - 1] ?? null;
    child.next = parent.children[i + 1] ?? null;
    if (child instanceof Element) relinkTree(child);
  });
}
