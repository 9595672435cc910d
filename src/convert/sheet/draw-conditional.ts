/**
 * Conditional formatting on a printed page (conditional.ts tells each cell's look): the cell's
 * style with the differential format laid over it (fill, font colour and faces, borders; a number
 * format's colour still wins over the font colour, as in Excel), and the data bar or icon drawn in
 * the cell: a bar from the left padding, 2 px short of the top and foot, as long as the value's
 * share; an icon as a small square of its colour at the left.
 */
import type { FilledBox } from '../../contracts/display';
import { PADDING } from './cell-text';
import type { ConditionalLook } from './conditional';
import type { CellStyle } from './model';

/** The cell's style as the look changes it (the style itself when the look sets nothing of it). */
export function lookStyle(style: CellStyle, look: ConditionalLook): CellStyle {
  const font = { ...style.font };
  for (const k of ['color', 'bold', 'italic', 'underline', 'strike'] as const) if (look[k] !== undefined) (font as Record<string, unknown>)[k] = look[k];
  return { ...style, font, ...(look.fill ? { fill: look.fill } : {}), ...(look.borders ? { borders: { ...style.borders, ...look.borders } } : {}) };
}

/** Icon colours from the lowest value's icon up, by the set's kind. */
function iconColor(set: string, index: number, count: number): string {
  if (/Gray/i.test(set)) return ['404040', '808080', 'A6A6A6', 'C0C0C0', 'D9D9D9'][count - 1 - index] ?? '808080';
  if (/Rating|Quarters|Boxes/i.test(set)) return ['D9D9D9', 'A6CAF0', '6FA8DC', '3D85C6', '1F4E79'][Math.round((index * 4) / Math.max(1, count - 1))]!;
  const ramp = count === 3 ? ['E0452F', 'F9C032', '4AA564'] : count === 4 ? ['E0452F', 'F9C032', 'B0C651', '4AA564'] : ['E0452F', 'F79646', 'F9C032', 'B0C651', '4AA564'];
  return ramp[index] ?? '808080';
}

/** The data bar and icon of a cell's look, in the cell's box (page coordinates). */
export function lookBoxes(look: ConditionalLook, x0: number, y0: number, x1: number, y1: number, zoom: number): FilledBox[] {
  const out: FilledBox[] = [];
  const pad = PADDING * zoom;
  const inset = 1.5 * zoom;
  if (look.dataBar && y1 - y0 > 2 * inset) {
    const room = Math.max(0, x1 - x0 - 2 * pad);
    const [from, to] = [x0 + pad + room * look.dataBar.from, x0 + pad + room * look.dataBar.to];
    if (to > from) out.push({ kind: 'fill', x0: from, y0: y0 + inset, x1: to, y1: y1 - inset, color: look.dataBar.color });
  }
  if (look.icon) {
    const size = Math.min(y1 - y0 - 2 * inset, 8 * zoom, x1 - x0 - 2 * pad);
    if (size > 0) {
      const top = (y0 + y1 - size) / 2;
      out.push({ kind: 'fill', x0: x0 + pad, y0: top, x1: x0 + pad + size, y1: top + size, color: iconColor(look.icon.set, look.icon.index, look.icon.count) });
    }
  }
  return out;
}
