/**
 * A line's height and where its text sits in it, as LibreOffice lays Office lines out (our line
 * breaker, and Word's HTML path through convert/word/rules/line-box.ts).
 */
import type { FontBook } from '../text/font-book';
import type { LineFace, ParagraphBlock, ParagraphStyle } from './model';

/** What a line box is measured with: the faces, and whether single lines leave out the face's line gap. */
export interface LineBoxContext {
  fonts: FontBook;
  noLeading?: boolean;
  /**
   * Office's drawing text (PowerPoint's and Excel's shapes, as LibreOffice's edit engine sets them):
   * the height a proportional or exact line has beyond single spacing goes above its text, not
   * below it as in Word.
   */
  spacingAbove?: boolean;
  /**
   * PowerPoint's single line (LibreOffice's font-independent line spacing, which it sets for the
   * decks it imports): 1.2 em whatever the face, its baseline 1 em below its top. Measured on
   * LibreOffice 7.4's prints of PPTX text boxes in Calibri, Arial, Times New Roman, Cambria and
   * Verdana at 12-30 pt: pitch 1.200 em and baseline 1.000 em for all five.
   */
  fontIndependentLines?: boolean;
}

/**
 * The line box of text in `face` with the paragraph's spacing, and how far its text is raised from
 * where MuPDF puts it (0.8 em below the top plus half the line's leading) to where LibreOffice does,
 * measured on LibreOffice 7.4's PDFs of 60-line DOCX files in Times New Roman, Arial and Calibri at 10-14 pt:
 * - single and proportional spacing (1.15, 1.5, double): the baseline where it is at single spacing
 *   (the font's ascender, below its line gap), the extra space below the text;
 * - "at least", taller than the font: the extra space above the text;
 * - "exact": the baseline at 0.8 of the line, whatever the font.
 */
export function lineBoxOf(face: LineFace, line: ParagraphStyle['line'], ctx: LineBoxContext): { height: number; raise: number } {
  const size = face.size;
  const gap = !ctx.noLeading;
  // Writer counts line heights in whole twips: single spacing as the text's height (ascender and
  // descender) and the line gap each rounded, proportional spacing cut down (Calibri 11 pt: 220 + 49
  // twips, 13.45 pt, where the face's metrics give 13.43; at 1.5 lines 403 twips). On LibreOffice
  // 7.4's PDFs of 66 documents (6 faces at 8-16 pt, scripts/lo-line-pitch.mjs) this gives its pitch
  // for 60, one rounding of the sum for 55 (Arial and Times New Roman at 10.5 and 11.5 pt were a
  // twip short); the 6 left are a twip or two short still.
  const text = size * ctx.fonts.lineFactor(face.family, false);
  const leading = gap ? size * ctx.fonts.lineFactor(face.family, true) - text : 0;
  // (A hair added: Caladea 9.5 pt is 218.5 twips, which floating point makes 218.49999….)
  const twips = (points: number) => Math.round(points * 20 + 1e-6);
  const single = ctx.fontIndependentLines ? 1.2 * size : (twips(text) + twips(leading)) / 20;
  const ascent = ctx.fontIndependentLines ? size : size * ctx.fonts.baselineFactor(face.family, gap);
  const mupdfBaseline = (height: number) => 0.8 * size + (height - size) / 2;
  const box = (height: number, baseline: number) => ({ height, raise: mupdfBaseline(height) - baseline });
  if (line?.rule === 'exact') return box(line.value, ctx.spacingAbove ? ascent + line.value - single : 0.8 * line.value);
  if (line?.rule === 'atLeast') {
    const height = Math.max(line.value, single);
    return box(height, height - single + ascent);
  }
  const height = line ? Math.floor(single * line.value * 20 + 1e-6) / 20 : single;
  if (ctx.spacingAbove && height > single) return box(height, ascent + height - single);
  // Below single spacing the line is cut from above the text.
  return box(height, ascent + Math.min(0, height - single));
}

/** The face that sizes a paragraph's lines: the largest of its text's (its mark's when it has none), as Word and LibreOffice size them. */
export function largestFace(p: ParagraphBlock): LineFace {
  let best = p.props.markFace;
  let seenText = false;
  for (const it of p.items) {
    if ((it.kind !== 'text' && it.kind !== 'field') || !it.style.sizes) continue;
    const face = it.style.sizes;
    if (!seenText || face.size > best.size) best = face;
    seenText = true;
  }
  return best;
}
