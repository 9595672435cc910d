/** The typed tables a face's per-character facts are kept in (layout/text/font-book.ts, paint/page-text.ts). */

/**
 * Code points below 0x3000 have typed tables (coverage, advances, glyph ids): Latin, Greek,
 * Cyrillic, Hebrew, Arabic, the other alphabets and the punctuation and symbols blocks, which nearly
 * all text is in; so do the presentation forms U+FB00–U+FEFF (the Arabic letters our engine
 * shapes into, layout/text/arabic-shaping.ts), in the slots after them. Others (private-use symbol fonts,
 * CJK, beyond the BMP) are kept in Maps. A table of the whole BMP was 256 KB per face, kept for the
 * isolate's life.
 */
export const TABLE_SLOTS = 0x3400;
/** A code point's slot in the typed tables, or -1 when it has none. */
export const slotOf = (cp: number): number => (cp < 0x3000 ? cp : cp >= 0xfb00 && cp < 0xff00 ? cp - 0xcb00 : -1);
