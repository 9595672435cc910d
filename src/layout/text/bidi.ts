import { RIGHT_TO_LEFT } from '../../lib/complex-script';

/**
 * Embedding levels of a paragraph's characters, by the Unicode Bidirectional Algorithm's rules for
 * text without explicit embeddings (W1–W7, N1–N2, I1–I2): right-to-left letters at an odd level,
 * left-to-right ones and numbers at an even one. Our line breaker (paragraph-lines.ts) places a
 * line's pieces in their logical order and then turns the stretches of the other direction around.
 */

/** Bidirectional character types, as far as the rules here tell them apart. */
const enum T {
  L, R, AL, EN, AN, ES, ET, CS, NSM, WS, ON,
}

/** The type of a character (Unicode's Bidi_Class, in the blocks documents use). */
function typeOf(cp: number): T {
  if (cp < 0x80) {
    if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return T.L;
    if (cp >= 0x30 && cp <= 0x39) return T.EN;
    if (cp === 0x20 || cp === 0x09) return T.WS;
    if (cp === 0x2b || cp === 0x2d) return T.ES;
    if (cp === 0x23 || cp === 0x24 || cp === 0x25) return T.ET;
    if (cp === 0x2c || cp === 0x2e || cp === 0x2f || cp === 0x3a) return T.CS;
    return T.ON;
  }
  if (cp >= 0x0590 && cp <= 0x05ff) return cp <= 0x05c7 && cp !== 0x05be && cp !== 0x05c0 && cp !== 0x05c3 && cp !== 0x05c6 ? T.NSM : T.R;
  if (cp >= 0x0600 && cp <= 0x08ff) {
    if ((cp >= 0x0660 && cp <= 0x0669) || cp === 0x066b || cp === 0x066c || (cp >= 0x0600 && cp <= 0x0605)) return T.AN;
    if (cp >= 0x06f0 && cp <= 0x06f9) return T.EN;
    if (cp === 0x066a) return T.ET;
    if (cp === 0x060c) return T.CS;
    if ((cp >= 0x0610 && cp <= 0x061a) || (cp >= 0x064b && cp <= 0x065f) || cp === 0x0670 || (cp >= 0x06d6 && cp <= 0x06ed && cp !== 0x06dd && cp !== 0x06de && cp !== 0x06e5 && cp !== 0x06e6 && cp !== 0x06e9)) return T.NSM;
    return T.AL;
  }
  if (cp >= 0xfb1d && cp <= 0xfb4f) return T.R;
  if ((cp >= 0xfb50 && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfeff)) return cp === 0xfd3e || cp === 0xfd3f ? T.ON : T.AL;
  if (cp === 0x200f) return T.R;
  if (cp === 0x200e) return T.L;
  if (cp === 0xa0 || cp === 0x2007 || cp === 0x202f || (cp >= 0x2000 && cp <= 0x200a)) return T.WS;
  if (cp === 0x200b || cp === 0x200c || cp === 0x200d) return T.NSM;
  if (cp >= 0x300 && cp <= 0x36f) return T.NSM;
  if (cp === 0xb0 || cp === 0xb1 || cp === 0x2030 || cp === 0x2031 || (cp >= 0x20a0 && cp <= 0x20cf) || cp === 0xa3 || cp === 0xa5 || cp === 0xa2) return T.ET;
  return /\p{L}/u.test(String.fromCodePoint(cp)) ? T.L : T.ON;
}

/** Whether text holds right-to-left letters (complex-script.ts) or a right-to-left mark: its paragraph needs levels. */
export const hasRightToLeft = (text: string): boolean => RIGHT_TO_LEFT.test(text) || text.includes('\u200f');

/**
 * The level of each UTF-16 unit of `text` (a surrogate pair's two alike) in a paragraph whose base
 * direction is right-to-left (`rtl`) or left-to-right.
 */
