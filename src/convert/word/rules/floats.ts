/**
 * Word's floating objects: which are drawn apart from the text (floatsApart), and how far below its
 * anchor one placed from its paragraph sits; where one sits in its column and whether the text goes
 * below it are layout's (layout/pages/floats.ts), which the HTML path asks too.
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

/** A floating object's offset below its anchor paragraph when placed from the paragraph or line (points), else 0. */
export function offsetBelowAnchor(f: FloatingPlacement): number {
  return (f.relativeY === 'paragraph' || f.relativeY === 'line') && f.y > 0 && !f.inGroup ? f.y : 0;
}
