/**
 * OpenDocument styles as every ODF reader needs them (spreadsheets and presentations alike): the
 * styles of styles.xml and the automatic styles of content.xml by family and name, the default
 * styles, page layouts, master pages, list styles, and the named fill images and gradients of
 * office:styles; a style's chain of parents; lengths in points, colours, a text style's font, and a
 * paragraph's plain text. What only one format reads (cell styles, data formats) stays with it.
 */
import { attr, child, children, type XmlElement } from '../../../codecs/xml';

/** Entries of one kind a document's styles are read to at most (as the XLSX reader's style lists). */
export const ODF_STYLES_MAX = 65_536;
/** Parent chains longer than this are cut (LibreOffice's are two or three deep). */
export const PARENT_DEPTH_MAX = 16;
/** Characters a paragraph's text is read to by default (Excel's most in a cell or shape). */
export const ODF_TEXT_MAX = 32_767;

/** The number:*-style elements: data styles, which cell styles name by style:data-style-name. */
const DATA_STYLES = new Set(['number-style', 'currency-style', 'percentage-style', 'date-style', 'time-style', 'boolean-style', 'text-style']);

const UNIT_POINTS: Record<string, number> = { pt: 1, in: 72, cm: 72 / 2.54, mm: 72 / 25.4, pc: 12, px: 0.75 };

