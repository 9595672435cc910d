/**
 * An XLSX (or XLSM, XLTX) workbook read into the sheet model: the package's workbook part, its
 * visible sheets in order, shared strings, styles and theme, and each sheet's print area and titles
 * from the workbook's defined names (_xlnm.Print_Area, _xlnm.Print_Titles).
 */
import { attr, child, children, parseXml, textOf, type XmlElement } from '../../../../codecs/xml';
import { LimitExceeded } from '../../../../lib/limits';
import { ConversionError } from '../../../errors';
import { ignoreProblems, type ProblemSink } from '../../../problems';
import { checkContainer, Package } from '../../../office/package';
import { EMPTY_THEME, parseTheme } from '../../../office/theme';
import type { Range, Sheet, Workbook } from '../../model';
import { MAX_COLS, MAX_ROWS, rangeRef, stringItem } from './cells';
import { readStyles, truthy } from './styles';
import { readWorksheet } from './worksheet';
import { readDxfs } from './conditional';
import { sheetDrawings, type DrawingStyle } from './drawings';
import { sheetComments } from './comments';
import { streamedList, type WorksheetSource } from './sheet-stream';
import { ownCopy } from '../packed-rows';
import { themePalette } from '../../../office/chart/read';
import { rowsInWholePixels, writtenByMicrosoft } from './row-pixels';

/** Sheet parts larger than this are read as they inflate (sheet-stream.ts), not whole. */
const STREAM_FROM_BYTES = 4_000_000;

/**
 * A worksheet part whole, or in pieces when it is large; undefined when it is missing (told as a
 * problem). Damaged data is the file's damage: printing the sheet without its cells would hand
 * back a PDF that looks converted and is not.
 */
function worksheetSource(pkg: Package, part: string): WorksheetSource | undefined {
  if (!pkg.has(part)) return pkg.read(part);
  if (pkg.sizeOf(part) <= STREAM_FROM_BYTES) return pkg.readMain(part);
  return {
    pieces: (onPiece) => {
      if (!pkg.readPieces(part, onPiece)) throw new ConversionError('corrupt', `The workbook is damaged: its sheet ${part} does not unpack.`);
    },
  };
}

/** A chart sheet: one page with its chart, on the paper its page setup names (A4 portrait without one, as LibreOffice prints it). */
function readChartSheet(pkg: Package, part: string, name: string, style: DrawingStyle): Sheet | undefined {
  const data = pkg.read(part);
  if (!data) return undefined;
  // Its page setup, margins and header read as a worksheet's; it has no cells.
  const sheet = readWorksheet(data, name, [], 0, (root) => ({ drawings: sheetDrawings(pkg, part, child(root, 'drawing'), style) }));
  const drawings = (sheet.drawings ?? []).filter((d) => d.content.kind === 'chart').slice(0, 1);
  if (!drawings.length) return undefined;
  return { ...sheet, chartSheet: true, drawings };
}

/** Shared strings a workbook may hold here (Excel's own limit is the cell count). */
export const SHARED_STRINGS_MAX = 2_000_000;
/** Sheets a workbook may hold here. */
export const SHEETS_MAX = 1_000;

function sharedStrings(pkg: Package, path: string | undefined): string[] {
  if (!path || !pkg.has(path)) return [];
  const out: string[] = [];
  const item = (el: XmlElement) => {
    if (out.length >= SHARED_STRINGS_MAX) throw new LimitExceeded('shared_strings', `the workbook holds more than ${SHARED_STRINGS_MAX.toLocaleString('en')} distinct strings`);
    // A copy of its own: a slice would keep the piece of the part it was cut from.
    out.push(ownCopy(stringItem(el)));
  };
  // Read as the part inflates, cut between items (sheet-stream.ts): 2,000,000 strings were 50 MB of text held whole beside them.
  // Damaged strings would print every text cell empty: the workbook is refused as damaged instead.
  let whole = true;
  streamedList({ pieces: (onPiece) => void (whole = pkg.readPieces(path, onPiece)) }, 'sst', 'si', item);
  if (!whole) throw new ConversionError('corrupt', `The workbook is damaged: its shared strings ${path} do not unpack.`);
  return out;
}

/** "'My sheet'!$A$1:$D$20,Sheet1!$F:$F" → its ranges (whole rows and columns spelt out). */
function namedRanges(formula: string): Range[] {
  return formula.split(',').flatMap((part) => {
    const ref = part.slice(part.lastIndexOf('!') + 1).replace(/\$/g, '');
    const rows = /^(\d+):(\d+)$/.exec(ref);
    if (rows) return [{ top: Number(rows[1]) - 1, bottom: Number(rows[2]) - 1, left: 0, right: MAX_COLS - 1 }];
    const cols = /^([A-Z]+):([A-Z]+)$/i.exec(ref);
    if (cols) {
      const whole = rangeRef(`${cols[1]}1:${cols[2]}1`);
      return whole ? [{ ...whole, top: 0, bottom: MAX_ROWS - 1 }] : [];
    }
    return rangeRef(ref) ?? [];
  });
}

