/**
 * Footnotes at the foot of their page on the HTML path: a stretch that calls notes paged one page
 * at a time, each page laid out until its text and the notes it calls agree.
 */
import type * as Mupdf from 'mupdf';
import type { Block } from '../model/index';
import type { PageMarks } from './inline-context';
import { keepsWithNext } from '../rules/keeps';
import { remainderAfterFirstFrame } from './footnote-remainder';

/** One page of a stretch with footnotes: the first frame of `blocks` laid out `frameHeight` tall, its notes below. */
export interface FootnotePage {
  blocks: Block[];
  frameHeight: number;
  /** Note ids whose bodies go at the foot of this page, in order. */
  notes: string[];
  /** Every frame is a page (a last resort when nothing fits a frame), not only the first. */
  allFrames?: boolean;
  /** The marks it was paged with (`fine`: see PageMarks): laid out again, it is laid out with the same HTML, so the same lines. */
  marked?: { fine?: number };
}

/**
 * Lays out blocks in frames `frameHeight` tall with PageMarks ids (every word of block `fine`);
 * `relayout` lays the same parsed HTML out again in frames of another height. The caller owns the document.
 */
export type MarkedLayout = (blocks: Block[], frameHeight: number, fine?: number) => { doc: Mupdf.Document; marks: PageMarks; noteRefs: string[]; relayout: (frameHeight: number) => void };

/** Notes may take at most this share of a page; the rest wait for the next page, as Word continues them. */
const MOST_OF_PAGE = 0.6;
/** Layouts tried per page to settle which notes fit with the text that calls them. */
const TRIES = 4;
/** Notes' room to spare (points) that is not worth another layout: about a line of text. */
const SLACK = 10;

/**
 * Pages a stretch with footnote references so that each page's notes sit at its foot, as in Word:
 * the text of a page ends higher by the height of the notes its references call. MuPDF's frames
 * are all one height, so each page is its own layout: the rest of the stretch (a window of it) is
 * laid out with frames as tall as the page less its notes, the first frame is the page, and the
 * next page starts with what fell onto the second frame: the next block, or the remainder of the
 * paragraph or table that crossed (found by the ids on blocks, words and rows). Since the notes
 * depend on which references land on the page and that on the notes' height, a page is laid out
 * until the two agree, starting from the notes the last layout put on its second frame.
 *
 * `keep` receives each page's layout (to draw it without laying it out again) or destroys it.
 */
export function paginateFootnotes(blocks: Block[], fullHeight: number, layout: MarkedLayout, notesHeight: (ids: string[]) => number, keep: (page: FootnotePage, doc: Mupdf.Document) => void, firstHeight?: number): FootnotePage[] {
  const pager = new FootnotePager(blocks, fullHeight, layout, notesHeight, keep, firstHeight);
  for (let guard = 0; pager.rest.length && guard < 5000; guard++) if (pager.nextPage() === 'last') return pager.pages;
  if (pager.pending.length) pager.pages.push({ blocks: [], frameHeight: fullHeight, notes: pager.pending });
  return pager.pages;
}

/** A layout of a page's window with the room it leaves for notes (`height`), and the notes that would go there. */
interface Try extends ReturnType<MarkedLayout> {
  window: Block[];
  height: number;
  /** Notes called on the first frame, the notes placed at its foot, and the room they need. */
  called: string[];
  notes: string[];
  need: number;
  /** Note references on the first frame. */
  onFirst: number;
}

/** Where the next page starts: the first block past the page, and the remainder of the one before when it crossed (undefined: all fit). */
type Next = { from: number; head?: Block } | undefined;

/** The stretch being paged: what is left of it, and what one page hands the next. */
class FootnotePager {
  readonly pages: FootnotePage[] = [];
  rest: Block[];
  /** Notes called on an earlier page that did not fit there. */
  pending: string[] = [];
  /** Weight (about characters) a frame takes, for the window's size: a little more than one frame. */
  perFrame = 3000;
  /** Room for notes tried first. */
  guess = 0;
  /** The last try put nothing on its page: this one leaves notes for later. */
  noRoom = false;

  constructor(
    blocks: Block[],
    readonly fullHeight: number,
    readonly layout: MarkedLayout,
    readonly notesHeight: (ids: string[]) => number,
    private readonly keep: (page: FootnotePage, doc: Mupdf.Document) => void,
    private readonly firstHeight?: number,
  ) {
    this.rest = blocks;
  }

  /** Lays out and settles the next page: 'last' when it took all the rest as it lays out (nothing fit a frame). */
  nextPage(): 'last' | undefined {
    // The first page may have less room (`firstHeight`: it starts below another section's text).
    const frameHeight = this.pages.length === 0 && this.firstHeight !== undefined ? this.firstHeight : this.fullHeight;
    const tries = new PageTries(this, frameHeight);
    const { page, next } = this.cut(tries, tries.settle());
    if (next && next.from === 0 && !next.head) {
      tries.dropAllBut();
      if (this.noRoom) {
        // Nothing fits even a whole frame (MuPDF always puts something in one): all of it as it lays out.
        this.pages.push({ blocks: this.rest, frameHeight, notes: this.pending, allFrames: true });
        return 'last';
      }
      // Nothing fit above the notes (a picture taller than the room they leave): the notes wait.
      this.noRoom = true;
      return undefined;
    }
    this.noRoom = false;
    this.done(tries, page, next, frameHeight);
    return undefined;
  }

