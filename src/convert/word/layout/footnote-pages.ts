import type * as Mupdf from 'mupdf';
import type { Block, Inline, Paragraph, Table } from '../model/index';
import type { PageMarks } from './inline-context';
import { frameBlocks, linesAbove } from './html-doc';
import { keepsWithNext } from '../rules/keeps';

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
  const pages: FootnotePage[] = [];
  let rest = blocks;
  let pending: string[] = []; // notes called on an earlier page that did not fit there
  let perFrame = 3000; // weight (about characters) a frame takes, for the window's size: a little more than one frame
  let guess = 0; // room for notes tried first
  let noRoom = false; // the last try put nothing on its page: this one leaves notes for later
  for (let guard = 0; rest.length && guard < 5000; guard++) {
    // The first page may have less room (`firstHeight`: it starts below another section's text).
    const frameHeight = pages.length === 0 && firstHeight !== undefined ? firstHeight : fullHeight;
    let windowSize = blocksWeighing(rest, perFrame * 1.3);
    // This page's layouts, all destroyed but the one kept. Tries of another height on the same HTML
    // lay the parsed document out again (parsing was about half of a layout's time, stress008).
    const docs = new Map<Mupdf.Document, number>(); // the room for notes each is laid out with now
    let parsed: { size: number; fine?: number; laid: ReturnType<MarkedLayout>; tail?: Block } | undefined;
    const heightFor = (laid: ReturnType<MarkedLayout>, height: number) => {
      if (docs.get(laid.doc) === height) return;
      laid.relayout(frameHeight - height);
      docs.set(laid.doc, height);
    };
    const dropAllBut = (kept?: Mupdf.Document) => {
      for (const doc of docs.keys()) if (doc !== kept) doc.destroy();
    };
    // `size`: exactly that many blocks, the page's own, and `tail` after them (the rows of a table
    // above one that crossed); else a window of the rest that reaches the second frame.
    const layOut = (height: number, fine?: number, size?: number, tail?: Block) => {
      for (;;) {
        const window = tail ? [...rest.slice(0, size), tail] : rest.slice(0, size ?? windowSize);
        let laid: ReturnType<MarkedLayout>;
        if (parsed?.size === window.length && parsed.fine === fine && parsed.tail === tail) {
          laid = parsed.laid;
          heightFor(laid, height);
        } else {
          laid = layout(window, frameHeight - height, fine);
          docs.set(laid.doc, height);
          parsed = { size: window.length, fine, laid, tail };
        }
        // The first frame is final only when something falls onto the second (or nothing is left).
        const frames = laid.doc.countPages();
        if (size === undefined && windowSize < rest.length) perFrame = Math.max(200, window.reduce((sum, b) => sum + weight(b), 0) / Math.max(1, frames - 0.5));
        if (size !== undefined || frames >= 2 || windowSize >= rest.length) {
          const onFirst = refsBefore(laid.doc, laid.marks.refs, 1);
          const called = laid.noteRefs.slice(0, onFirst);
          const notes = noRoom ? [] : fitNotes([...pending, ...called], frameHeight, notesHeight);
          return { ...laid, window, height, called, notes, need: notes.length ? notesHeight(notes) : 0, onFirst };
        }
        windowSize = Math.max(windowSize + 1, blocksWeighing(rest, perFrame * 1.3));
      }
    };
    type Try = ReturnType<typeof layOut>;
    let best: Try | undefined;
    let last: Try | undefined;
    const tried = new Set<number>();
    for (let height = noRoom ? 0 : guess; tried.size < TRIES && !tried.has(height); ) {
      tried.add(height);
      const t = layOut(height);
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
    let page = best ?? layOut(last!.need);
    if (page !== best && page.need > page.height + 0.01) page.notes = [];
    heightFor(page, page.height);
    let next = remainderAfterFirstFrame(page.doc, page.window, page.marks);
    if (next && 'unmarked' in next) {
      // Where the paragraph that crossed was cut could not be told from its marks and the text: once more, with all its words marked.
      const notes = page.notes;
      page = { ...layOut(page.height, next.unmarked), notes };
      next = remainderAfterFirstFrame(page.doc, page.window, page.marks);
      if (next && 'unmarked' in next) throw new Error('footnote pagination: a crossing paragraph has no marked words');
    }
    if (next && 'whole' in next) {
      // The block that crossed cannot be cut there: the page ends before it (or before its row that
      // crossed), laid out again without it.
      const { whole, tail, head } = next;
      page = layOut(page.height, undefined, whole, tail);
      next = tail ? { from: whole + 1, head } : undefined;
    }
    // Keep with next: paragraphs kept with the block that starts the next page go to it too,
    // unless they fill the page from its top (Word too breaks a run longer than a page).
    if (next && !next.head && next.from > 0 && keepsWithNext(page.window[next.from - 1])) {
      let start = next.from - 1;
      while (start > 0 && keepsWithNext(page.window[start - 1])) start--;
      if (start > 0) {
        page = layOut(page.height, undefined, start);
        next = { from: start };
      }
    }
    if (next && next.from === 0 && !next.head) {
      dropAllBut();
      if (noRoom) {
        // Nothing fits even a whole frame (MuPDF always puts something in one): all of it as it lays out.
        pages.push({ blocks: rest, frameHeight, notes: pending, allFrames: true });
        return pages;
      }
      // Nothing fit above the notes (a picture taller than the room they leave): the notes wait.
      noRoom = true;
      continue;
    }
    noRoom = false;
    const done: FootnotePage = { blocks: page.window, frameHeight: frameHeight - page.height, notes: page.notes, marked: { fine: page.marks.fine } };
    pages.push(done);
    // Notes called on this page that did not fit wait for the next.
    const placed = new Set(page.notes);
    pending = [...new Set([...pending, ...page.called])].filter((id) => !placed.has(id));
    // The next page is tried first with the notes this layout put on its second frame (about the next page).
    const onSecond = refsBefore(page.doc, page.marks.refs, 2);
    const ahead = page.noteRefs.slice(page.onFirst, onSecond);
    dropAllBut(page.doc);
    keep(done, page.doc);
    // All of the window fit: the page goes on with what follows it (nothing is left when it was all the rest).
    rest = next ? [...(next.head ? [next.head] : []), ...rest.slice(next.from)] : rest.slice(page.window.length);
    // With the references in about a page of what follows (by weight, less the room the notes take), as the second frame was seldom full.
    guess = 0;
    for (let i = 0; i < 2; i++) {
      const notesAhead = fitNotes([...pending, ...ahead, ...refsWithin(rest, (perFrame * (fullHeight - guess)) / fullHeight)], fullHeight, notesHeight);
      guess = notesAhead.length ? notesHeight(notesAhead) : 0;
    }
  }
  if (pending.length) pages.push({ blocks: [], frameHeight: fullHeight, notes: pending });
  return pages;
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

/**
 * What of `window` did not fit on the first page (its first `columns` frames, one by default):
 * undefined when all did; else the index of the
 * first block that starts past it, and the remainder of the block before when that one crossed;
 * `unmarked` when that block needs all its words marked to tell; `whole` when it cannot be cut.
 */
export function remainderAfterFirstFrame(doc: Mupdf.Document, window: Block[], marks: PageMarks, columns = 1): { from: number; head?: Block } | { unmarked: number } | { whole: number; tail?: Table; head?: Table } | undefined {
  if (doc.countPages() <= columns) return undefined;
  // The page (of `columns` frames) an id is on; -1 where it is on none.
  const pageOf = (id: string) => {
    const frame = doc.resolveLink(`#${id}`);
    return frame < 0 ? frame : Math.floor(frame / columns);
  };
  // A block whose id resolves nowhere (nothing drawn) counts as on the page of the block after it.
  const blockPage = (i: number): number => {
    for (let j = i; j < window.length; j++) {
      const p = pageOf(`b${j}`);
      if (p >= 0) return p;
    }
    return 1;
  };
  let lo = 0;
  let hi = window.length; // first block starting past the first frame
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (blockPage(mid) > 0) hi = mid;
    else lo = mid + 1;
  }
  const from = lo;
  if (from === 0) return { from: 0 };
  const crossing = window[from - 1]!;
  const next = from < window.length ? `b${from}` : undefined;
  let head: Block | undefined;
  if (crossing.kind === 'paragraph') {
    const remainder = paragraphRemainder(crossing, from - 1, marks, pageOf, () => firstLineText(doc, columns));
    if (remainder === 'unsure') return { unmarked: from - 1 };
    head = remainder;
  }
  else {
    const rows = tableRemainder(crossing, from - 1, pageOf, (id) => tailBefore(doc, columns, id ?? next));
    // A row that runs past the page (MuPDF cuts a row only when it is taller than the room left)
    // goes whole to the next page: the page ends before it, with the rows above it.
    if (rows.crossed === 0) return from > 1 ? { whole: from - 1 } : { from: 0 };
    if (rows.crossed !== undefined) return { whole: from - 1, tail: { ...crossing, rows: crossing.rows.slice(0, rows.crossed) }, head: rows.head };
    head = rows.head;
  }
  // The crossing block's words or rows all start on the first frame, yet the second shows something
  // of it (a text box or picture after its last word, the end of a tall row): the block goes whole
  // to the next page, as it cannot be cut there. (Only its own spacing past the frame is nothing.)
  if (!head && from > 1 && from === window.length && frameBlocks(doc, columns).length > 0) return { whole: from - 1 };
  if (!head && from === window.length) return undefined;
  return { from, head };
}

