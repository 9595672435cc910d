import type { Block, Inline, Paragraph, Table } from '../model/index';
import type { Line, LineContext } from './paragraph-lines';
import { paragraphLines } from './paragraph-lines';
import { spaceAbove, stackParagraphs, type PlacedLine } from './paragraph-stack';
import { splitRow, tableRows, type PlacedRect, type PlacedRow } from './table-rows';
import { holdsTogether } from '../rules/keeps';
import { borderBox, borderRects } from './paragraph-borders';
import { textGoesBelow } from '../rules/floats';
import { MOST_FOR_HEADERS } from '../rules/tables';

export { stackParagraphs, type PlacedLine } from './paragraph-stack';

/** The footnotes at a page's foot: their lines below the separator, `height` the whole area. */
export interface NotesArea {
  lines: PlacedLine[];
  height: number;
}

export interface FlowPage {
  lines: PlacedLine[];
  /** Table cells' shading and borders, drawn under the lines (frame coordinates). */
  rects: PlacedRect[];
  /** Footnote ids whose bodies go at this page's foot, in order. */
  notes: string[];
  notesArea?: NotesArea;
  /** Floating objects anchored in paragraphs that start on this page (render.ts draws them where they float). */
  floats: PlacedFloat[];
}

/** A floating object that floatsApart, anchored at its paragraph's top left (text-area coordinates). */
export interface PlacedFloat {
  item: Extract<Inline, { kind: 'shape' | 'image' | 'textbox' }>;
  x: number;
  y: number;
  /** Anchored in a table cell: the cell's text width. */
  cellWidth?: number;
}

/** Word's footnote separator: a 2-inch rule 0.5 pt thick, 6 pt below the text above and 4 pt above the notes. */
export const NOTE_SEPARATOR = { above: 6, thickness: 0.5, below: 4, width: 144 };
/** Notes may take at most this share of a page; the rest wait for the next page, as Word continues them. */
const MOST_OF_PAGE = 0.6;

/**
 * Pages a one-column stretch of paragraphs into frames `frameHeight` tall, each page's footnotes at
 * its foot: a line goes to the next page when it and the notes it calls do not fit above them.
 * A paragraph kept with the next moves to the next page with it (when it did not start its page),
 * and one kept together moves there whole.
 */
