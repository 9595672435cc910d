/**
 * One worksheet part: its rows streamed (cells.ts), then what lies around them: column widths and
 * visibility, merges, the view's direction, and the print settings (page setup, margins, options,
 * manual breaks, header and footer). Print area and titles come from the workbook's defined names.
 */
import { attr, child, children, parseXml, textOf, type XmlElement } from '../../../../codecs/xml';
import type { PrintSettings, Sheet, SheetDrawing, SheetNote } from '../../model';
import { MAX_COLS, MAX_ROWS, rangeRef, RowReader } from './cells';
import { truthy } from './styles';
import { readConditional } from './conditional';
import { EMPTY_THEME, type Theme } from '../../../office/theme';
import { PAPER } from '../paper';
import { streamedWorksheet, type WorksheetSource } from './sheet-stream';

const inches = (el: XmlElement | undefined, name: string, fallback: number) => {
  const v = Number(attr(el, name));
  return (attr(el, name) !== undefined && v >= 0 && v < 50 ? v : fallback) * 72;
};

const COMMENTS = new Set(['atEnd', 'asDisplayed']);

function printSettings(root: XmlElement): PrintSettings {
  const setup = child(root, 'pageSetup');
  const m = child(root, 'pageMargins');
  const options = child(root, 'printOptions');
  const fit = truthy(attr(child(child(root, 'sheetPr'), 'pageSetUpPr'), 'fitToPage'));
  const scale = Number(attr(setup, 'scale') ?? 100);
  const breaks = (name: string, max: number) =>
    children(child(root, name), 'brk')
      .slice(0, 1026)
      .map((b) => Number(attr(b, 'id')))
      .filter((id) => Number.isInteger(id) && id > 0 && id < max)
      .sort((a, b) => a - b);
  const hf = child(root, 'headerFooter');
  const part = (name: string) => (child(hf, name) ? textOf(child(hf, name)) : undefined);
  const headerFooter = (odd?: string, even?: string, first?: string) =>
    odd || even || first ? { odd: odd ?? '', ...(truthy(attr(hf, 'differentOddEven')) && even ? { even } : {}), ...(truthy(attr(hf, 'differentFirst')) && first ? { first } : {}) } : undefined;
  return {
    orientation: attr(setup, 'orientation') === 'landscape' ? 'landscape' : 'portrait',
    // A sheet with no page setup prints on LibreOffice's default paper (A4, as the references show); one without a paper size on Letter, SpreadsheetML's default.
    paper: setup ? (PAPER[Number(attr(setup, 'paperSize') ?? 1)] ?? PAPER[1]!) : PAPER[9]!,
    margins: { left: inches(m, 'left', 0.7), right: inches(m, 'right', 0.7), top: inches(m, 'top', 0.75), bottom: inches(m, 'bottom', 0.75), header: inches(m, 'header', 0.3), footer: inches(m, 'footer', 0.3) },
    scale: scale >= 10 && scale <= 400 ? scale : 100,
    ...(fit ? { fitTo: { width: Number(attr(setup, 'fitToWidth') ?? 1) || 0, height: Number(attr(setup, 'fitToHeight') ?? 1) || 0 } } : {}),
    pageOrder: attr(setup, 'pageOrder') === 'overThenDown' ? 'overThenDown' : 'downThenOver',
    ...(truthy(attr(options, 'horizontalCentered')) ? { centerHorizontally: true } : {}),
    ...(truthy(attr(options, 'verticalCentered')) ? { centerVertically: true } : {}),
    ...(truthy(attr(options, 'gridLines')) ? { gridLines: true } : {}),
    ...(truthy(attr(options, 'headings')) ? { headings: true } : {}),
    rowBreaks: breaks('rowBreaks', MAX_ROWS),
    colBreaks: breaks('colBreaks', MAX_COLS),
    header: headerFooter(part('oddHeader'), part('evenHeader'), part('firstHeader')),
    footer: headerFooter(part('oddFooter'), part('evenFooter'), part('firstFooter')),
    ...(COMMENTS.has(attr(setup, 'cellComments') ?? '') ? { comments: attr(setup, 'cellComments') as PrintSettings['comments'] } : {}),
  };
}

function columns(root: XmlElement, sheet: Pick<Sheet, 'colWidths' | 'hiddenCols' | 'colStyles'>, styleCount: number): void {
  for (const col of children(child(root, 'cols'), 'col').slice(0, MAX_COLS)) {
    const min = Number(attr(col, 'min'));
    const max = Math.min(Number(attr(col, 'max')), MAX_COLS);
    if (!(min >= 1 && max >= min)) continue;
    const width = Number(attr(col, 'width'));
    const hidden = truthy(attr(col, 'hidden'));
    const style = Number(attr(col, 'style') ?? 0);
    const styled = Number.isInteger(style) && style > 0 && style < styleCount;
    if (styled) sheet.colStyles ??= new Map();
    for (let c = min - 1; c < max; c++) {
      if (width >= 0 && width <= 255 && attr(col, 'width') !== undefined) sheet.colWidths.set(c, width);
      if (hidden) sheet.hiddenCols.add(c);
      if (styled) sheet.colStyles!.set(c, style);
    }
  }
}

/** What a worksheet draws over its cells and lists after them, read from the parts it names (the workbook reader knows the package). */
export type SheetPartsReader = (root: XmlElement, print: PrintSettings) => { drawings?: SheetDrawing[]; notes?: SheetNote[] };

/** A worksheet part read into a sheet named `name` (print area and titles added by the workbook); `partsOf` reads its drawings and comments. */
export function readWorksheet(xml: WorksheetSource, name: string, strings: readonly string[], styleCount: number, partsOf?: SheetPartsReader, theme: Theme = EMPTY_THEME): Sheet {
  const rows = new RowReader(strings, styleCount, name);
  // <worksheet> (1) > <sheetData> (2) > <row> (3): each row is read as it completes and left out of the tree.
  const root = xml instanceof Uint8Array ? parseXml(xml, { depth: 3, element: (el) => (el.name === 'row' ? (rows.row(el), false) : true) }) : streamedWorksheet(xml, (el) => rows.row(el));
  const format = child(root, 'sheetFormatPr');
  const defaultWidth = Number(attr(format, 'defaultColWidth'));
  const baseWidth = Number(attr(format, 'baseColWidth') ?? 8);
  const defaultHeight = Number(attr(format, 'defaultRowHeight') ?? 15);
  const sheet: Sheet = {
    name,
    ...rows.out,
    colWidths: new Map(),
    hiddenCols: new Set(),
    ...(defaultWidth > 0 && defaultWidth <= 255 ? { defaultColWidth: defaultWidth } : {}),
    baseColWidth: baseWidth > 0 && baseWidth <= 255 ? baseWidth : 8,
    defaultRowHeight: defaultHeight > 0 && defaultHeight < 410 ? defaultHeight : 15,
    merges: children(child(root, 'mergeCells'), 'mergeCell')
      .slice(0, 100_000)
      .flatMap((m) => rangeRef(attr(m, 'ref') ?? '') ?? []),
    print: printSettings(root),
  };
  if (truthy(attr(child(child(root, 'sheetViews'), 'sheetView'), 'rightToLeft'))) sheet.rightToLeft = true;
  columns(root, sheet, styleCount);
  const { drawings, notes } = partsOf?.(root, sheet.print) ?? {};
  if (drawings?.length) sheet.drawings = drawings;
  if (notes?.length) sheet.notes = notes;
  const conditional = readConditional(root, theme);
  if (conditional) sheet.conditional = conditional;
  return sheet;
}
