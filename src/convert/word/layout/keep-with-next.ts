/**
 * Keep-with-next (w:keepNext): MuPDF's HTML layout has no keeps, so a laid-out stretch is checked
 * afterwards: top-level paragraphs kept with the next block, and the blocks before and after them,
 * carry the id k<i> (block-html.ts), and a run of them that ends a page is moved to the next one
 * (render.ts lays the stretch out again with the block before the run ending its page). So is a
 * table that holds together (holdsTogether) and crosses a page, found by its rows' ids k<i>-<row>.
 */
import type * as Mupdf from 'mupdf';
import type { Block } from '../model/index';
import { holdsTogether, keepsWithNext } from '../rules/keeps';
import { linesAbove } from './html-doc';

/** Stretches with more paragraphs kept with the next are not checked (each is two look-ups through the whole layout). */
export const MOST_KEPT_WITH_NEXT = 200;
/** Layouts again at most, each moving the kept paragraphs found ending a page. */
export const KEEP_ROUNDS = 3;

/**
 * Adds to `breakBefore` the start of each run of keep-with-next paragraphs that ends a page while
 * the block it keeps with starts the next (ids k<i>, block-html.ts); true when it added any. A
 * run that starts its page already stays (Word too breaks a run longer than a page).
 */
export function moveKeptWithNext(doc: Mupdf.Document, blocks: Block[], breakBefore: Set<number>): boolean {
  doc.countPages(); // lays the document out: before that, ids resolve nowhere
  const frames = new Map<number, number>();
  const frameOf = (i: number) => {
    let f = frames.get(i);
    if (f === undefined) frames.set(i, (f = doc.resolveLink(`#k${i}`)));
    return f;
  };
  /** The first of the kept paragraphs on `frame` that lead up to block i. */
  const runStart = (i: number, frame: number) => {
    let start = i;
    while (start > 0 && keepsWithNext(blocks[start - 1]) && frameOf(start - 1) === frame) start--;
    return start;
  };
  /**
   * Whether the run from block `start` (its first element `id`) starts frame `frame`: it is the
   * chunk's first block, or the block before it (which carries an id too) starts on an earlier
   * frame and shows nothing above the run on this one (it may run onto it).
   */
  const startsFrame = (start: number, frame: number, id: string) => start === 0 || (frameOf(start - 1) < frame && !linesAbove(doc, frame, id));
  let added = false;
  for (let i = 0; i + 1 < blocks.length; i++) {
    if (!keepsWithNext(blocks[i]) || breakBefore.has(i + 1)) continue;
    const here = frameOf(i);
    const next = frameOf(i + 1);
    if (here < 0 || next <= here) continue;
    const start = runStart(i, here);
    if (breakBefore.has(start)) continue;
    // The run starts its page: moving it would leave the page as it is, and cost a layout.
    if (startsFrame(start, here, `k${start}`)) continue;
    breakBefore.add(start);
    added = true;
  }
  // Tables that hold together (and the paragraphs kept with them) and cross a page start the next.
  for (let i = 0; i < blocks.length; i++) {
    const t = blocks[i]!;
    if (t.kind !== 'table' || !holdsTogether(t) || breakBefore.has(i)) continue;
    // Rows carry k<i>-<row> unless the table's rows are anchored for repeated headers (then it is left as is).
    const first = doc.resolveLink(`#k${i}-0`);
    const last = doc.resolveLink(`#k${i}-${t.rows.length - 1}`);
    if (first < 0 || last <= first) continue;
    const start = runStart(i, first);
    // Already at the top of its page: a table longer than a page stays, as in Word.
    if (breakBefore.has(start) || startsFrame(start, first, start === i ? `k${i}-0` : `k${start}`)) continue;
    breakBefore.add(start);
    added = true;
  }
  return added;
}

/**
 * The stretch's HTML with a page break after each block before one in `breakBefore`, written
 * into that block's style where blocksHtml noted it (`breakAt`): each round of keep-with-next
 * changes only these, so the HTML is written once, not once per round.
 */
export function withPageBreaks(html: string, keeps: { breakBefore: Set<number>; breakAt: Map<number, number> }): string {
  const at = [...keeps.breakBefore].flatMap((i) => keeps.breakAt.get(i - 1) ?? []).sort((a, b) => b - a);
  for (const k of at) html = `${html.slice(0, k)}page-break-after:always;${html.slice(k)}`;
  return html;
}