/**
 * Whether the first frame of the second page (frame `columns`) shows text above where the element
 * `id` starts, or any text at all when there is no such element: the tail of something the first
 * page began.
 */
function tailBefore(doc: Mupdf.Document, columns: number, id: string | undefined): boolean {
  if (id === undefined) return frameBlocks(doc, columns).length > 0;
  const page = doc.resolveLink(`#${id}`);
  // It starts on a later frame: this one holds something before it, if anything.
  if (page < 0 || page > columns) return frameBlocks(doc, columns).length > 0;
  return linesAbove(doc, columns, id);
}

/**
 * The lines of paragraph `index` past the first frame, as a paragraph of their own (no label,
 * indent or space before); 'unsure' when the word that starts them cannot be told. Its marked
 * words bracket that word (the last one on the frame, the first past it); between them, it is
 * the one the next page's first line (`nextLine`) starts with.
 */
function paragraphRemainder(p: Paragraph, index: number, marks: PageMarks, pageOf: (id: string) => number, nextLine: () => string | undefined): Paragraph | undefined | 'unsure' {
  const marked: number[] = [];
  marks.words.forEach((w, i) => {
    if (w.block === index && w.marked) marked.push(i);
  });
  // The last word is marked: on the frame, the paragraph's words all are.
  if (!marked.length || pageOf(`w${marked.at(-1)}`) < 1) return undefined;
  let lo = 0;
  let hi = marked.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pageOf(`w${marked[mid]}`) > 0) hi = mid;
    else lo = mid + 1;
  }
  // Its first word is past the frame though the paragraph starts on it (a label or picture first): all of it again.
  if (lo === 0) return p;
  let word = marked[lo]!;
  if (word - marked[lo - 1]! > 1) {
    const line = normalText(nextLine() ?? '');
    const starts = line ? range(marked[lo - 1]! + 1, word + 1).filter((w) => normalText(textFrom(p, marks.words[w]!, line.length * 2 + 8)).startsWith(line)) : [];
    if (starts.length !== 1) return 'unsure';
    word = starts[0]!;
  }
  const at = marks.words[word]!;
  const start = p.inlines[at.inline] as Extract<Inline, { kind: 'text' }>;
  const inlines: Inline[] = [{ ...start, text: start.text.slice(at.offset) }, ...p.inlines.slice(at.inline + 1)];
  return { ...p, inlines, props: { ...p.props, list: undefined, spaceBefore: 0, firstLine: 0, pageBreakBefore: false, outlineLevel: undefined } };
}

