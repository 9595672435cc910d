/**
 * Media queries as a printed page answers them (html-to-pdf): MuPDF's reader skips every @media
 * block, so the print rules a page relies on (`@media print { nav { display: none } }`) were lost
 * and its screen rules ignored alike. Here a query is answered for print: media type print or
 * all (not screen), the width and height of the page's content area in CSS pixels, its
 * orientation, a light colour scheme, no hover and no pointer; features not known match nothing.
 */

export interface PrintedMedia {
  /** The page's content area in CSS pixels. */
  width: number;
  height: number;
}

/** A4 less Chromium's default margins, for style sheets read before the page's size is known. */
export const DEFAULT_MEDIA: PrintedMedia = { width: 718, height: 1047 };

/** Whether a media query list (`print, screen and (min-width: 40em)`) matches the printed page. */
export function matchesPrint(list: string, media: PrintedMedia = DEFAULT_MEDIA): boolean {
  return list.split(',').some((query) => matchesQuery(query.trim().toLowerCase(), media));
}

function matchesQuery(query: string, media: PrintedMedia): boolean {
  const negated = /^not\s/.test(query);
  const body = query.replace(/^(not|only)\s+/, '');
  const type = /^([a-z-]+)/.exec(body)?.[1];
  const typeMatches = !type || type === 'and' ? true : type === 'print' || type === 'all';
  const features = [...body.matchAll(/\(([^()]*)\)/g)].map((m) => m[1]!.trim());
  const matches = typeMatches && features.every((feature) => matchesFeature(feature, media));
  return negated ? !matches : matches;
}

const EM = 16;
const PX: Record<string, number> = { px: 1, em: EM, rem: EM, pt: 4 / 3, pc: 16, in: 96, cm: 96 / 2.54, mm: 96 / 25.4 };

function matchesFeature(feature: string, media: PrintedMedia): boolean {
  const [name, raw] = feature.split(':').map((part) => part.trim()) as [string, string | undefined];
  const length = raw ? /^(-?[\d.]+)\s*([a-z]*)$/.exec(raw) : null;
  const px = length ? Number(length[1]) * (PX[length[2] || 'px'] ?? NaN) : NaN;
  switch (name) {
    case 'min-width': return media.width >= px;
    case 'max-width': return media.width <= px;
    case 'width': return Math.abs(media.width - px) < 0.5;
    case 'min-height': return media.height >= px;
    case 'max-height': return media.height <= px;
    case 'orientation': return raw === (media.width > media.height ? 'landscape' : 'portrait');
    case 'prefers-color-scheme': return raw === 'light';
    case 'hover': case 'any-hover': case 'pointer': case 'any-pointer': return raw === 'none';
    case 'color': return true;
    case 'monochrome': return raw === '0';
    default: return false;
  }
}

/** Whether an @supports condition holds in a browser that lays out modern CSS: all but `not (…)`. */
export function supportsHolds(condition: string): boolean {
  return !/^\s*not\b/i.test(condition);
}

/**
 * Viewport units and calc() as MuPDF can read them: `vw`/`vh` as points of the printed page's
 * content area (the viewport a browser prints into), and calc() worked out where its terms are
 * lengths MuPDF knows (px, pt, rem, vw, …) and percentages; a sum of both keeps the percentage
 * (`calc(100% - 2em)` becomes 100%), which is near, where MuPDF would drop the declaration.
 */
export function resolveViewportAndCalc(css: string, media: PrintedMedia = DEFAULT_MEDIA): string {
  const pt = { px: 0.75, pt: 1, pc: 12, in: 72, cm: 72 / 2.54, mm: 72 / 25.4, rem: 12, em: 12, vw: (media.width * 0.75) / 100, vh: (media.height * 0.75) / 100, vmin: (Math.min(media.width, media.height) * 0.75) / 100, vmax: (Math.max(media.width, media.height) * 0.75) / 100 } as Record<string, number>;
  let out = css.replace(/(-?\d*\.?\d+)(vw|vh|vmin|vmax)\b/gi, (_, n: string, unit: string) => `${(Number(n) * pt[unit.toLowerCase()]!).toFixed(2)}pt`);
  for (let i = 0; i < 20 && /calc\(/i.test(out); i++) {
    out = out.replace(/calc\(([^()]*(?:\([^()]*\)[^()]*)*)\)/gi, (whole, expression: string) => {
      const value = evaluate(expression.replace(/calc\(/gi, '('), pt);
      if (!value) return whole.replace(/^calc/i, 'unresolved'); // not worked out: MuPDF drops just this declaration
      if (value.pct && Math.abs(value.pct) > 1e-6) return `${Number(value.pct.toFixed(3))}%`;
      return `${Number(value.pt.toFixed(3))}pt`;
    });
  }
  return out;
}

interface Linear {
  pt: number;
  pct: number;
  unitless: boolean;
}

/** A calc() body as points plus a percentage (em taken as 12 pt); undefined where it is not that. */
function evaluate(expression: string, pt: Record<string, number>): Linear | undefined {
  const tokens = expression.match(/-?\d*\.?\d+(?:[a-z]+|%)?|[()+\-*/]/gi) ?? [];
  let i = 0;
  const primary = (): Linear | undefined => {
    const t = tokens[i++];
    if (t === undefined) return undefined;
    if (t === '(') {
      const v = sum();
      return tokens[i++] === ')' ? v : undefined;
    }
    const m = /^(-?\d*\.?\d+)([a-z]+|%)?$/i.exec(t);
    if (!m) return undefined;
    const n = Number(m[1]);
    if (!m[2]) return { pt: n, pct: 0, unitless: true };
    if (m[2] === '%') return { pt: 0, pct: n, unitless: false };
    const factor = pt[m[2].toLowerCase()];
    return factor === undefined ? undefined : { pt: n * factor, pct: 0, unitless: false };
  };
  const product = (): Linear | undefined => {
    let left = primary();
    while (left && (tokens[i] === '*' || tokens[i] === '/')) {
      const op = tokens[i++];
      const right = primary();
      if (!right) return undefined;
      if (op === '*' && (left.unitless || right.unitless)) {
        const [k, v] = left.unitless ? [left.pt, right] : [right.pt, left];
        left = { pt: v.pt * k, pct: v.pct * k, unitless: v.unitless };
      } else if (op === '/' && right.unitless && right.pt !== 0) left = { pt: left.pt / right.pt, pct: left.pct / right.pt, unitless: left.unitless };
      else return undefined;
    }
    return left;
  };
  const sum = (): Linear | undefined => {
    let left = product();
    while (left && (tokens[i] === '+' || tokens[i] === '-')) {
      const sign = tokens[i++] === '+' ? 1 : -1;
      const right = product();
      if (!right || right.unitless !== left.unitless) return undefined;
      left = { pt: left.pt + sign * right.pt, pct: left.pct + sign * right.pct, unitless: left.unitless };
    }
    return left;
  };
  const value = sum();
  return value && i === tokens.length && !value.unitless ? value : undefined;
}
