import type { Block, Paragraph } from '../model';
import { paragraphLines, type Line, type LineContext } from './paragraph-lines';

/** A line on its page: `y` its top below the frame's top; `opens` the paragraph it starts (for bookmarks). */
export interface PlacedLine {
  line: Line;
  y: number;
  opens?: Paragraph;
}

/** The footnotes at a page's foot: their lines below the separator, `height` the whole area. */
export interface NotesArea {
  lines: PlacedLine[];
  height: number;
}

export interface FlowPage {
  lines: PlacedLine[];
  /** Footnote ids whose bodies go at this page's foot, in order. */
  notes: string[];
  notesArea?: NotesArea;
}

/** Word's footnote separator: a 2-inch rule 0.5 pt thick, 6 pt below the text above and 4 pt above the notes. */
export const NOTE_SEPARATOR = { above: 6, thickness: 0.5, below: 4, width: 144 };
/** Notes may take at most this share of a page; the rest wait for the next page, as Word continues them. */
const MOST_OF_PAGE = 0.6;

/**
 * The space above a paragraph (and below the last of a stretch): between two paragraphs the larger
 * of the space after and before (or their sum, WordDocument.paragraphSpacing), none between
 * paragraphs of one style with contextual spacing; as block-html.ts writes it for MuPDF.
 */
function spaceAbove(p: Paragraph, prev: Paragraph | undefined, sum: boolean): number {
  const sameStyle = (b: Paragraph | undefined) => b?.props.styleId === p.props.styleId;
  const before = p.props.contextualSpacing && sameStyle(prev) ? 0 : (p.props.spaceBefore ?? 0);
  const prevAfter = prev && !(prev.props.contextualSpacing && sameStyle(prev)) ? (prev.props.spaceAfter ?? 0) : 0;
  return sum ? before + prevAfter : Math.max(before, prevAfter);
}

/** Lines of paragraphs laid out one after another from y = 0, spacing included (a note's body, a notes area). */
export function stackParagraphs(blocks: Paragraph[], width: number, ctx: LineContext & { sum: boolean }, lines = new Map<Paragraph, Line[]>()): { lines: PlacedLine[]; height: number } {
  const out: PlacedLine[] = [];
  let y = 0;
  blocks.forEach((p, k) => {
    y += spaceAbove(p, blocks[k - 1], ctx.sum);
    let laid = lines.get(p);
    if (!laid) lines.set(p, (laid = paragraphLines(p, width, ctx)));
    laid.forEach((line, n) => {
      out.push({ line, y, opens: n === 0 ? p : undefined });
      y += line.height;
    });
  });
  const last = blocks.at(-1);
  return { lines: out, height: y + (last?.props.spaceAfter ?? 0) };
}

/**
 * Pages a one-column stretch of paragraphs into frames `frameHeight` tall, each page's footnotes at
 * its foot: a line goes to the next page when it and the notes it calls do not fit above them.
 * A paragraph kept with the next moves to the next page with it (when it did not start its page),
 * and one kept together moves there whole.
 */
export function paginate(blocks: Block[], width: number, frameHeight: number, ctx: LineContext & { sum: boolean }, noteBody: (id: string) => Paragraph[] | undefined): FlowPage[] {
  const paragraphs = blocks as Paragraph[];
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

  let page: FlowPage = { lines: [], notes: [] };
  let y = 0;
  /** Notes called on a page where they did not fit: they open the next page's notes. */
  let pending: string[] = [];
  /** Where each paragraph's first line went: page index and line index (for moving kept paragraphs). */
  const starts = new Map<number, { page: number; line: number }>();
  const newPage = () => {
    pages.push(page);
    page = { lines: [], notes: [] };
    y = 0;
    // Notes carried over from the page before, as many as fit in the share notes may take.
    const carried: string[] = [];
    for (const id of pending) {
      if (notesHeight([...carried, id]) > frameHeight * MOST_OF_PAGE && carried.length) break;
      carried.push(id);
    }
    page.notes = carried;
    pending = pending.slice(carried.length);
  };
  /** Room the page's notes take, with these more. */
  const room = (more: string[]) => notesHeight(more.length ? [...page.notes, ...more] : page.notes);

  stretch: for (let b = 0; b < paragraphs.length; b++) {
    const p = paragraphs[b]!;
    const lines = linesOf(p);
    const above = spaceAbove(p, paragraphs[b - 1], ctx.sum);
    // At a page's top only the paragraph's own space before stays (LibreOffice adds it there), not the space after the one before.
    const atTopAbove = spaceAbove(p, undefined, ctx.sum);
    // Kept together: the whole paragraph moves on when it does not fit below what the page holds.
    if (p.props.keepLines && page.lines.length && lines.length > 1) {
      const total = above + lines.reduce((sum, l) => sum + l.height, 0);
      const notes = lines.flatMap((l) => l.notes);
      if (y + total + room(notes) > frameHeight + 0.01 && total + notesHeight(notes) <= frameHeight) newPage();
    }
    y += page.lines.length ? above : atTopAbove;
    /** The paragraph's first line on the current page. */
    let firstHere = 0;
    for (let n = 0; n < lines.length; n++) {
      const line = lines[n]!;
      const calls = line.notes.filter((id) => noteBody(id)?.length);
      if (page.lines.length && y + line.height - (calls.length || page.notes.length ? 0 : line.trailing) + room(calls) > frameHeight + 0.01) {
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
            y = firstHere === 0 ? atTopAbove : 0;
            n = firstHere - 1;
            continue;
          }
        }
        // The paragraph's first line goes to the next page: those kept with it go along, unless they start this page.
        if (n === 0) {
          let m = b;
          while (m > 0 && paragraphs[m - 1]!.props.keepNext && starts.get(m - 1)?.page === pages.length) m--;
          const from = starts.get(m)?.line;
          if (m < b && from !== undefined && from > 0) {
            const moved = page.lines.splice(from);
            const dropped = new Set(moved.flatMap((l) => l.line.notes));
            page.notes = page.notes.filter((id) => !dropped.has(id));
            newPage();
            // Laid out again from the first kept paragraph, at the new page's top.
            b = m - 1;
            continue stretch;
          }
        }
        newPage();
        if (n === 0) y = atTopAbove;
        firstHere = n;
      }
      if (n === 0) starts.set(b, { page: pages.length, line: page.lines.length });
      page.lines.push({ line, y, opens: n === 0 ? p : undefined });
      y += line.height;
      if (calls.length) {
        // Notes that no longer fit in their share wait for the next page.
        const fit = notesHeight([...page.notes, ...calls]) <= frameHeight * MOST_OF_PAGE || !page.notes.length;
        if (fit) page.notes.push(...calls);
        else pending.push(...calls);
      }
    }
  }
  if (page.lines.length || !pages.length) pages.push(page);
  // Notes never placed (the stretch ended first) go on its last page.
  if (pending.length) pages.at(-1)!.notes.push(...pending);
  for (const pg of pages) pg.notesArea = notesArea(pg.notes.filter((id) => noteBody(id)?.length));
  return pages;
}
