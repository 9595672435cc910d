/**
 * A slide's ODF table (a draw:frame holding a table:table) as the Office parts' shapes in slide
 * space, as the PPTX reader draws its tables (table.ts): a box per cell at its column widths
 * (table-column styles) and row heights (table-row styles; a row sized to its text, or stored as 0,
 * grows to its lines), cells spanning columns and rows (table:number-columns-spanned, -rows-), the
 * cell's fill, padding and vertical alignment (its table-cell style's graphic properties, or its
 * row's default cell style's), its text, and each border it gives (fo:border-left...) as a line.
 * Table templates (table:template-name) are not applied: what a cell does not say is not drawn.
 */
import { attr, children, type XmlElement } from '../../../codecs/xml';
import type { FramedShape, Shape, TextParagraph } from '../../office/model';
import { fillOf, graphicProps, shapeText, type ShapeContext } from '../../office/odf/shapes';
import { hexColor, lengthPoints } from '../../office/odf/styles';
import { odfParagraphs } from '../../office/odf/text';
import { linesHeight } from './table';

/** Rows and columns a table keeps at most, and characters of one cell's text. */
const GRID_MAX = 200;
const CELL_TEXT_MAX = 4_096;

const points = (v: string | undefined) => Math.max(0, Math.min(lengthPoints(v) ?? 0, 1e5));

/** "0.48pt solid #ffffff" → a line of that width and colour; undefined for none. */
function border(value: string | undefined): Shape<TextParagraph>['line'] {
  if (!value || /none|hidden/.test(value)) return undefined;
  const words = value.trim().split(/\s+/);
  const color = words.map(hexColor).find(Boolean);
  const width = words.map((w) => lengthPoints(w)).find((w) => w !== undefined) ?? 0.75;
  return color && width > 0 ? { color, width: Math.min(width, 100) } : undefined;
}

const line = (x0: number, y0: number, x1: number, y1: number, outline: NonNullable<Shape<TextParagraph>['line']>): FramedShape<TextParagraph> => ({
  box: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 },
  shape: { kind: 'shape', geometry: 'line', width: x1 - x0, height: y1 - y0, line: outline },
});

/** A table's row (table:table-row, in its rows or header rows groups) and the cells in it, spans expanded. */
function rowsOf(table: XmlElement): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of table.children) {
    if (typeof c === 'string' || out.length >= GRID_MAX) continue;
    if (c.name === 'table-row') out.push(c);
    else if (c.name === 'table-header-rows' || c.name === 'table-rows') out.push(...children(c, 'table-row').slice(0, GRID_MAX - out.length));
  }
  return out;
}

/** Column widths from the table's columns (table:number-columns-repeated honoured), at most GRID_MAX. */
function columnWidths(table: XmlElement, ctx: ShapeContext, frameWidth: number): number[] {
  const widths: number[] = [];
  for (const col of children(table, 'table-column')) {
    const repeat = Math.max(1, Math.min(Number(attr(col, 'number-columns-repeated') ?? 1) || 1, GRID_MAX - widths.length));
    const width = points(ctx.sources.props('table-column', attr(col, 'style-name'), 'table-column-properties')['column-width']);
    for (let i = 0; i < repeat && widths.length < GRID_MAX; i++) widths.push(width);
  }
  // Columns with no width share what the frame leaves.
  const known = widths.reduce((a, w) => a + w, 0);
  const unknown = widths.filter((w) => !w).length;
  return widths.map((w) => w || Math.max(0, frameWidth - known) / Math.max(1, unknown));
}

/** The row's height: as stored, at least what its cells' lines need (1.2 times their size) within their padding. */
function rowHeight(row: XmlElement, ctx: ShapeContext, texts: TextParagraph[][], padding: number): number {
  const props = ctx.sources.props('table-row', attr(row, 'style-name'), 'table-row-properties');
  const stored = points(props['row-height'] ?? props['min-row-height']);
  const needed = Math.max(0, ...texts.map(linesHeight)) + padding;
  return Math.max(stored, needed);
}

