import type * as Mupdf from 'mupdf';
import type { Block, Table } from '../model';

type Layout = (blocks: Block[], anchors: Map<Table, string>) => Mupdf.Document;
/** Takes a probe's layout that shows `chunk` on its first `frames` frames (all of them when undefined). */
type Keep = (chunk: Block[], doc: Mupdf.Document, frames?: number) => void;

/** Header rows are the rows marked as such at the top of the table (Word repeats exactly those). */
const headerRowCount = (t: Table): number => {
  let n = 0;
  while (n < t.rows.length && t.rows[n]!.header) n++;
  return n;
};

/** A table whose header rows can repeat: it has some, and rows after them. */
const repeats = (b: Block): b is Table => b.kind === 'table' && headerRowCount(b) > 0 && headerRowCount(b) < b.rows.length;

const anchorsOf = (blocks: Block[]): Map<Table, string> => {
  const anchors = new Map<Table, string>();
  blocks.forEach((b, i) => {
    if (repeats(b)) anchors.set(b, `t${i}`);
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
    const anchors = anchorsOf(probe);
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
          tablesInProbe = 2; // rest[0], the remainder, is known to fit
        }
      } else if (whole) break;
      else tablesInProbe++; // the probe's tables stay on their pages: reach the next one
      continue;
    }
    const table = probe[cut.block] as Table;
    const full = rest[cut.block] as Table;
    const chunk = [...rest.slice(0, cut.block), { ...full, rows: full.rows.slice(0, cut.row) }];
    out.push(chunk);
    // Layout is sequential: the probe's frames before the cut row's are the chunk's, drawn from this layout.
    keep(chunk, doc!, cut.page);
    rest = [{ ...full, rows: [...table.rows.slice(0, headerRowCount(table)), ...full.rows.slice(cut.row)] }, ...rest.slice(cut.block + 1)];
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
    let lo = headerRowCount(b as Table);
    let hi = rows - 1; // invariant: row hi starts on a later page
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pageOf(mid) > first) hi = mid;
      else lo = mid + 1;
    }
    const page = pageOf(hi);
    if (!best || page < best.page) best = { block, row: hi, page };
  });
  return best;
}
