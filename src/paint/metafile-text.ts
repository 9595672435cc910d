/** 8-bit text of WMF records and EMR_EXTTEXTOUTA, decoded by the font's character set. */

const CP1252_80 = '\u20ac\ufffd\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\ufffd\u017d\ufffd\ufffd\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\ufffd\u017e\u0178';
const CP1251_80 =
  '\u0402\u0403\u201a\u0453\u201e\u2026\u2020\u2021\u20ac\u2030\u0409\u2039\u040a\u040c\u040b\u040f\u0452\u2018\u2019\u201c\u201d\u2022\u2013\u2014\ufffd\u2122\u0459\u203a\u045a\u045c\u045b\u045f' +
  '\u00a0\u040e\u045e\u0408\u00a4\u0490\u00a6\u00a7\u0401\u00a9\u0404\u00ab\u00ac\u00ad\u00ae\u0407\u00b0\u00b1\u0406\u0456\u0491\u00b5\u00b6\u00b7\u0451\u2116\u0454\u00bb\u0458\u0405\u0455\u0457';
/** Symbol font 0x20..0x7F as Unicode (Greek letters and math signs: MathType equations). */
const SYMBOL_20 =
  ' !\u2200#\u2203%&\u220b()\u2217+,\u2212./0123456789:;<=>?\u2245\u0391\u0392\u03a7\u0394\u0395\u03a6\u0393\u0397\u0399\u03d1\u039a\u039b\u039c\u039d\u039f\u03a0\u0398\u03a1\u03a3\u03a4\u03a5\u03c2\u03a9\u039e\u03a8\u0396[\u2234]\u22a5_\u203e\u03b1\u03b2\u03c7\u03b4\u03b5\u03c6\u03b3\u03b7\u03b9\u03d5\u03ba\u03bb\u03bc\u03bd\u03bf\u03c0\u03b8\u03c1\u03c3\u03c4\u03c5\u03d6\u03c9\u03be\u03c8\u03b6{|}\u223c ';
/** Symbol font 0xA0..0xFF. */
const SYMBOL_A0 =
  '\u20ac\u03d2\u2032\u2264\u2044\u221e\u0192\u2663\u2666\u2665\u2660\u2194\u2190\u2191\u2192\u2193\u00b0\u00b1\u2033\u2265\u00d7\u221d\u2202\u2022\u00f7\u2260\u2261\u2248\u2026\u23d0\u23af\u21b5' +
  '\u2135\u2111\u211c\u2118\u2297\u2295\u2205\u2229\u222a\u2283\u2287\u2284\u2282\u2286\u2208\u2209\u2220\u2207\u00ae\u00a9\u2122\u220f\u221a\u22c5\u00ac\u2227\u2228\u21d4\u21d0\u21d1\u21d2\u21d3' +
  '\u25ca\u2329\u00ae\u00a9\u2122\u2211\u239b\u239c\u239d\u23a1\u23a2\u23a3\u23a7\u23a8\u23a9\u23aa\ufffd\u232a\u222b\u2320\u23ae\u2321\u239e\u239f\u23a0\u23a4\u23a5\u23a6\u23ab\u23ac\u23ad\ufffd';

export const RUSSIAN_CHARSET = 204;
export const SYMBOL_CHARSET = 2;

export function decode8(bytes: Uint8Array, charset: number, face: string): string {
  const symbol = charset === SYMBOL_CHARSET && /^symbol$/i.test(face.trim());
  let s = '';
  for (const b of bytes) {
    if (symbol) s += b >= 0x20 && b < 0x80 ? SYMBOL_20[b - 0x20] : b >= 0xa0 ? SYMBOL_A0[b - 0xa0] : String.fromCharCode(b);
    else if (b < 0x80) s += String.fromCharCode(b);
    else if (charset === RUSSIAN_CHARSET) s += b >= 0xc0 ? String.fromCharCode(0x410 + b - 0xc0) : CP1251_80[b - 0x80];
    else s += b < 0xa0 ? CP1252_80[b - 0x80] : String.fromCharCode(b);
  }
  return s;
}

/** Symbol-font text in a Unicode record: the private-use F0xx range maps like the 8-bit codes. */
export function unSymbol(text: string, face: string): string {
  if (!/^symbol$/i.test(face.trim())) return text;
  return text.replace(/[\uf020-\uf0ff]/g, (c) => decode8(new Uint8Array([c.charCodeAt(0) - 0xf000]), SYMBOL_CHARSET, 'Symbol'));
}