const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);

/** Text as compared with what MuPDF shows: no spaces or soft hyphens, ligatures spelt out, one case. */
const normalText = (s: string): string => s.normalize('NFKC').replace(/[\s\u00a0\u00ad\u200b]/g, '').toLowerCase();

/**
 * About `length` characters of what paragraph `p` shows from a word on: its text and note
 * reference labels (fields, pictures and boxes end it: what they show is not known here).
 */
function textFrom(p: Paragraph, from: { inline: number; offset: number }, length: number): string {
  let text = '';
  for (let i = from.inline; i < p.inlines.length && text.length < length; i++) {
    const it = p.inlines[i]!;
    if (it.kind === 'text') {
      if (!it.style.hidden) text += i === from.inline ? it.text.slice(from.offset) : it.text;
    } else if (it.kind === 'noteRef') text += it.label;
    else if (it.kind !== 'tab' && it.kind !== 'break') break;
  }
  return text;
}

/** The text of the first line on frame `frame` (undefined when it shows no text). */
function firstLineText(doc: Mupdf.Document, frame: number): string | undefined {
  const page = doc.loadPage(frame);
  const stext = page.toStructuredText('');
  try {
    // As text (a line per line), not as JSON: the JSON of a frame took 8 times longer to write and read.
    return stext
      .asText()
      .split('\n')
      .find((line) => line.trim());
  } finally {
    stext.destroy();
    page.destroy();
  }
}

/** The rows of table `index` past the first frame, after its header rows (repeated, as Word does). */
function tableRemainder(t: Table, index: number, pageOf: (id: string) => number, tailBefore: (id?: string) => boolean): { head?: Table; crossed?: number } {
  const rows = t.rows.length;
  let lo: number;
  let crossed: number | undefined;
  if (pageOf(`b${index}-${rows - 1}`) < 1) {
    // The last row starts on the page; it runs onto the next when that shows something before what follows.
    if (!tailBefore()) return {};
    lo = crossed = rows - 1;
  } else {
    lo = 0;
    let hi = rows - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pageOf(`b${index}-${mid}`) > 0) hi = mid;
      else lo = mid + 1;
    }
    // MuPDF cuts a row taller than the room left: the row before runs onto the next page when its
    // tail comes first there.
    if (lo > 0 && tailBefore(`b${index}-${lo}`)) lo = crossed = lo - 1;
  }
  if (lo === 0) return { head: t, crossed };
  let headers = 0;
  while (headers < rows && t.rows[headers]!.header) headers++;
  const repeat = headers > 0 && headers < lo ? t.rows.slice(0, headers) : [];
  return { head: { ...t, rows: [...repeat, ...t.rows.slice(lo)] }, crossed };
}
