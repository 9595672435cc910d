/**
 * A deck's PDF: a page per slide at the slide's size, its background filled and its shapes drawn by
 * the shared Office shape layout (office-layout/draw-shapes.ts), written by the shared display
 * document writer (paint/display-document.ts).
 */
import type * as Mupdf from 'mupdf';
import type { FontFiles } from '../../fonts/catalog';
import { FontBook } from '../../layout/text/font-book';
import type { DisplayItem } from '../../contracts/display';
import { writeDisplayPdf, type DisplayPage } from '../../paint/display-document';
import { framedShapeItems } from '../office-layout/draw-shapes';
import { chartItems } from '../office-layout/draw-chart';
import type { Shape, TextParagraph } from '../office/model';
import type { Deck, Slide } from './model';
import { fontAsksOf } from './font-asks';
import { loadDocumentFaces } from '../../fonts/document-faces/load';
import { DocumentFaceSet } from '../../layout/text/document-face-set';
import { ignoreProblems, type ProblemSink } from '../problems';

/**
 * Slides an invocation prints at most, and the picture bytes it places at most: a longer deck is
 * printed a slice per step (operations/pptx-to-pdf.ts), each within the Worker's CPU and memory
 * whatever the deck holds. 250 generated slides (text, a table, a photo each) print in about 0.3 s
 * in the Worker; the picture cap is what keeps a slice's PDF well inside the isolate's memory.
 */
export const SLICE_SLIDES = 250;
export const SLICE_PICTURE_BYTES = 24_000_000;
/** Group nesting counted into (the shape reader stops deeper). */
const DEPTH_MAX = 32;

const pictureBytes = (shape: Shape<TextParagraph>, depth = 0): number =>
  (shape.picture?.data.length ?? 0) + (depth < DEPTH_MAX ? (shape.members ?? []).reduce((sum, m) => sum + pictureBytes(m, depth + 1), 0) : 0);
const slidePictureBytes = (slide: Slide) => (slide.backgroundPicture?.data.length ?? 0) + slide.shapes.reduce((sum, { shape }) => sum + pictureBytes(shape), 0);

/** The deck's slides in the slices [from, to) an invocation prints each: at most SLICE_SLIDES, or fewer when their pictures pass SLICE_PICTURE_BYTES. */
export function deckSlices(deck: Deck): [number, number][] {
  const slices: [number, number][] = [];
  let [from, bytes] = [0, 0];
  deck.slides.forEach((slide, i) => {
    const own = slidePictureBytes(slide);
    if (i > from && (i - from >= SLICE_SLIDES || bytes + own > SLICE_PICTURE_BYTES)) {
      slices.push([from, i]);
      [from, bytes] = [i, 0];
    }
    bytes += own;
  });
  slices.push([from, deck.slides.length]);
  return slices;
}

function* slidePages(deck: Deck, fonts: FontBook, [from, to]: [number, number]): Generator<DisplayPage> {
  const ctx = { fonts, fields: {}, fontIndependentLines: !!deck.fontIndependentLines };
  const box = { x: 0, y: 0, width: deck.width, height: deck.height };
  for (const slide of deck.slides.slice(from, to)) {
    const color = slide.background ?? 'FFFFFF';
    const items: DisplayItem[] = [slide.backgroundGradient ? { kind: 'shape', points: [[0, 0], [deck.width, 0], [deck.width, deck.height], [0, deck.height]], fill: color, gradient: slide.backgroundGradient } : { kind: 'fill', x0: 0, y0: 0, x1: deck.width, y1: deck.height, color }];
    const picture = slide.backgroundPicture;
    if (picture) items.push({ kind: 'picture', data: picture.data, contentType: picture.contentType, at: [deck.width, 0, 0, deck.height, 0, 0] });
    // Pushed one by one: a slide of a 200 × 200 table makes more items than a call takes arguments.
    for (const item of framedShapeItems({ width: deck.width, height: deck.height }, slide.shapes, box, 1, ctx)) items.push(item);
    for (const { box: at, chart } of slide.charts ?? []) for (const item of chartItems(chart, at, ctx)) items.push(item);
    yield { width: deck.width, height: deck.height, layers: [items] };
  }
}

/** The faces the deck embeds of the families its text is in, as MuPDF loads them; undefined when there are none. */
function documentFaces(deck: Deck, mupdf: typeof Mupdf, problems: ProblemSink): DocumentFaceSet | undefined {
  if (!deck.embeddedFonts?.length) return undefined;
  const faces = loadDocumentFaces(deck.embeddedFonts, fontAsksOf(deck).names, problems);
  return faces.length ? DocumentFaceSet.load(mupdf, faces, problems) : undefined;
}

/** The deck's PDF (of the slides [from, to) when `range` is given) in the chunks it is written in. */
export function renderDeckChunks(deck: Deck, mupdf: typeof Mupdf, files: FontFiles, problems: ProblemSink = ignoreProblems, range: [number, number] = [0, deck.slides.length]): Uint8Array[] {
  const document = documentFaces(deck, mupdf, problems);
  const fonts = FontBook.withDocumentFaces(mupdf, files, document);
  fonts.install();
  try {
    return writeDisplayPdf(mupdf, fonts, slidePages(deck, fonts, range));
  } finally {
    document?.destroy();
  }
}