export function paginate(blocks: Block[], width: number, frameHeight: number, ctx: LineContext & { sum: boolean }, noteBody: (id: string) => Paragraph[] | undefined): FlowPage[] {
  const pages: FlowPage[] = [];
  const laid = new Map<Paragraph, Line[]>();
  const linesOf = (p: Paragraph) => {
    let lines = laid.get(p);
    if (!lines) laid.set(p, (lines = paragraphLines(p, width, ctx)));
    return lines;
  };
  const areas = new Map<string, NotesArea>();
  const notesArea = (ids: string[]): NotesArea | undefined => {
    if (!ids.length) return undefined;
    const key = ids.join(',');
    let area = areas.get(key);
    if (!area) {
      const bodies = ids.flatMap((id) => noteBody(id) ?? []);
      const stacked = stackParagraphs(bodies, width, ctx, laid);
      const top = NOTE_SEPARATOR.above + NOTE_SEPARATOR.thickness + NOTE_SEPARATOR.below;
      area = { lines: stacked.lines.map((l) => ({ ...l, y: l.y + top })), height: top + stacked.height };
      areas.set(key, area);
    }
    return area;
  };
  const notesHeight = (ids: string[]) => notesArea(ids.filter((id) => noteBody(id)?.length))?.height ?? 0;

  let page: FlowPage = { lines: [], rects: [], notes: [], floats: [] };
  let y = 0;
  /** Heights of this page the text stays out of: floating objects it goes above and below (floatBands). */
  let bands: Band[] = [];
  /** Where something `height` tall starts at or below y, clear of the bands. */
  const clear = (at: number, height: number): number => {
    for (let moved = true; moved; ) {
      moved = false;
      for (const band of bands) {
        if (band.top < at + height - 0.01 && band.bottom > at + 0.01) {
          at = band.bottom;
          moved = true;
        }
      }
    }
    return at;
  };
  /** Notes called on a page where they did not fit: they open the next page's notes. */
  let pending: string[] = [];
  /** Where each paragraph's first line went: page index and line index (for moving kept paragraphs). */
  const starts = new Map<number, { page: number; line: number }>();
  const newPage = () => {
    pages.push(page);
    page = { lines: [], rects: [], notes: [], floats: [] };
    y = 0;
    bands = [];
    // Notes carried over from the page before, as many as fit in the share notes may take.
    const carried: string[] = [];
    for (const id of pending) {
      if (notesHeight([...carried, id]) > frameHeight * MOST_OF_PAGE && carried.length) break;
      carried.push(id);
    }
    page.notes = carried;
    pending = pending.slice(carried.length);
  };
  /** Notes called on this page go to its foot; those that no longer fit in their share wait for the next page. */
  const callNotes = (calls: string[]) => {
    if (!calls.length) return;
    const fit = notesHeight([...page.notes, ...calls]) <= frameHeight * MOST_OF_PAGE || !page.notes.length;
    if (fit) page.notes.push(...calls);
    else pending.push(...calls);
  };
  /** Room the page's notes take, with these more. */
  const room = (more: string[]) => notesHeight(more.length ? [...page.notes, ...more] : page.notes);

  /** A paragraph block (a table between breaks the chain of paragraphs kept with the next). */
  const paragraphAt = (k: number): Paragraph | undefined => (blocks[k]?.kind === 'paragraph' ? (blocks[k] as Paragraph) : undefined);
  /** Whether the page holds anything yet (lines, or a table row's cells). */
  const started = () => page.lines.length > 0 || page.rects.length > 0;
  const placeRow = (row: PlacedRow) => {
    for (const l of row.lines) page.lines.push({ ...l, y: y + l.y });
    for (const r of row.rects) page.rects.push({ ...r, y0: y + r.y0, y1: y + r.y1 });
    y += row.height;
  };
  /**
   * Block `b` starts the next page: the paragraphs kept with it that do not start this page go
   * along. Returns the block to lay out again from, or undefined when nothing moved along.
   */
  const moveKeptBefore = (b: number): number | undefined => {
    let m = b;
    while (m > 0 && paragraphAt(m - 1)?.props.keepNext && starts.get(m - 1)?.page === pages.length) m--;
    const from = starts.get(m)?.line;
    if (m === b || from === undefined || from === 0) return undefined;
    const moved = page.lines.splice(from);
    const dropped = new Set(moved.flatMap((l) => l.line.notes));
    page.notes = page.notes.filter((id) => !dropped.has(id));
    newPage();
    return m;
  };
  /**
   * A table, row by row: a row that does not fit is split at the page's foot, or starts the next
   * page when it is kept whole, under the table's header rows again. A table whose rows keep with the next moves whole when it fits a page, and the
   * paragraphs kept with the table go with its first row. Returns the block to lay out again from
   * when kept paragraphs moved.
   */
  const placeTable = (t: Table, b: number): number | undefined => {
    let rows = tableRows(t, width, ctx, laid);
    let headers = 0;
    while (headers < rows.length && rows[headers]!.header) headers++;
    const whole = rows.reduce((sum, row) => sum + row.height, 0);
    let headerHeight = rows.slice(0, headers).reduce((sum, row) => sum + row.height, 0);
    // Header rows taller than half the page would leave the rows too little room under them on
    // each page (or none): they are shown once, at the table's top, and split like other rows
    // (render.ts takes their header marks off first, see withRepeatableHeaders).
    if (headerHeight > frameHeight * MOST_FOR_HEADERS) {
      rows = rows.map((row) => (row.header ? { ...row, header: false } : row));
      headers = 0;
      headerHeight = 0;
    }
    /** Places a row (or a part of one) at y, its notes at this page's foot (or the next, when they no longer fit). */
    const placeTableRow = (row: PlacedRow) => {
      placeRow(row);
      callNotes(row.notes.filter((id) => noteBody(id)?.length));
    };
    if (holdsTogether(t) && started() && y + whole > frameHeight + 0.01 && whole <= frameHeight) {
      const again = moveKeptBefore(b);
      if (again !== undefined) return again;
      newPage();
    }
    const repeatHeaders = (r: number) => {
      if (r >= headers) for (const header of rows.slice(0, headers)) placeRow(header);
    };
    for (let r = 0; r < rows.length; r++) {
      let row = rows[r]!;
      /** The page holds nothing but the repeated header rows: a row that does not fit there goes on anyway. */
      let fresh = !started();
      for (;;) {
        const calls = row.notes.filter((id) => noteBody(id)?.length);
        // Below a floating object the text goes around (the page's bands) before it is measured against the page's foot.
        y = clear(y, row.height);
        const free = frameHeight - y - room(calls);
        if (row.height <= free + 0.01) break;
        // A row that may break across pages is split at the page's foot (as Word and LibreOffice
        // split it); one kept whole moves to the next page, unless even a page cannot hold it.
        const splits = !row.header && (!row.whole || row.height + notesHeight(calls) > frameHeight - headerHeight);
        const parts = splits ? splitRow(row, free) : undefined;
        if (!parts && fresh) break;
        if (!parts && r === 0 && started()) {
          const again = moveKeptBefore(b);
          if (again !== undefined) return again;
        }
        if (parts) placeTableRow(parts[0]);
        newPage();
        repeatHeaders(r);
        fresh = true;
        if (parts) row = parts[1];
      }
      placeTableRow(row);
    }
    return undefined;
  };

  stretch: for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    if (block.kind === 'table') {
      const again = placeTable(block, b);
      // Laid out again from the first paragraph kept with the table, at the new page's top.
      if (again !== undefined) b = again - 1;
      continue;
    }
    const p = block;
    const lines = linesOf(p);
    // After a table only the paragraph's own space before (tables take the space after the paragraph above them).
    const above = spaceAbove(p, paragraphAt(b - 1), ctx.sum);
    // At the top of the stretch's first page (after a page break) the paragraph's own space before
    // stays; at the top of a page the text flowed onto, none (as Word and LibreOffice lay out
    // word_sample.docx's heading): neither takes the space after the paragraph before.
    const atTopAbove = () => (pages.length === 0 ? spaceAbove(p, undefined, ctx.sum) : 0);
    // Kept together: the whole paragraph moves on when it does not fit below what the page holds.
    if (p.props.keepLines && started() && lines.length > 1) {
      const total = above + lines.reduce((sum, l) => sum + l.height, 0);
      const notes = lines.flatMap((l) => l.notes);
      if (y + total + room(notes) > frameHeight + 0.01 && total + notesHeight(notes) <= frameHeight) newPage();
    }
    // Borders: room above the first line and below the last; in a group of like paragraphs the spacing goes inside the box.
    const box = borderBox(p, blocks[b - 1], blocks[b + 1], width, above, lines.at(-1)!);
    y += !started() ? atTopAbove() : box?.joinsPrev ? 0 : above;
    /** The paragraph's first line on the current page. */
    let firstHere = 0;
    for (let n = 0; n < lines.length; n++) {
      const line = lines[n]!;
      const calls = line.notes.filter((id) => noteBody(id)?.length);
      const band = box ? (n === 0 ? box.above : 0) + (n === lines.length - 1 ? box.below : 0) : 0;
      y = clear(y, line.height);
      if (started() && y + band + line.height - (calls.length || page.notes.length ? 0 : line.trailing) + room(calls) > frameHeight + 0.01) {
        if (n > 0 && p.props.widowControl) {
          // Widow and orphan control where the paragraph asks for it, as Word and LibreOffice apply it:
          // the last line does not go to the next page alone, nor does the first stay alone at this page's foot.
          const startedHere = firstHere === 0;
          let keep = n - firstHere;
          if (lines.length - n === 1) keep--;
          if (keep === 1 && startedHere) keep = 0;
          const atTop = startedHere && starts.get(b)?.line === 0;
          if (keep < n - firstHere && (keep > 0 || (startedHere && !atTop))) {
            const moved = page.lines.splice(page.lines.length - (n - firstHere - keep));
            const dropped = new Set(moved.flatMap((l) => l.line.notes));
            page.notes = page.notes.filter((id) => !dropped.has(id));
            newPage();
            firstHere = firstHere + keep;
            y = firstHere === 0 ? atTopAbove() : 0;
            n = firstHere - 1;
            continue;
          }
        }
        // The paragraph's first line goes to the next page: those kept with it go along, unless they start this page.
        if (n === 0) {
          const again = moveKeptBefore(b);
          if (again !== undefined) {
            // Laid out again from the first kept paragraph, at the new page's top.
            b = again - 1;
            continue stretch;
          }
        }
        newPage();
        if (n === 0) y = atTopAbove();
        firstHere = n;
      }
      if (n === 0) {
        starts.set(b, { page: pages.length, line: page.lines.length });
        bands.push(...floatBands(p, y, width));
      }
      if (n === 0 && box) y += box.above;
      page.lines.push(box ? { line, y, opens: n === 0 ? p : undefined, framed: box } : { line, y, opens: n === 0 ? p : undefined });
      y += line.height;
      if (box && n === lines.length - 1) y += box.below;
      callNotes(calls);
    }
    if (blocks[b + 1]?.kind === 'table') y += p.props.spaceAfter ?? 0;
  }
  if (started() || !pages.length) pages.push(page);
  // Notes never placed (the stretch ended first) go on its last page.
  if (pending.length) pages.at(-1)!.notes.push(...pending);
  for (const pg of pages) {
    pg.notesArea = notesArea(pg.notes.filter((id) => noteBody(id)?.length));
    if (pg.lines.some((l) => l.framed)) pg.rects.push(...borderRects(pg.lines));
    pg.floats = floatsOf(pg.lines);
  }
  return pages;
}

