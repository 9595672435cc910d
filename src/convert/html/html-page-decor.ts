/**
 * What a browser prints around and behind the flow of each page from the @page rules, which
 * MuPDF's HTML layout does not draw (html-to-pdf): the page background (a colour, a data: picture
 * sized `cover`, `contain` or as it is) and the margin boxes' text and colour blocks, such as
 * `@bottom-center { content: "Page " counter(page) " of " counter(pages) }`. Rules for every page,
 * `:left`/`:right` (the first page is a right page) and `:first` apply in that order.
 */
import type * as Mupdf from 'mupdf';
import { dataUrlBytes } from '../../codecs/png';
import type { Declaration, PageRule } from './css-flatten';
import type { InstalledFaces } from './html-fonts';

type Rgb = [number, number, number];
export interface PageGeometry {
  w: number;
  h: number;
  /** top, right, bottom, left in points */
  margins: [number, number, number, number];
}

/** Draws the decor of page `index` (of `count`) on `device`, before or after the page's own content. */
export type PageDecor = (device: Mupdf.Device, index: number, count: number, layer: 'behind' | 'above') => void;

export function pageDecor(mupdf: typeof Mupdf, rules: PageRule[], page: PageGeometry, faces: InstalledFaces): PageDecor | undefined {
  if (!rules.some((r) => r.declarations.some(([p]) => p.startsWith('background')) || r.boxes.length)) return undefined;
  const images = new Map<string, Mupdf.Image | null>();
  return (device, index, count, layer) => {
    const { declarations, boxes } = rulesFor(rules, index);
    if (layer === 'behind') return drawBackground(mupdf, device, declarations, { x: 0, y: 0, w: page.w, h: page.h }, images);
    for (const [name, box] of boxes) drawMarginBox(mupdf, device, name, box, declarations, page, faces, { page: index + 1, pages: count }, images);
  };
}

/** The page's declarations and margin boxes after the cascade of @page, @page :left/:right and @page :first. */
function rulesFor(rules: PageRule[], index: number): { declarations: Map<string, string>; boxes: Map<string, Map<string, string>> } {
  const side = index % 2 === 0 ? ':right' : ':left';
  const rank = (selector: string) => (selector === '@page' ? 0 : selector === `@page ${side}` ? 1 : selector === '@page :first' && index === 0 ? 2 : -1);
  const applying = rules.filter((r) => rank(r.selector) >= 0).sort((a, b) => rank(a.selector) - rank(b.selector));
  const declarations = new Map<string, string>();
  const boxes = new Map<string, Map<string, string>>();
  const put = (into: Map<string, string>, list: Declaration[]) => list.forEach(([p, v]) => into.set(p, v));
  for (const rule of applying) {
    put(declarations, rule.declarations);
    for (const box of rule.boxes) {
      if (!boxes.has(box.name)) boxes.set(box.name, new Map());
      put(boxes.get(box.name)!, box.declarations);
    }
  }
  return { declarations, boxes };
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

function drawBackground(mupdf: typeof Mupdf, device: Mupdf.Device, props: Map<string, string>, area: Rect, images: Map<string, Mupdf.Image | null>): void {
  const shorthand = props.get('background') ?? '';
  const color = parseColor(props.get('background-color') ?? shorthand);
  if (color) fillRect(mupdf, device, area, color);
  const url = /url\(\s*["']?(data:image\/(?:png|jpe?g|gif|webp)[^"')]*)["']?\s*\)/i.exec(props.get('background-image') ?? shorthand)?.[1];
  if (!url) return;
  if (!images.has(url)) images.set(url, decodeImage(mupdf, url));
  const image = images.get(url);
  if (!image) return;
  const size = props.get('background-size') ?? '';
  const [iw, ih] = [image.getWidth() * 0.75, image.getHeight() * 0.75]; // CSS pixels to points
  const scale = size === 'cover' ? Math.max(area.w / iw, area.h / ih) : size === 'contain' ? Math.min(area.w / iw, area.h / ih) : 1;
  const centred = /center/.test(`${shorthand} ${props.get('background-position') ?? ''}`);
  const [w, h] = [iw * scale, ih * scale];
  const [x, y] = centred ? [area.x + (area.w - w) / 2, area.y + (area.h - h) / 2] : [area.x, area.y];
  device.clipPath(rectPath(mupdf, area), false, mupdf.Matrix.identity);
  device.fillImage(image, [w, 0, 0, h, x, y], 1);
  device.popClip();
}

function decodeImage(mupdf: typeof Mupdf, url: string): Mupdf.Image | null {
  try {
    const bytes = dataUrlBytes(url);
    return bytes ? new mupdf.Image(bytes) : null;
  } catch {
    return null; // a picture MuPDF cannot read: no background, as a browser shows none
  }
}

/**
 * A margin box: its colour block where it has a size, and its text, `text-align`ed within the
 * part of the margin it owns and centred in the margin's height (CSS Paged Media's defaults).
 */
function drawMarginBox(mupdf: typeof Mupdf, device: Mupdf.Device, name: string, box: Map<string, string>, pageProps: Map<string, string>, page: PageGeometry, faces: InstalledFaces, counters: { page: number; pages: number }, images: Map<string, Mupdf.Image | null>): void {
  const m = /^(top|bottom)-(left|center|right)$/.exec(name);
  if (!m) return; // the side boxes (left-top, …) are rare in documents; not drawn
  const [edge, part] = [m[1]!, m[2]!];
  const [top, right, bottom, left] = page.margins;
  const band: Rect = { x: left, y: edge === 'top' ? 0 : page.h - bottom, w: page.w - left - right, h: edge === 'top' ? top : bottom };
  const third = band.w / 3;
  const slot: Rect = { ...band, x: band.x + (part === 'left' ? 0 : part === 'center' ? third : 2 * third), w: third };
  const size = { w: cssLength(box.get('width') ?? '', band.w), h: cssLength(box.get('height') ?? '', band.h) };
  const align = box.get('text-align') ?? part;
  const blockW = Math.min(size.w ?? slot.w, part === 'center' ? band.w : slot.w);
  const blockH = Math.min(size.h ?? band.h, band.h);
  const blockX = align === 'right' || (part === 'right' && !box.get('text-align')) ? slot.x + slot.w - blockW : part === 'center' ? band.x + (band.w - blockW) / 2 : slot.x;
  const block: Rect = { x: blockX, y: band.y + (band.h - blockH) / 2, w: blockW, h: blockH };
  if (size.w !== undefined || size.h !== undefined) drawBackground(mupdf, device, box, block, images);
  const text = contentText(box.get('content') ?? '', counters);
  if (!text) return;
  const fontSize = cssLength(box.get('font-size') ?? pageProps.get('font-size') ?? '', 12) ?? 12;
  const family = (box.get('font-family') ?? pageProps.get('font-family') ?? 'serif').split(',')[0]!.trim().replace(/^["']|["']$/g, '');
  const bold = /bold|[6-9]00/.test(box.get('font-weight') ?? pageProps.get('font-weight') ?? '');
  const font = faces.fontFor(family, bold, false) ?? new mupdf.Font(/sans|arial|helvetica/i.test(family) ? (bold ? 'Helvetica-Bold' : 'Helvetica') : bold ? 'Times-Bold' : 'Times-Roman');
  const width = [...text].reduce((sum, ch) => sum + font.advanceGlyph(font.encodeCharacter(ch)) * fontSize, 0);
  const x = align === 'center' ? block.x + (block.w - width) / 2 : align === 'right' ? block.x + block.w - width : block.x;
  const baseline = block.y + block.h / 2 + fontSize * 0.35;
  const shown = new mupdf.Text();
  shown.showString(font, [fontSize, 0, 0, -fontSize, x, baseline], text);
  device.fillText(shown, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, parseColor(box.get('color') ?? pageProps.get('color') ?? '') ?? [0, 0, 0], 1);
}

/** `content: "Page " counter(page) " of " counter(pages)` as text; what cannot be known here (string(), element()) shows nothing. */
export function contentText(content: string, counters: { page: number; pages: number }): string {
  let text = '';
  for (const m of content.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|counter\(\s*(page|pages)\s*(?:,[^)]*)?\)/gi)) {
    if (m[3]) text += String(counters[m[3].toLowerCase() as 'page' | 'pages']);
    else text += (m[1] ?? m[2] ?? '').replace(/\\([0-9a-f]{1,6})\s?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16))).replace(/\\(.)/g, '$1');
  }
  return text;
}