/** The table's cells as shapes in slide space, at most `most` of them. */
export function odpTableShapes(frame: XmlElement, table: XmlElement, ctx: ShapeContext, most: number): FramedShape<TextParagraph>[] {
  const [x0, y0] = [lengthPoints(attr(frame, 'x')) ?? 0, lengthPoints(attr(frame, 'y')) ?? 0];
  const widths = columnWidths(table, ctx, points(attr(frame, 'width')));
  const xs = widths.reduce<number[]>((acc, w) => [...acc, acc.at(-1)! + w], [x0]);
  const rows = rowsOf(table);
  const cellsOf = (row: XmlElement) => row.children.filter((c): c is XmlElement => typeof c !== 'string' && (c.name === 'table-cell' || c.name === 'covered-table-cell')).slice(0, widths.length);
  const styleOf = (row: XmlElement, cell: XmlElement) => attr(cell, 'style-name') ?? attr(row, 'default-cell-style-name');
  const textOf = (row: XmlElement, cell: XmlElement) => {
    if (cell.name !== 'table-cell' || (ctx.text?.left ?? 1) <= 0) return [];
    const budget = { left: Math.min(CELL_TEXT_MAX, ctx.text?.left ?? CELL_TEXT_MAX) };
    const before = budget.left;
    const blocks = odfParagraphs(cell, ctx.sources, shapeText(ctx.sources, 'table-cell', styleOf(row, cell), ctx.base), budget);
    if (ctx.text) ctx.text.left -= before - budget.left;
    return blocks;
  };
  const texts = rows.map((row) => cellsOf(row).map((cell) => textOf(row, cell)));
  const ys = rows.reduce<number[]>((acc, row, r) => [...acc, acc.at(-1)! + rowHeight(row, ctx, texts[r]!, 7.2)], [y0]);
  const out: FramedShape<TextParagraph>[] = [];
  rows.forEach((row, r) => {
    cellsOf(row).forEach((cell, c) => {
      if (out.length >= most || cell.name !== 'table-cell') return;
      const span = (name: string, max: number) => Math.max(1, Math.min(Number(attr(cell, name) ?? 1) || 1, max));
      const [right, bottom] = [c + span('number-columns-spanned', widths.length - c), r + span('number-rows-spanned', rows.length - r)];
      const [cx0, cy0, cx1, cy1] = [xs[c]!, ys[r]!, xs[right]!, ys[bottom]!];
      const style = styleOf(row, cell);
      const g: Record<string, string> = { fill: 'none', ...ctx.sources.props('table-cell', style, 'graphic-properties') };
      const p = graphicProps(ctx.sources, 'table-cell', style, 'paragraph-properties');
      const { fill } = fillOf(g, ctx.sources, ctx.read);
      const pad = (side: string, fallback: number) => lengthPoints(g[`padding-${side}`]) ?? fallback;
      const v = g['textarea-vertical-align'];
      const blocks = texts[r]![c]!;
      const shape: Shape<TextParagraph> = {
        kind: 'shape', geometry: 'rect', width: cx1 - cx0, height: cy1 - cy0, ...(fill ? { fill } : {}),
        textInsets: { left: pad('left', 7.2), right: pad('right', 7.2), top: pad('top', 3.6), bottom: pad('bottom', 3.6) },
        textAnchor: v === 'middle' ? 'center' : v === 'bottom' ? 'bottom' : 'top', ...(blocks.length ? { blocks } : {}),
      };
      out.push({ box: { x: cx0, y: cy0, width: cx1 - cx0, height: cy1 - cy0 }, shape });
      const sides: [string, number, number, number, number][] = [['top', cx0, cy0, cx1, cy0], ['bottom', cx0, cy1, cx1, cy1], ['left', cx0, cy0, cx0, cy1], ['right', cx1, cy0, cx1, cy1]];
      for (const [side, ax, ay, bx, by] of sides) {
        const outline = border(p[`border-${side}`] ?? p['border']);
        if (outline && out.length < most) out.push(line(ax, ay, bx, by, outline));
      }
    });
  });
  return out;
}
