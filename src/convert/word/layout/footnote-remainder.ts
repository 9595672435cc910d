/**
 * Where the next footnote page starts (footnote-pages.ts): what of a laid-out window did not fit
 * on its first page, found by the ids on its blocks, words and rows: the next block, or the
 * remainder of the paragraph or table that crossed.
 */
import type * as Mupdf from 'mupdf';
import type { Block, Inline, Paragraph, Table } from '../model/index';
import type { PageMarks } from './inline-context';
import { frameBlocks, linesAbove } from './html-doc';

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
