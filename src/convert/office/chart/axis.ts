/** A chart's value axis: its scale (as Excel's default) and its labels beside the rasterised plot (chart.ts). */
import type { Paragraph, RunStyle, Table } from '../../model/index';
import type { Shape } from './chart';

/**
 * The value axis as Excel scales it by default: the data's range with 5% of headroom beyond each
 * end that is not zero (none with `exact`: a 100% stacked chart ends at 100), then a round step
 * (1, 2 or 5 × 10^n) giving at most ten intervals, the ends rounded out to it. Data up to 5 gets an
 * axis 0-6 in steps of 1, as Word and LibreOffice draw it.
 */
export function niceScale(lo: number, hi: number, exact = false): { min: number; max: number; step: number } {
  if (hi <= lo) hi = lo + 1;
  const room = exact ? 0 : (hi - lo) * 0.05;
  const top = hi > 0 ? hi + room : hi;
  const bottom = lo < 0 ? lo - room : lo;
  const raw = (top - bottom) / 10;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = ([1, 2, 5, 10].find((m) => m * mag >= raw - 1e-12) ?? 10) * mag;
  return { min: Math.floor(bottom / step + 1e-9) * step, max: Math.ceil(top / step - 1e-9) * step, step };
}

/** A shape moved `dx` points to the right. */
export function shifted(s: Shape, dx: number): Shape {
  return s.t === 'text' ? { ...s, x: s.x + dx } : { ...s, pts: s.pts.map(([x, y]): [number, number] => [x + dx, y]) };
}

/**
 * The plot image with its side labels in a borderless column left of it: each label a right-aligned
 * paragraph whose baseline is at the label's baseline. Its line is exact and at most 12 pt (the
 * layout sets an exact line's baseline at 0.8 of it), the labels' spacing made up by space after.
 */
export function labelledPlot(labels: Extract<Shape, { t: 'text' }>[], labelW: number, image: Paragraph, imageW: number, style: RunStyle): Table {
  const pitch = labels.length > 1 ? (labels[labels.length - 1]!.y - labels[0]!.y) / (labels.length - 1) : 12;
  const line = Math.max(1, Math.min(12, pitch));
  const paragraphs = labels.map((t, i): Paragraph => ({
    kind: 'paragraph',
    props: { align: 'right', spaceBefore: i === 0 ? Math.max(0, t.y - 0.8 * line) : 0, spaceAfter: i < labels.length - 1 ? Math.max(0, pitch - line) : 0, line: { rule: 'exact', value: line }, markStyle: { font: style.font, size: 9 } },
    inlines: [{ kind: 'text', text: t.text, style }],
  }));
  const none = { top: 0, right: 0, bottom: 0, left: 0 };
  return { kind: 'table', grid: [labelW, imageW], rows: [{ cells: [{ blocks: paragraphs, gridSpan: 1, borders: {}, margins: { ...none, right: 2 }, width: labelW }, { blocks: [image], gridSpan: 1, borders: {}, margins: none, width: imageW }] }] };
}

