/** Floats in their column: where one starts, and whether the text goes below it rather than beside it. */
import type { FloatAnchor } from '../blocks/model';

/** The column a floating object is placed in: its width, and its left edge on the page (points). */
interface Column {
  columnWidth: number;
  columnLeft?: number;
}

/** Room beside a floating object narrower than this (points, its 9 pt wrap distance counted) holds no text. */
const NO_ROOM_BESIDE = 72;
const WRAP_DISTANCE = 9;

/** Where a floating object starts within the column: its alignment, or its offset from the page, margin or column. */
export function floatOffset(f: FloatAnchor, width: number, column: Column): number {
  const room = column.columnWidth - width;
  if (room <= 0) return 0;
  // A group's member: the group is aligned, the member offset in it.
  const groupRoom = f.inGroup ? column.columnWidth - f.inGroup.width : room;
  const x = (f.inGroup?.dx ?? 0) + (f.alignX === 'right' ? groupRoom : f.alignX === 'center' ? groupRoom / 2 : f.alignX === 'left' ? 0 : f.relativeX === 'page' ? f.x - (column.columnLeft ?? 72) : f.x);
  return Math.max(0, Math.min(room, x));
}

/**
 * Whether the text goes below a floating object, not beside it: it wraps around the object
 * (square, tight, top and bottom) and, but for top and bottom, there is no room beside it. (Where
 * Word has room, its text runs beside the object; here it goes below it all the same.)
 */
export function textGoesBelow(f: FloatAnchor, width: number, column: Column): boolean {
  if (f.wrap === 'topAndBottom') return true;
  if (f.wrap !== 'square' && f.wrap !== 'tight') return false;
  const left = floatOffset(f, width, column);
  return Math.max(left, column.columnWidth - left - width) - WRAP_DISTANCE < NO_ROOM_BESIDE;
}
