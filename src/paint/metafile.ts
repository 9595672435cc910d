import { isEmf, playEmf } from './emf';
import type { Painter } from './painter';
import { SvgPainter } from './svg-painter';
import { playWmf } from './wmf';

export type { Painter } from './painter';

/** Content types our readers give metafiles. */
export const METAFILE = /^image\/(x-)?(emf|wmf)$/;

/**
 * Plays an EMF or WMF picture onto a painter (its frame first, through `begin`); false when the
 * bytes cannot be read. Never throws: a malformed record ends the drawing, and a painter that
 * throws ends it too (what was drawn stays).
 */
export function playMetafile(bytes: Uint8Array, contentType: string, painter: Painter): boolean {
  if (!METAFILE.test(contentType)) return false;
  try {
    // Readers sometimes label by the container, not the bytes: sniff.
    return isEmf(bytes) ? playEmf(bytes, painter) : playWmf(bytes, painter);
  } catch {
    return false;
  }
}

/**
 * An EMF or WMF picture as an SVG document (viewBox from the metafile's frame, to be stretched
 * over the picture's box), or undefined when the bytes cannot be read. Never throws.
 */
export function metafileToSvg(bytes: Uint8Array, contentType: string): string | undefined {
  const painter = new SvgPainter();
  return playMetafile(bytes, contentType, painter) ? painter.svg() : undefined;
}
