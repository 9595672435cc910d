/**
 * Arabic letters in the forms their neighbours give them, as presentation-form characters (Unicode's
 * Arabic Presentation Forms-A and -B), which the faces map: our own line breaker places glyphs by
 * their advances without HarfBuzz, so the contextual forms and the lam-alef ligatures are chosen
 * here, as HarfBuzz chooses them from the font for MuPDF's HTML engine and LibreOffice. The marks
 * (harakat) stay as they are, over their letters.
 */

/**
 * [letter, isolated, final, initial, medial] (0: no such form), from the Unicode Character
 * Database's <isolated>/<final>/<initial>/<medial> decompositions of U+FB50–U+FEFF (Forms-B's
 * characters where both blocks have one): Python's unicodedata 14.0, letters U+0620–U+06FF.
 */
const FORMS: number[][] = [
  [0x0621, 0xfe80, 0x0000, 0x0000, 0x0000], [0x0622, 0xfe81, 0xfe82, 0x0000, 0x0000], [0x0623, 0xfe83, 0xfe84, 0x0000, 0x0000],
  [0x0624, 0xfe85, 0xfe86, 0x0000, 0x0000], [0x0625, 0xfe87, 0xfe88, 0x0000, 0x0000], [0x0626, 0xfe89, 0xfe8a, 0xfe8b, 0xfe8c],
  [0x0627, 0xfe8d, 0xfe8e, 0x0000, 0x0000], [0x0628, 0xfe8f, 0xfe90, 0xfe91, 0xfe92], [0x0629, 0xfe93, 0xfe94, 0x0000, 0x0000],
  [0x062a, 0xfe95, 0xfe96, 0xfe97, 0xfe98], [0x062b, 0xfe99, 0xfe9a, 0xfe9b, 0xfe9c], [0x062c, 0xfe9d, 0xfe9e, 0xfe9f, 0xfea0],
  [0x062d, 0xfea1, 0xfea2, 0xfea3, 0xfea4], [0x062e, 0xfea5, 0xfea6, 0xfea7, 0xfea8], [0x062f, 0xfea9, 0xfeaa, 0x0000, 0x0000],
  [0x0630, 0xfeab, 0xfeac, 0x0000, 0x0000], [0x0631, 0xfead, 0xfeae, 0x0000, 0x0000], [0x0632, 0xfeaf, 0xfeb0, 0x0000, 0x0000],
  [0x0633, 0xfeb1, 0xfeb2, 0xfeb3, 0xfeb4], [0x0634, 0xfeb5, 0xfeb6, 0xfeb7, 0xfeb8], [0x0635, 0xfeb9, 0xfeba, 0xfebb, 0xfebc],
  [0x0636, 0xfebd, 0xfebe, 0xfebf, 0xfec0], [0x0637, 0xfec1, 0xfec2, 0xfec3, 0xfec4], [0x0638, 0xfec5, 0xfec6, 0xfec7, 0xfec8],
  [0x0639, 0xfec9, 0xfeca, 0xfecb, 0xfecc], [0x063a, 0xfecd, 0xfece, 0xfecf, 0xfed0], [0x0641, 0xfed1, 0xfed2, 0xfed3, 0xfed4],
  [0x0642, 0xfed5, 0xfed6, 0xfed7, 0xfed8], [0x0643, 0xfed9, 0xfeda, 0xfedb, 0xfedc], [0x0644, 0xfedd, 0xfede, 0xfedf, 0xfee0],
  [0x0645, 0xfee1, 0xfee2, 0xfee3, 0xfee4], [0x0646, 0xfee5, 0xfee6, 0xfee7, 0xfee8], [0x0647, 0xfee9, 0xfeea, 0xfeeb, 0xfeec],
  [0x0648, 0xfeed, 0xfeee, 0x0000, 0x0000], [0x0649, 0xfeef, 0xfef0, 0xfbe8, 0xfbe9], [0x064a, 0xfef1, 0xfef2, 0xfef3, 0xfef4],
  [0x0671, 0xfb50, 0xfb51, 0x0000, 0x0000], [0x0677, 0xfbdd, 0x0000, 0x0000, 0x0000], [0x0679, 0xfb66, 0xfb67, 0xfb68, 0xfb69],
  [0x067a, 0xfb5e, 0xfb5f, 0xfb60, 0xfb61], [0x067b, 0xfb52, 0xfb53, 0xfb54, 0xfb55], [0x067e, 0xfb56, 0xfb57, 0xfb58, 0xfb59],
  [0x067f, 0xfb62, 0xfb63, 0xfb64, 0xfb65], [0x0680, 0xfb5a, 0xfb5b, 0xfb5c, 0xfb5d], [0x0683, 0xfb76, 0xfb77, 0xfb78, 0xfb79],
  [0x0684, 0xfb72, 0xfb73, 0xfb74, 0xfb75], [0x0686, 0xfb7a, 0xfb7b, 0xfb7c, 0xfb7d], [0x0687, 0xfb7e, 0xfb7f, 0xfb80, 0xfb81],
  [0x0688, 0xfb88, 0xfb89, 0x0000, 0x0000], [0x068c, 0xfb84, 0xfb85, 0x0000, 0x0000], [0x068d, 0xfb82, 0xfb83, 0x0000, 0x0000],
  [0x068e, 0xfb86, 0xfb87, 0x0000, 0x0000], [0x0691, 0xfb8c, 0xfb8d, 0x0000, 0x0000], [0x0698, 0xfb8a, 0xfb8b, 0x0000, 0x0000],
  [0x06a4, 0xfb6a, 0xfb6b, 0xfb6c, 0xfb6d], [0x06a6, 0xfb6e, 0xfb6f, 0xfb70, 0xfb71], [0x06a9, 0xfb8e, 0xfb8f, 0xfb90, 0xfb91],
  [0x06ad, 0xfbd3, 0xfbd4, 0xfbd5, 0xfbd6], [0x06af, 0xfb92, 0xfb93, 0xfb94, 0xfb95], [0x06b1, 0xfb9a, 0xfb9b, 0xfb9c, 0xfb9d],
  [0x06b3, 0xfb96, 0xfb97, 0xfb98, 0xfb99], [0x06ba, 0xfb9e, 0xfb9f, 0x0000, 0x0000], [0x06bb, 0xfba0, 0xfba1, 0xfba2, 0xfba3],
  [0x06be, 0xfbaa, 0xfbab, 0xfbac, 0xfbad], [0x06c0, 0xfba4, 0xfba5, 0x0000, 0x0000], [0x06c1, 0xfba6, 0xfba7, 0xfba8, 0xfba9],
  [0x06c5, 0xfbe0, 0xfbe1, 0x0000, 0x0000], [0x06c6, 0xfbd9, 0xfbda, 0x0000, 0x0000], [0x06c7, 0xfbd7, 0xfbd8, 0x0000, 0x0000],
  [0x06c8, 0xfbdb, 0xfbdc, 0x0000, 0x0000], [0x06c9, 0xfbe2, 0xfbe3, 0x0000, 0x0000], [0x06cb, 0xfbde, 0xfbdf, 0x0000, 0x0000],
  [0x06cc, 0xfbfc, 0xfbfd, 0xfbfe, 0xfbff], [0x06d0, 0xfbe4, 0xfbe5, 0xfbe6, 0xfbe7], [0x06d2, 0xfbae, 0xfbaf, 0x0000, 0x0000],
  [0x06d3, 0xfbb0, 0xfbb1, 0x0000, 0x0000],
];

const LETTERS = new Map(FORMS.map((row) => [row[0]!, row]));
/** Lam with alef (with madda, hamza above or below, or plain): one ligature, isolated and final. */
const LAM = 0x0644;
const LAM_ALEF = new Map([
  [0x0622, [0xfef5, 0xfef6]],
  [0x0623, [0xfef7, 0xfef8]],
  [0x0625, [0xfef9, 0xfefa]],
  [0x0627, [0xfefb, 0xfefc]],
]);

/** A presentation form → the letters it shows (what the PDF's ToUnicode map gives back for search and copy). */
export const PRESENTATION_LETTERS = new Map<number, string>();
for (const row of FORMS) for (const form of row.slice(1)) if (form) PRESENTATION_LETTERS.set(form, String.fromCodePoint(row[0]!));
for (const [alef, forms] of LAM_ALEF) for (const form of forms) PRESENTATION_LETTERS.set(form, String.fromCodePoint(LAM, alef));

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