/** The floating objects of the paragraphs these lines start: each at its paragraph's first line, from the paragraph's indent. */
export function floatsOf(lines: PlacedLine[]): PlacedFloat[] {
  const out: PlacedFloat[] = [];
  for (const l of lines) {
    const p = l.opens;
    if (!p) continue;
    for (const it of p.inlines) {
      if ((it.kind === 'shape' || it.kind === 'image' || it.kind === 'textbox') && it.floating) out.push({ item: it, x: (l.x ?? 0) + (p.props.indentLeft ?? 0), y: l.y, cellWidth: l.cellWidth });
    }
  }
  return out;
}

/** A height of the page (text-area coordinates) that text stays out of. */
interface Band {
  top: number;
  bottom: number;
}

/**
 * The heights taken by a paragraph's floating objects that the text goes above and below (top and
 * bottom wrap, or square with no room beside: float-place.ts textGoesBelow), placed from the
 * paragraph whose first line is at `top`: the lines after them on the page go below them, as Word
 * and LibreOffice lay them out. They are drawn where they float (floatsOf); without this the text
 * ran over them (a title page's abstract box).
 */
function floatBands(p: Paragraph, top: number, width: number): Band[] {
  const out: Band[] = [];
  for (const it of p.inlines) {
    if ((it.kind !== 'shape' && it.kind !== 'image' && it.kind !== 'textbox') || !it.floating) continue;
    const f = it.floating;
    const height = it.height ?? 0;
    if ((f.relativeY !== 'paragraph' && f.relativeY !== 'line') || f.inGroup || f.alignY || !(height > 0)) continue;
    if (!textGoesBelow(f, Math.min(it.width, width), { columnWidth: width })) continue;
    out.push({ top: top + f.y, bottom: top + f.y + height });
  }
  return out;
}

