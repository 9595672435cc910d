/**
 * Pictures MuPDF cannot read, made ones it can before layout (html-to-pdf): a `data:image/webp`
 * picture (MuPDF's build has no WebP) decoded by the WebP engine and embedded again as PNG, in
 * `src` attributes and CSS alike; a `data:image/svg+xml` picture (nor SVG) drawn by
 * svg-picture.ts. Pictures past the budget stay as they are (not drawn).
 */
import { base64, dataUrlBytes, fromBase64 } from '../../codecs/png';
import { loadMupdf } from '../../pdf/mupdf';
import { webpToPng } from '../../codecs/webp';
import { svgToPng } from './svg-picture';

/** At most this many WebP pictures are decoded per page, and at most this many bytes of them. */
const MAX_PICTURES = 64;
const MAX_BYTES = 20_000_000;

export async function withDrawablePictures(html: string): Promise<string> {
  return withWebpAsPng(await withSvgAsPng(html));
}

/**
 * `<img src="data:image/svg+xml…">` drawn by svg-picture.ts and embedded as PNG at twice its size,
 * the picture's own width and height given to the img so that it keeps its size on the page.
 */
async function withSvgAsPng(html: string): Promise<string> {
  if (!/data:image\/svg\+xml/i.test(html)) return html;
  const mupdf = await loadMupdf();
  let count = 0;
  return html.replace(/<img\b[^>]*>/gi, (tag) => {
    const src = /\ssrc\s*=\s*(["'])(data:image\/svg\+xml[^"']*)\1/i.exec(tag);
    if (!src || ++count > MAX_PICTURES) return tag;
    try {
      const svg = svgText(src[2]!);
      const drawn = svg && svgToPng(mupdf, svg);
      if (!drawn) return tag;
      let out = tag.replace(src[0], ` src="data:image/png;base64,${base64(drawn.png)}"`);
      if (!/\swidth\s*=/i.test(out) && !/\sheight\s*=/i.test(out)) out = out.replace(/^<img\b/i, `<img width="${Math.round(drawn.width)}" height="${Math.round(drawn.height)}"`);
      return out;
    } catch {
      return tag; // an SVG this cannot draw stays as it is: not drawn
    }
  });
}

/** The SVG text of a data: URL, base64 or percent-encoded. */
function svgText(url: string): string | undefined {
  // The URL as written in an attribute: its quotes and ampersands as entities.
  const bytes = dataUrlBytes(url.replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
  return bytes && new TextDecoder().decode(bytes);
}

async function withWebpAsPng(html: string): Promise<string> {
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
