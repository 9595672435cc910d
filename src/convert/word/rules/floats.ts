/**
 * Floating objects: which are drawn apart from the text (floatsApart), where one the text goes
 * around sits in its column, as far as MuPDF's flow allows (layout/inline-html.ts), and whether
 * the text goes below it (our own pager, flow/paginate.ts, too).
 */
import type { FloatingPlacement, Inline } from '../model/index';
import { METAFILE } from '../../../paint/metafile';

/** Image types MuPDF's HTML engine decodes; EMF and WMF get a placeholder (ctx.metafiles), others keep their space blank. */
export const DRAWABLE = /^image\/(png|jpeg|jpg|gif|bmp|tiff|jp2|jpx)$/;

/**
 * Whether a floating object is drawn where it floats, taking no room in the text: shapes; pictures
 * in front of or behind the text (and all floating pictures where `outOfFlow`: headers and
 * footers); text boxes placed on the page.
 */
export function floatsApart(it: Inline, outOfFlow = false): boolean {
  if (!('floating' in it) || !it.floating) return false;
  if (it.kind === 'shape') return true;
  if (it.kind === 'image') return (DRAWABLE.test(it.contentType) || METAFILE.test(it.contentType)) && (outOfFlow || it.floating.wrap === 'inFront' || it.floating.wrap === 'behind');
  // Placed on the page rather than from its paragraph (a cover page's title and author boxes).
  return it.kind === 'textbox' && (it.floating.relativeY === 'page' || it.floating.relativeY === 'margin') && it.floating.wrap !== 'topAndBottom';
}

/** The column a floating object is placed in: its width, and its left edge on the page (points). */
interface Column {
  columnWidth: number;
  columnLeft?: number;
}

/** Room beside a floating object narrower than this (points, its 9 pt wrap distance counted) holds no text. */
const NO_ROOM_BESIDE = 72;
const WRAP_DISTANCE = 9;

/** Where a floating object starts within the column: its alignment, or its offset from the page, margin or column. */
export function floatOffset(f: FloatingPlacement, width: number, column: Column): number {
  const room = column.columnWidth - width;
  if (room <= 0) return 0;
  // A group's member: the group is aligned, the member offset in it.
  const groupRoom = f.inGroup ? column.columnWidth - f.inGroup.width : room;
  const x = (f.inGroup?.dx ?? 0) + (f.alignX === 'right' ? groupRoom : f.alignX === 'center' ? groupRoom / 2 : f.alignX === 'left' ? 0 : f.relativeX === 'page' ? f.x - (column.columnLeft ?? 72) : f.x);
  return Math.max(0, Math.min(room, x));
}

/**
 * Whether the text goes below a floating object, not beside it: it wraps around the object
 * (square, tight, top and bottom) and, but for top and bottom, there is no room beside it. MuPDF
 * has no floats: every such object is a block in the flow here, the text after it below it. (Where
 * Word has room, its text runs beside the object; here it goes below it all the same.)
 */
export function textGoesBelow(f: FloatingPlacement, width: number, column: Column): boolean {
  if (f.wrap === 'topAndBottom') return true;
  if (f.wrap !== 'square' && f.wrap !== 'tight') return false;
  const left = floatOffset(f, width, column);
  return Math.max(left, column.columnWidth - left - width) - WRAP_DISTANCE < NO_ROOM_BESIDE;
}

/** A floating object's offset below its anchor paragraph when placed from the paragraph or line (points), else 0. */
export function offsetBelowAnchor(f: FloatingPlacement): number {
  return (f.relativeY === 'paragraph' || f.relativeY === 'line') && f.y > 0 && !f.inGroup ? f.y : 0;
}
