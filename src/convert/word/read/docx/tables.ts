/**
 * Tables (w:tbl): grid, rows, cells, merged cells, and the table style with its conditional parts
 * (header row, banded rows...) applied per cell.
 *
 * Borders are resolved per cell edge, simply: the cell's own tcBorders, else the table style's
 * conditional cell borders, else the table's tblBorders (outer edges: top/bottom/left/right; inner
 * edges: insideH/insideV), else the table style's. Adjacent cells may then disagree about a shared
 * edge; the layout draws what each cell says.
 */
import { borderShows, type Border, type Table, type TableCell, type TableRow } from '../../model/index';
import { attr, child, children, elements, type XmlElement } from '../../../../codecs/xml';
import { parseBorders, parseShading, toggle, twips } from './props';
import { TABLE_BORDER_SIDES, mergeTableLayer, parseCellMargins, type CellMargins, type TableBorderSide, type TableLayer } from './styles';
import type { StoryReader } from './story';
import { withoutEdgeAutoSpacing } from '../../model/auto-spacing';

interface Look {
  firstRow: boolean;
  lastRow: boolean;
  firstColumn: boolean;
  lastColumn: boolean;
  noHBand: boolean;
  noVBand: boolean;
}

function parseLook(el: XmlElement | undefined): Look {
  // Without tblLook Word uses 04A0: header row, first column, no vertical banding.
  const hex = parseInt(el?.attrs['val'] ?? '04A0', 16) || 0;
  const flag = (name: string, bit: number) => {
    const v = el?.attrs[name];
    return v !== undefined ? v === '1' || v === 'true' : (hex & bit) !== 0;
  };
  return {
    firstRow: flag('firstRow', 0x20),
    lastRow: flag('lastRow', 0x40),
    firstColumn: flag('firstColumn', 0x80),
    lastColumn: flag('lastColumn', 0x100),
    noHBand: flag('noHBand', 0x200),
    noVBand: flag('noVBand', 0x400),
  };
}

/** Rows and cells may sit inside content controls, custom XML or tracked insertions. */
function collect(container: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const el of elements(container)) {
    if (el.name === name) out.push(el);
    else if (el.name === 'sdt') collect(child(el, 'sdtContent') ?? el, name, out);
    else if (el.name === 'customXml' || el.name === 'ins' || el.name === 'sdtContent') collect(el, name, out);
  }
  return out;
}

const DEFAULT_MARGINS = { top: 0, right: 5.4, bottom: 0, left: 5.4 };

function usable(b: Border | undefined): Border | undefined {
  return borderShows(b) ? b : undefined;
}

/** What every cell of a table reads through: the table style and look, the table's own borders and margins. */
interface TableFrame {
  reader: StoryReader;
  style: ReturnType<StoryReader['ctx']['styles']['tableStyle']>;
  look: Look;
  directBorders: Partial<Record<TableBorderSide, Border>>;
  directMargins: CellMargins | undefined;
  cellSpacing: number;
  rowCount: number;
}