export function bidiLevels(text: string, rtl: boolean): Uint8Array {
  const base = rtl ? 1 : 0;
  const n = text.length;
  const types: T[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const cp = text.codePointAt(i)!;
    types[i] = typeOf(cp);
    if (cp > 0xffff) types[++i] = types[i - 1]!;
  }
  const sos = rtl ? T.R : T.L;
  // W1: a mark takes the type of what it marks.
  for (let i = 0; i < n; i++) if (types[i] === T.NSM) types[i] = i > 0 ? (types[i - 1] === T.WS ? T.ON : types[i - 1]!) : sos;
  // W2, W3: a European number after Arabic letters is an Arabic number; Arabic letters are right-to-left.
  let strong = sos;
  for (let i = 0; i < n; i++) {
    const t = types[i]!;
    if (t === T.L || t === T.R || t === T.AL) strong = t;
    else if (t === T.EN && strong === T.AL) types[i] = T.AN;
  }
  for (let i = 0; i < n; i++) if (types[i] === T.AL) types[i] = T.R;
  // W4: one separator between two numbers of a kind joins them.
  for (let i = 1; i < n - 1; i++) {
    const t = types[i]!;
    const a = types[i - 1]!;
    if (a !== types[i + 1]) continue;
    if ((t === T.ES && a === T.EN) || (t === T.CS && (a === T.EN || a === T.AN))) types[i] = a;
  }
  // W5: terminators (%, $, °) next to European numbers are part of them.
  for (let i = 0; i < n; i++) {
    if (types[i] !== T.ET) continue;
    let j = i;
    while (j < n && types[j] === T.ET) j++;
    const touches = (i > 0 && types[i - 1] === T.EN) || (j < n && types[j] === T.EN);
    for (let k = i; k < j; k++) types[k] = touches ? T.EN : T.ON;
    i = j - 1;
  }
  // W6: separators left over are neutral. W7: European numbers after left-to-right text are left-to-right.
  strong = sos;
  for (let i = 0; i < n; i++) {
    const t = types[i]!;
    if (t === T.ES || t === T.CS) types[i] = T.ON;
    else if (t === T.L || t === T.R) strong = t;
    else if (t === T.EN && strong === T.L) types[i] = T.L;
  }
  // N1, N2: neutrals between two strong characters of one direction (numbers count as right-to-left) take it; others the paragraph's.
  const direction = (t: T): T | undefined => (t === T.L ? T.L : t === T.R || t === T.EN || t === T.AN ? T.R : undefined);
  for (let i = 0; i < n; i++) {
    if (direction(types[i]!) !== undefined) continue;
    let j = i;
    while (j < n && direction(types[j]!) === undefined) j++;
    const before = i > 0 ? direction(types[i - 1]!)! : sos;
    const after = j < n ? direction(types[j]!)! : sos;
    const resolved = before === after ? before : rtl ? T.R : T.L;
    for (let k = i; k < j; k++) types[k] = resolved;
    i = j - 1;
  }
  // I1, I2.
  const levels = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const t = types[i]!;
    levels[i] = base === 0 ? (t === T.R ? 1 : t === T.EN || t === T.AN ? 2 : 0) : t === T.L || t === T.EN || t === T.AN ? 2 : 1;
  }
  return levels;
}

/** Characters drawn mirrored in right-to-left text (Bidi_Mirrored pairs in common use). */
const MIRRORED = new Map([
  [0x28, 0x29], [0x29, 0x28], [0x5b, 0x5d], [0x5d, 0x5b], [0x7b, 0x7d], [0x7d, 0x7b], [0x3c, 0x3e], [0x3e, 0x3c],
  [0xab, 0xbb], [0xbb, 0xab], [0x2039, 0x203a], [0x203a, 0x2039],
]);

/**
 * Right-to-left text in the order its glyphs are drawn, left to right: reversed, brackets
 * mirrored. A mark then comes just before the letter it sits on, which is where the faces draw it
 * (their marks have no advance and are drawn over the glyph that follows: DejaVu Sans' fatha
 * 0.11–0.38 em to the right of the pen), as HarfBuzz orders them.
 */
export function visualOrder(text: string): string {
  const units: number[] = new Array(text.length);
  for (let i = text.length - 1, k = 0; i >= 0; i--, k++) {
    const u = text.charCodeAt(i);
    if (u >= 0xdc00 && u <= 0xdfff && i > 0) {
      // A surrogate pair keeps its order.
      units[k++] = text.charCodeAt(i - 1);
      units[k] = u;
      i--;
      continue;
    }
    units[k] = MIRRORED.get(u) ?? u;
  }
  let s = '';
  for (let i = 0; i < units.length; i += 4096) s += String.fromCharCode(...units.slice(i, i + 4096));
  return s;
}
