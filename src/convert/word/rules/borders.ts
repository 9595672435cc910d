/** Paragraph borders: the width one is drawn with, and which paragraphs share one bordered box (both layout paths). */
import type { Block, Border, Paragraph } from '../model/index';

/** The width a border is drawn with: a double one is two lines and the gap between them. */
export const borderWidth = (b: Border): number => (b.style === 'double' ? Math.max(b.width * 3, 1.5) : Math.max(b.width, 0.5));

const sameBorder = (x: Border | undefined, y: Border | undefined): boolean =>
  x === y || (!!x && !!y && x.style === y.style && x.width === y.width && x.color === y.color && (x.space ?? 0) === (y.space ?? 0));

/** Whether `other` is a paragraph of `p`'s border group: both bordered alike, at the same indents. */
export function inBorderGroup(p: Paragraph, other: Block | undefined): boolean {
  const a = p.props;
  if (!a.borders || other?.kind !== 'paragraph' || !other.props.borders) return false;
  const o = other.props;
  if ((a.indentLeft ?? 0) !== (o.indentLeft ?? 0) || (a.indentRight ?? 0) !== (o.indentRight ?? 0) || !!a.bidi !== !!o.bidi) return false;
  return (['top', 'bottom', 'left', 'right', 'between'] as const).every((side) => sameBorder(a.borders![side], o.borders![side]));
}
