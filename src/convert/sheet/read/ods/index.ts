/**
 * An OpenDocument spreadsheet (.ods, or a flat .fods) read into the sheet model, as the XLSX reader
 * reads a workbook: the package's styles.xml (default and named styles, data styles, page layouts
 * and master pages) and content.xml, whose tables are streamed (table.ts) and whose automatic
 * styles are resolved once it is read; visible tables in order, column widths in points (ODF
 * stores lengths), the default width and height those of the most columns and rows, print
 * settings from each table's master page, print ranges and header rows and columns.
 */
import { attr, child, children, parseXml, XmlError, type XmlElement } from '../../../../codecs/xml';
import { ZipError } from '../../../../codecs/zip-directory';
import { damagedOdf, openOdfPackage, parseOdfPart, type OdfKind } from '../../../office/odf/package';
import { LimitExceeded } from '../../../../lib/limits';
import { PackedRows } from '../packed-rows';
import { ConversionError } from '../../../errors';
import { ignoreProblems, type ProblemSink } from '../../../problems';
import type { Font, Range, Sheet, Workbook } from '../../model';
import { cellRef, MAX_COLS, MAX_ROWS } from '../xlsx/cells';
import { SHEETS_MAX } from '../xlsx/index';
import { DxfList, readConditional } from './conditional';
import { DRAWINGS_MAX, readDrawings, type Locate, type ShapeReader } from './drawings';
import { readShapes } from '../../../office/odf/shapes';
import { readAnnotations } from './annotations';
import { pagePrint } from './page';
import { CellStyles, lengthPoints, StyleSources } from './styles';
import { NULL_DATE_1899, StyleNames, TableReader, dateSerial, type NullDate, type Run } from './table';

const SPREADSHEET_TYPES = ['application/vnd.oasis.opendocument.spreadsheet', 'application/vnd.oasis.opendocument.spreadsheet-template'];
/** LibreOffice's default row height (0.178 in) and column width (0.889 in), for rows and columns a table does not declare. */
const DEFAULT_ROW_HEIGHT = 12.8;
const DEFAULT_COL_WIDTH = 64;

const SPREADSHEET: OdfKind = {
  types: SPREADSHEET_TYPES,
  noun: 'spreadsheet',
  passwordHelp: 'open it, remove the password (File → Save As without "Save with password") and upload it again.',
};
const damaged = (what: string, e: unknown) => damagedOdf('spreadsheet', what, e);

/** The cell part of an ODF address ("$'My.Sheet'.$A$1" → "$A$1"): after the last dot outside quotes. */
function cellPart(address: string): string {
  let dot = -1;
  let quoted = false;
  for (let i = 0; i < address.length; i++) {
    if (address[i] === "'") quoted = !quoted;
    else if (address[i] === '.' && !quoted) dot = i;
  }
  return address.slice(dot + 1);
}

