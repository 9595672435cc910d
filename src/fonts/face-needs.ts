/**
 * Which face files a document needs, decided before any is loaded: the layout asks for faces
 * synchronously (MuPDF's font callback, our line breaker), so a conversion fetches them first
 * (face-shelf.ts). The rule mirrors FontBook.familyFor: a run draws a character in its own family
 * when that family has it, else in the first of its FALLBACK families that has it. So a document
 * needs every family its font names map to, and each fallback family its characters reach,
 * judged by the families' coverage (coverage.json of the FONTS assets, scripts/fonts-assets.mjs).
 * A fallback family passed over is one that lacks the character: left unloaded, it answers the
 * same "not here" it would have answered loaded.
 */
import { ALL_FACE_FILES, FACE_FILES, FALLBACK, substituteFamily, type CatalogFamily } from './catalog';
import type { Coverage } from '../contracts/faces';

/** What a document asks of the fonts. */
export interface FontAsks {
  /** The font names its text is written in (the document's default among them). */
  names: Iterable<string | undefined>;
  /** The characters it holds (ASCII may be left out: every text face draws it). */
  codePoints: Iterable<number>;
  /** It names fonts where they cannot be read before layout (a metafile picture's text): every face. */
  unseenNames?: boolean;
}

export function facesNeeded(asks: FontAsks, coverage: Coverage): string[] {
  if (asks.unseenNames) return [...ALL_FACE_FILES];
  const families = new Set<CatalogFamily>();
  for (const name of asks.names) families.add(substituteFamily(name));
  const draws = (family: CatalogFamily, cp: number) => covers(coverage[family], cp);
  const needed = new Set(families);
  const points = [...new Set(asks.codePoints)].filter((cp) => cp >= 0x80);
  for (const family of families) {
    for (const cp of points) {
      if (draws(family, cp)) continue;
      const fallback = FALLBACK[family].find((other) => draws(other, cp));
      if (fallback) needed.add(fallback);
    }
  }
  return [...new Set([...needed].flatMap((family) => Object.values(FACE_FILES[family])))];
}

/** Binary search of the runs. A family without coverage data is taken to draw nothing. */
function covers(ranges: Coverage[string] | undefined, cp: number): boolean {
  if (!ranges) return false;
  let [lo, hi] = [0, ranges.length - 1];
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [first, last] = ranges[mid]!;
    if (cp < first) hi = mid - 1;
    else if (cp > last) lo = mid + 1;
    else return true;
  }
  return false;
}
