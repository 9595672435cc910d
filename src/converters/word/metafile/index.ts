import { emfToSvg, isEmf } from './emf';
import { wmfToSvg } from './wmf';

/** Content types our readers give metafiles. */
export const METAFILE = /^image\/(x-)?(emf|wmf)$/;

/**
 * An EMF or WMF picture as an SVG document (viewBox from the metafile's frame, to be stretched
 * over the picture's box), or undefined when the bytes cannot be read. Never throws.
 */
export function metafileToSvg(bytes: Uint8Array, contentType: string): string | undefined {
  if (!METAFILE.test(contentType)) return undefined;
  try {
    // Readers sometimes label by the container, not the bytes: sniff.
    return isEmf(bytes) ? emfToSvg(bytes) : wmfToSvg(bytes);
  } catch {
    return undefined;
  }
}