export function readTable(tbl: XmlElement, reader: StoryReader): Table {
  const { styles, theme } = reader.ctx;
  const tblPr = child(tbl, 'tblPr');
  const style = styles.tableStyle(attr(child(tblPr, 'tblStyle'), 'val'));
  const look = parseLook(child(tblPr, 'tblLook'));
  const directBorders = parseBorders(child(tblPr, 'tblBorders'), theme, TABLE_BORDER_SIDES) ?? {};
  const directMargins = parseCellMargins(child(tblPr, 'tblCellMar'));

  const grid = children(child(tbl, 'tblGrid'), 'gridCol').map((g) => twips(g.attrs['w']) ?? 0);
  // Cell spacing (tables saved from web pages mostly): each cell is framed on its own, apart from
  // the others. (Word draws the table's outer borders around them all too; drawn by MuPDF as the
  // table's border, that frame ran on down pages the table continued on, so it is left out.)
  const spacingEl = child(tblPr, 'tblCellSpacing');
  const cellSpacing = spacingEl && (spacingEl.attrs['type'] ?? 'dxa') === 'dxa' ? (twips(spacingEl.attrs['w']) ?? 0) : 0;
  const rowEls = collect(tbl, 'tr');
  reader.ctx.counts.add('rows', rowEls.length);
  const frame: TableFrame = { reader, style, look, directBorders, directMargins, cellSpacing, rowCount: rowEls.length };
  const rows = rowEls.map((tr, r) => readRow(tr, r, frame));

  const table: Table = { kind: 'table', grid: grid.some((w) => w > 0) ? grid : gridFromCells(rows), rows };
  const jc = attr(child(tblPr, 'jc'), 'val');
  if (jc === 'center') table.align = 'center';
  else if (jc === 'right' || jc === 'end') table.align = 'right';
  if (toggle(child(tblPr, 'bidiVisual'))) table.bidiVisual = true;
  if (cellSpacing > 0) table.cellSpacing = cellSpacing;
  const ind = child(tblPr, 'tblInd');
  if (ind && (ind.attrs['type'] ?? 'dxa') === 'dxa') {
    const v = twips(ind.attrs['w']);
    if (v) table.indent = v;
  }
  return table;
}

/** w:tr: its header, can't-split, height and skipped grid columns, and its cells. */
function readRow(tr: XmlElement, r: number, frame: TableFrame): TableRow {
  const trPr = child(tr, 'trPr');
  const cellEls = collect(tr, 'tc');
  frame.reader.ctx.counts.add('cells', cellEls.length);
  const row: TableRow = { cells: [] };
  if (child(trPr, 'tblHeader') && attr(child(trPr, 'tblHeader'), 'val') !== '0' && attr(child(trPr, 'tblHeader'), 'val') !== 'false') row.header = true;
  if (child(trPr, 'cantSplit') && attr(child(trPr, 'cantSplit'), 'val') !== '0' && attr(child(trPr, 'cantSplit'), 'val') !== 'false') row.cantSplit = true;
  const trHeight = child(trPr, 'trHeight');
  const h = twips(attr(trHeight, 'val'));
  const hRule = attr(trHeight, 'hRule');
  if (h && hRule !== 'auto') row.height = { rule: hRule === 'exact' ? 'exact' : 'atLeast', value: h };
  const gridBefore = parseInt(attr(child(trPr, 'gridBefore'), 'val') ?? '', 10);
  if (gridBefore > 0) row.gridBefore = gridBefore;
  cellEls.forEach((tc, c) => row.cells.push(readCell(tc, r, c, cellEls.length, frame)));
  return row;
}

