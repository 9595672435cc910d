/**
 * The pager (paginate.ts): fills pages line by line and row by row, footnotes at each page's foot,
 * moving what is kept together (kept with the next, kept whole, widows and orphans) to the next
 * page, and the text below the floats it goes around.
 */
import type { Block, ParagraphBlock, TableBlock } from '../blocks/model';
import type { Line, LineContext } from '../blocks/paragraph-lines';
import { paragraphLines } from '../blocks/paragraph-lines';
import { spaceAbove, stackParagraphs, type PlacedLine } from '../blocks/paragraph-stack';
import { MOST_FOR_HEADERS, splitRow, tableRows, type PlacedRow } from '../tables/table-rows';
import { borderBox, borderRects } from '../blocks/borders';
import { textGoesBelow } from './floats';
import { emptyPage, floatsOf, NOTE_SEPARATOR, type FlowPage, type NotesArea } from './flow-page';

/** Notes may take at most this share of a page; the rest wait for the next page, as Word continues them. */
const MOST_OF_PAGE = 0.6;

/** A height of the page (text-area coordinates) that text stays out of. */
interface Band {
  top: number;
  bottom: number;
}

export class Pager {
  private readonly pages: FlowPage[] = [];
  /** Each paragraph's lines, broken once (notes' bodies too). */
  private readonly laid = new Map<ParagraphBlock, Line[]>();
  /** Footnote areas by their notes' ids. */
  private readonly areas = new Map<string, NotesArea>();
  private page: FlowPage = emptyPage();
  private y = 0;
  /** Heights of this page the text stays out of: floating objects it goes above and below (floatBands). */
  private bands: Band[] = [];
  /** Notes called on a page where they did not fit: they open the next page's notes. */
  private pending: string[] = [];
  /** Where each paragraph's first line went: page index and line index (for moving kept paragraphs). */
  private readonly starts = new Map<number, { page: number; line: number }>();

  constructor(
    private readonly blocks: Block[],
    private readonly width: number,
    private readonly frameHeight: number,
    private readonly ctx: LineContext & { sum: boolean },
    private readonly noteBody: (id: string) => ParagraphBlock[] | undefined,
  ) {}

  private linesOf(p: ParagraphBlock): Line[] {
    let lines = this.laid.get(p);
    if (!lines) this.laid.set(p, (lines = paragraphLines(p, this.width, this.ctx)));
    return lines;
  }

  private notesArea(ids: string[]): NotesArea | undefined {
    if (!ids.length) return undefined;
    const key = ids.join(',');
    let area = this.areas.get(key);
    if (!area) {
      const bodies = ids.flatMap((id) => this.noteBody(id) ?? []);
      const stacked = stackParagraphs(bodies, this.width, this.ctx, this.laid);
      const top = NOTE_SEPARATOR.above + NOTE_SEPARATOR.thickness + NOTE_SEPARATOR.below;
      area = { lines: stacked.lines.map((l) => ({ ...l, y: l.y + top })), height: top + stacked.height };
      this.areas.set(key, area);
    }
    return area;
  }

  /** Notes with a body (the others take no room). */
  private withBodies(ids: string[]): string[] {
    return ids.filter((id) => this.noteBody(id)?.length);
  }

  private notesHeight(ids: string[]): number {
    return this.notesArea(this.withBodies(ids))?.height ?? 0;
  }

  /** Where something `height` tall starts at or below `at`, clear of the bands. */
  private clear(at: number, height: number): number {
    for (let moved = true; moved; ) {
      moved = false;
      for (const band of this.bands) {
        if (band.top < at + height - 0.01 && band.bottom > at + 0.01) {
          at = band.bottom;
          moved = true;
        }
      }
    }
    return at;
  }