  /** Where the settled page ends: laid out again where the block that crossed cannot be cut there, or kept with the next. */
  private cut(tries: PageTries, settled: Try): { page: Try; next: Next } {
    let page = settled;
    tries.heightFor(page, page.height);
    let next = remainderAfterFirstFrame(page.doc, page.window, page.marks);
    if (next && 'unmarked' in next) {
      // Where the paragraph that crossed was cut could not be told from its marks and the text: once more, with all its words marked.
      const notes = page.notes;
      page = { ...tries.layOut(page.height, next.unmarked), notes };
      next = remainderAfterFirstFrame(page.doc, page.window, page.marks);
      if (next && 'unmarked' in next) throw new Error('footnote pagination: a crossing paragraph has no marked words');
    }
    if (next && 'whole' in next) {
      // The block that crossed cannot be cut there: the page ends before it (or before its row that
      // crossed), laid out again without it.
      const { whole, tail, head } = next;
      page = tries.layOut(page.height, undefined, whole, tail);
      next = tail ? { from: whole + 1, head } : undefined;
    }
    // Keep with next: paragraphs kept with the block that starts the next page go to it too,
    // unless they fill the page from its top (Word too breaks a run longer than a page).
    if (next && !next.head && next.from > 0 && keepsWithNext(page.window[next.from - 1])) {
      let start = next.from - 1;
      while (start > 0 && keepsWithNext(page.window[start - 1])) start--;
      if (start > 0) {
        page = tries.layOut(page.height, undefined, start);
        next = { from: start };
      }
    }
    return { page, next };
  }

  /** The page is done: kept, and the next one starts where it ends, tried first with the notes about to come. */
  private done(tries: PageTries, page: Try, next: Next, frameHeight: number): void {
    const done: FootnotePage = { blocks: page.window, frameHeight: frameHeight - page.height, notes: page.notes, marked: { fine: page.marks.fine } };
    this.pages.push(done);
    // Notes called on this page that did not fit wait for the next.
    const placed = new Set(page.notes);
    this.pending = [...new Set([...this.pending, ...page.called])].filter((id) => !placed.has(id));
    // The next page is tried first with the notes this layout put on its second frame (about the next page).
    const onSecond = refsBefore(page.doc, page.marks.refs, 2);
    const ahead = page.noteRefs.slice(page.onFirst, onSecond);
    tries.dropAllBut(page.doc);
    this.keep(done, page.doc);
    // All of the window fit: the page goes on with what follows it (nothing is left when it was all the rest).
    this.rest = next ? [...(next.head ? [next.head] : []), ...this.rest.slice(next.from)] : this.rest.slice(page.window.length);
    // With the references in about a page of what follows (by weight, less the room the notes take), as the second frame was seldom full.
    const full = this.fullHeight;
    this.guess = 0;
    for (let i = 0; i < 2; i++) {
      const notesAhead = fitNotes([...this.pending, ...ahead, ...refsWithin(this.rest, (this.perFrame * (full - this.guess)) / full)], full, this.notesHeight);
      this.guess = notesAhead.length ? this.notesHeight(notesAhead) : 0;
    }
  }
}

/**
 * One page's layouts, all destroyed but the one kept. Tries of another height on the same HTML
 * lay the parsed document out again (parsing was about half of a layout's time, stress008).
 */
class PageTries {
  private windowSize: number;
  /** The room for notes each is laid out with now. */
  private readonly docs = new Map<Mupdf.Document, number>();
  private parsed: { size: number; fine?: number; laid: ReturnType<MarkedLayout>; tail?: Block } | undefined;

  constructor(
    private readonly pager: FootnotePager,
    private readonly frameHeight: number,
  ) {
    this.windowSize = blocksWeighing(pager.rest, pager.perFrame * 1.3);
  }

  heightFor(laid: ReturnType<MarkedLayout>, height: number): void {
    if (this.docs.get(laid.doc) === height) return;
    laid.relayout(this.frameHeight - height);
    this.docs.set(laid.doc, height);
  }

  dropAllBut(kept?: Mupdf.Document): void {
    for (const doc of this.docs.keys()) if (doc !== kept) doc.destroy();
  }

