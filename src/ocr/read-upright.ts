/**
 * A page read the way up it reads best: as it is, or turned a quarter or a half when Tesseract is
 * unsure of it (a page scanned sideways or upside down). Runs in the OCR Worker.
 */
import { recognize, type OcrLanguage } from './tesseract';
import { BETTER_BY, CONFIDENT, MIN_TURNED_SIDE, TURNS, greyPngSamples, readingConfidence, runsVertically, turnedPgm, type PageReading } from './orientation';

/** A page PNG larger than this is no page the OCR step draws (it caps pages at 12 Mpx of grey). */
export const MAX_PAGE_PNG_BYTES = 64 * 1024 * 1024;

/**
 * The page read as it is, or, when Tesseract is unsure of it, turned the way it reads best (a page
 * scanned sideways or upside down). The words' boxes are in the turned picture's pixels.
 */
export async function readUpright(png: Uint8Array, languages: readonly OcrLanguage[]): Promise<PageReading> {
  const asIs: PageReading = { turn: 0, words: await recognize(png, languages) };
  // Tesseract reads sideways lines too, but gives no direction with them: such a page is read
  // again turned a quarter, so that every box the text layer gets is a horizontal one.
  const upright = !runsVertically(asIs.words);
  const asIsConfidence = readingConfidence(asIs.words);
  if (upright && asIsConfidence >= CONFIDENT) return asIs; // (sideways text can also read as no words at all)
  const { width, height, samples } = greyPngSamples(png);
  // A strip of one line or two is no page to turn: too little text to tell, and turned it reads as nothing.
  if (Math.min(width, height) < MIN_TURNED_SIDE) return asIs;
  // A turned reading must be confident and clearly better: a hard page (Fraktur, a faint line)
  // also reads poorly as it is, and some turned garbage reads a little better than that.
  let [best, confidence] = [asIs, upright ? Math.max(CONFIDENT, asIsConfidence + BETTER_BY) : 0];
  for (const turn of upright ? TURNS : ([90, 270] as const)) {
    const words = await recognize(turnedPgm(width, height, samples, turn), languages);
    const c = readingConfidence(words);
    if (c > confidence) [best, confidence] = [{ turn, words }, c];
    if (confidence >= CONFIDENT + BETTER_BY) break;
  }
  return best;
}
