/**
 * DrawingML colours (a:srgbClr, a:schemeClr, a:sysClr, a:prstClr with lumMod/lumOff/tint/shade) as
 * the 6-digit hex the model uses. Shape fills and outlines are written this way; text colours use
 * WordprocessingML's own attributes (theme.ts resolveColor).
 */
import { attr, child, elements, type XmlElement } from '../../codecs/xml';
import type { Theme } from './theme';
import type { Gradient, LineEnd } from './model';

/** Scheme colour names of DrawingML → the theme's colour slots. */
const SCHEME_SLOTS: Record<string, string> = { tx1: 'dk1', tx2: 'dk2', bg1: 'lt1', bg2: 'lt2' };
const SCHEME_DEFAULTS: Record<string, string> = {
  dk1: '000000', lt1: 'FFFFFF', dk2: '44546A', lt2: 'E7E6E6', accent1: '4472C4', accent2: 'ED7D31',
  accent3: 'A5A5A5', accent4: 'FFC000', accent5: '5B9BD5', accent6: '70AD47', hlink: '0563C1', folHlink: '954F72',
};
const PRESET: Record<string, string> = {
  black: '000000', white: 'FFFFFF', red: 'FF0000', green: '008000', blue: '0000FF', yellow: 'FFFF00',
  gray: '808080', grey: '808080', silver: 'C0C0C0', navy: '000080', maroon: '800000', orange: 'FFA500',
  purple: '800080', teal: '008080', olive: '808000', lime: '00FF00', aqua: '00FFFF', fuchsia: 'FF00FF',
  ltGray: 'D3D3D3', dkGray: 'A9A9A9', darkBlue: '00008B', darkRed: '8B0000', lightGray: 'D3D3D3', darkGray: 'A9A9A9',
};

const COLOR_ELEMENTS = new Set(['srgbClr', 'schemeClr', 'sysClr', 'prstClr', 'scrgbClr', 'hslClr']);

/** The colour element directly inside `holder` (a:solidFill, a:gs, a:fgClr, a:lnRef...), resolved. */
export function colorIn(holder: XmlElement | undefined, theme: Theme, placeholder?: string): string | undefined {
  const c = elements(holder).find((e) => COLOR_ELEMENTS.has(e.name));
  return c ? colorOf(c, theme, placeholder) : undefined;
}

/** `placeholder` is what schemeClr val="phClr" stands for (the colour of the style reference). */
export function colorOf(c: XmlElement, theme: Theme, placeholder?: string): string | undefined {
  let hex: string | undefined;
  const val = attr(c, 'val') ?? '';
  if (c.name === 'srgbClr') hex = val;
  else if (c.name === 'sysClr') hex = attr(c, 'lastClr') ?? (val === 'window' ? 'FFFFFF' : '000000');
  else if (c.name === 'prstClr') hex = PRESET[val];
  else if (c.name === 'scrgbClr') {
    const pct = (n: string) => Math.round(Math.min(1, Math.max(0, +(attr(c, n) ?? 0) / 100000)) * 255);
    hex = [pct('r'), pct('g'), pct('b')].map((v) => v.toString(16).padStart(2, '0')).join('');
  } else if (c.name === 'schemeClr') {
    if (val === 'phClr') hex = placeholder;
    else {
      const slot = SCHEME_SLOTS[val] ?? val;
      hex = theme.colors.get(slot) ?? SCHEME_DEFAULTS[slot];
    }
  }
  if (!hex || !/^[0-9a-fA-F]{6}$/.test(hex)) return undefined;
  return applyModifiers(hex.toUpperCase(), c);
}

