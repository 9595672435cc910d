/**
 * Table headers repeated on every page a table runs over, as browsers print them (html-to-pdf).
 * MuPDF's layout draws a `<thead>` once. So the rows are marked with ids, the page is laid out,
 * and MuPDF says where each row landed (`resolveLinkDestination('#id')`). Then each table is split
 * into one table per page. Each part after the first starts on a new page with a copy of the
 * header. A part holds the rows that fit below that header, going by the row heights and the
 * lowest row bottom of the first layout; if a part still runs over its page, the first layout
 * (header once) is kept instead.
 */
import type * as Mupdf from 'mupdf';
import { Element, type ParentNode } from 'domhandler';

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

/**
 * Where each table must be split: the index of each row that starts a new page, given where the
 * rows landed in `doc` (laid out without repeated headers). Empty for a table on one page.
 */
export function splitRows(doc: Mupdf.Document, tables: MarkedTable[]): number[][] {
  return tables.map((t) => {
    const at = (el: Element): Placed | undefined => {
      try {
        const dest = doc.resolveLinkDestination(`#${el.attribs.id}`);
        return dest.page >= 0 && typeof dest.y === 'number' ? { page: dest.page, y: dest.y } : undefined;
      } catch {
        return undefined;
      }
    };
    const rows = t.rows.map(at);
    if (rows.some((r) => !r) || rows[0]!.page === rows.at(-1)!.page) return [];
    return paginate(rows as Placed[], at(t.header));
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
    const parts: Element[] = [];
    starts.forEach((start, k) => {
      const rows = t.rows.slice(start, starts[k + 1] ?? t.rows.length);
      for (const row of rows) detach(row);
      const header = cloneElement(t.header);
      delete header.attribs.id;
      const style = `${attribs.style ? `${attribs.style};` : ''}margin-top:0`;
      const part = new Element('table', { ...attribs, style }, [...columns.map(cloneElement), new Element('thead', {}, [header]), new Element('tbody', {}, rows)]);
      relinkTree(part);
      parts.push(new Element('div', { style: 'page-break-after:always;margin:0;padding:0;height:0' }), part);
    });
    const at = parent.children.indexOf(t.table) + 1;
    parent.children.splice(at, 0, ...parts);
    relinkTree(parent as Element);
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
  const page = (id: string) => {
    try {
      return doc.resolveLinkDestination(`#${id}`).page;
    } catch {
      return -1;
    }
  };
  return parts.every((p) => page(p.first) >= 0 && page(p.first) === page(p.last));
}

function detach(el: Element): void {
  const parent = el.parent;
  if (!parent) return;
  parent.children.splice(parent.children.indexOf(el), 1);
  relinkTree(parent as Element);
}

function cloneElement(el: Element): Element {
  return el.cloneNode(true) as Element;
}

function relinkTree(parent: ParentNode): void {
  parent.children.forEach((child, i) => {
    child.parent = parent;
    child.prev = parent.children[i - 1] ?? null;
    child.next = parent.children[i + 1] ?? null;
    if (child instanceof Element) relinkTree(child);
  });
}
