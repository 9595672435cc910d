/**
 * A slide's table (p:graphicFrame holding an a:tbl) as the Office parts' shapes in slide space: a
 * box per cell (merged cells spanning their grid columns and rows, gridSpan/rowSpan; the cells they
 * cover left out), its fill (a:tcPr solid, gradient or pattern fill, or none) and text (its a:txBody, inside the cell's margins,
 * at its anchor), and each border as a line. What the cell does not say itself (its a:tcPr fill,
 * its a:lnL, lnR, lnT, lnB borders, its runs' weight and colour) its table's style gives
 * (table-style.ts: the header row, bands, first column... as the table's a:tblPr switches them on).
 */
import { attr, child, children, descendant, elements, type XmlElement } from '../../../codecs/xml';
import { colorIn, shapeFill } from '../../office/drawing-color';
import { readTextBody } from '../../office/drawingml/text-body';
import type { FramedShape, Shape, TextParagraph } from '../../office/model';
import type { Theme } from '../../office/theme';
import { cellLook, resolveTableStyle, tableFlags, tableStyleOf, type CellLook, type CellPlace, type TableLine, type TableStyles } from './table-style';

const EMU_PER_POINT = 12_700;
/** Rows and columns a table keeps at most, and characters of its text. */
const GRID_MAX = 200;
const TABLE_TEXT_MAX = 262_144;
const emu = (v: string | undefined, fallback = 0) => {
  const n = Number(v ?? fallback);
  return Number.isFinite(n) ? Math.max(0, Math.min(n, 2e10)) / EMU_PER_POINT : fallback / EMU_PER_POINT;
};

/** A cell's own border (a:lnL…): its colour and width, null when it says none, undefined when the cell does not say. */
function ownBorder(ln: XmlElement | undefined, theme: Theme): TableLine | null | undefined {
  if (!ln) return undefined;
  if (child(ln, 'noFill')) return null;
  const color = colorIn(child(ln, 'solidFill'), theme);
  // A line giving only its width (or nothing) leaves the colour to the style.
  return color ? { color, width: emu(attr(ln, 'w'), 12_700) } : undefined;
}

const FILLS = new Set(['noFill', 'solidFill', 'gradFill', 'pattFill', 'blipFill', 'grpFill']);
/** The cell's own fill (a:tcPr), null when it says none; else the style's. */
function cellFill(tcPr: XmlElement | undefined, look: CellLook, theme: Theme): string | undefined {
  const own = elements(tcPr).some((e) => FILLS.has(e.name));
  return (own ? shapeFill(tcPr, undefined, theme) : look.fill) ?? undefined;
}

const line = (x0: number, y0: number, x1: number, y1: number, outline: NonNullable<Shape<TextParagraph>['line']>): FramedShape<TextParagraph> => ({
  box: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 },
  shape: { kind: 'shape', geometry: 'line', width: x1 - x0, height: y1 - y0, line: outline },
});

/** The row's height: as stored, or (stored as 0, which PowerPoint grows to the text) its cells' lines at 1.2 times their size. */
function rowHeight(tr: XmlElement, texts: TextParagraph[][], margins: number): number {
  const stored = emu(attr(tr, 'h'));
  const needed = Math.max(0, ...texts.map(linesHeight)) + margins;
  return Math.max(stored, needed);
}

/**
 * What a cell's paragraphs need at least, a line each at 1.2 times their largest run (the
 * paragraph's own size only when it has no runs: a 24-pt body style under 14-pt runs made a
 * header row 7 pt taller than LibreOffice's).
 */
export function linesHeight(paragraphs: TextParagraph[]): number {
  return paragraphs.reduce((h, p) => h + (p.runs.length ? Math.max(...p.runs.map((r) => r.size)) : p.size) * 1.2, 0);
}

/** A cell drawn (not covered by another's span): its a:tc and its place on the grid. */
interface PlacedCell {
  tc: XmlElement;
  at: CellPlace;
}

/** The cells that draw, in reading order: those hMerge / vMerge leave out are covered by a span. */
function placedCells(rows: XmlElement[], cols: number): PlacedCell[] {
  const out: PlacedCell[] = [];
  rows.forEach((tr, r) => {
    children(tr, 'tc').slice(0, cols).forEach((tc, c) => {
      if (attr(tc, 'hMerge') === '1' || attr(tc, 'vMerge') === '1') return;
      const span = (name: string, max: number) => Math.max(1, Math.min(Number(attr(tc, name) ?? 1) || 1, max));
      const at = { row: r, col: c, lastRow: r + span('rowSpan', rows.length - r) - 1, lastCol: c + span('gridSpan', cols - c) - 1, rows: rows.length, cols };
      out.push({ tc, at });
    });
  });
  return out;
}