function applyModifiers(hex: string, c: XmlElement): string {
  let [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  for (const m of elements(c)) {
    const v = +(attr(m, 'val') ?? 100000) / 100000;
    // Tint (towards white) and shade (towards black) mix in linear light, as Office and LibreOffice do: a 40 % tint of navy is a pale grey-blue, not a mid blue.
    if (m.name === 'tint') [r, g, b] = [r, g, b].map((x) => fromLinear(1 - (1 - toLinear(x)) * v)) as [number, number, number];
    else if (m.name === 'shade') [r, g, b] = [r, g, b].map((x) => fromLinear(toLinear(x) * v)) as [number, number, number];
    else if (m.name === 'lumMod' || m.name === 'lumOff') {
      const [h, s, l] = toHsl(r, g, b);
      const nl = Math.min(1, Math.max(0, m.name === 'lumMod' ? l * v : l + v));
      [r, g, b] = fromHsl(h, s, nl);
    }
  }
  return [r, g, b].map((x) => Math.round(Math.min(1, Math.max(0, x)) * 255).toString(16).padStart(2, '0')).join('').toUpperCase();
}

/** The gamma LibreOffice's oox colours (Color::toCrgb) take between a colour's components and linear light. */
const GAMMA = 2.3;
const toLinear = (x: number) => Math.max(0, x) ** GAMMA;
const fromLinear = (x: number) => Math.max(0, x) ** (1 / GAMMA);

function toHsl(r: number, g: number, b: number): [number, number, number] {
  const max = Math.max(r, g, b), min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return [h / 6, s, l];
}

function fromHsl(h: number, s: number, l: number): [number, number, number] {
  if (s === 0) return [l, l, l];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const hue = (t: number) => {
    t = (t + 1) % 1;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  return [hue(h + 1 / 3), hue(h), hue(h - 1 / 3)];
}

/** The average of hex colours (a gradient drawn as one flat colour). */
export function averageColor(colors: string[]): string | undefined {
  if (!colors.length) return undefined;
  const sum = [0, 0, 0];
  for (const c of colors) for (let i = 0; i < 3; i++) sum[i]! += parseInt(c.slice(i * 2, i * 2 + 2), 16);
  return sum.map((v) => Math.round(v / colors.length).toString(16).padStart(2, '0')).join('').toUpperCase();
}

/** A colour element's a:alpha as 0 to 1 (1 where it says none). */
const alphaOf = (color: XmlElement | undefined) => {
  const alpha = Number(attr(child(color, 'alpha'), 'val') ?? 100_000);
  return alpha >= 0 && alpha <= 100_000 ? alpha / 100_000 : 1;
};

/**
 * How opaque a shape's own fill is (a solid fill's colour's a:alpha, thousandths of a percent; a
 * gradient's stops' mean, as the painter draws one opacity per fill: a white glow fading from 90% to
 * 20% over a slide covered it opaque); undefined when opaque or not said.
 */
export function fillOpacity(spPr: XmlElement | undefined): number | undefined {
  const stops = elements(child(child(spPr, 'gradFill'), 'gsLst')).slice(0, 16);
  const alpha = stops.length ? stops.reduce((sum, gs) => sum + alphaOf(elements(gs)[0]), 0) / stops.length : alphaOf(elements(child(spPr, 'solidFill'))[0]);
  return alpha < 1 ? alpha : undefined;
}

/**
 * A shape's own gradient (a:gradFill): along a:lin's angle (top to bottom without one), or for a
 * path gradient out from the middle; its stops in order along it. Undefined for other fills.
 */
export function gradientOf(spPr: XmlElement | undefined, theme: Theme): Gradient | undefined {
  const grad = child(spPr, 'gradFill');
  if (!grad) return undefined;
  const stops = elements(child(grad, 'gsLst'))
    .slice(0, 16)
    .map((gs) => ({ at: Math.max(0, Math.min(Number(attr(gs, 'pos') ?? 0) / 100_000, 1)) || 0, color: colorIn(gs, theme) }))
    .filter((s): s is { at: number; color: string } => !!s.color)
    .sort((a, b) => a.at - b.at);
  if (stops.length < 2) return undefined;
  const angle = (Number(attr(child(grad, 'lin'), 'ang') ?? 5_400_000) / 60_000) % 360 || 0;
  // A path gradient (circle, rect, shape) as a circle from the middle: its focus (a:fillToRect) is taken as the centre.
  return child(grad, 'path') ? { radial: true, angle: 0, stops } : { angle, stops };
}

/** A shape's own outer shadow (a:spPr/a:effectLst/a:outerShdw; one hidden in an extension is not drawn): its offset (dist along dir), colour and opacity. */
export function outerShadow(spPr: XmlElement | undefined, theme: Theme): { dx: number; dy: number; color: string; opacity: number } | undefined {
  const shadow = child(child(spPr, 'effectLst'), 'outerShdw');
  const color = shadow && colorIn(shadow, theme);
  if (!shadow || !color) return undefined;
  const dist = Math.min(Math.max(Number(attr(shadow, 'dist') ?? 0) || 0, 0), 12_700 * 200) / 12_700;
  const dir = ((Number(attr(shadow, 'dir') ?? 0) || 0) / 60_000) * (Math.PI / 180);
  const alpha = Number(attr(child(elements(shadow)[0], 'alpha'), 'val'));
  return { dx: dist * Math.cos(dir), dy: dist * Math.sin(dir), color, opacity: alpha >= 0 && alpha <= 100_000 ? alpha / 100_000 : 1 };
}

/**
 * The fill of a shape's properties (a:noFill, a:solidFill, a:gradFill, a:pattFill), or of its style's
 * a:fillRef when the properties name none. null: explicitly no fill.
 */
export function shapeFill(spPr: XmlElement | undefined, style: XmlElement | undefined, theme: Theme): string | null {
  for (const e of elements(spPr)) {
    if (e.name === 'noFill') return null;
    if (e.name === 'solidFill') return colorIn(e, theme) ?? null;
    if (e.name === 'gradFill') {
      const stops = elements(child(e, 'gsLst')).map((gs) => colorIn(gs, theme)).filter((c): c is string => !!c);
      return averageColor(stops) ?? null;
    }
    if (e.name === 'pattFill') return colorIn(child(e, 'fgClr'), theme) ?? null;
    if (e.name === 'blipFill' || e.name === 'grpFill') return null;
  }
  const ref = child(style, 'fillRef');
  if (!ref || +(attr(ref, 'idx') ?? 0) === 0) return null;
  return colorIn(ref, theme) ?? null;
}

/** Office theme line widths by a:lnRef idx (1..3), points. */
const STYLE_LINE_WIDTHS = [0, 0.5, 1, 1.5];

/** The outline of a shape: a:ln of its properties over its style's a:lnRef. */
/** DrawingML's preset dashes (ECMA-376 ST_PresetLineDashVal): dash, gap, … in line widths. */
const PRESET_DASHES: Partial<Record<string, number[]>> = {
  dot: [1, 3], dash: [4, 3], lgDash: [8, 3], dashDot: [4, 3, 1, 3], lgDashDot: [8, 3, 1, 3], lgDashDotDot: [8, 3, 1, 3, 1, 3],
  sysDash: [3, 1], sysDot: [1, 1], sysDashDot: [3, 1, 1, 1], sysDashDotDot: [3, 1, 1, 1, 1, 1],
};

export function shapeLine(spPr: XmlElement | undefined, style: XmlElement | undefined, theme: Theme): { color: string; width: number; dash?: number[]; start?: LineEnd; end?: LineEnd } | undefined {
  const ln = child(spPr, 'ln');
  const ref = child(style, 'lnRef');
  const refIdx = +(attr(ref, 'idx') ?? 0);
  const w = attr(ln, 'w');
  const width = w !== undefined ? +w / 12700 : (STYLE_LINE_WIDTHS[Math.min(refIdx, 3)] ?? 0.75);
  let color: string | undefined;
  let explicit = false;
  for (const e of elements(ln)) {
    if (e.name === 'noFill') return undefined;
    if (e.name === 'solidFill') (color = colorIn(e, theme)), (explicit = true);
    else if (e.name === 'gradFill') {
      color = averageColor(elements(child(e, 'gsLst')).map((gs) => colorIn(gs, theme)).filter((c): c is string => !!c));
      explicit = true;
    }
  }
  if (!explicit) {
    if (!ref || refIdx === 0) return undefined;
    color = colorIn(ref, theme);
  }
  if (!color) return undefined;
  const line: { color: string; width: number; dash?: number[]; start?: LineEnd; end?: LineEnd } = { color, width: Math.max(width, 0.25) };
  const dash = PRESET_DASHES[attr(child(ln, 'prstDash'), 'val') ?? ''];
  if (dash) line.dash = dash;
  const start = lineEnd(child(ln, 'headEnd'));
  const end = lineEnd(child(ln, 'tailEnd'));
  if (start) line.start = start;
  if (end) line.end = end;
  return line;
}

const END_TYPES: Record<string, LineEnd['type']> = { triangle: 'triangle', stealth: 'stealth', arrow: 'arrow', diamond: 'diamond', oval: 'oval' };
const END_SIZES: Record<string, number> = { sm: 2, med: 3, lg: 5 };

/** A line end (a:headEnd at the start, a:tailEnd at the end): its kind and size (sm, med, lg: 2, 3, 5 line widths). */
function lineEnd(el: XmlElement | undefined): LineEnd | undefined {
  const type = END_TYPES[attr(el, 'type') ?? ''];
  if (!type) return undefined;
  return { type, width: END_SIZES[attr(el, 'w') ?? 'med'] ?? 3, length: END_SIZES[attr(el, 'len') ?? 'med'] ?? 3 };
}
