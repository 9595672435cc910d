/** Continuous sections with other columns on the HTML path: a section starting below the text of the page before, its first stretch laid out in the room left. */
import type * as Mupdf from 'mupdf';
import type { Block } from '../model/index';
import type { PageMarks } from './inline-context';
import type { FlowFrame } from './flows';
import type { FootnotePage } from './footnote-pages';
import { remainderAfterFirstFrame } from './footnote-remainder';
import { contentHeight } from './html-doc';

/**
 * A continuous section whose number of columns differs from the section before starts on that
 * section's last page, below its text, as in Word (a one-column title block over a two-column
 * article, and one column again for what follows). Its first stretch is laid out in frames as
 * tall as the room left there, with its words marked, and the page takes the first `columns`
 * frames; what falls past them (the next block, or the rest of the paragraph or table that
 * crossed, see footnote-pages.ts) starts the next page. A multi-column section followed so has
 * the columns of its last page balanced first, as Word does: the shortest frames that still hold
 * that page's text.
 */

/** Less room than this (points, about three lines) below the text before: the section starts on a new page. */
const MIN_ROOM = 40;
/** Balancing stops when the frame height is known to within this (points). */
const BALANCE_STEP = 2;

/** What render.ts keeps about its chunks, shared with this module. */
export interface ChunkRegistry {
  /** Lays blocks out in frames `height` tall (marks: ids on blocks and words, see footnote-pages.ts). */
  layout(f: FlowFrame, blocks: Block[], height: number, marks?: PageMarks): Mupdf.Document;
  /** Lays a document `layout` made out again in frames of another height (its HTML is not parsed again). */
  relayout(f: FlowFrame, doc: Mupdf.Document, height: number): void;
  /** The chunk as it will be drawn (kept for drawing when it fits the budget); `owned`: destroy it after use. */
  measure(f: FlowFrame, blocks: Block[]): { doc: Mupdf.Document; owned: boolean };
  /** Keeps a layout for drawing; false when over budget (the caller destroys it). */
  keep(blocks: Block[], doc: Mupdf.Document): boolean;
  /** Whether blocks call notes (they go after the stretch in a multi-column flow, which balancing would cut off). */
  callsNotes(blocks: Block[]): boolean;
  /** Chunks laid out in frames of their own height (and with marks when `marked`): footnote pages, and the parts here. */
  pages: WeakMap<Block[], FootnotePage>;
  /** Frames of a chunk that are drawn (the rest of its layout belongs to the next chunk). */
  frames: WeakMap<Block[], number>;
  /** How many frames of a chunk's layout are drawn (its layout's, at most `frames`). */
  framesOf(blocks: Block[], doc: Mupdf.Document): number;
  /** Chunks drawn on the page before, their frames' top on the page. */
  tops: WeakMap<Block[], number>;
}

const allMarks = (fine?: number): PageMarks => ({ depth: 0, block: 0, fine, words: [], refs: 0 });

/**
 * Blocks laid out with marks, and what of them does not fit the first `columns(doc)` frames (see
 * remainderAfterFirstFrame): laid out once more with all the words of the paragraph that crossed
 * marked when its marks could not tell where it was cut.
 */
function layOutAndCut(blocks: Block[], columns: (doc: Mupdf.Document) => number, layout: (marks: PageMarks) => Mupdf.Document) {
  let marks = allMarks();
  let doc = layout(marks);
  const cut = () => (columns(doc) > 0 ? remainderAfterFirstFrame(doc, blocks, marks, columns(doc)) : undefined);
  let next = cut();
  if (next && 'unmarked' in next) {
    doc.destroy();
    marks = allMarks(next.unmarked);
    doc = layout(marks);
    next = cut();
  }
  return { doc, marks, next };
}

/**
 * Where flow `f` can start on the last page of `prev`: the top of the room below that page's text
 * (balancing a multi-column `prev` first) and its height; undefined when there is too little.
 */
export function roomBelow(prev: FlowFrame | undefined, chunks: ChunkRegistry): { top: number; room: number } | undefined {
  if (!prev || !prev.flow.chunks.length) return undefined;
  // Not below a page with notes at its foot.
  if (chunks.pages.get(prev.flow.chunks.at(-1)!)?.notes.length) return undefined;
  if (prev.columns > 1) balanceLastPage(prev, chunks);
  const last = prev.flow.chunks.at(-1)!;
  const { doc, owned } = chunks.measure(prev, last);
  const count = chunks.framesOf(last, doc);
  const lastTop = chunks.tops.get(last);
  let bottom = 0;
  for (let k = lastTop !== undefined ? 0 : Math.floor((count - 1) / prev.columns) * prev.columns; k < count; k++) bottom = Math.max(bottom, contentHeight(doc, k));
  if (owned) doc.destroy();
  const top = (lastTop ?? prev.top) + bottom;
  const room = prev.top + prev.frameHeight - top;
  return room < MIN_ROOM ? undefined : { top, room };
}

/**
 * Starts flow `f` below the text of the last page of `prev`; false when there is no room or nothing
 * fits. Not for a first stretch that calls notes (render.ts pages a one-column one for its notes
 * from that room instead).
 */