  private newPage(): void {
    this.pages.push(this.page);
    this.page = emptyPage();
    this.y = 0;
    this.bands = [];
    // Notes carried over from the page before, as many as fit in the share notes may take.
    const carried: string[] = [];
    for (const id of this.pending) {
      if (this.notesHeight([...carried, id]) > this.frameHeight * MOST_OF_PAGE && carried.length) break;
      carried.push(id);
    }
    this.page.notes = carried;
    this.pending = this.pending.slice(carried.length);
  }

  /** Notes called on this page go to its foot; those that no longer fit in their share wait for the next page. */
  private callNotes(calls: string[]): void {
    if (!calls.length) return;
    const fit = this.notesHeight([...this.page.notes, ...calls]) <= this.frameHeight * MOST_OF_PAGE || !this.page.notes.length;
    if (fit) this.page.notes.push(...calls);
    else this.pending.push(...calls);
  }

  /** Room the page's notes take, with these more. */
  private room(more: string[]): number {
    return this.notesHeight(more.length ? [...this.page.notes, ...more] : this.page.notes);
  }

  /** Lines taken off this page: the notes they called leave its foot. */
  private dropNotesOf(moved: PlacedLine[]): void {
    const dropped = new Set(moved.flatMap((l) => l.line.notes));
    this.page.notes = this.page.notes.filter((id) => !dropped.has(id));
  }

  /** A paragraph block (a table between breaks the chain of paragraphs kept with the next). */
  private paragraphAt(k: number): ParagraphBlock | undefined {
    const b = this.blocks[k];
    return b?.kind === 'paragraph' ? b : undefined;
  }

  /** Whether the page holds anything yet (lines, or a table row's cells). */
  private started(): boolean {
    return this.page.lines.length > 0 || this.page.rects.length > 0;
  }

  private placeRow(row: PlacedRow): void {
    for (const l of row.lines) this.page.lines.push({ ...l, y: this.y + l.y });
    for (const r of row.rects) this.page.rects.push({ ...r, y0: this.y + r.y0, y1: this.y + r.y1 });
    this.y += row.height;
  }

  /**
   * Block `b` starts the next page: the paragraphs kept with it that do not start this page go
   * along. Returns the block to lay out again from, or undefined when nothing moved along.
   */
  private moveKeptBefore(b: number): number | undefined {
    let m = b;
    while (m > 0 && this.paragraphAt(m - 1)?.props.keepNext && this.starts.get(m - 1)?.page === this.pages.length) m--;
    const from = this.starts.get(m)?.line;
    if (m === b || from === undefined || from === 0) return undefined;
    this.dropNotesOf(this.page.lines.splice(from));
    this.newPage();
    return m;
  }

  /** A table's rows laid out, and its header rows: none when they would take more than MOST_FOR_HEADERS of a page. */
  private rowsOf(t: TableBlock): { rows: PlacedRow[]; headers: number; headerHeight: number } {
    let rows = tableRows(t, this.width, this.ctx, this.laid);
    let headers = 0;
    while (headers < rows.length && rows[headers]!.header) headers++;
    let headerHeight = rows.slice(0, headers).reduce((sum, row) => sum + row.height, 0);
    // Header rows taller than half the page would leave the rows too little room under them on
    // each page (or none): they are shown once, at the table's top, and split like other rows
    // (Word's render.ts takes their header marks off first, see withRepeatableHeaders).
    if (headerHeight > this.frameHeight * MOST_FOR_HEADERS) {
      rows = rows.map((row) => (row.header ? { ...row, header: false } : row));
      headers = 0;
      headerHeight = 0;
    }
    return { rows, headers, headerHeight };
  }

