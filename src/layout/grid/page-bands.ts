/**
 * A grid's pages (a spreadsheet's print range): its columns cut into bands as wide as a page and
 * its rows into bands as tall, as LibreOffice cuts them (sc/source/core/data/table5.cxx
 * UpdatePageBreaks: columns, then rows, until a page is full; manual breaks kept; the repeated
 * title rows and columns taken from each page's room), at a zoom, or at the largest zoom from
 * 100% down that fits the pages asked for (sc/source/ui/view/printfun.cxx CalcZoom, where manual
 * breaks give way).
 */

/** A grid as the pager sees it: the sizes of its columns and rows (points at 100%, 0 for hidden ones). */
export interface GridSizes {
  colWidths: number[];
  rowHeights: number[];
  /** Manual breaks: indexes (into the sizes) of the first column or row after a break. */
  colBreaks?: number[];
  rowBreaks?: number[];
  /** Width of the title columns and height of the title rows repeated on the pages after them (points at 100%). */
  titleWidth?: number;
  titleHeight?: number;
  /**
   * Where the titles sit in the sizes, when the grid holds them: a page that starts at or before
   * them has the whole room (it prints them in place), as LibreOffice takes the titles from the room
   * only from the first page that starts past them. Without these, every page repeats them.
   */
  titleColsAt?: number;
  titleRowsAt?: number;
  /** Height taken from every page at the grid's scale (a header's and footer's bands, printed headings; points at 100%). */
  reservedHeight?: number;
  /** Width taken from every page at the grid's scale (printed row headings; points at 100%). */
  reservedWidth?: number;
}

export interface PageRoom {
  width: number;
  height: number;
}

export interface GridPage {
  /** First and last column and row (inclusive) of the page, as indexes into the sizes. */
  cols: [number, number];
  rows: [number, number];
}

export interface GridPages {
  /** Percent the grid is drawn at. */
  zoom: number;
  /** How many pages the bands make (column bands × row bands). */
  pageCount: number;
  /**
   * The page at an index in print order, made when asked: a grid of a million rows by 16,384
   * columns makes tens of millions of pages, which are counted (and refused) without being held.
   */
  page(index: number): GridPage;
  /** The bands the pages are made of (pages list each row band for each column band, or the other way). */
  colBands: [number, number][];
  rowBands: [number, number][];
}

/**
 * Sizes cut into bands of at most `room` (a size larger than the room is a band of its own),
 * breaking before each of `breaks`; a band starting at or before `wider.upTo` may fill `wider.room`.
 */
export function bands(sizes: number[], room: number, breaks: number[] = [], wider?: { upTo: number; room: number }): [number, number][] {
  const out: [number, number][] = [];
  if (!sizes.length) return out;
  const forced = new Set(breaks);
  let start = 0;
  let used = 0;
  for (let i = 0; i < sizes.length; i++) {
    const size = sizes[i]!;
    const roomHere = wider && start <= wider.upTo ? wider.room : room;
    if (i > start && (forced.has(i) || used + size > roomHere + 0.01)) {
      out.push([start, i - 1]);
      [start, used] = [i, 0];
    }
    used += size;
  }
  out.push([start, sizes.length - 1]);
  // Bands of hidden columns or rows alone print no page.
  const shown = out.filter(([a, b]) => {
    for (let i = a; i <= b; i++) if (sizes[i]! > 0) return true;
    return false;
  });
  return shown.length ? shown : out.slice(0, 1);
}

function cut(grid: GridSizes, room: PageRoom, zoom: number, manual: boolean): { colBands: [number, number][]; rowBands: [number, number][] } {
  const z = zoom / 100;
  const fullWidth = Math.max(1, room.width / z - (grid.reservedWidth ?? 0));
  const fullHeight = Math.max(1, room.height / z - (grid.reservedHeight ?? 0));
  const width = Math.max(1, fullWidth - (grid.titleWidth ?? 0));
  const height = Math.max(1, fullHeight - (grid.titleHeight ?? 0));
  const widerCols = grid.titleColsAt !== undefined ? { upTo: grid.titleColsAt, room: fullWidth } : undefined;
  const widerRows = grid.titleRowsAt !== undefined ? { upTo: grid.titleRowsAt, room: fullHeight } : undefined;
  return {
    colBands: bands(grid.colWidths, width, manual ? grid.colBreaks : [], widerCols),
    rowBands: bands(grid.rowHeights, height, manual ? grid.rowBreaks : [], widerRows),
  };
}

/**
 * The grid's pages at `zoom`, or, with `fit` (pages wide and tall, 0 for as many as it takes), at
 * the largest whole zoom from 100% down to 10% whose pages fit.
 */
export function gridPages(grid: GridSizes, room: PageRoom, options: { zoom?: number; fit?: { width: number; height: number }; order?: 'downThenOver' | 'overThenDown' }): GridPages {
  let zoom = Math.min(400, Math.max(10, options.zoom ?? 100));
  let laid = cut(grid, room, zoom, !options.fit);
  const fit = options.fit;
  if (fit && (fit.width > 0 || fit.height > 0)) {
    const fits = (l: typeof laid) => (!fit.width || l.colBands.length <= fit.width) && (!fit.height || l.rowBands.length <= fit.height);
    // Whole percents from 100 down, as LibreOffice searches (binary search would find the same zoom: fewer pages never come from a larger zoom).
    let [lo, hi] = [10, 100];
    if (fits(cut(grid, room, hi, false))) lo = hi;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(cut(grid, room, mid, false))) lo = mid;
      else hi = mid - 1;
    }
    zoom = lo;
    laid = cut(grid, room, zoom, false);
  }
  const { colBands, rowBands } = laid;
  const across = options.order === 'overThenDown';
  const page = (index: number): GridPage => {
    const [outer, inner] = across ? [rowBands.length, colBands.length] : [colBands.length, rowBands.length];
    if (index < 0 || index >= outer * inner) throw new RangeError(`page ${index} of ${outer * inner}`);
    const [major, minor] = [Math.floor(index / inner), index % inner];
    return across ? { cols: colBands[minor]!, rows: rowBands[major]! } : { cols: colBands[major]!, rows: rowBands[minor]! };
  };
  return { zoom, pageCount: colBands.length * rowBands.length, page, ...laid };
}
