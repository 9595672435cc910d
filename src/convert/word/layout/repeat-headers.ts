/** Table header rows repeated on each page a table continues on, as Word does (MuPDF's tables do not): where the stretch is cut for them. */
import type * as Mupdf from 'mupdf';
import type { Block, Table } from '../model/index';
import { linesAbove } from './html-doc';
import { MOST_FOR_HEADERS } from '../../../layout/tables/table-rows';

type Layout = (blocks: Block[], anchors: Map<Table, string>) => Mupdf.Document;
/** Takes a probe's layout that shows `chunk` on its first `frames` frames (all of them when undefined). */
type Keep = (chunk: Block[], doc: Mupdf.Document, frames?: number) => void;

/** Header rows are the rows marked as such at the top of the table (Word repeats exactly those). */
const headerRowCount = (t: Table): number => {
  let n = 0;
  while (n < t.rows.length && t.rows[n]!.header) n++;
  return n;
};

/**
 * The blocks with each table whose header rows are taller than MOST_FOR_HEADERS of a frame
 * `frameHeight` tall made a table without header rows: repeated, they would leave the rows under
 * them too little room on each page, or none (a header row taller than the page was repeated on
 * page after page, each showing it again and nothing else, and words past the page's foot were
 * lost). Such header rows are shown once, at the table's top, and split across pages like any row.
 * `measure` tells how tall a table of the header rows alone lays out (Infinity: more than a frame).
 */
export function withRepeatableHeaders(blocks: Block[], frameHeight: number, measure: (headerRows: Table) => number): Block[] {
  if (!blocks.some(repeats)) return blocks;
  return blocks.map((b) => {
    if (!repeats(b)) return b;
    const n = headerRowCount(b);
    if (measure({ ...b, rows: b.rows.slice(0, n) }) <= frameHeight * MOST_FOR_HEADERS) return b;
    return { ...b, rows: b.rows.map((r, i) => (i < n ? { ...r, header: false } : r)) };
  });
}

/** A table whose header rows can repeat: it has some, and rows after them. */
const repeats = (b: Block): b is Table => b.kind === 'table' && headerRowCount(b) > 0 && headerRowCount(b) < b.rows.length;

/** Anchors on the rows of the tables with header rows (and of `also`, a table continued without them). */
const anchorsOf = (blocks: Block[], also?: Block): Map<Table, string> => {
  const anchors = new Map<Table, string>();
  blocks.forEach((b, i) => {
    if ((b === also && b.kind === 'table') || repeats(b)) anchors.set(b as Table, `t${i}`);
  });
  return anchors;
};

/**
 * Splits a page-break-free stretch where a table with header rows runs onto another page, so the
 * header rows can be repeated at the top of the next page as Word does (MuPDF's tables do not
 * repeat them). The stretch is laid out with anchors on the rows; the first row found on a later
 * page starts a new stretch whose table begins with the header rows. One-column stretches only:
 * a stretch boundary is a page break.
 *
 * Layout is sequential, so a prefix of the stretch lays out exactly as it does within the whole:
 * each probe is the stretch only up to its next table with header rows (widened to the one after
 * when that table stays on one page), and a table's remainder is laid out a window of rows at a
 * time. A long stretch with many such tables thus costs about one layout of itself, not one per
 * table; and each piece is drawn from the probe that found its end (`keep`), not laid out again.
 */