  /**
   * A table, row by row: a row that does not fit is split at the page's foot, or starts the next
   * page when it is kept whole, under the table's header rows again. A table whose rows keep with the next moves whole when it fits a page, and the
   * paragraphs kept with the table go with its first row. Returns the block to lay out again from
   * when kept paragraphs moved.
   */
  placeTable(t: TableBlock, b: number): number | undefined {
    const { rows, headers, headerHeight } = this.rowsOf(t);
    const whole = rows.reduce((sum, row) => sum + row.height, 0);
    const frameHeight = this.frameHeight;
    /** Places a row (or a part of one) at y, its notes at this page's foot (or the next, when they no longer fit). */
    const placeTableRow = (row: PlacedRow) => {
      this.placeRow(row);
      this.callNotes(this.withBodies(row.notes));
    };
    if (t.keepTogether && this.started() && this.y + whole > frameHeight + 0.01 && whole <= frameHeight) {
      const again = this.moveKeptBefore(b);
      if (again !== undefined) return again;
      this.newPage();
    }
    const repeatHeaders = (r: number) => {
      if (r >= headers) for (const header of rows.slice(0, headers)) this.placeRow(header);
    };
    for (let r = 0; r < rows.length; r++) {
      let row = rows[r]!;
      /** The page holds nothing but the repeated header rows: a row that does not fit there goes on anyway. */
      let fresh = !this.started();
      for (;;) {
        const calls = this.withBodies(row.notes);
        // Below a floating object the text goes around (the page's bands) before it is measured against the page's foot.
        this.y = this.clear(this.y, row.height);
        const free = frameHeight - this.y - this.room(calls);
        if (row.height <= free + 0.01) break;
        // A row that may break across pages is split at the page's foot (as Word and LibreOffice
        // split it); one kept whole moves to the next page, unless even a page cannot hold it.
        const splits = !row.header && (!row.whole || row.height + this.notesHeight(calls) > frameHeight - headerHeight);
        const parts = splits ? splitRow(row, free) : undefined;
        if (!parts && fresh) break;
        if (!parts && r === 0 && this.started()) {
          const again = this.moveKeptBefore(b);
          if (again !== undefined) return again;
        }
        if (parts) placeTableRow(parts[0]);
        this.newPage();
        repeatHeaders(r);
        fresh = true;
        if (parts) row = parts[1];
      }
      placeTableRow(row);
    }
    return undefined;
  }

  /**
   * A paragraph, line by line: a line that does not fit (with the notes it calls) starts the next
   * page, with widow and orphan control and the paragraphs kept with it. Returns the block to lay
   * out again from when kept paragraphs moved.
   */
  placeParagraph(p: ParagraphBlock, b: number): number | undefined {
    const lines = this.linesOf(p);
    const ctx = this.ctx;
    // After a table only the paragraph's own space before (tables take the space after the paragraph above them).
    const above = spaceAbove(p, this.paragraphAt(b - 1), ctx.sum);
    // At the top of the stretch's first page (after a page break) the paragraph's own space before
    // stays; at the top of a page the text flowed onto, none (as Word and LibreOffice lay out
    // word_sample.docx's heading): neither takes the space after the paragraph before.
    const atTopAbove = () => (this.pages.length === 0 ? spaceAbove(p, undefined, ctx.sum) : 0);
    // Kept together: the whole paragraph moves on when it does not fit below what the page holds.
    if (p.props.keepLines && this.started() && lines.length > 1) {
      const total = above + lines.reduce((sum, l) => sum + l.height, 0);
      const notes = lines.flatMap((l) => l.notes);
      if (this.y + total + this.room(notes) > this.frameHeight + 0.01 && total + this.notesHeight(notes) <= this.frameHeight) this.newPage();
    }
    // Borders: room above the first line and below the last; in a group of like paragraphs the spacing goes inside the box.
    const box = borderBox(p, this.blocks[b - 1], this.blocks[b + 1], this.width, above, lines.at(-1)!);
    this.y += !this.started() ? atTopAbove() : box?.joinsPrev ? 0 : above;
    /** The paragraph's first line on the current page. */
    let firstHere = 0;
    for (let n = 0; n < lines.length; n++) {
      const line = lines[n]!;
      const calls = this.withBodies(line.notes);
      const band = box ? (n === 0 ? box.above : 0) + (n === lines.length - 1 ? box.below : 0) : 0;
      this.y = this.clear(this.y, line.height);
      if (this.started() && this.y + band + line.height - (calls.length || this.page.notes.length ? 0 : line.trailing) + this.room(calls) > this.frameHeight + 0.01) {
        const first = n > 0 && p.props.widowControl ? this.moveForWidows(b, lines.length, n, firstHere, atTopAbove) : undefined;
        if (first !== undefined) {
          firstHere = first;
          n = first - 1;
          continue;
        }
        // The paragraph's first line goes to the next page: those kept with it go along, unless they start this page.
        if (n === 0) {
          const again = this.moveKeptBefore(b);
          if (again !== undefined) return again;
        }
        this.newPage();
        if (n === 0) this.y = atTopAbove();
        firstHere = n;
      }
      if (n === 0) {
        this.starts.set(b, { page: this.pages.length, line: this.page.lines.length });
        this.bands.push(...floatBands(p, this.y, this.width));
      }
      if (n === 0 && box) this.y += box.above;
      this.page.lines.push(box ? { line, y: this.y, opens: n === 0 ? p : undefined, framed: box } : { line, y: this.y, opens: n === 0 ? p : undefined });
      this.y += line.height;
      if (box && n === lines.length - 1) this.y += box.below;
      this.callNotes(calls);
    }
    if (this.blocks[b + 1]?.kind === 'table') this.y += p.props.spaceAfter ?? 0;
    return undefined;
  }