export function startBelow(prev: FlowFrame | undefined, f: FlowFrame, chunks: ChunkRegistry): boolean {
  const first = f.flow.chunks[0];
  if (!first?.length || chunks.callsNotes(first)) return false;
  const below = roomBelow(prev, chunks);
  if (!below) return false;
  const { top, room } = below;
  const split = splitBelow(first, f.columns, room, (blocks, height, marks) => chunks.layout(f, blocks, height, marks));
  if (!split) return false;
  chunks.pages.set(split.shared, { blocks: split.shared, frameHeight: room, notes: [], marked: { fine: split.fine } });
  chunks.frames.set(split.shared, f.columns);
  chunks.tops.set(split.shared, top);
  if (!chunks.keep(split.shared, split.doc)) split.doc.destroy();
  f.flow.chunks = [split.shared, ...(split.rest.length ? [split.rest] : []), ...f.flow.chunks.slice(1)];
  return true;
}

/** The first stretch of a section cut into what fits `room` in `columns` frames and the rest; undefined when nothing fits. */
function splitBelow(chunk: Block[], columns: number, room: number, layout: (blocks: Block[], height: number, marks: PageMarks) => Mupdf.Document): { shared: Block[]; doc: Mupdf.Document; rest: Block[]; fine?: number } | undefined {
  const { doc, marks, next } = layOutAndCut(chunk, () => columns, (marks) => layout(chunk, room, marks));
  if (!next) return { shared: chunk, doc, rest: [], fine: marks.fine };
  if ('whole' in next) {
    // The block that crossed cannot be cut there: the page takes the blocks before it (and the rows
    // of a table above the one that crossed).
    doc.destroy();
    const { whole, tail, head } = next;
    const shared = tail ? [...chunk.slice(0, whole), tail] : chunk.slice(0, whole);
    const rest = tail ? [...(head ? [head] : []), ...chunk.slice(whole + 1)] : chunk.slice(whole);
    return { shared, doc: layout(shared, room, allMarks()), rest };
  }
  if ('unmarked' in next || (next.from === 0 && !next.head)) {
    doc.destroy();
    return undefined;
  }
  return { shared: chunk, doc, rest: [...(next.head ? [next.head] : []), ...chunk.slice(next.from)], fine: marks.fine };
}

/**
 * Balances the columns of the last page of a multi-column flow: that page's text becomes a chunk of
 * its own, laid out in the shortest frames that hold it in the page's columns.
 */
function balanceLastPage(f: FlowFrame, chunks: ChunkRegistry): void {
  const last = f.flow.chunks.at(-1)!;
  const own = chunks.pages.get(last);
  if (own?.notes.length || own?.allFrames || chunks.callsNotes(last)) return;
  const top = chunks.tops.get(last);
  let content = last;
  let height = own?.frameHeight ?? f.frameHeight;
  let fitsNow = false; // known to take no more than the page's columns at `height`
  if (top === undefined) {
    // Cut off the text of the last page, found by the ids of a layout with marked words.
    // Frames of the pages before the last.
    const before = (doc: Mupdf.Document) => Math.floor((chunks.framesOf(last, doc) - 1) / f.columns) * f.columns;
    const { doc, marks, next } = layOutAndCut(last, before, (marks) => chunks.layout(f, last, height, marks));
    if (before(doc) > 0) {
      if (!next || !('from' in next) || (next.from === 0 && !next.head)) {
        doc.destroy();
        return;
      }
      content = [...(next.head ? [next.head] : []), ...last.slice(next.from)];
      chunks.pages.set(last, { blocks: last, frameHeight: height, notes: [], marked: { fine: marks.fine } });
      chunks.frames.set(last, before(doc));
      if (!chunks.keep(last, doc)) doc.destroy();
      f.flow.chunks.push(content);
    } else {
      doc.destroy();
      fitsNow = true; // all of it is on one page
    }
  }
  // The shortest frames (to BALANCE_STEP) in which the page's text still takes no more than its
  // columns: one parse of its HTML, laid out again at each height tried (stress014: 8 parses were a third of its time).
  const marked = chunks.pages.get(content)?.marked;
  const doc = chunks.layout(f, content, height, marked ? allMarks(marked.fine) : undefined);
  try {
    const fits = (h: number) => {
      chunks.relayout(f, doc, h);
      return doc.countPages() <= f.columns;
    };
    // Cut off, it may need more than the page (header rows repeated at its head): then it is not balanced.
    if (!fitsNow && doc.countPages() > f.columns) return;
    let lo = Math.max(MIN_ROOM / 2, height / f.columns / 2);
    if (fits(lo)) height = lo;
    while (height - lo > BALANCE_STEP) {
      const mid = (lo + height) / 2;
      if (fits(mid)) height = mid;
      else lo = mid;
    }
  } finally {
    doc.destroy();
  }
  chunks.pages.set(content, { blocks: content, frameHeight: height, notes: [], marked });
  chunks.frames.set(content, f.columns);
}