export function splitForRepeatedHeaders(blocks: Block[], layout: Layout, keep: Keep): Block[][] {
  const out: Block[][] = [];
  let rest = blocks;
  let continuing = false; // rest[0] is the remainder of a table just split
  // rest[0] continues its table without its header rows (these): a row too tall for the room under
  // them starts its page (MuPDF cuts a row only at the top of a page: under the header rows it
  // moved the row to the next page, and the same again on each page, which showed only the header
  // rows, a thousand times). They come back at the table's next cut.
  let headless: Table['rows'] | undefined;
  let window = 60;
  let tablesInProbe = 1; // tables with header rows the probe reaches (when not continuing)
  for (let guard = 0; guard < 1000; guard++) {
    let probe = rest;
    let whole = true; // the probe is all of rest
    if (continuing) {
      const t = rest[0] as Table;
      if (t.rows.length > window) {
        probe = [{ ...t, rows: t.rows.slice(0, window) }];
        whole = false;
      } else probe = [t];
    } else {
      const end = nthRepeatingTable(rest, tablesInProbe);
      if (end === undefined) break; // no table with header rows left
      if (end + 1 < rest.length && nthRepeatingTable(rest, tablesInProbe + 1) !== undefined) {
        probe = rest.slice(0, end + 1);
        whole = false;
      }
    }
    const anchors = anchorsOf(probe, headless && continuing ? probe[0] : undefined);
    const doc = anchors.size ? layout(probe, anchors) : undefined;
    const cut = doc && firstCrossing(doc, probe, anchors);
    if (!cut) {
      // The probe is all that is left, and lays out as it will be drawn: drawn from this layout.
      if (doc && whole && !continuing) keep(probe, doc);
      else doc?.destroy();
      if (continuing) {
        if (!whole) window *= 2; // the window fit on one page: widen it
        else {
          continuing = false; // the remainder fits: go on with what follows it
          tablesInProbe = headless ? 1 : 2; // rest[0], the remainder, is known to fit (not one to count without its header rows)
          headless = undefined;
        }
      } else if (whole) break;
      else tablesInProbe++; // the probe's tables stay on their pages: reach the next one
      continue;
    }
    const table = probe[cut.block] as Table;
    const full = rest[cut.block] as Table;
    const headers = headerRowCount(table);
    if (continuing && cut.block === 0 && !headless && cut.row === headers) {
      // Its page would show the repeated header rows alone: the row after them starts it instead.
      doc!.destroy();
      headless = full.rows.slice(0, headers);
      rest = [{ ...full, rows: full.rows.slice(headers) }, ...rest.slice(1)];
      continue;
    }
    const chunk = [...rest.slice(0, cut.block), { ...full, rows: full.rows.slice(0, cut.row) }];
    out.push(chunk);
    // Layout is sequential: the probe's frames before the cut row's are the chunk's, drawn from this layout.
    keep(chunk, doc!, cut.page);
    const repeated = continuing && cut.block === 0 && headless ? headless : table.rows.slice(0, headers);
    headless = undefined;
    rest = [{ ...full, rows: [...repeated, ...full.rows.slice(cut.row)] }, ...rest.slice(cut.block + 1)];
    continuing = true;
    tablesInProbe = 1;
  }
  out.push(rest);
  return out;
}

/** Index in blocks of the nth (1-based) table with header rows that can repeat, if there is one. */
function nthRepeatingTable(blocks: Block[], n: number): number | undefined {
  for (let i = 0; i < blocks.length; i++) if (repeats(blocks[i]!) && --n === 0) return i;
  return undefined;
}

/**
 * The first table row (past the header rows) that starts on a later page than its table's first:
 * of the tables that cross a page, the one crossing earliest (the lower block on the same page).
 * Each row carries an id, and MuPDF tells the page an id is on; rows' pages only grow, so a
 * binary search finds a table's crossing in a few look-ups. (Asking each page for its links
 * instead walked the whole stretch's boxes once per page.)
 */
function firstCrossing(doc: Mupdf.Document, blocks: Block[], anchors: Map<Table, string>): { block: number; row: number; page: number } | undefined {
  if (doc.countPages() < 2) return undefined;
  let best: { block: number; row: number; page: number } | undefined;
  blocks.forEach((b, block) => {
    const anchor = anchors.get(b as Table);
    if (anchor === undefined) return;
    const pageOf = (row: number) => doc.resolveLink(`#${anchor}-${row}`);
    const first = pageOf(0);
    const rows = (b as Table).rows.length;
    if (first < 0 || pageOf(rows - 1) <= first) return; // the table stays on one page
    // The first row past the header rows that starts on a page later than `after`.
    const firstAfter = (after: number, from: number): number | undefined => {
      if (pageOf(rows - 1) <= after) return undefined;
      let lo = from;
      let hi = rows - 1; // invariant: row hi starts on a later page
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (pageOf(mid) > after) hi = mid;
        else lo = mid + 1;
      }
      return hi;
    };
    let row = firstAfter(first, headerRowCount(b as Table));
    // A row taller than a page (at a page's top, where MuPDF cuts it) ends on the page where the
    // next row starts: the cut goes below its tail, at the first row on a page it does not reach.
    while (row !== undefined && linesAbove(doc, pageOf(row), `${anchor}-${row}`)) row = firstAfter(pageOf(row), row);
    if (row === undefined) return;
    const page = pageOf(row);
    if (!best || page < best.page) best = { block, row, page };
  });
  return best;
}
