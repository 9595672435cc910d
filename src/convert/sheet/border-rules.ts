/**
 * A cell border as the filled boxes that draw it, at Excel's widths (thin is a pixel): solid
 * styles as one rule, double as two thin rules with a thin gap, dotted, dashed and dash-dot styles
 * as runs of short rules in Excel's patterns (in points at 100%, scaled with the page).
 */
import type { FilledBox } from '../../contracts/display';
import type { BorderSide } from './model';

/** A border's drawn width in points at 100%. */
export const BORDER_WIDTH: Record<BorderSide['style'], number> = {
  hair: 0.5, thin: 0.75, dotted: 0.75, dashed: 0.75, dashDot: 0.75, dashDotDot: 0.75, double: 2.25,
  medium: 1.5, mediumDashed: 1.5, mediumDashDot: 1.5, mediumDashDotDot: 1.5, slantDashDot: 1.5, thick: 2.25,
};

/** On and off lengths (points at 100%) of the patterned styles, repeated along the edge. */
const PATTERN: Partial<Record<BorderSide['style'], number[]>> = {
  dotted: [0.75, 0.75],
  dashed: [2.25, 0.75],
  mediumDashed: [6.75, 2.25],
  dashDot: [6.75, 2.25, 2.25, 2.25],
  mediumDashDot: [6.75, 2.25, 2.25, 2.25],
  slantDashDot: [6.75, 2.25, 2.25, 2.25],
  dashDotDot: [6.75, 2.25, 2.25, 2.25, 2.25, 2.25],
  mediumDashDotDot: [6.75, 2.25, 2.25, 2.25, 2.25, 2.25],
};

/** Pieces one edge is drawn in at most (a page-wide merged cell's dotted border). */
const PIECES_MAX = 400;

/** The boxes of one border along an edge: horizontal from (a, at) to (b, at), or vertical from (at, a) to (at, b). */
export function borderRule(side: BorderSide, horizontal: boolean, at: number, a: number, b: number, zoom: number): FilledBox[] {
  const width = BORDER_WIDTH[side.style] * zoom;
  const color = side.color ? { color: side.color } : {};
  const rule = (from: number, to: number, offset: number, w: number): FilledBox =>
    horizontal ? { kind: 'fill', x0: from, y0: at + offset - w / 2, x1: to, y1: at + offset + w / 2, ...color } : { kind: 'fill', x0: at + offset - w / 2, y0: from, x1: at + offset + w / 2, y1: to, ...color };
  if (side.style === 'double') {
    const line = width / 3;
    return [rule(a, b, -line, line), rule(a, b, line, line)];
  }
  const pattern = PATTERN[side.style];
  if (!pattern) return [rule(a, b, 0, width)];
  const out: FilledBox[] = [];
  let pos = a;
  for (let i = 0; pos < b && out.length < PIECES_MAX; i++) {
    const length = pattern[i % pattern.length]! * zoom;
    if (i % 2 === 0) out.push(rule(pos, Math.min(b, pos + length), 0, width));
    pos += length;
  }
  return out;
}
