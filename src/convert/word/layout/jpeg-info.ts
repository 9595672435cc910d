/**
 * What a PDF image dictionary needs to show a baseline or progressive JPEG as it is (DCTDecode):
 * its size and colour components, read by the one JPEG header reader (engines/image-header.ts).
 * Undefined for what a PDF reader would show otherwise than Word does (CMYK and YCCK, whose Adobe
 * marker decides inversion; 12-bit samples; arithmetic coding) or a file whose markers do not
 * read: MuPDF handles those.
 */
import { jpegHeader } from '../../../codecs/image-header';

export interface JpegInfo {
  width: number;
  height: number;
  components: 1 | 3;
}

export function jpegInfo(b: Uint8Array): JpegInfo | undefined {
  const header = jpegHeader(b);
  if (!header?.plain || header.components === 4) return undefined;
  return { width: header.width, height: header.height, components: header.components };
}
