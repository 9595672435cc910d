/**
 * Arabic letters in the forms their neighbours give them, as presentation-form characters (Unicode's
 * Arabic Presentation Forms-A and -B), which the faces map: our own line breaker places glyphs by
 * their advances without HarfBuzz, so the contextual forms and the lam-alef ligatures are chosen
 * here, as HarfBuzz chooses them from the font for MuPDF's HTML engine and LibreOffice. The marks
 * (harakat) stay as they are, over their letters.
 */

import { LAM, LAM_ALEF, LETTERS } from '../../fonts/arabic-forms';

export { PRESENTATION_LETTERS } from '../../fonts/arabic-forms';

/** Marks and format characters beyond the Arabic block: they take no part in joining (the letters around them join through them). */
const TRANSPARENT = /^[\p{Mn}\p{Me}\p{Cf}]$/u;

const enum J {
  U, D, R, T, C,
}

/** How a UTF-16 unit joins its neighbours (Unicode's Joining_Type): dual, right (to the letter before only), none, transparent, join-causing. */
function joining(cp: number): J {
  if (cp < 0x300) return J.U;
  if (cp >= 0x600 && cp <= 0x6ff) {
    const row = LETTERS.get(cp);
    if (row) return row[3] || row[4] ? J.D : row[2] ? J.R : J.U;
    if (cp === 0x640) return J.C; // tatweel
    // The block's marks: harakat, Quranic annotation signs, superscript alef.
    const mark = (cp >= 0x610 && cp <= 0x61a) || (cp >= 0x64b && cp <= 0x65f) || cp === 0x670 || (cp >= 0x6d6 && cp <= 0x6dc) || (cp >= 0x6df && cp <= 0x6e4) || cp === 0x6e7 || cp === 0x6e8 || (cp >= 0x6ea && cp <= 0x6ed);
    return mark ? J.T : J.U;
  }
  if (cp === 0x200d) return J.C; // zero-width joiner
  if (cp === 0x200c) return J.U; // zero-width non-joiner: Persian's half-space
  if (cp >= 0xd800 && cp <= 0xdfff) return J.U;
  return TRANSPARENT.test(String.fromCharCode(cp)) ? J.T : J.U;
}

/**
 * Texts (a paragraph's runs, in order) with their Arabic letters in contextual form: a letter
 * joins the one before when that joins forward, and the one after when it joins back, through
 * marks and across runs. Lam followed by alef becomes their ligature. Texts without Arabic letters
 * come back as they are.
 */
export function shapeArabic(texts: string[]): string[] {
  const all = texts.join('');
  if (!/[\u0620-\u06ff]/.test(all)) return texts;
  // By UTF-16 unit: the letters are all in the BMP (a surrogate pair joins nothing).
  const n = all.length;
  const types = new Uint8Array(n);
  for (let i = 0; i < n; i++) types[i] = joining(all.charCodeAt(i));
  /** The unit each input unit becomes (-1: drawn by a ligature). */
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = all.charCodeAt(i);
  let before = -1; // the nearest unit before i that is not transparent
  for (let i = 0; i < n; i++) {
    const type = types[i]!;
    if (type === J.T) continue;
    const row = type === J.D || type === J.R ? LETTERS.get(out[i]!) : undefined;
    if (row) {
      let after = i + 1;
      while (after < n && types[after] === J.T) after++;
      const next = after < n ? types[after]! : J.U;
      const joinsBefore = before >= 0 && (types[before] === J.D || types[before] === J.C);
      const joinsAfter = type === J.D && (next === J.D || next === J.R || next === J.C);
      const ligature = out[i] === LAM && after === i + 1 && after < n ? LAM_ALEF.get(out[after]!) : undefined;
      if (ligature) {
        out[i] = ligature[joinsBefore ? 1 : 0]!;
        out[after] = -1;
        types[after] = J.U; // the ligature ends the joining, as alef does
        before = after;
        i = after;
        continue;
      }
      const form = joinsBefore && joinsAfter ? row[4] : joinsBefore ? row[2] : joinsAfter ? row[3] : row[1];
      if (form) out[i] = form;
    }
    before = i;
  }
  // Back into the runs: one output piece per input unit.
  const shaped: string[] = [];
  let k = 0;
  for (const text of texts) {
    const units: number[] = [];
    for (const end = k + text.length; k < end; k++) if (out[k]! >= 0) units.push(out[k]!);
    shaped.push(fromUnits(units));
  }
  return shaped;
}

/** A string of UTF-16 units, in chunks (an argument list has a limit). */
function fromUnits(units: number[]): string {
  let s = '';
  for (let i = 0; i < units.length; i += 4096) s += String.fromCharCode(...units.slice(i, i + 4096));
  return s;
}