/** table:print-ranges ("Sheet1.A1:Sheet1.D20 'My sheet'.F1:.G5") as ranges. */
export function printRanges(value: string | undefined): Range[] {
  if (!value) return [];
  return (value.match(/(?:'[^']*'|[^\s'])+/g) ?? []).slice(0, 1000).flatMap((part) => {
    const [a, b = a] = part.split(/:(?=(?:[^']*'[^']*')*[^']*$)/);
    const from = cellRef(cellPart(a ?? ''));
    const to = cellRef(cellPart(b ?? ''));
    if (!from || !to) return [];
    return [{ top: Math.min(from.row, to.row), left: Math.min(from.col, to.col), bottom: Math.max(from.row, to.row), right: Math.max(from.col, to.col) }];
  });
}

/** Manual breaks one sheet may hold (Excel's own limit is 1,026). */
const BREAKS_MAX = 1026;

/** What a row or column style gives: its height or width, and whether a page breaks before it. */
type RunStyle = { size?: number; breakBefore: boolean };

function runStyles(sources: StyleSources, family: 'table-row' | 'table-column'): (name: string | undefined) => RunStyle {
  const known = new Map<string | undefined, RunStyle>();
  return (name) => {
    let style = known.get(name);
    if (!style) {
      const props = sources.props(family, name, `${family}-properties`);
      const size = lengthPoints(family === 'table-row' ? (props['row-height'] ?? props['min-row-height']) : props['column-width']);
      style = { ...(size !== undefined && size >= 0 && size < 10_000 ? { size } : {}), breakBefore: props['break-before'] === 'page' };
      known.set(name, style);
    }
    return style;
  };
}

/**
 * Runs of rows or columns as the model's sizes: the size most of them have is the default, the
 * others are kept by index (rows only up to `bound`: past the last cell they print nothing); and
 * the manual breaks their styles ask for.
 */
function sizesOf(runs: Run[], styleOf: (name: string | undefined) => RunStyle, grid: { bound: number; extent: number; fallback: number }) {
  const { bound, fallback } = grid;
  // What the table does not declare (LibreOffice's own files stop at their last used column) has the default size.
  const totals = new Map<number, number>([[fallback, grid.extent - runs.reduce((n, r) => n + r.count, 0)]]);
  for (const r of runs) {
    const size = styleOf(r.style).size ?? fallback;
    totals.set(size, (totals.get(size) ?? 0) + r.count);
  }
  let standard = fallback;
  let most = 0;
  for (const [size, n] of totals) if (n > most) [standard, most] = [size, n];
  const sizes = new Map<number, number>();
  const hidden = new Set<number>();
  const breaks: number[] = [];
  for (const r of runs) {
    const { size, breakBefore } = styleOf(r.style);
    const end = Math.min(r.first + r.count, bound);
    for (let i = r.first; i < end; i++) {
      if (size !== undefined && size !== standard) sizes.set(i, size);
      if (r.hidden) hidden.add(i);
    }
    for (let i = r.first; breakBefore && i < r.first + r.count && breaks.length < BREAKS_MAX; i++) if (i > 0) breaks.push(i);
  }
  return { sizes, hidden, standard, breaks };
}

/** Where a length from the sheet's corner falls among runs of columns or rows (hidden ones have no size). */
function locator(runs: Run[], styleOf: (name: string | undefined) => RunStyle, fallback: number, max: number): Locate {
  return (points) => {
    let at = 0;
    let next = 0;
    for (const r of runs) {
      const size = r.hidden ? 0 : (styleOf(r.style).size ?? fallback);
      if (size > 0 && at + size * r.count > points) {
        const k = Math.floor((points - at) / size);
        return { index: r.first + k, offset: points - at - k * size };
      }
      at += size * r.count;
      next = r.first + r.count;
    }
    const k = Math.min(Math.floor(Math.max(0, points - at) / fallback), max - 1 - next);
    return { index: next + k, offset: Math.max(0, points - at - k * fallback) };
  };
}

/** Shapes read against one budget for the sheet: groups' members count, as drawings do. */
function shapeReader(sources: StyleSources, font: Font): ShapeReader {
  let left = DRAWINGS_MAX;
  return (el) => {
    const shapes = left > 0 ? readShapes(el, { sources, base: font }, left) : [];
    left -= shapes.length;
    return shapes;
  };
}

function sheetOf(reader: TableReader, sources: StyleSources, styles: CellStyles, read: (path: string) => Uint8Array | undefined, dxfs: DxfList, remap: readonly number[]): Sheet {
  const tableStyle = sources.props('table', attr(reader.table, 'style-name'), 'table-properties');
  const print = pagePrint(sources, attr(sources.style('table', attr(reader.table, 'style-name')), 'master-page-name'), styles.defaultFont);
  const printArea = printRanges(attr(reader.table, 'print-ranges'));
  // Rows past the last that prints keep no sizes of their own (a print area of whole columns is bounded).
  let lastRow = Math.max(reader.used?.bottom ?? 0, reader.titleRows?.last ?? 0);
  for (const m of reader.merges) lastRow = Math.max(lastRow, m.bottom);
  for (const a of printArea) lastRow = Math.max(lastRow, Math.min(a.bottom, 65_535));
  const [rowStyle, colStyle] = [runStyles(sources, 'table-row'), runStyles(sources, 'table-column')];
  const locate = { col: locator(reader.colRuns, colStyle, DEFAULT_COL_WIDTH, MAX_COLS), row: locator(reader.rowRuns, rowStyle, DEFAULT_ROW_HEIGHT, MAX_ROWS) };
  const framed = reader.frames.length ? readDrawings(reader.frames, read, locate, shapeReader(sources, styles.defaultFont)) : [];
  const comments = reader.annotations.length ? readAnnotations(reader.annotations, print.comments, sources, styles.defaultFont, locate) : { drawings: [] };
  const drawings = [...framed, ...comments.drawings];
  // Rows down to the drawings' corners keep their sizes: the print range grows to them.
  for (const d of drawings) lastRow = Math.max(lastRow, Math.min(d.to?.row ?? d.from.row, 65_535));
  const rows = sizesOf(reader.rowRuns, rowStyle, { bound: lastRow + 1, extent: MAX_ROWS, fallback: DEFAULT_ROW_HEIGHT });
  const cols = sizesOf(reader.colRuns, colStyle, { bound: MAX_COLS, extent: MAX_COLS, fallback: DEFAULT_COL_WIDTH });
  const sheet: Sheet = {
    name: reader.name,
    // Packed once the styles are remapped (packed-rows.ts).
    rows: PackedRows.from(reader.rows),
    colWidths: cols.sizes,
    hiddenCols: cols.hidden,
    rowHeights: rows.sizes,
    hiddenRows: rows.hidden,
    defaultColWidth: cols.standard,
    baseColWidth: 8,
    widthsInPoints: true,
    defaultRowHeight: rows.standard,
    merges: reader.merges,
    print: {
      ...print,
      ...(printArea.length ? { printArea } : {}),
      ...(reader.titleRows ? { titleRows: reader.titleRows } : {}),
      ...(reader.titleCols ? { titleCols: reader.titleCols } : {}),
      rowBreaks: rows.breaks,
      colBreaks: cols.breaks,
    },
    ...(reader.used ? { used: reader.used } : {}),
    ...(drawings.length ? { drawings } : {}),
    ...(comments.notes ? { notes: comments.notes } : {}),
  };
  const colStyles = reader.columnStyles(remap);
  if (colStyles.size) sheet.colStyles = colStyles;
  if (tableStyle['writing-mode'] === 'rl-tb') sheet.rightToLeft = true;
  const conditional = reader.conditional.length ? readConditional(reader.conditional, dxfs, printRanges) : undefined;
  if (conditional) sheet.conditional = conditional;
  return sheet;
}

/** Whether a table prints: not hidden by its style (table:display="false"), nor set not to print. */
function printed(reader: TableReader, sources: StyleSources): boolean {
  return sources.props('table', attr(reader.table, 'style-name'), 'table-properties')['display'] !== 'false' && attr(reader.table, 'print') !== 'false';
}

/** content.xml (or a flat document), its tables streamed: the document's root and the tables' readers in order. */
function readContent(content: Uint8Array, names: StyleNames): { root: XmlElement; readers: TableReader[]; nullDate: NullDate } {
  const readers: TableReader[] = [];
  const byTable = new Map<XmlElement, TableReader>();
  let nullDate: NullDate = NULL_DATE_1899;
  const readerOf = (table: XmlElement) => {
    let reader = byTable.get(table);
    if (!reader) {
      if (readers.length >= SHEETS_MAX) throw new LimitExceeded('sheets', `the spreadsheet holds more than ${SHEETS_MAX} sheets; at most ${SHEETS_MAX} are printed`);
      reader = new TableReader(table, names, nullDate);
      byTable.set(table, reader);
      readers.push(reader);
    }
    return reader;
  };
  // <office:document-content> (1) > <office:body> (2) > <office:spreadsheet> (3) > <table:table> (4) >
  // its columns, rows and groups (5): each is read as it completes and left out of the tree.
  const root = parseXml(content, {
    depth: 5,
    element: (el, parent) => {
      if (el.name === 'null-date' && parent.name === 'calculation-settings') {
        const serial = dateSerial(attr(el, 'date-value') ?? '', Date.UTC(1904, 0, 1), true);
        if (serial === 0) nullDate = { ms: Date.UTC(1904, 0, 1), date1904: true };
      }
      if (parent.name !== 'table') return true;
      readerOf(parent).element(el);
      return false;
    },
  });
  const spreadsheet = child(child(root, 'body'), 'spreadsheet');
  if (!spreadsheet) throw new ConversionError('not_word', 'The file is an OpenDocument file but not a spreadsheet (its body holds no office:spreadsheet).');
  // Tables with no columns or rows were never handed over: they print as empty sheets.
  return { root, readers: children(spreadsheet, 'table').map(readerOf), nullDate };
}

export function readOds(bytes: Uint8Array, problems: ProblemSink = ignoreProblems): Workbook {
  const zipped = bytes[0] === 0x50 && bytes[1] === 0x4b;
  const { content, styles, read } = zipped ? openOdfPackage(bytes, problems, SPREADSHEET) : { content: bytes, styles: undefined, read: () => undefined };
  const sources = new StyleSources();
  if (styles) sources.add(parseOdfPart(styles, 'styles.xml', problems));
  const names = new StyleNames();
  let parsed: ReturnType<typeof readContent>;
  try {
    parsed = readContent(content, names);
  } catch (e) {
    if (e instanceof XmlError || e instanceof ZipError) throw damaged(`${zipped ? 'content.xml' : 'the document'} is not readable XML`, e);
    throw e;
  }
  sources.add(parsed.root);
  const cellStyles = new CellStyles(sources);
  const remap = names.names.map((name) => cellStyles.index(name));
  for (const reader of parsed.readers) for (const cells of reader.rows.values()) for (const cell of cells) cell.style = remap[cell.style] ?? 0;
  const dxfs = new DxfList(sources);
  const sheets = parsed.readers.filter((r) => printed(r, sources)).map((r) => sheetOf(r, sources, cellStyles, read, dxfs, remap));
  return { sheets, styles: cellStyles.list, defaultFont: cellStyles.defaultFont, date1904: parsed.nullDate.date1904, ...(dxfs.list.length ? { dxfs: dxfs.list } : {}) };
}