/** An ODF length ("0.2602in", "2cm", "10pt") in points, to a thousandth; undefined when unreadable. */
export function lengthPoints(value: string | undefined): number | undefined {
  const m = /^\s*(-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*(pt|in|cm|mm|pc|px)?\s*$/i.exec(value ?? '');
  if (!m) return undefined;
  const points = Number(m[1]) * UNIT_POINTS[(m[2] ?? 'pt').toLowerCase()]!;
  return Number.isFinite(points) ? Math.round(points * 1000) / 1000 : undefined;
}

/** "#4e5b6f" → "4E5B6F"; undefined for "transparent" and anything else. */
export function hexColor(value: string | undefined): string | undefined {
  return value && /^#[0-9a-f]{6}$/i.test(value) ? value.slice(1).toUpperCase() : undefined;
}

/** How text looks: its face, size in points, weight, slant, lines and colour (RRGGBB). */
export interface TextLook {
  name: string;
  size: number;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  color?: string;
}

/** Every style the package declares, by family and name; font faces by name. */
export class StyleSources {
  readonly fontFaces = new Map<string, string>();
  /** "table-cell:ce1", "table-column:co1", "table:ta1", "text:MT1", "presentation:pr1"... */
  readonly styles = new Map<string, XmlElement>();
  readonly defaults = new Map<string, XmlElement>();
  readonly dataStyles = new Map<string, XmlElement>();
  readonly pageLayouts = new Map<string, XmlElement>();
  readonly masterPages: XmlElement[] = [];
  /** text:list-style elements by name (L1, or a presentation style's own). */
  readonly listStyles = new Map<string, XmlElement>();
  /** draw:fill-image (its xlink:href into the package) and draw:gradient elements by draw:name. */
  readonly fillImages = new Map<string, XmlElement>();
  readonly gradients = new Map<string, XmlElement>();
  /** draw:opacity transparency gradients by draw:name. */
  readonly opacities = new Map<string, XmlElement>();

  /** Adds one document's styles (styles.xml first, then content.xml, whose automatic styles win). */
  add(root: XmlElement | undefined): void {
    for (const face of children(child(root, 'font-face-decls'), 'font-face').slice(0, ODF_STYLES_MAX)) {
      const family = attr(face, 'font-family')?.split(',')[0]?.trim().replace(/^['"]|['"]$/g, '');
      if (attr(face, 'name') && family) this.fontFaces.set(attr(face, 'name')!, family);
    }
    for (const group of ['styles', 'automatic-styles']) {
      for (const el of (child(root, group)?.children ?? []).slice(0, ODF_STYLES_MAX)) {
        if (typeof el !== 'string') this.addOne(el);
      }
    }
    this.masterPages.push(...children(child(root, 'master-styles'), 'master-page').slice(0, ODF_STYLES_MAX));
  }

  private addOne(el: XmlElement): void {
    const name = attr(el, 'name');
    if (el.name === 'default-style') this.defaults.set(attr(el, 'family') ?? '', el);
    else if (!name) return;
    else if (el.name === 'style') this.styles.set(`${attr(el, 'family')}:${name}`, el);
    else if (el.name === 'page-layout') this.pageLayouts.set(name, el);
    else if (el.name === 'list-style') this.listStyles.set(name, el);
    else if (el.name === 'fill-image') this.fillImages.set(name, el);
    else if (el.name === 'gradient') this.gradients.set(name, el);
    else if (el.name === 'opacity') this.opacities.set(name, el);
    else if (DATA_STYLES.has(el.name)) this.dataStyles.set(name, el);
  }

  style(family: string, name: string | undefined): XmlElement | undefined {
    return name === undefined ? undefined : this.styles.get(`${family}:${name}`);
  }

  /** A style and its parents, the farthest parent first; a loop or a chain too long is cut. */
  chain(family: string, name: string | undefined): XmlElement[] {
    const out: XmlElement[] = [];
    const seen = new Set<string>();
    for (let at = name; at !== undefined && !seen.has(at) && out.length < PARENT_DEPTH_MAX; ) {
      seen.add(at);
      const el = this.style(family, at);
      if (!el) break;
      out.unshift(el);
      at = attr(el, 'parent-style-name');
    }
    return out;
  }

  /** A property element's attributes of a (non-cell) style: `props(s, 'table-row', 'ro1', 'table-row-properties')`. */
  props(family: string, name: string | undefined, element: string): Record<string, string> {
    return child(this.style(family, name), element)?.attrs ?? {};
  }

  /** The family of text properties: style:font-name's face (its svg:font-family), else fo:font-family, else the name itself. */
  fontFamily(text: Record<string, string>): string | undefined {
    const face = text['font-name'] ? this.fontFaces.get(text['font-name']) : undefined;
    const family = text['font-family']?.split(',')[0]?.trim().replace(/^['"]|['"]$/g, '');
    return face ?? (family || text['font-name']);
  }
}

/** The look of resolved text properties, `base` where they say nothing. */
export function fontOf(sources: StyleSources, text: Record<string, string>, base: TextLook): TextLook {
  const size = lengthPoints(text['font-size']);
  const weight = text['font-weight'];
  const color = text['use-window-font-color'] === 'true' ? undefined : hexColor(text['color']);
  const set = (v: string | undefined) => v !== undefined && v !== 'none';
  return {
    name: sources.fontFamily(text) ?? base.name,
    size: size && size > 0 && size < 410 ? size : base.size,
    ...(weight === 'bold' || Number(weight) >= 600 ? { bold: true } : {}),
    ...(text['font-style'] === 'italic' || text['font-style'] === 'oblique' ? { italic: true } : {}),
    ...(set(text['text-underline-style']) ? { underline: true } : {}),
    ...(set(text['text-line-through-style']) ? { strike: true } : {}),
    ...(color ? { color } : {}),
  };
}

/** The text of a paragraph-like element: spaces (text:s), tabs, line breaks, spans and links; notes and frames left out. */
export function paragraphText(el: XmlElement, max = ODF_TEXT_MAX): string {
  const out: string[] = [];
  let length = 0;
  const add = (text: string) => {
    if (length >= max) return;
    out.push(text.length > max - length ? text.slice(0, max - length) : text);
    length += text.length;
  };
  const walk = (node: XmlElement) => {
    for (const c of node.children) {
      if (length >= max) return;
      // Spaces as they stand: LibreOffice writes a cell's runs of spaces as they are, and reads them back so.
      if (typeof c === 'string') add(c);
      else if (c.name === 's') add(' '.repeat(Math.min(Math.max(1, Number(attr(c, 'c') ?? 1) || 1), max - length)));
      else if (c.name === 'tab') add('\t');
      else if (c.name === 'line-break') add('\n');
      else if (c.name !== 'note' && c.name !== 'annotation' && c.prefix !== 'draw') walk(c);
    }
  };
  walk(el);
  return out.join('');
}
