/**
 * The font table (SttbfFfn): run properties name fonts by index (ftc). Word 97 stores FFN records with
 * UTF-16 names; Word 6 stores them with 8-bit names after a total byte count.
 */
import { u16, u8, utf16 } from '../../../../codecs/binary';

export interface FontEntry {
  name: string;
  /** Windows charset (204 = Cyrillic): the code page of Word 6 8-bit text in this font. */
  charset: number;
}

export function readFonts(table: Uint8Array, fc: number, lcb: number, word6: boolean): FontEntry[] {
  const fonts: FontEntry[] = [];
  if (lcb < 4 || fc + lcb > table.length) return fonts;
  const end = fc + lcb;
  if (word6) {
    // cbFfnTable (2 bytes, total length) then FFNs: cbFfnM1, flags, wWeight(2), chs, ixchSzAlt, szFfn.
    let o = fc + 2;
    while (o < end) {
      const cb = u8(table, o) + 1;
      if (cb < 7) break;
      const charset = u8(table, o + 4);
      let name = '';
      for (let k = o + 6; k < o + cb && table[k] !== 0; k++) name += String.fromCharCode(table[k]!);
      fonts.push({ name, charset });
      o += cb;
    }
    return fonts;
  }
  const count = u16(table, fc);
  let o = fc + 4;
  for (let i = 0; i < count && o < end; i++) {
    const cb = u8(table, o) + 1;
    // FFN: cbFfnM1, flags, wWeight(2), chs, ixchSzAlt, panose(10), fs(24), then the UTF-16 name.
    const charset = u8(table, o + 4);
    const nameStart = o + 40;
    let len = 0;
    while (nameStart + 2 * len + 1 < o + cb && u16(table, nameStart + 2 * len) !== 0) len++;
    fonts.push({ name: utf16(table, nameStart, len), charset });
    o += cb;
  }
  return fonts;
}
