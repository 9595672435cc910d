/** The scripts the readers and the layout tell apart, by character. */

/**
 * Complex-script text (Arabic, Hebrew and the other right-to-left scripts, the Indic scripts, Thai,
 * Lao, Khmer) takes a run's complex-script formatting, as in Word and LibreOffice: in DOCX the
 * w:rFonts cs font, w:szCs, w:bCs and w:iCs, not w:rFonts ascii, w:sz, w:b and w:i (in .doc the
 * "Bi" sprms). A Persian run marked bold with w:b alone is not bold; one sized w:sz 24 w:szCs 28 is 14 pt.
 */
const COMPLEX = /[\u0590-\u08ff\u0900-\u0dff\u0e00-\u0eff\u1780-\u17ff\ufb1d-\ufdff\ufe70-\ufeff]/;
/** Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms. */
export const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/;
/** Scripts whose letters take their form from their neighbours: Syriac, Arabic, Thaana, N'Ko, Mongolian. */
export const JOINING = /[\u0600-\u08ff\u1800-\u18af\ufb50-\ufdff\ufe70-\ufeff]/;
/** Letters of other scripts: they end a complex-script stretch. Digits, spaces and punctuation go with the letters around them. */
const OTHER_LETTER = /\p{L}/u;

/** Whether a character is complex-script (true), a letter of another script (false), or neither: a digit, space, mark or punctuation. */
export function scriptOf(ch: string): boolean | undefined {
  const c = ch.charCodeAt(0);
  // ASCII and the complex-script ranges (those of COMPLEX) by code: a regex per character was a
  // tenth of reading a long Persian document.
  if (c < 0x80) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? false : undefined;
  if ((c >= 0x0590 && c <= 0x0eff) || (c >= 0x1780 && c <= 0x17ff) || (c >= 0xfb1d && c <= 0xfdff) || (c >= 0xfe70 && c <= 0xfeff)) return true;
  return OTHER_LETTER.test(ch) ? false : undefined;
}

/**
 * Text cut where it changes between complex-script and other letters. A digit, space or mark
 * belongs to the stretch before it (to the one after, at the start), as LibreOffice assigns
 * "weak" characters.
 */
export function scriptStretches(text: string): { text: string; complex: boolean }[] {
  if (!COMPLEX.test(text)) return [{ text, complex: false }];
  const out: { text: string; complex: boolean }[] = [];
  let current: boolean | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const kind = scriptOf(ch);
    if (kind === undefined || kind === current) continue;
    if (current !== undefined) {
      out.push({ text: text.slice(start, i), complex: current });
      start = i;
    }
    current = kind;
  }
  out.push({ text: text.slice(start), complex: current ?? false });
  return out;
}
