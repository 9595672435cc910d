/**
 * A DrawingML paragraph's bullet (a:buChar, a:buAutoNum, a:buNone in its a:pPr or its list level's
 * a:lvlNpPr): the character or number it prints before the text, in its own font, colour and size
 * (a:buFont, a:buClr, a:buSzPct, else the paragraph's first run's). Auto-numbers count the
 * paragraphs of one level in a row, as PowerPoint numbers them.
 */
import { attr, child, type XmlElement } from '../../../codecs/xml';
import { colorIn } from '../drawing-color';
import type { TextParagraph } from '../model';
import type { Theme } from '../theme';

const roman = (n: number): string => {
  const table: [number, string][] = [[1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'], [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i']];
  let out = '';
  for (const [v, s] of table) while (n >= v) (out += s), (n -= v);
  return out;
};
const alpha = (n: number): string => (n <= 0 ? '' : alpha(Math.floor((n - 1) / 26)) + String.fromCharCode(97 + ((n - 1) % 26)));

/** An auto-number scheme's label for `n` (ECMA-376's ST_TextAutonumberScheme, the common ones; others as arabic with a period). */
export function autoNumber(scheme: string, n: number): string {
  const m = /^(arabic|alphaLc|alphaUc|romanLc|romanUc)(Period|ParenR|ParenBoth|Plain)$/.exec(scheme);
  const [kind, punct] = m ? [m[1]!, m[2]!] : ['arabic', 'Period'];
  const body = kind === 'arabic' ? String(n) : kind.startsWith('alpha') ? alpha(n) : roman(n);
  const text = kind.endsWith('Uc') ? body.toUpperCase() : body;
  return punct === 'Period' ? `${text}.` : punct === 'ParenR' ? `${text})` : punct === 'ParenBoth' ? `(${text})` : text;
}

/** Counts auto-numbered paragraphs by level, a run of them broken by a paragraph of another kind at that level or above. */
export class BulletNumbers {
  private readonly counts = new Map<number, number>();

  next(level: number, start: number): number {
    for (const l of [...this.counts.keys()]) if (l > level) this.counts.delete(l);
    const n = (this.counts.get(level) ?? start - 1) + 1;
    this.counts.set(level, n);
    return n;
  }

  reset(level: number): void {
    for (const l of [...this.counts.keys()]) if (l >= level) this.counts.delete(l);
  }
}

/** The paragraph's bullet from its own a:pPr over its level's, or undefined (a:buNone, or none given). */
export function bulletOf(pPr: XmlElement | undefined, levelPr: XmlElement | undefined, level: number, numbers: BulletNumbers, theme: Theme): TextParagraph['bullet'] {
  const pick = (name: string) => child(pPr, name) ?? child(levelPr, name);
  const none = child(pPr, 'buNone') ?? (child(pPr, 'buChar') || child(pPr, 'buAutoNum') ? undefined : child(levelPr, 'buNone'));
  const char = child(pPr, 'buChar') ?? (child(pPr, 'buAutoNum') ? undefined : child(levelPr, 'buChar'));
  const auto = child(pPr, 'buAutoNum') ?? (child(pPr, 'buChar') ? undefined : child(levelPr, 'buAutoNum'));
  if (none || (!char && !auto)) {
    numbers.reset(level);
    return undefined;
  }
  const text = auto ? autoNumber(attr(auto, 'type') ?? 'arabicPeriod', numbers.next(level, Math.max(1, Math.min(Number(attr(auto, 'startAt') ?? 1) || 1, 32767)))) : (attr(char, 'char') ?? '•').slice(0, 4);
  if (!auto) numbers.reset(level);
  const font = attr(pick('buFont'), 'typeface');
  const color = child(pick('buClr'), 'srgbClr') || child(pick('buClr'), 'schemeClr') ? colorIn(pick('buClr'), theme) : undefined;
  const pct = Number(attr(pick('buSzPct'), 'val'));
  return { text, ...(font && !font.startsWith('+') ? { font } : {}), ...(color ? { color } : {}), ...(pct >= 25_000 && pct <= 400_000 ? { scale: pct / 100_000 } : {}) };
}
