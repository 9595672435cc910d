/**
 * The one PDF finisher every converter ends with. A converter draws its pages with MuPDF's
 * DocumentWriter and hands the written bytes here with what a drawing cannot carry; this opens
 * them once and adds the links (external, and to a page and height), the title, whatever the
 * format writes itself (text written straight into content streams, pictures passed through,
 * the outline), subsets the fonts with ToUnicode maps that extract as the text reads, deflates
 * every stream with native zlib and writes the objects the pages reach (pdf/rewrite.ts).
 */
import type * as Mupdf from 'mupdf';
import { writeReachable } from '../rewrite';
import { subsetPageFonts } from './font-subsets';
import { deflateUnfilteredStream } from './stream-deflate';
import { hyphensAsHyphens, letterToUnicode, pageFonts, takeToUnicode } from './to-unicode';

/** A link on page `page` (0-based, PDF points, y down as MuPDF draws) to a URI. */
export interface PageLink {
  page: number;
  rect: Mupdf.Rect;
  uri: string;
}

/** A link to a place in the document: a page (0-based) and the height to show at the top. */
export interface PlaceLink {
  page: number;
  rect: Mupdf.Rect;
  to: { page: number; y: number };
}

/** What the format wrote itself: fonts already subset (by object number) and the content streams they are shown in. */
export interface OwnText {
  fonts: Set<number>;
  streams: Set<number>;
}

export interface FinishJob {
  links?: readonly PageLink[];
  places?: readonly PlaceLink[];
  title?: string;
  /** The format's own writes into the opened PDF, before the fonts are subset. */
  write?(pdf: Mupdf.PDFDocument): OwnText | undefined;
  /** Encoded stream data by object number, written in place of the document's (pictures kept out of MuPDF's heap). */
  rawStreams?: ReadonlyMap<number, Uint8Array>;
}

/** zlib level of the streams deflated here: MuPDF's effort 45 is zlib's level 4 (effort × 9 / 100). */
const STREAM_DEFLATE_LEVEL = 4;

/** The written pages finished as described above, in the chunks the output is written in. */
export function finishPdf(mupdf: typeof Mupdf, written: Mupdf.Buffer | Uint8Array, job: FinishJob = {}): Uint8Array[] {
  const pdf = mupdf.Document.openDocument(written, 'application/pdf') as Mupdf.PDFDocument;
  try {
    addLinks(pdf, job);
    if (job.title) pdf.setMetaData('info:Title', job.title);
    const own = job.write?.(pdf);
    subsetFonts(pdf, own);
    // Deflate is a fifth of a long document's time: zlib's level 4 natively (MuPDF's effort 45 was
    // measured 10% faster than its default for files 4-7% larger: stress008 726 → 780 KB).
    deflateUnfiltered(pdf);
    // Written by us, not by MuPDF's save (pdf/rewrite.ts): every stream is deflated already, the
    // objects no page reaches are dropped, no output buffer doubles in the heap, and raw streams go
    // from the caller's bytes to the output.
    return writeReachable(pdf, { rawStreams: job.rawStreams });
  } finally {
    pdf.destroy();
  }
}

/** Each page loaded once for all its links (a table of contents has hundreds). */
function addLinks(pdf: Mupdf.PDFDocument, { links = [], places = [] }: FinishJob): void {
  const all = [...links, ...places.map((l) => ({ page: l.page, rect: l.rect, uri: pdf.formatLinkURI({ type: 'XYZ', chapter: 0, page: l.to.page, x: 0, y: l.to.y, width: 0, height: 0, zoom: 0 }) }))];
  const byPage = new Map<number, PageLink[]>();
  for (const link of all) {
    const onPage = byPage.get(link.page);
    if (onPage) onPage.push(link);
    else byPage.set(link.page, [link]);
  }
  for (const [index, pageLinks] of byPage) {
    const page = pdf.loadPage(index);
    for (const link of pageLinks) {
      try {
        page.createLink(link.rect, link.uri).destroy();
      } catch {
        // A scheme a PDF link cannot carry (javascript:, a file path): the text stays, unlinked.
      }
    }
    page.destroy();
  }
}

/**
 * Only the glyphs shown stay in each face (a whole face is 60-600 KB). Our subsetter
 * (font-subsets.ts) reads the glyphs off the content streams; where it cannot account for some
 * content, MuPDF's does it. That one loads every font, and loading one turns its ToUnicode map into
 * a lookup table of 65,536 entries (a tenth of a short document's time): the maps are taken off
 * for it. The format's own text (`own`) is written subset already, its maps listing only its glyphs.
 */
function subsetFonts(pdf: Mupdf.PDFDocument, own: OwnText | undefined): void {
  const fonts = pageFonts(pdf).filter((font) => !own?.fonts.has(font.asIndirect()));
  const shown = subsetPageFonts(pdf, own?.streams);
  if (!shown) {
    const maps = takeToUnicode(fonts);
    pdf.subsetFonts();
    for (const [font, map] of maps) font.put('ToUnicode', map);
  }
  letterToUnicode(fonts, shown);
  // Where ours subset, letterToUnicode rewrote every page font's map (soft hyphens mended with the
  // rest); after MuPDF's, the maps it left alone are mended here (a walk of every object: only then).
  if (!shown) hyphensAsHyphens(pdf);
}

/**
 * Deflates every stream still unfiltered (the content streams MuPDF's device wrote, the subset
 * faces, the ToUnicode maps, ICC profiles) with the runtime's native zlib, so the output holds them
 * compressed: a quarter of a shape-heavy document's time went to the save's deflate in WASM.
 */
function deflateUnfiltered(pdf: Mupdf.PDFDocument): void {
  const count = pdf.countObjects();
  for (let num = 1; num < count; num++) {
    const obj = pdf.newIndirect(num);
    const type = obj.isStream() ? obj.get('Type') : undefined;
    // XMP metadata stays readable as it is, as a save leaves it.
    if (type && !(type.isName() && type.asName() === 'Metadata')) deflateUnfilteredStream(pdf, obj, STREAM_DEFLATE_LEVEL);
  }
}
