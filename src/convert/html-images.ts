/**
 * Pictures MuPDF cannot read, made ones it can before layout (html-to-pdf): a `data:image/webp`
 * picture (MuPDF's build has no WebP) decoded by the WebP engine and embedded again as PNG, in
 * `src` attributes and CSS alike. Pictures past the budget stay as they are (not drawn).
 */
import { base64, fromBase64 } from '../converters/png';
import { webpToPng } from '../engines/webp';

/** At most this many WebP pictures are decoded per page, and at most this many bytes of them. */
const MAX_PICTURES = 64;
const MAX_BYTES = 20_000_000;

export async function withDrawablePictures(html: string): Promise<string> {
  const found = [...html.matchAll(/data:image\/webp;base64,([A-Za-z0-9+/=\s]+)/gi)].slice(0, MAX_PICTURES);
  if (!found.length) return html;
  let budget = MAX_BYTES;
  const replacements = new Map<string, string>();
  for (const match of found) {
    if (replacements.has(match[0]) || budget <= 0) continue;
    try {
      const webp = fromBase64(match[1]!);
      budget -= webp.length;
      replacements.set(match[0], `data:image/png;base64,${base64(await webpToPng(webp))}`);
    } catch {
      // A WebP that does not decode (or is too large) stays as it is: MuPDF leaves it out, as a browser shows a broken picture.
    }
  }
  return html.replace(/data:image\/webp;base64,[A-Za-z0-9+/=\s]+/gi, (url) => replacements.get(url) ?? url);
}
