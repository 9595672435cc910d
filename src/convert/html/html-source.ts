/**
 * The page's text as html-to-pdf gives it to the rewrite and to MuPDF: decoded from its encoding,
 * with active content and Word's namespaced tags removed, its style sheets read for print, and
 * the CSS values MuPDF reads otherwise written as it reads them right.
 */
import { opaqueColors } from './css-colors';
import { flattenCss, pxToPt, resolveInlineVars } from './css-flatten';
import { DEFAULT_MEDIA, matchesPrint, resolveViewportAndCalc, type PrintedMedia } from './css-media';

/** The file's text: UTF-16 or UTF-8 by byte order mark, else the charset its <meta> declares, else UTF-8 if it is that, else a guess between windows-1251, KOI8-R and windows-1252. */
export function decodeHtml(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
  const declared = /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  if (declared) {
    try {
      return new TextDecoder(declared).decode(bytes);
    } catch {
      // A charset TextDecoder does not know: guessed below, as for none.
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder(eightBitCharset(bytes)).decode(bytes);
  }
}

/**
 * The 8-bit charset of a file that declares none and is not UTF-8 (saved without HTTP headers).
 * In the text between tags, Russian is mostly letters above 0x7F, Western text mostly ASCII letters
 * with an accented one here and there (windows-1252). Russian is mostly lower case, which
 * windows-1251 codes at 0xE0-0xFF and KOI8-R at 0xC0-0xDF.
 */
export function eightBitCharset(bytes: Uint8Array): string {
  let [ascii, high, c0df, e0ff, inTag] = [0, 0, 0, 0, false];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x3c) inTag = true;
    else if (b === 0x3e) inTag = false;
    if (inTag) continue;
    if ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)) ascii++;
    if (b < 0x80) continue;
    high++;
    if (b >= 0xe0) e0ff++;
    else if (b >= 0xc0) c0df++;
  }
  if (high < ascii * 0.3 || (c0df + e0ff) * 2 < high) return 'windows-1252';
  return e0ff >= c0df ? 'windows-1251' : 'koi8-r';
}

/**
 * Scripts (never run), frames, objects and meta refreshes removed, every <meta charset> made
 * UTF-8 (the text is UTF-8 from here on), @font-face rules with data: fonts dropped, style
 * sheets flattened (css-flatten.ts) and long data: URLs taken out of styles (withoutLongUrls).
 */
export function withoutActiveContent(html: string, media: PrintedMedia = DEFAULT_MEDIA, sheetVars = new Map<string, string>()): string {
  return html
    .replace(/<style\b([^>]*)>[\s\S]*?<\/style\s*>/gi, (sheet, attributes: string) => (forPrint(attributes) ? sheet : ''))
    .replace(/<script\b[\s\S]*?(<\/script\s*>|$)/gi, '')
    .replace(/<(iframe|object|embed|frame|frameset)\b[\s\S]*?(<\/\1\s*>|\/>|$)/gi, '')
    .replace(/<meta[^>]+http-equiv\s*=\s*["']?refresh[^>]*>/gi, '')
    // Word's namespaced tags (<o:p></o:p> ends every paragraph it saves): MuPDF reads o:p as a p and
    // put an empty paragraph after each one; browsers draw their content inline, as here.
    .replace(/<\/?[a-z][\w-]*:[\w-]+(\s[^>]*)?\/?>/gi, '')
    .replace(/<meta[^>]+charset[^>]*>/gi, '<meta charset="utf-8">')
    // MuPDF's CSS reader stops at the first over-long token, so a @font-face carrying a data: font
    // ended the whole stylesheet (every rule after it lost). Those faces go; the text falls back
    // to MuPDF's own faces and the rest of the stylesheet applies.
    .replace(/@font-face\s*\{[^{}]*url\(\s*["']?data:[^{}]*\}/gi, '')
    // Nesting, custom properties and @page margin boxes written out as MuPDF reads CSS.
    .replace(/(<style\b[^>]*>)([\s\S]*?)(<\/style\s*>)/gi, (_, open: string, css: string, close: string) => open + withoutLongUrls(flattenCss(css, { ...media, forMupdf: true })) + close)
    .replace(/(\sstyle\s*=\s*)(["'])([\s\S]*?)\2/gi, (_, head: string, quote: string, value: string) => head + quote + withoutLongUrls(resolveInlineVars(value, sheetVars)) + quote);
}

/** Whether a <style> element's `media` attribute (if any) holds for print. */
export function forPrint(attributes: string): boolean {
  const media = /\bmedia\s*=\s*["']?([^"'>]*)/i.exec(attributes)?.[1];
  return media === undefined || !media.trim() || matchesPrint(media);
}

/**
 * MuPDF's CSS reader gives up on a token over 1 KB, and the rest of the style sheet with it. The
 * long ones are data: URLs of background pictures, which its layout does not draw anyway: each is
 * taken out, so the colour, size and position beside it still apply, and a declaration left
 * empty goes (`none` in its place would read as black). Fonts come through html-fonts.ts.
 */
export function withoutLongUrls(css: string): string {
  if (css.length < 1000) return css;
  return css
    .replace(/url\(\s*(?:"[^"]*"|'[^']*'|[^)"']*)\s*\)\s*(format\([^)]*\))?,?/gi, (token) => (token.length > 1000 ? '\u0000' : token))
    .replace(/([{;"']\s*)[\w-]+\s*:\s*\u0000[\s\u0000]*(;|(?=[}"']))/g, '$1')
    .replaceAll('\u0000', '');
}

/**
 * Lengths as MuPDF reads them (px as points, pxToPt; viewport units and calc() worked out,
 * resolveViewportAndCalc) and colours as it draws them (opaqueColors), in style sheets and style
 * attributes.
 */
export function inPoints(html: string, media: PrintedMedia): string {
  return html
    .replace(/(<style\b[^>]*>)([\s\S]*?)(<\/style\s*>)/gi, (_, open: string, css: string, close: string) => open + forMupdf(css, media) + close)
    .replace(/(\sstyle\s*=\s*")([^"]*)"/gi, (_, head: string, css: string) => `${head}${forMupdf(css, media)}"`);
}

function forMupdf(css: string, media: PrintedMedia): string {
  return opaqueColors(pxToPt(resolveViewportAndCalc(css, media)));
}
