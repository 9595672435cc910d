/**
 * The Word document's pages finished by the one PDF finisher (pdf/finish/): with its links (to URIs
 * and to bookmarks), the text our own engine wrote straight into the content streams
 * (paint/page-text.ts), the pictures passed through (picture-passthrough.ts) and the outline.
 */
import type * as Mupdf from 'mupdf';
import { finishPdf, type PageLink, type PlaceLink } from '../../../pdf/finish';
import type { PicturePassThrough } from './picture-passthrough';
import type { DocumentOutline } from './outline';
import type { PageText } from '../../../paint/page-text';

export function finish(mupdf: typeof Mupdf, written: Mupdf.Buffer, links: PageLink[], pictures: PicturePassThrough, outline?: DocumentOutline, within: PlaceLink[] = [], pageText?: PageText, fontBytes?: (font: Mupdf.Font) => Uint8Array | undefined): Uint8Array[] {
  return finishPdf(mupdf, written, {
    links,
    places: within,
    rawStreams: pictures.deferred,
    write: (pdf) => {
      const own = pageText?.writeInto(pdf, (font) => fontBytes?.(font));
      pictures.replaceIn(pdf);
      outline?.write(pdf);
      return own;
    },
  });
}