const ANCHORS: Record<string, 'center' | 'bottom'> = { ctr: 'center', b: 'bottom' };

/** A cell's box, its fill and text, then its borders: its own (a:lnL...) over its style's. */
function drawCell(tcPr: XmlElement | undefined, box: FramedShape<TextParagraph>['box'], look: CellLook, blocks: TextParagraph[], theme: Theme): FramedShape<TextParagraph>[] {
  const fill = cellFill(tcPr, look, theme);
  const insets = { left: emu(attr(tcPr, 'marL'), 91_440), right: emu(attr(tcPr, 'marR'), 91_440), top: emu(attr(tcPr, 'marT'), 45_720), bottom: emu(attr(tcPr, 'marB'), 45_720) };
  const cell: Shape<TextParagraph> = { kind: 'shape', geometry: 'rect', width: box.width, height: box.height, ...(fill ? { fill } : {}), textInsets: insets, textAnchor: ANCHORS[attr(tcPr, 'anchor') ?? ''] ?? 'top', ...(blocks.length ? { blocks } : {}) };
  const out: FramedShape<TextParagraph>[] = [{ box, shape: cell }];
  const [x0, y0, x1, y1] = [box.x, box.y, box.x + box.width, box.y + box.height];
  const sides = [['lnT', 'top', x0, y0, x1, y0], ['lnB', 'bottom', x0, y1, x1, y1], ['lnL', 'left', x0, y0, x0, y1], ['lnR', 'right', x1, y0, x1, y1]] as const;
  for (const [own, side, ax, ay, bx, by] of sides) {
    const given = ownBorder(child(tcPr, own), theme);
    const outline = given === undefined ? look.sides[side] : given;
    if (outline) out.push(line(ax, ay, bx, by, outline));
  }
  return out;
}

/** The table's cells as shapes in slide space, at most `most` of them; `styles` the deck's table styles. */
export function tableShapes(frame: XmlElement, theme: Theme, textSize: number, most: number, styles: TableStyles = new Map()): FramedShape<TextParagraph>[] {
  const tbl = descendant(child(frame, 'graphic'), 'tbl');
  if (!tbl) return [];
  const xfrm = child(frame, 'xfrm');
  const [x0, y0] = [emu(attr(child(xfrm, 'off'), 'x')), emu(attr(child(xfrm, 'off'), 'y'))];
  const widths = children(child(tbl, 'tblGrid'), 'gridCol').slice(0, GRID_MAX).map((c) => emu(attr(c, 'w')));
  const xs = widths.reduce<number[]>((acc, w) => [...acc, acc.at(-1)! + w], [x0]);
  const rows = children(tbl, 'tr').slice(0, GRID_MAX);
  const tblPr = child(tbl, 'tblPr');
  const [style, flags] = [resolveTableStyle(tableStyleOf(tblPr, styles), theme), tableFlags(tblPr)];
  const cells = placedCells(rows, widths.length).map((cell) => ({ ...cell, look: cellLook(style, flags, cell.at) }));
  // The table's text against one budget (a 200 × 200 grid of full cells would be 40,000 bodies).
  let left = TABLE_TEXT_MAX;
  const texts = cells.map(({ tc, look }) => {
    // The style's text look stands where the runs and the cell's list style do not say (bold and
    // italic ride along in the defaults: the text body reader starts each run's look from them).
    const defaults = { font: look.text.font ?? theme.minorFont ?? 'Calibri', size: textSize, color: look.text.color ?? '000000', bold: look.text.bold, italic: look.text.italic };
    const body = left > 0 ? readTextBody(child(tc, 'txBody'), theme, defaults, Math.min(4_096, left)) : [];
    for (const p of body) for (const r of p.runs) left -= r.text.length;
    return body;
  });
  const byRow: TextParagraph[][][] = rows.map(() => []);
  texts.forEach((text, i) => byRow[cells[i]!.at.row]!.push(text));
  const ys = rows.reduce<number[]>((acc, tr, r) => [...acc, acc.at(-1)! + rowHeight(tr, byRow[r]!, 7.2)], [y0]);
  const out: FramedShape<TextParagraph>[] = [];
  cells.forEach(({ tc, at, look }, i) => {
    if (out.length >= most) return;
    const box = { x: xs[at.col]!, y: ys[at.row]!, width: xs[at.lastCol + 1]! - xs[at.col]!, height: ys[at.lastRow + 1]! - ys[at.row]! };
    out.push(...drawCell(child(tc, 'tcPr'), box, look, texts[i]!, theme).slice(0, most - out.length));
  });
  return out;
}