  /**
   * Widow and orphan control where the paragraph asks for it, as Word and LibreOffice apply it: the
   * last line does not go to the next page alone, nor does the first stay alone at this page's
   * foot. Line `n` of `count` does not fit: returns the paragraph's first line on the new page when
   * lines moved there with it, else undefined.
   */
  private moveForWidows(b: number, count: number, n: number, firstHere: number, atTopAbove: () => number): number | undefined {
    const startedHere = firstHere === 0;
    let keep = n - firstHere;
    if (count - n === 1) keep--;
    if (keep === 1 && startedHere) keep = 0;
    const atTop = startedHere && this.starts.get(b)?.line === 0;
    if (!(keep < n - firstHere && (keep > 0 || (startedHere && !atTop)))) return undefined;
    this.dropNotesOf(this.page.lines.splice(this.page.lines.length - (n - firstHere - keep)));
    this.newPage();
    const first = firstHere + keep;
    this.y = first === 0 ? atTopAbove() : 0;
    return first;
  }

  /** The pages, the last one and its notes closed, each with its footnote area, border boxes and floating objects. */
  finish(): FlowPage[] {
    const pages = this.pages;
    if (this.started() || !pages.length) pages.push(this.page);
    // Notes never placed (the stretch ended first) go on its last page.
    if (this.pending.length) pages.at(-1)!.notes.push(...this.pending);
    for (const pg of pages) {
      pg.notesArea = this.notesArea(this.withBodies(pg.notes));
      if (pg.lines.some((l) => l.framed)) pg.rects.push(...borderRects(pg.lines));
      pg.floats = floatsOf(pg.lines);
    }
    return pages;
  }
}

/**
 * The heights taken by a paragraph's floats that the text goes above and below (top and bottom
 * wrap, or square with no room beside: floats.ts textGoesBelow), placed from the paragraph whose
 * first line is at `top`: the lines after them on the page go below them, as Word and LibreOffice
 * lay them out. They are drawn where they float (floatsOf); without this the text ran over them
 * (a title page's abstract box).
 */
function floatBands(p: ParagraphBlock, top: number, width: number): Band[] {
  const out: Band[] = [];
  for (const it of p.items) {
    if (it.kind !== 'float') continue;
    const f = it.anchor;
    const height = it.height ?? 0;
    if ((f.relativeY !== 'paragraph' && f.relativeY !== 'line') || f.inGroup || f.alignY || !(height > 0)) continue;
    if (!textGoesBelow(f, Math.min(it.width, width), { columnWidth: width })) continue;
    out.push({ top: top + f.y, bottom: top + f.y + height });
  }
  return out;
}
