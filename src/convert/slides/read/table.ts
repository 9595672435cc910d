/**
 * A slide's table (p:graphicFrame holding an a:tbl) as the Office parts' shapes in slide space: a
 * box per cell (merged cells spanning their grid columns and rows, gridSpan/rowSpan; the cells they
 * cover left out), its fill (a:tcPr solidFill) and text (its a:txBody, inside the cell's margins,
 * at its anchor), and each border the cell gives (a:lnL, lnR, lnT, lnB) as a line. Table styles
 * (a:tableStyleId) are not applied yet: what a cell does not say is not drawn.
 */
import { attr, child, children, descendant, type XmlElement } from '../../../codecs/xml';
import { colorIn } from '../../office/drawing-color';
import { readTextBody } from '../../office/drawingml/text-body';
import type { FramedShape, Shape, TextParagraph } from '../../office/model';
import type { Theme } from '../../office/theme';

const EMU_PER_POINT = 12_700;
/** Rows and columns a table keeps at most, and characters of its text. */
const GRID_MAX = 200;
const TABLE_TEXT_MAX = 262_144;
const emu = (v: string | undefined, fallback = 0) => {
  const n = Number(v ?? fallback);
  return Number.isFinite(n) ? Math.max(0, Math.min(n, 2e10)) / EMU_PER_POINT : fallback / EMU_PER_POINT;
};

/** A border (a:lnL…): its colour and width, or undefined when it draws none. */
function border(ln: XmlElement | undefined, theme: Theme): Shape<TextParagraph>['line'] {
  if (!ln || child(ln, 'noFill')) return undefined;
  const color = colorIn(child(ln, 'solidFill'), theme);
  return color ? { color, width: emu(attr(ln, 'w'), 12_700) } : undefined;
}

const line = (x0: number, y0: number, x1: number, y1: number, outline: NonNullable<Shape<TextParagraph>['line']>): FramedShape<TextParagraph> => ({
  box: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 },
  shape: { kind: 'shape', geometry: 'line', width: x1 - x0, height: y1 - y0, line: outline },
});

/** The row's height: as stored, or (stored as 0, which PowerPoint grows to the text) its cells' lines at 1.2 times their size. */
function rowHeight(tr: XmlElement, texts: TextParagraph[][], margins: number): number {
  const stored = emu(attr(tr, 'h'));
  const needed = Math.max(0, ...texts.map((ps) => ps.reduce((h, p) => h + Math.max(p.size, ...p.runs.map((r) => r.size)) * 1.2, 0))) + margins;
  return Math.max(stored, needed);
}

/** The table's cells as shapes in slide space, at most `most` of them. */
export function tableShapes(frame: XmlElement, theme: Theme, textSize: number, most: number): FramedShape<TextParagraph>[] {
  const tbl = descendant(child(frame, 'graphic'), 'tbl');
  if (!tbl) return [];
  const xfrm = child(frame, 'xfrm');
  const [x0, y0] = [emu(attr(child(xfrm, 'off'), 'x')), emu(attr(child(xfrm, 'off'), 'y'))];
  const widths = children(child(tbl, 'tblGrid'), 'gridCol').slice(0, GRID_MAX).map((c) => emu(attr(c, 'w')));
  const xs = widths.reduce<number[]>((acc, w) => [...acc, acc.at(-1)! + w], [x0]);
  const rows = children(tbl, 'tr').slice(0, GRID_MAX);
  const defaults = { font: theme.minorFont ?? 'Calibri', size: textSize, color: '000000' };
  // The table's text against one budget (a 200 × 200 grid of full cells would be 40,000 bodies).
  let left = TABLE_TEXT_MAX;
  const textOf = (tc: XmlElement) => {
    const body = left > 0 ? readTextBody(child(tc, 'txBody'), theme, defaults, Math.min(4_096, left)) : [];
    for (const p of body) for (const r of p.runs) left -= r.text.length;
    return body;
  };
  const texts = rows.map((tr) => children(tr, 'tc').slice(0, widths.length).map(textOf));
  const ys = rows.reduce<number[]>((acc, tr, r) => [...acc, acc.at(-1)! + rowHeight(tr, texts[r]!, 7.2)], [y0]);
  const out: FramedShape<TextParagraph>[] = [];
  rows.forEach((tr, r) => {
    children(tr, 'tc').slice(0, widths.length).forEach((tc, c) => {
      if (out.length >= most || attr(tc, 'hMerge') === '1' || attr(tc, 'vMerge') === '1') return;
      const span = (name: string, max: number) => Math.max(1, Math.min(Number(attr(tc, name) ?? 1) || 1, max));
      const [right, bottom] = [c + span('gridSpan', widths.length - c), r + span('rowSpan', rows.length - r)];
      const [cx0, cy0, cx1, cy1] = [xs[c]!, ys[r]!, xs[right]!, ys[bottom]!];
      const tcPr = child(tc, 'tcPr');
      const fill = child(tcPr, 'solidFill') ? colorIn(child(tcPr, 'solidFill'), theme) : undefined;
      const blocks = texts[r]![c]!;
      const anchor = attr(tcPr, 'anchor');
      const insets = { left: emu(attr(tcPr, 'marL'), 91_440), right: emu(attr(tcPr, 'marR'), 91_440), top: emu(attr(tcPr, 'marT'), 45_720), bottom: emu(attr(tcPr, 'marB'), 45_720) };
      const cell: Shape<TextParagraph> = { kind: 'shape', geometry: 'rect', width: cx1 - cx0, height: cy1 - cy0, ...(fill ? { fill } : {}), textInsets: insets, textAnchor: anchor === 'ctr' ? 'center' : anchor === 'b' ? 'bottom' : 'top', ...(blocks.length ? { blocks } : {}) };
      out.push({ box: { x: cx0, y: cy0, width: cx1 - cx0, height: cy1 - cy0 }, shape: cell });
      const sides: [string, number, number, number, number][] = [['lnT', cx0, cy0, cx1, cy0], ['lnB', cx0, cy1, cx1, cy1], ['lnL', cx0, cy0, cx0, cy1], ['lnR', cx1, cy0, cx1, cy1]];
      for (const [name, ax, ay, bx, by] of sides) {
        const outline = border(child(tcPr, name), theme);
        if (outline && out.length < most) out.push(line(ax, ay, bx, by, outline));
      }
    });
  });
  return out;
}