  /**
   * The page laid out leaving `height` for notes. `size`: exactly that many blocks, the page's own,
   * and `tail` after them (the rows of a table above one that crossed); else a window of the rest
   * that reaches the second frame.
   */
  layOut(height: number, fine?: number, size?: number, tail?: Block): Try {
    const { pager, frameHeight } = this;
    const rest = pager.rest;
    for (;;) {
      const window = tail ? [...rest.slice(0, size), tail] : rest.slice(0, size ?? this.windowSize);
      let laid: ReturnType<MarkedLayout>;
      if (this.parsed?.size === window.length && this.parsed.fine === fine && this.parsed.tail === tail) {
        laid = this.parsed.laid;
        this.heightFor(laid, height);
      } else {
        laid = pager.layout(window, frameHeight - height, fine);
        this.docs.set(laid.doc, height);
        this.parsed = { size: window.length, fine, laid, tail };
      }
      // The first frame is final only when something falls onto the second (or nothing is left).
      const frames = laid.doc.countPages();
      if (size === undefined && this.windowSize < rest.length) pager.perFrame = Math.max(200, window.reduce((sum, b) => sum + weight(b), 0) / Math.max(1, frames - 0.5));
      if (size !== undefined || frames >= 2 || this.windowSize >= rest.length) {
        const onFirst = refsBefore(laid.doc, laid.marks.refs, 1);
        const called = laid.noteRefs.slice(0, onFirst);
        const notes = pager.noRoom ? [] : fitNotes([...pager.pending, ...called], frameHeight, pager.notesHeight);
        return { ...laid, window, height, called, notes, need: notes.length ? pager.notesHeight(notes) : 0, onFirst };
      }
      this.windowSize = Math.max(this.windowSize + 1, blocksWeighing(rest, pager.perFrame * 1.3));
    }
  }

  /** Tries rooms for the notes until the notes the text calls fit the room they leave (a few tries at most). */
  settle(): Try {
    let best: Try | undefined;
    let last: Try | undefined;
    const tried = new Set<number>();
    for (let height = this.pager.noRoom ? 0 : this.pager.guess; tried.size < TRIES && !tried.has(height); ) {
      tried.add(height);
      const t = this.layOut(height);
      if (t.need <= height + 0.01 && (!best || height < best.height)) {
        // Fits: of the tries that fit, the one giving the notes least room keeps the most text.
        best = t;
        // Room left over for less than a line of text: another try could not take more text.
        if (t.need >= height - SLACK) break;
      } else {
        last = t;
        if (best && t.need <= best.height) break; // wants no more room than a try that fit: keep that one
      }
      height = t.need;
    }
    // No try agreed: the last one's notes get the room they asked for (laid out once more); any that still do not fit wait.
    const page = best ?? this.layOut(last!.need);
    if (page !== best && page.need > page.height + 0.01) page.notes = [];
    return page;
  }
}

const weights = new WeakMap<Block, number>();
/** About the characters a block shows, plus a line's worth for each paragraph and row: how much of a page it takes. */
function weight(b: Block): number {
  let w = weights.get(b);
  if (w === undefined) {
    w = 60;
    if (b.kind === 'paragraph') for (const i of b.inlines) w += i.kind === 'text' ? i.text.length : i.kind === 'image' ? i.height * 5 : i.kind === 'textbox' ? i.blocks.reduce((s, x) => s + weight(x), 0) : 1;
    else for (const r of b.rows) w += 60 + r.cells.reduce((s, c) => s + c.blocks.reduce((t, x) => t + weight(x), 0), 0) / Math.max(1, r.cells.length);
    weights.set(b, w);
  }
  return w;
}

/** Ids of the notes referenced in the first `budget` of weight of `blocks` (see weight), in order. */
function refsWithin(blocks: Block[], budget: number): string[] {
  const ids: string[] = [];
  let used = 0;
  const visit = (b: Block): boolean => {
    used += 60;
    if (b.kind === 'table') return b.rows.every((r) => r.cells.every((c) => c.blocks.every(visit)));
    for (const i of b.inlines) {
      if (i.kind === 'noteRef') ids.push(i.id);
      else if (i.kind === 'text') used += i.text.length;
      if (used > budget) return false;
    }
    return used <= budget;
  };
  blocks.every(visit);
  return ids;
}

/** How many blocks from the start take `target` weight (at least one, at most all). */
function blocksWeighing(blocks: Block[], target: number): number {
  let sum = 0;
  for (let i = 0; i < blocks.length; i++) {
    sum += weight(blocks[i]!);
    if (sum >= target) return i + 1;
  }
  return blocks.length;
}

/** How many note references (ids fr0…, in order) landed on frames before `frame`. */
function refsBefore(doc: Mupdf.Document, count: number, frame: number): number {
  // Frames of references only grow: binary search for the first one on `frame` or later.
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (doc.resolveLink(`#fr${mid}`) >= frame) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Notes in order while they take no more than MOST_OF_PAGE of the page (the first always). */
function fitNotes(ids: string[], frameHeight: number, notesHeight: (ids: string[]) => number): string[] {
  const unique = [...new Set(ids)];
  let n = unique.length;
  while (n > 1 && notesHeight(unique.slice(0, n)) > frameHeight * MOST_OF_PAGE) n--;
  return unique.slice(0, n);
}