const UNIT_PT: Record<string, number> = { pt: 1, px: 0.75, in: 72, cm: 72 / 2.54, mm: 72 / 25.4, pc: 12 };

/** A CSS length in points (a percentage of `whole`); undefined for `auto` and what is not a length. */
export function cssLength(value: string, whole: number): number | undefined {
  const m = /^\s*(-?[\d.]+)\s*(pt|px|in|cm|mm|pc|%)?\s*$/i.exec(value);
  if (!m) return undefined;
  const n = Number(m[1]);
  if (m[2] === '%') return (n / 100) * whole;
  return n * (UNIT_PT[m[2]?.toLowerCase() ?? 'px'] ?? 0.75);
}

const NAMED: Record<string, Rgb> = { black: [0, 0, 0], white: [1, 1, 1], red: [1, 0, 0], green: [0, 0.5, 0], blue: [0, 0, 1], gray: [0.5, 0.5, 0.5], grey: [0.5, 0.5, 0.5], silver: [0.75, 0.75, 0.75], yellow: [1, 1, 0], orange: [1, 0.65, 0], navy: [0, 0, 0.5], maroon: [0.5, 0, 0], purple: [0.5, 0, 0.5], teal: [0, 0.5, 0.5] };

/** The first colour in a value: #rgb, #rrggbb, rgb()/rgba() or a basic name. */
export function parseColor(value: string): Rgb | undefined {
  const hex = /#([0-9a-f]{6}|[0-9a-f]{3})\b/i.exec(value)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
    return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16) / 255) as Rgb;
  }
  const rgb = /rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/i.exec(value);
  if (rgb) return [rgb[1], rgb[2], rgb[3]].map((c) => Math.min(255, Number(c)) / 255) as Rgb;
  const word = value.toLowerCase().split(/[\s,]+/).find((w) => NAMED[w]);
  return word ? NAMED[word] : undefined;
}

function rectPath(mupdf: typeof Mupdf, r: Rect): Mupdf.Path {
  const path = new mupdf.Path();
  path.rect(r.x, r.y, r.x + r.w, r.y + r.h);
  return path;
}

function fillRect(mupdf: typeof Mupdf, device: Mupdf.Device, r: Rect, color: Rgb): void {
  device.fillPath(rectPath(mupdf, r), false, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, color, 1);
}
