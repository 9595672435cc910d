/**
 * Symbol-font characters → Unicode.
 *
 * Word writes bullets and w:sym characters from the Symbol and Wingdings fonts as code points in the
 * private-use range F000–F0FF (or as plain 00–FF with the font named). Our fonts have no such glyphs,
 * so the common ones become their Unicode look-alikes and the rest a plain bullet; the caller then
 * drops the symbol font from the style.
 */

const SYMBOL: Record<number, string> = {
  0xb7: '•', 0xa7: '■', 0xa8: '♦', 0xd8: '¬', 0xae: '→', 0xac: '←', 0xad: '↑', 0xaf: '↓', 0xb0: '°',
  0xb1: '±', 0xb4: '×', 0xb8: '÷', 0xa3: '≤', 0xb3: '≥', 0xb9: '≠', 0xbb: '≈', 0xa5: '∞', 0xd6: '√',
  0xe0: '◊', 0x2d: '−', 0x61: 'α', 0x62: 'β', 0x67: 'γ', 0x64: 'δ', 0x70: 'π', 0x6d: 'μ', 0x53: 'Σ', 0x57: 'Ω',
};

const WINGDINGS: Record<number, string> = {
  0x9f: '•', 0xa7: '▪', 0xa8: '◻', 0x6c: '●', 0x6e: '■', 0x6f: '□', 0x71: '❑', 0x75: '◆', 0x76: '❖',
  0xd8: '➢', 0xe0: '➢', 0xe8: '➔', 0xf0: '⇨', 0xfb: '✗', 0xfc: '✓', 0xfd: '☒', 0xfe: '☑', 0xa1: '○',
  0x77: '⬥', 0x3e: '✇', 0x46: '☞', 0x4a: '☺', 0x4c: '☹', 0xab: '★', 0x2a: '✉', 0x28: '☎',
};

const SYMBOL_FONTS = /^(symbol|wingdings( [23])?|webdings|zapfdingbats|mt extra)$/i;

export function isSymbolFont(font: string | undefined): boolean {
  return !!font && SYMBOL_FONTS.test(font.trim());
}

/** Map one character of a symbol font (or private-use F0xx) to Unicode; other text passes through. */
export function mapSymbolChar(code: number, font: string | undefined): string {
  const isPrivate = code >= 0xf000 && code <= 0xf0ff;
  if (!isPrivate && !isSymbolFont(font)) return String.fromCodePoint(code);
  const low = code & 0xff;
  const f = (font ?? '').toLowerCase();
  if (f.startsWith('wingdings') || f === 'webdings' || f === 'zapfdingbats') return WINGDINGS[low] ?? '•';
  if (f === 'symbol' || !font) return SYMBOL[low] ?? (isPrivate ? '•' : String.fromCharCode(low));
  // A private-use character in a font we know nothing about: show a bullet rather than a missing glyph.
  return isPrivate ? '•' : String.fromCodePoint(code);
}

/** Map every character of a string written in a symbol font (bullet lvlText, symbol-font runs). */
export function mapSymbolText(text: string, font: string | undefined): string {
  let out = '';
  for (const ch of text) out += mapSymbolChar(ch.codePointAt(0)!, font);
  return out;
}

/** Whether the text contains private-use symbol characters that need mapping. */
export function hasPrivateUse(text: string): boolean {
  return /[\uf000-\uf0ff]/.test(text);
}
