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