/** w:tc: its blocks, span, edge borders, merge, shading, alignment, margins and width. */
function readCell(tc: XmlElement, r: number, c: number, cellCount: number, frame: TableFrame): TableCell {
  const { reader, directBorders, rowCount } = frame;
  const { theme } = reader.ctx;
  const tcPr = child(tc, 'tcPr');
  const layer = cellLayer(frame.style, frame.look, r, rowCount, c, cellCount);
  const own = parseBorders(child(tcPr, 'tcBorders'), theme, TABLE_BORDER_SIDES) ?? {};
  const edge = (side: 'top' | 'bottom' | 'left' | 'right', outer: boolean): Border | undefined => {
    const inner: TableBorderSide = side === 'top' || side === 'bottom' ? 'insideH' : 'insideV';
    const key: TableBorderSide = outer ? side : inner;
    return usable(
      own[side] ??
        layer?.cellBorders?.[side] ??
        (outer ? undefined : layer?.cellBorders?.[inner]) ??
        directBorders[key] ??
        layer?.tableBorders?.[key],
    );
  };
  const span = parseInt(attr(child(tcPr, 'gridSpan'), 'val') ?? '1', 10);
  let blocks = reader.blocks(tc, layer);
  withoutEdgeAutoSpacing(blocks, true, true);
  // w:hideMark: an empty cell's paragraph mark does not count toward its row's height (Word and
  // LibreOffice collapse a row of such cells to its borders and margins).
  if (child(tcPr, 'hideMark') && blocks.every((b) => b.kind === 'paragraph' && !b.props.list && b.inlines.every((i) => i.kind === 'text' && !i.text))) blocks = [];
  const cell: TableCell = {
    blocks,
    gridSpan: span > 0 ? span : 1,
    borders: {},
  };
  // Cells set apart by spacing take the inside borders on every side, as in Word.
  const apart = frame.cellSpacing > 0;
  const borders = {
    top: edge('top', !apart && r === 0),
    bottom: edge('bottom', !apart && r === rowCount - 1),
    left: edge('left', !apart && c === 0),
    right: edge('right', !apart && c === cellCount - 1),
  };
  for (const side of ['top', 'bottom', 'left', 'right'] as const) if (borders[side]) cell.borders[side] = borders[side];
  const vMerge = child(tcPr, 'vMerge');
  if (vMerge) cell.vMerge = vMerge.attrs['val'] === 'restart' ? 'restart' : 'continue';
  const shading = parseShading(child(tcPr, 'shd'), theme) ?? layer?.shading;
  if (shading && shading !== 'auto') cell.shading = shading;
  const va = attr(child(tcPr, 'vAlign'), 'val') ?? layer?.vAlign;
  if (va === 'center' || va === 'bottom' || va === 'top') cell.vAlign = va;
  const m: CellMargins = { ...DEFAULT_MARGINS, ...layer?.cellMargins, ...frame.directMargins, ...parseCellMargins(child(tcPr, 'tcMar')) };
  cell.margins = { top: m.top ?? 0, right: m.right ?? 0, bottom: m.bottom ?? 0, left: m.left ?? 0 };
  const tcW = child(tcPr, 'tcW');
  if (tcW && (tcW.attrs['type'] ?? 'dxa') === 'dxa') {
    const w = twips(tcW.attrs['w']);
    if (w) cell.width = w;
  }
  return cell;
}

/** The table style's whole-table layer with the conditional parts that apply to this cell. */
function cellLayer(
  style: ReturnType<StoryReader['ctx']['styles']['tableStyle']>,
  look: Look,
  r: number,
  rowCount: number,
  c: number,
  cellCount: number,
): TableLayer | undefined {
  if (!style) return undefined;
  const types: string[] = [];
  if (!look.noVBand) types.push((c - (look.firstColumn ? 1 : 0)) % 2 === 0 ? 'band1Vert' : 'band2Vert');
  if (!look.noHBand) types.push((r - (look.firstRow ? 1 : 0)) % 2 === 0 ? 'band1Horz' : 'band2Horz');
  const first = look.firstRow && r === 0;
  const last = look.lastRow && r === rowCount - 1;
  const firstCol = look.firstColumn && c === 0;
  const lastCol = look.lastColumn && c === cellCount - 1;
  if (lastCol) types.push('lastCol');
  if (firstCol) types.push('firstCol');
  if (last) types.push('lastRow');
  if (first) types.push('firstRow');
  if (first && firstCol) types.push('nwCell');
  if (first && lastCol) types.push('neCell');
  if (last && firstCol) types.push('swCell');
  if (last && lastCol) types.push('seCell');
  let layer = style.whole;
  for (const t of types) {
    // Banding never applies to the header or total row in Word.
    if ((first || last) && (t === 'band1Horz' || t === 'band2Horz')) continue;
    const cond = style.conditional.get(t);
    if (cond) layer = mergeTableLayer(layer, cond);
  }
  return layer;
}

/** Tables written without a usable tblGrid: column widths from the widest row's preferred widths. */
function gridFromCells(rows: TableRow[]): number[] {
  let best: number[] = [];
  for (const row of rows) {
    const widths: number[] = [];
    for (const cell of row.cells) {
      const w = (cell.width ?? 0) / cell.gridSpan;
      for (let i = 0; i < cell.gridSpan; i++) widths.push(w);
    }
    if (widths.length > best.length) best = widths;
  }
  return best.map((w) => w || 72);
}
