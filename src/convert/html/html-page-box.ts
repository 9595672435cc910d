/**
 * The sheet html-to-pdf lays the page out on: the document's own `@page { size; margin }` where it
 * sets them, else the request's page_size, orientation and margin (the request's parameters are
 * defaults the document overrides, as OpenAPI says).
 */
import type { StyleRule } from './css-flatten';
import { cssLength } from './html-page-decor';

export type Params = { page_size: 'A4' | 'A3' | 'Letter'; orientation: 'portrait' | 'landscape'; margin: 'standard' | 'narrow' | 'none' };

/** Page sizes in points, portrait. */
const SIZES = { A4: [595.28, 841.89], A3: [841.89, 1190.55], Letter: [612, 792] } as const;
/** Chromium's default print margins (about 1 cm) for standard; a quarter inch for narrow. */
const MARGINS = { standard: '10mm', narrow: '6.35mm', none: '0' } as const;

/** Named sheet sizes CSS's `@page { size }` takes, in points, portrait. */
const CSS_SIZES: Record<string, [number, number]> = { a5: [419.53, 595.28], a4: [595.28, 841.89], a3: [841.89, 1190.55], b5: [498.9, 708.66], b4: [708.66, 1000.63], letter: [612, 792], legal: [612, 1008], ledger: [792, 1224] };

/** The sheet and its margins: the document's own @page size and margins where it sets them, else the request's. */
export function pageBox(rules: StyleRule[], params: Params, wrapperClass?: string): { w: number; h: number; margin: string; margins: [number, number, number, number] } {
  const named = wrapperClass ? namedPage(rules, wrapperClass) : undefined;
  const declared = rules.filter((r) => /^@page\s*$/i.test(r.selector) || (named && r.selector.toLowerCase() === `@page ${named}`)).flatMap((r) => r.declarations);
  const [requestedW, requestedH] = SIZES[params.page_size];
  let [w, h]: [number, number] = params.orientation === 'landscape' ? [requestedH, requestedW] : [requestedW, requestedH];
  const size = declared.filter(([p]) => p === 'size').pop()?.[1].toLowerCase();
  if (size) [w, h] = cssPageSize(size, [w, h]);
  const declaredMargins = declared.filter(([p]) => /^margin(-(top|right|bottom|left))?$/.test(p));
  const margins = marginPoints(declaredMargins.length ? declaredMargins : [['margin', MARGINS[params.margin], false]], w);
  const margin = declaredMargins.length ? declaredMargins.map(([p, v]) => `${p}: ${v}`).join('; ') : `margin: ${MARGINS[params.margin]}`;
  return { w, h, margin, margins };
}

/** Margins in points, top, right, bottom, left, from `margin` (one to four values) and its longhands; percentages of the page width. */
function marginPoints(declarations: StyleRule['declarations'], w: number): [number, number, number, number] {
  const out: [number, number, number, number] = [0, 0, 0, 0];
  const sides = ['top', 'right', 'bottom', 'left'];
  for (const [property, value] of declarations) {
    if (property === 'margin') {
      const v = value.trim().split(/\s+/).map((part) => cssLength(part, w) ?? 0);
      const [t, r = t, b = t, l = r] = v as [number, number?, number?, number?];
      out.splice(0, 4, t, r, b, l);
    } else out[sides.indexOf(property.slice(7))] = cssLength(value, w) ?? 0;
  }
  return out;
}


/**
 * The named page the whole document is set on: the one asked for by the class of the box that
 * wraps the body's content (`<div class=WordSection1>` and `div.WordSection1 { page: WordSection1 }`
 * beside `@page WordSection1 { size; margin }`, as Word saves a document as HTML). A named page
 * used by some parts only is not the document's (MuPDF has one sheet per document).
 */
function namedPage(rules: StyleRule[], wrapperClass: string): string | undefined {
  const defined = new Set(rules.map((r) => /^@page\s+([\w-]+)/i.exec(r.selector)?.[1]?.toLowerCase()).filter(Boolean));
  const forWrapper = new RegExp(`(^|[\\s,>])([a-z]*)\\.${wrapperClass.replace(/[^\w-]/g, '')}\\s*($|,)`, 'i');
  for (const rule of rules) {
    if (!forWrapper.test(rule.selector)) continue;
    for (const [p, v] of rule.declarations) if (p === 'page' && defined.has(v.trim().toLowerCase())) return v.trim().toLowerCase();
  }
  return undefined;
}

/** `size: A4 landscape`, `size: 210mm 297mm`, `size: 6in`, `size: landscape` (on the requested sheet). */
function cssPageSize(size: string, [w, h]: [number, number]): [number, number] {
  const named = size.split(/\s+/).find((word) => CSS_SIZES[word]);
  let box: [number, number] = named ? [...CSS_SIZES[named]!] : [Math.min(w, h), Math.max(w, h)];
  const lengths = [...size.matchAll(/[\d.]+\s*(?:pt|px|in|cm|mm|pc)/g)].map((m) => cssLength(m[0].replace(/\s+/g, ''), 0)!);
  if (lengths.length) box = [lengths[0]!, lengths[1] ?? lengths[0]!];
  const sane = box.every((v) => v >= 72 && v <= 14400);
  if (!sane) return [w, h];
  if (/\blandscape\b/.test(size)) return [Math.max(...box), Math.min(...box)];
  if (/\bportrait\b/.test(size) || named) return [Math.min(...box), Math.max(...box)];
  if (lengths.length) return box;
  return [w, h];
}

