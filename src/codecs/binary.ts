/**
 * Little-endian readers over the raw streams of a .doc and the two 8-bit code pages we decode.
 * Reads past the end throw a RangeError, which readDoc turns into a 'corrupt' ConversionError:
 * a truncated structure must not silently become zeros that look like valid properties.
 */

export function u8(b: Uint8Array, o: number): number {
  if (o < 0 || o >= b.length) throw new RangeError(`read past end at ${o}`);
  return b[o]!;
}

export function u16(b: Uint8Array, o: number): number {
  if (o < 0 || o + 2 > b.length) throw new RangeError(`read past end at ${o}`);
  return b[o]! | (b[o + 1]! << 8);
}

export function i16(b: Uint8Array, o: number): number {
  const v = u16(b, o);
  return v & 0x8000 ? v - 0x10000 : v;
}

export function u32(b: Uint8Array, o: number): number {
  if (o < 0 || o + 4 > b.length) throw new RangeError(`read past end at ${o}`);
  return (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;
}

export function i32(b: Uint8Array, o: number): number {
  return u32(b, o) | 0;
}

/** A sub-range that fails loudly when the structure claims more bytes than the stream has. */
export function slice(b: Uint8Array, o: number, len: number): Uint8Array {
  if (o < 0 || len < 0 || o + len > b.length) throw new RangeError(`range ${o}+${len} outside ${b.length}`);
  return b.subarray(o, o + len);
}

/** UTF-16LE string of `count` code units. */
export function utf16(b: Uint8Array, o: number, count: number): string {
  let s = '';
  for (let i = 0; i < count; i++) s += String.fromCharCode(u16(b, o + 2 * i));
  return s;
}

/**
 * A PLC ("plex"): n+1 positions (CPs or FCs, 4 bytes each) followed by n fixed-size data items.
 * Its count follows from the byte length: n = (lcb - 4) / (4 + cbData).
 */
export interface Plc {
  positions: number[];
  data: Uint8Array[];
}

export function readPlc(b: Uint8Array, fc: number, lcb: number, cbData: number): Plc {
  if (lcb < 4 || fc + lcb > b.length) return { positions: [], data: [] };
  const n = Math.floor((lcb - 4) / (4 + cbData));
  const positions: number[] = [];
  for (let i = 0; i <= n; i++) positions.push(i32(b, fc + 4 * i));
  const data: Uint8Array[] = [];
  const base = fc + 4 * (n + 1);
  for (let i = 0; i < n; i++) data.push(slice(b, base + i * cbData, cbData));
  return { positions, data };
}

// Code pages. Word 97+ stores 8-bit ("compressed") pieces in cp1252 only; Word 6/95 stores all text in
// the code page of the document or font, which for the documents we see is cp1252 or cp1251 (Russian).

const CP1252_HIGH =
  '\u20AC\uFFFD\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\uFFFD\u017D\uFFFD' +
  '\uFFFD\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\uFFFD\u017E\u0178';

const CP1251_HIGH =
  '\u0402\u0403\u201A\u0453\u201E\u2026\u2020\u2021\u20AC\u2030\u0409\u2039\u040A\u040C\u040B\u040F' +
  '\u0452\u2018\u2019\u201C\u201D\u2022\u2013\u2014\uFFFD\u2122\u0459\u203A\u045A\u045C\u045B\u045F' +
  '\u00A0\u040E\u045E\u0408\u00A4\u0490\u00A6\u00A7\u0401\u00A9\u0404\u00AB\u00AC\u00AD\u00AE\u0407' +
  '\u00B0\u00B1\u0406\u0456\u0491\u00B5\u00B6\u00B7\u0451\u2116\u0454\u00BB\u0458\u0405\u0455\u0457';

export type CodePage = 1251 | 1252;

/** One byte of 8-bit text as a UTF-16 code unit. */
export function decodeByte(byte: number, cp: CodePage): number {
  if (byte < 0x80) return byte;
  if (cp === 1251) {
    if (byte >= 0xc0) return 0x0410 + (byte - 0xc0); // А..я are contiguous in both
    return CP1251_HIGH.charCodeAt(byte - 0x80);
  }
  if (byte < 0xa0) {
    const c = CP1252_HIGH.charCodeAt(byte - 0x80);
    // Undefined cp1252 slots keep their byte value (C1 control) like Word's own mapping does.
    return c === 0xfffd ? byte : c;
  }
  return byte;
}

/** The code page of a Windows charset (FFN.chs / lid), or undefined when we have no table for it. */
export function codePageOfCharset(chs: number): CodePage | undefined {
  if (chs === 204) return 1251;
  if (chs === 0 || chs === 1) return 1252;
  return undefined;
}

/** Cyrillic-script languages: their 8-bit text is cp1251. */
export function codePageOfLid(lid: number): CodePage {
  const primary = lid & 0x3ff;
  // ru, uk, be, bg, sr/hr family uses 0x1a but only the Cyrillic sublanguages (0x0c1a, 0x1c1a) are 1251.
  if (primary === 0x19 || primary === 0x22 || primary === 0x23 || primary === 0x02 || primary === 0x2f) return 1251;
  if (lid === 0x0c1a || lid === 0x1c1a) return 1251;
  return 1252;
}
