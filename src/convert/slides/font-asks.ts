/** The fonts and characters a deck's text asks for: which faces it needs loaded (face-needs.ts) and which of its embedded fonts are read. */
import type { FontAsks } from '../../fonts/face-needs';
import type { Shape, TextParagraph } from '../office/model';
import { FONT as CHART_FONT } from '../office/chart/draw';
import { METAFILE } from '../../paint/metafile';
import type { Deck } from './model';

const paragraphsOf = (shape: Shape<TextParagraph>, depth = 0): TextParagraph[] => [...(shape.blocks ?? []), ...(depth < 32 ? (shape.members ?? []).flatMap((m) => paragraphsOf(m, depth + 1)) : [])];

/** The fonts and characters the deck's text asks for. */
export function fontAsksOf(deck: Deck): FontAsks {
  const names = new Set<string>();
  const codePoints = new Set<number>();
  let unseenNames = false;
  const count = (text: string) => {
    for (const ch of text) if (ch.codePointAt(0)! >= 0x80) codePoints.add(ch.codePointAt(0)!);
  };
  for (const slide of deck.slides) {
    for (const { chart } of slide.charts ?? []) {
      // Charts print their text in the Office parts' chart font.
      names.add(CHART_FONT);
      for (const text of [chart.title ?? '', ...chart.categories, ...chart.series.map((s) => s.name ?? '')]) count(text);
    }
    for (const { shape } of slide.shapes) {
      // A metafile's text names fonts of its own, which only playing it would tell.
      if (shape.picture && METAFILE.test(shape.picture.contentType)) unseenNames = true;
      for (const p of paragraphsOf(shape)) {
        names.add(p.font);
        for (const run of p.runs) {
          names.add(run.font);
          count(run.text);
        }
      }
    }
  }
  return { names, codePoints, ...(unseenNames ? { unseenNames } : {}) };
}