/** Print area and titles of each sheet, by its index in the workbook's <sheets>. */
function applyDefinedNames(workbook: XmlElement | undefined, sheetsByIndex: Map<number, Sheet>): void {
  for (const dn of children(child(workbook, 'definedNames'), 'definedName').slice(0, 10_000)) {
    const sheet = sheetsByIndex.get(Number(attr(dn, 'localSheetId')));
    if (!sheet) continue;
    const ranges = namedRanges(textOf(dn));
    if (attr(dn, 'name') === '_xlnm.Print_Area' && ranges.length) sheet.print.printArea = ranges;
    if (attr(dn, 'name') === '_xlnm.Print_Titles') {
      for (const r of ranges) {
        if (r.left === 0 && r.right === MAX_COLS - 1) sheet.print.titleRows = { first: r.top, last: r.bottom };
        else if (r.top === 0 && r.bottom === MAX_ROWS - 1) sheet.print.titleCols = { first: r.left, last: r.right };
      }
    }
  }
}

export function readXlsx(bytes: Uint8Array, problems: ProblemSink = ignoreProblems): Workbook {
  checkContainer(bytes, 'XLSX');
  const pkg = new Package(bytes, problems, 'XLSX');
  const main = pkg.relTarget('', 'officeDocument') ?? 'xl/workbook.xml';
  let workbook: XmlElement;
  try {
    workbook = parseXml(pkg.readMain(main));
  } catch (e) {
    if (e instanceof LimitExceeded || e instanceof ConversionError) throw e;
    throw new ConversionError('corrupt', `${main} is not readable XML (${(e as Error).message}).`);
  }
  if (workbook.name !== 'workbook') throw new ConversionError('unsupported', 'The file is not an Excel workbook (its main part is not a workbook).');
  const rels = pkg.rels(main);
  const typed = (suffix: string) => [...rels.values()].find((r) => !r.external && r.type.endsWith(suffix))?.target;
  const theme = typed('/theme') ? parseTheme(pkg.xml(typed('/theme')!)) : EMPTY_THEME;
  const stylesRoot = typed('/styles') ? pkg.xml(typed('/styles')!) : undefined;
  const { styles, defaultFont } = readStyles(stylesRoot, theme);
  const dxfs = readDxfs(stylesRoot, theme);
  const strings = sharedStrings(pkg, typed('/sharedStrings'));
  const drawingStyle: DrawingStyle = { theme, palette: typed('/theme') ? themePalette(pkg.read(typed('/theme')!)) : undefined };
  const entries = children(child(workbook, 'sheets'), 'sheet');
  if (entries.length > SHEETS_MAX) throw new LimitExceeded('sheets', `the workbook holds ${entries.length} sheets; at most ${SHEETS_MAX} are printed`);
  const sheets: Sheet[] = [];
  const byIndex = new Map<number, Sheet>();
  const wholePixelRows = writtenByMicrosoft(pkg);
  entries.forEach((entry, index) => {
    if ((attr(entry, 'state') ?? 'visible') !== 'visible') return;
    const rel = rels.get(attr(entry, 'r:id') ?? '');
    // Dialog and macro sheets do not print; a missing part is told and skipped.
    if (!rel || rel.external) return;
    const name = attr(entry, 'name') ?? `Sheet${index + 1}`;
    if (rel.type.endsWith('/chartsheet')) {
      const chartSheet = readChartSheet(pkg, rel.target, name, drawingStyle);
      if (chartSheet) sheets.push(chartSheet);
      return;
    }
    if (!rel.type.endsWith('/worksheet')) return;
    const data = worksheetSource(pkg, rel.target);
    if (!data) return;
    const sheet = readWorksheet(data, name, strings, styles.length, (root, print) => {
      const drawings = sheetDrawings(pkg, rel.target, child(root, 'drawing'), drawingStyle);
      const comments = sheetComments(pkg, rel.target, print.comments, child(root, 'legacyDrawing'), theme);
      return { drawings: [...drawings, ...(comments.drawings ?? [])], ...(comments.notes ? { notes: comments.notes } : {}) };
    }, theme);
    if (wholePixelRows) rowsInWholePixels(sheet);
    sheets.push(sheet);
    byIndex.set(index, sheet);
  });
  applyDefinedNames(workbook, byIndex);
  return { sheets, styles, defaultFont, date1904: truthy(attr(child(workbook, 'workbookPr'), 'date1904')), ...(dxfs.length ? { dxfs } : {}) };
}
