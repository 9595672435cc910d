/**
 * Paragraph borders: the width one is drawn with, which paragraphs share one bordered box, the box
 * a bordered paragraph (or a group of like ones) takes, and its edges as rectangles to fill.
 */
import { borderShows, type Border, type ParagraphStyle } from './model';
import type { Line } from './paragraph-lines';
import type { PlacedLine } from './paragraph-stack';

/** A filled rectangle of a page (cell shading, a border), in the text area's coordinates. */
export interface PlacedRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  color: string;
}

/** The width a border is drawn with: a double one is two lines and the gap between them. */
export const borderWidth = (b: Border): number => (b.style === 'double' ? Math.max(b.width * 3, 1.5) : Math.max(b.width, 0.5));

const sameBorder = (x: Border | undefined, y: Border | undefined): boolean =>
  x === y || (!!x && !!y && x.style === y.style && x.width === y.width && x.color === y.color && (x.space ?? 0) === (y.space ?? 0));

/** A paragraph as borders see it (any format's: Word's HTML path asks too). */
type Bordered = { kind: 'paragraph'; props: Pick<ParagraphStyle, 'borders' | 'indentLeft' | 'indentRight' | 'bidi' | 'firstLine'> };
type Neighbour = Bordered | { kind: 'table' } | undefined;

/** Whether `other` is a paragraph of `p`'s border group: both bordered alike, at the same indents. */
export function inBorderGroup(p: Bordered, other: Neighbour): boolean {
  const a = p.props;
  if (!a.borders || other?.kind !== 'paragraph' || !other.props.borders) return false;
  const o = other.props;
  if ((a.indentLeft ?? 0) !== (o.indentLeft ?? 0) || (a.indentRight ?? 0) !== (o.indentRight ?? 0) || !!a.bidi !== !!o.bidi) return false;
  return (['top', 'bottom', 'left', 'right', 'between'] as const).every((side) => sameBorder(a.borders![side], o.borders![side]));
}

/** A bordered paragraph's box: the borders it draws, the room they take above and below its lines, its last line. */
export interface BorderBox {
  top?: Border;
  bottom?: Border;
  left?: Border;
  right?: Border;
  /** Room above the first line (the top border and its distance, and inside a group the spacing too) and below the last. */
  above: number;
  below: number;
  /** Its left and right edges from the column's left (a side border's outer edge, or the column's). */
  x0: number;
  x1: number;
  last: Line;
  /** It continues the box of the paragraph before (a border group): no space above it. */
  joinsPrev: boolean;
}

/**
 * The box a paragraph's borders draw, as Word's HTML path draws it: a top and bottom border their
 * distance (w:space) off the text, inside a group of like paragraphs the between border in place
 * of the top one and the spacing inside the box; side borders their distance and width outside
 * the text (the hanging first line's start on the left). Undefined when it shows none. `gap` is
 * the spacing above it, which a grouped paragraph takes inside its box.
 */
export function borderBox(p: Bordered, prev: Neighbour, next: Neighbour, width: number, gap: number, last: Line): BorderBox | undefined {
  const b = p.props.borders;
  if (!b) return undefined;
  const joinsPrev = inBorderGroup(p, prev);
  const joinsNext = inBorderGroup(p, next);
  const top = joinsPrev ? b.between : b.top;
  const bottom = joinsNext ? undefined : b.bottom;
  const left = b.left;
  const right = b.right;
  if (![top, bottom, left, right].some(borderShows)) return undefined;
  const band = (border: Border | undefined) => (borderShows(border) ? borderWidth(border) + (border.space ?? 0) : 0);
  const indentLeft = p.props.indentLeft ?? 0;
  const outermost = Math.min(indentLeft, indentLeft + (p.props.firstLine ?? 0));
  const x0 = borderShows(left) ? outermost - (left.space ?? 0) - borderWidth(left) : 0;
  const x1 = borderShows(right) ? width - (p.props.indentRight ?? 0) + (right.space ?? 0) + borderWidth(right) : width;
  return { top, bottom, left, right, above: band(top) + (joinsPrev ? gap : 0), below: band(bottom), x0, x1, last, joinsPrev };
}

/** The rectangles of the bordered paragraphs' parts on a page: each part's side borders, the first part's top, the last's bottom. */
export function borderRects(lines: PlacedLine[]): PlacedRect[] {
  const rects: PlacedRect[] = [];
  for (let i = 0; i < lines.length; ) {
    const box = lines[i]!.framed;
    let j = i + 1;
    while (j < lines.length && lines[j]!.framed === box) j++;
    if (box) {
      const first = lines[i]!;
      const lastLine = lines[j - 1]!;
      const opens = !!first.opens;
      const closes = lastLine.line === box.last;
      const y0 = first.y - (opens ? box.above : 0);
      const y1 = lastLine.y + lastLine.line.height + (closes ? box.below : 0);
      if (opens && borderShows(box.top)) rects.push(...band(box.top, { x0: box.x0, y0, x1: box.x1, y1: y0 + borderWidth(box.top) }, 'y'));
      if (closes && borderShows(box.bottom)) rects.push(...band(box.bottom, { x0: box.x0, y0: y1 - borderWidth(box.bottom), x1: box.x1, y1 }, 'y'));
      if (borderShows(box.left)) rects.push(...band(box.left, { x0: box.x0, y0, x1: box.x0 + borderWidth(box.left), y1 }, 'x'));
      if (borderShows(box.right)) rects.push(...band(box.right, { x0: box.x1 - borderWidth(box.right), y0, x1: box.x1, y1 }, 'x'));
    }
    i = j;
  }
  return rects;
}

/** A border's band as drawn: one rectangle, or for a double border two lines a line apart (its thirds across `axis`). */
function band(border: Border, r: Omit<PlacedRect, 'color'>, axis: 'x' | 'y'): PlacedRect[] {
  const color = border.color && border.color !== 'auto' ? border.color : '000000';
  if (border.style !== 'double') return [{ ...r, color }];
  const [a0, a1] = axis === 'y' ? [r.y0, r.y1] : [r.x0, r.x1];
  const third = (a1 - a0) / 3;
  const part = (from: number, to: number): PlacedRect => (axis === 'y' ? { ...r, y0: from, y1: to, color } : { ...r, x0: from, x1: to, color });
  return [part(a0, a0 + third), part(a1 - third, a1)];
}
