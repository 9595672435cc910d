/**
 * HTML → PDF, a library: bytes in, PDF chunks out. The page is decoded and cleaned
 * (html-source.ts), prepared on a DOM (prepare.ts), laid out by MuPDF's HTML engine on the
 * document's own sheet as Chromium prints it (lay-out.ts), and written with the @page decor
 * (html-page-decor.ts, html-pdf-writer.ts). Nothing is fetched: MuPDF in WASM has no network and
 * nothing here requests a URL; only data: pictures and fonts show. A page past a limit throws
 * LimitExceeded (lib/limits.ts); anything else it throws means the page could not be laid out.
 */
import type * as Mupdf from 'mupdf';
import type { FontFiles } from '../../fonts/catalog';
import type { FaceSource } from '../../contracts/faces';
import { installEmbeddedFaces, twinFacesAskedBy } from './html-fonts';
import { withDrawablePictures } from './html-images';
import type { Params } from './html-page-box';
import { pageDecor } from './html-page-decor';
import { writePdf } from './html-pdf-writer';
import { decodeHtml } from './html-source';
import { fixedOverlay, layOutWithHeaders, type LayoutNote } from './lay-out';
import { DEFAULT_PAGE, prepareHtml } from './prepare';

export { HTML_ELEMENTS_MAX, prepareHtml } from './prepare';
export type { Params as HtmlPage } from './html-page-box';

export interface HtmlConvertOptions {
  mupdf: typeof Mupdf;
  fonts: FontFiles;
  /** Page size, orientation and margins where the page's own @page rules do not say. */
  page?: Params;
  /** Hears of what the layout did differently from Chromium's print. */
  onNote?: LayoutNote;
}

/** An HTML page's bytes → the PDF, in the chunks it is written in. */
export function convertHtmlToPdf(bytes: Uint8Array, options: HtmlConvertOptions): Promise<Uint8Array[]> {
  return convertDecoded(decodeHtml(bytes), options);
}

export interface HtmlLoadingOptions extends Omit<HtmlConvertOptions, 'fonts'> {
  /** Where the faces come from (an engine Worker's FONTS assets): those the page names are loaded before layout. */
  faces: FaceSource;
}

/** convertHtmlToPdf for a converter whose faces are fetched: the page is decoded once, the twins it names loaded, then laid out. */
export async function convertHtmlToPdfLoadingFaces(bytes: Uint8Array, { faces, ...options }: HtmlLoadingOptions): Promise<Uint8Array[]> {
  const text = decodeHtml(bytes);
  return convertDecoded(text, { ...options, fonts: await faces.load(twinFacesAskedBy(text)) });
}

async function convertDecoded(text: string, { mupdf, fonts, page = DEFAULT_PAGE, onNote = () => {} }: HtmlConvertOptions): Promise<Uint8Array[]> {
  let source: Mupdf.Document | undefined;
  let uninstallFaces = () => {};
  try {
    const prepared = prepareHtml(await withDrawablePictures(text), page);
    const { pages, box } = prepared;
    const { w, h, margins } = box;
    const faces = installEmbeddedFaces(mupdf, box.faces, fonts);
    uninstallFaces = faces.uninstall;
    const { doc, scale } = layOutWithHeaders(mupdf, prepared, onNote);
    source = doc;
    const decor = pageDecor(mupdf, pages, { w, h, margins }, faces);
    const overlay = prepared.fixedHtml ? fixedOverlay(mupdf, prepared.fixedHtml, box, scale) : undefined;
    const release = () => {
      source?.destroy();
      source = undefined;
    };
    return writePdf(mupdf, source, { w, h, scale, decor, rounded: prepared.rounded, overlay }, release);
  } finally {
    source?.destroy();
    uninstallFaces();
    mupdf.setUserCSS('');
  }
}
