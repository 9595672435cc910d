/** The HTML documents the layout hands MuPDF, and what is read back from them once laid out. */
import type * as Mupdf from 'mupdf';
import { pt } from './css-units';
import { layOutMarkup } from '../../../layout/html-engine';

type MupdfModule = typeof Mupdf;

// Spans and links take their paragraph's vertical-align (its text's place in a line taller than
// the font, block-html.ts lineBox); MuPDF, as CSS, does not inherit it by itself.
const CSS = 'body{margin:0;padding:0}p{margin:0;padding:0}table{border-collapse:collapse}td{padding:0}img{vertical-align:baseline}span,a{vertical-align:inherit}';

/** A style used this many times in a document becomes a class (see styleClasses). */
const CLASS_MIN_USES = 3;
/** At most this many classes: MuPDF tries every rule of the style sheet on every element. */
const MOST_CLASSES = 64;

/**
 * The document's most repeated inline styles as classes. MuPDF lexes an element's style attribute
 * afresh for each element, character by character (a third of parsing a long document), and a
 * rule of the style sheet once; an inline style and a lone class selector both outrank the tag
 * rules, so the cascade is the same. Measured on the HTML of pr14tz and bug59058: parsing and
 * layout 106 → 84 and 98 → 77 ms.
 */
export function styleClasses(body: string): { body: string; css: string } {
  const uses = new Map<string, number>();
  for (const m of body.matchAll(STYLE_ATTRIBUTE)) uses.set(m[1]!, (uses.get(m[1]!) ?? 0) + 1);
  const chosen = [...uses].filter(([, n]) => n >= CLASS_MIN_USES).sort((a, b) => b[1] - a[1]).slice(0, MOST_CLASSES);
  if (!chosen.length) return { body, css: '' };
  const names = new Map(chosen.map(([style], i) => [style, `z${i}`]));
  return {
    body: body.replace(STYLE_ATTRIBUTE, (attribute, style: string) => {
      const name = names.get(style);
      return name ? ` class="${name}"` : attribute;
    }),
    css: chosen.map(([style], i) => `.z${i}{${style}}`).join(''),
  };
}
const STYLE_ATTRIBUTE = / style="([^"]*)"/g;

/** A whole HTML document for `body`, laid out in frames `width` × `height` with the given margins (points). */
export function htmlDocument(width: number, height: number, margins: number[], body: string): string {
  const page = `@page{size:${pt(width)} ${pt(height)};margin:${margins.map(pt).join(' ')}}`;
  const classed = styleClasses(body);
  return `<!DOCTYPE html><html><head><meta charset="utf-8"/><style>${page}${CSS}${classed.css}</style></head><body>${classed.body}</body></html>`;
}

/**
 * Parsed as XHTML: the markup is ours and well-formed, and MuPDF's XML parser keeps it as written,
 * where the HTML5 parser rebuilt it (a text box's <div> inside a <p> closed the paragraph, and the
 * box's text was lost in tika numbered_list.doc). It is faster too: stress008 1,351 → 1,141 ms,
 * bug59058 477 → 443 ms. Should the markup ever be malformed, MuPDF parses it again as HTML5.
 */
export function openHtml(mupdf: MupdfModule, html: string, width: number, height: number, em: number): Mupdf.Document {
  return layOutMarkup(mupdf, html, 'xhtml', { width, height, em });
}

/**
 * The frames of a laid-out chunk that show an element with the ids `<prefix>0…<prefix>count-1`
 * (inline-html.ts), and with `spill` the frame after each too. External links (xl, spilling, as a
 * link broken across the page ends on the next): only these frames are asked for their links,
 * which MuPDF answers by walking the whole chunk's boxes, once per page asked. Metafile and shape
 * stand-ins (ph): only these frames go through the device that draws them.
 */
export function framesWithIds(doc: Mupdf.Document, prefix: string, count: number, spill = false): Set<number> {
  const frames = new Set<number>();
  for (let i = 0; i < count; i++) {
    const frame = doc.resolveLink(`#${prefix}${i}`);
    if (frame >= 0) frames.add(frame);
    if (frame >= 0 && spill) frames.add(frame + 1);
  }
  return frames;
}

interface Box {
  y: number;
  h: number;
}

/** The text and picture blocks a frame of a laid-out document shows (shapes are pictures until drawn), with their lines. */
export function frameBlocks(doc: Mupdf.Document, frame: number): { bbox: Box; lines?: { bbox: Box }[] }[] {
  const page = doc.loadPage(frame);
  const stext = page.toStructuredText('preserve-images');
  try {
    return (JSON.parse(stext.asJSON()) as { blocks: { bbox: Box; lines?: { bbox: Box }[] }[] }).blocks;
  } finally {
    stext.destroy();
    page.destroy();
  }
}

/**
 * Whether frame `frame` shows a line that ends above where element `id` starts: something before
 * the element on that frame. MuPDF gives an element's place as the baseline of its first line, so
 * a line that ends above it belongs to something else (a block may hold the element's lines too).
 */
export function linesAbove(doc: Mupdf.Document, frame: number, id: string): boolean {
  const first = frameBlocks(doc, frame)[0];
  if (!first) return false;
  const line = first.lines?.[0]?.bbox ?? first.bbox;
  return line.y + line.h < doc.resolveLinkDestination(`#${id}`).y - 2;
}

/** Height of what a header or footer area (or a frame) draws: the bottom of its last text line or picture. */
export function contentHeight(doc: Mupdf.Document, frame = 0): number {
  return frameBlocks(doc, frame).reduce((m, b) => Math.max(m, b.bbox.y + b.bbox.h), 0);
}

