/**
 * OpenDocument gradients (draw:gradient) and transparencies (draw:opacity) as the shape model's
 * gradient and fill opacity: linear and axial ones along their angle, radial, ellipsoid, square and
 * rectangular ones out from the middle, each through its border and its colours' intensities
 * (ODF 1.2, 20.127 ff.). A transparency gradient is taken at its mean opacity: the painter draws
 * one opacity per fill.
 */
import { attr, type XmlElement } from '../../../codecs/xml';
import type { Gradient } from '../model';
import { hexColor } from './styles';

const percent = (value: string | undefined, fallback: number) => {
  const n = Number(/^\s*(-?\d+(?:\.\d+)?)\s*%\s*$/.exec(value ?? '')?.[1]);
  return Number.isFinite(n) ? Math.max(0, Math.min(n, 100)) / 100 : fallback;
};

/** draw:angle: tenths of a degree (ODF 1.2), or an angle with its unit (ODF 1.3: "30deg", "0.5rad"). */
function degrees(value: string | undefined): number {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*(deg|rad|grad)?\s*$/.exec(value ?? '');
  if (!m) return 0;
  const n = Number(m[1]);
  const deg = m[2] === 'deg' ? n : m[2] === 'rad' ? (n * 180) / Math.PI : m[2] === 'grad' ? n * 0.9 : n / 10;
  return Number.isFinite(deg) ? deg : 0;
}

/** A colour darkened by its intensity (draw:start-intensity: 100% is the colour itself). */
function intense(color: string, intensity: number): string {
  if (intensity >= 1) return color;
  return [0, 2, 4].map((i) => Math.round(parseInt(color.slice(i, i + 2), 16) * intensity).toString(16).padStart(2, '0')).join('').toUpperCase();
}

/** The average of two RRGGBB colours (what a painter without shadings fills). */
export function middleColor(a: string, b: string): string {
  return [0, 2, 4].map((i) => Math.round((parseInt(a.slice(i, i + 2), 16) + parseInt(b.slice(i, i + 2), 16)) / 2).toString(16).padStart(2, '0')).join('').toUpperCase();
}

/** A draw:gradient as the model's gradient; undefined when it names no colours. */
export function odfGradient(el: XmlElement | undefined): Gradient | undefined {
  const start = hexColor(attr(el, 'start-color'));
  const end = hexColor(attr(el, 'end-color'));
  if (!el || !start || !end) return undefined;
  const [from, to] = [intense(start, percent(attr(el, 'start-intensity'), 1)), intense(end, percent(attr(el, 'end-intensity'), 1))];
  const border = Math.min(percent(attr(el, 'border'), 0), 0.99);
  const style = attr(el, 'style') ?? 'linear';
  // ODF's angle turns the gradient counter-clockwise from running top to bottom; the model's runs clockwise from the x axis.
  const angle = (((90 - degrees(attr(el, 'angle'))) % 360) + 360) % 360;
  if (style === 'linear') return { angle, stops: [{ at: 0, color: from }, ...(border ? [{ at: border, color: from }] : []), { at: 1, color: to }] };
  if (style === 'axial') {
    const edge = border / 2;
    return { angle, stops: [{ at: 0, color: to }, ...(edge ? [{ at: edge, color: to }] : []), { at: 0.5, color: from }, ...(edge ? [{ at: 1 - edge, color: to }] : []), { at: 1, color: to }] };
  }
  // Radial kinds: the start colour at the outside (its border of it), the end colour in the middle.
  return { radial: true, angle: 0, stops: [{ at: 0, color: to }, { at: 1 - border, color: from }, ...(border ? [{ at: 1, color: from }] : [])] };
}

/** The opacity a fill is drawn at: draw:opacity, or a transparency gradient's (draw:opacity-name) mean; undefined when opaque. */
export function odfFillOpacity(g: Record<string, string>, opacities: Map<string, XmlElement>): number | undefined {
  const named = g['opacity-name'] ? opacities.get(g['opacity-name']) : undefined;
  const opacity = named ? (percent(attr(named, 'start'), 1) + percent(attr(named, 'end'), 1)) / 2 : percent(g['opacity'], 1);
  return opacity < 1 ? opacity : undefined;
}
