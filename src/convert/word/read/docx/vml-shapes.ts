/**
 * Legacy VML shapes (w:pict): v:rect, v:roundrect, v:oval, v:line, the rectangle-like v:shape
 * types (text box, rectangle, straight connector), freeforms (a v:shape's own path) and the
 * OfficeArt types that are polygons (freeform.ts), with VML's defaults: filled white and stroked
 * black 0.75 pt unless told otherwise.
 */
import type { FloatingPlacement, FreeformPath, LineEnd, Shape } from '../../model/index';
import { OFFICE_ART_PRESETS, presetFreeform, vmlFreeform } from '../../../office/preset-geometry';
import { attr, child, descendant, type XmlElement } from '../../../../codecs/xml';
import type { DrawingContext } from './drawing';
import { positionedTextBox } from './shapes';

const NAMED: Record<string, string> = {
  black: '000000', white: 'FFFFFF', red: 'FF0000', green: '008000', blue: '0000FF', yellow: 'FFFF00', gray: '808080',
  grey: '808080', silver: 'C0C0C0', navy: '000080', maroon: '800000', purple: '800080', teal: '008080', olive: '808000',
  lime: '00FF00', aqua: '00FFFF', fuchsia: 'FF00FF', orange: 'FFA500', window: 'FFFFFF', windowText: '000000',
};

/** "#4f81bd [3204]", "#fc0", "red" → hex. */
export function vmlColor(v: string | undefined): string | undefined {
  if (!v) return undefined;
  const s = v.trim().split(/\s+/)[0]!;
  let m = /^#([0-9a-f]{6})$/i.exec(s);
  if (m) return m[1]!.toUpperCase();
  m = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(s);
  if (m) return (m[1]! + m[1] + m[2] + m[2] + m[3] + m[3]).toUpperCase();
  return NAMED[s] ?? NAMED[s.toLowerCase()];
}

/** "width:120pt;height:3.5in" → points. */
export function cssLength(style: string, prop: string): number | undefined {
  const m = new RegExp(`(?:^|;)\\s*${prop}\\s*:\\s*([-0-9.]+)\\s*(pt|in|cm|mm|px|pc|emu)?`, 'i').exec(style);
  if (!m) return undefined;
  const v = parseFloat(m[1]!);
  switch ((m[2] ?? 'px').toLowerCase()) {
    case 'pt': return v;
    case 'in': return v * 72;
    case 'cm': return (v * 72) / 2.54;
    case 'mm': return (v * 72) / 25.4;
    case 'pc': return v * 12;
    case 'emu': return v / 12700;
    default: return (v * 72) / 96;
  }
}

const off = (v: string | undefined) => v === 'f' || v === 'false' || v === 'False';

/** VML lengths without a unit are in points here (strokeweight, from/to). */
function length(v: string | undefined, fallback: number): number {
  if (!v) return fallback;
  const n = cssLength(`x:${v.trim()}`, 'x');
  return n === undefined ? fallback : /[a-z]/i.test(v) ? n : parseFloat(v);
}

/** How a member of a VML group is read: `lineSpace` maps a line's from/to (group coordinates) to points from the group's corner. */
export interface GroupMember {
  lineSpace?: (x: number, y: number) => [number, number];
}

const SHAPE_TYPES: Record<string, Shape['geometry']> = { '#_x0000_t202': 'rect', '#_x0000_t1': 'rect', '#_x0000_t32': 'line', '#_x0000_t2': 'roundRect', '#_x0000_t3': 'ellipse' };

/**
 * A drawn VML shape, or undefined when the element is a picture, a group, or draws nothing (a text
 * box without fill or outline stays a text box).
 */
export function readVmlShape(el: XmlElement, width: number, height: number, floating: FloatingPlacement | undefined, ctx: DrawingContext, group?: GroupMember): Shape | undefined {
  const lineSpace = group?.lineSpace;
  let geometry: Shape['geometry'] | undefined;
  if (el.name === 'rect') geometry = 'rect';
  else if (el.name === 'roundrect') geometry = 'roundRect';
  else if (el.name === 'oval') geometry = 'ellipse';
  else if (el.name === 'line') geometry = 'line';
  else if (el.name === 'shape' && !descendant(el, 'imagedata')) geometry = SHAPE_TYPES[attr(el, 'type') ?? ''] ?? (attr(el, 'o:spt') === '202' ? 'rect' : undefined);
  // Freeforms (a path of the shape's own) and the OfficeArt types that are polygon presets.
  let path: FreeformPath | undefined;
  if (el.name === 'shape' && !geometry && !descendant(el, 'imagedata') && width > 0 && height > 0) {
    const own = attr(el, 'path');
    const type = Number(/^#_x0000_t(\d+)$/.exec(attr(el, 'type') ?? '')?.[1] ?? attr(el, 'o:spt'));
    path = own ? vmlFreeform(own, attr(el, 'coordsize'), attr(el, 'coordorigin')) : OFFICE_ART_PRESETS[type] ? presetFreeform(OFFICE_ART_PRESETS[type]!, width, height) : undefined;
    if (path) geometry = 'path';
  }
  const wordArt = el.name === 'shape' ? readTextPath(el) : undefined;
  if (wordArt) return width > 0 && height > 0 ? wordArtShape(el, wordArt, width, height, floating) : undefined;
  if (!geometry) return undefined;
  let w = width, h = height;
  let flipH = false;
  let flipV = false;
  if (geometry === 'line') {
    // In a group, from/to are in its coordinates (`lineSpace` maps them to points from its corner).
    const point = (v: string | undefined): number[] => {
      const xy = (v ?? '0,0').split(',');
      return lineSpace ? lineSpace(parseFloat(xy[0]!) || 0, parseFloat(xy[1]!) || 0) : xy.map((c) => length(c, 0));
    };
    const [x0, y0] = point(attr(el, 'from'));
    const [x1, y1] = point(attr(el, 'to'));
    // The line runs from `from` to `to`: flipped along the axes where `to` comes first (arrowheads keep their end).
    if (x1! < x0!) flipH = true;
    if (y1! < y0!) flipV = true;
    if (lineSpace || (!w && !h)) {
      w = Math.abs(x1! - x0!);
      h = Math.abs(y1! - y0!);
      if (floating && x0 !== undefined && y0 !== undefined) {
        const [dx, dy] = [Math.min(x0, x1!), Math.min(y0, y1!)];
        floating = floating.inGroup ? { ...floating, inGroup: { ...floating.inGroup, dx, dy } } : { ...floating, x: floating.x + dx, y: floating.y + dy };
      }
    }
  }
  const fillEl = child(el, 'fill');
  const strokeEl = child(el, 'stroke');
  const filled = geometry !== 'line' && !off(attr(el, 'filled')) && !off(attr(fillEl, 'on'));
  const stroked = !off(attr(el, 'stroked')) && !off(attr(strokeEl, 'on'));
  const fill = filled ? (vmlColor(attr(el, 'fillcolor') ?? attr(fillEl, 'color')) ?? 'FFFFFF') : undefined;
  const lineColor = stroked ? (vmlColor(attr(el, 'strokecolor') ?? attr(strokeEl, 'color')) ?? '000000') : undefined;
  const textbox = child(el, 'textbox');
  const txbx = child(textbox, 'txbxContent');
  // A text box type with its default white fill and black frame is what Word shows; without text it is nothing.
  // A text box without either is drawn as a shape all the same where it is placed exactly: in a
  // group, or floating over or under the text (see positionedTextBox).
  if (!fill && !lineColor && !(txbx && (group || positionedTextBox(floating)))) return undefined;
  if (!w && !h) return undefined;
  const shape: Shape = { kind: 'shape', geometry, width: w, height: h };
  if (path) shape.path = path;
  if (fill) shape.fill = fill;
  if (lineColor) {
    shape.line = { color: lineColor, width: length(attr(el, 'strokeweight') ?? attr(strokeEl, 'weight'), 0.75) };
    const start = vmlLineEnd(strokeEl, 'start');
    const end = vmlLineEnd(strokeEl, 'end');
    if (start) shape.line.start = start;
    if (end) shape.line.end = end;
  }
  if (flipH) shape.flipH = true;
  if (flipV) shape.flipV = true;
  const rotation = /(?:^|;)\s*rotation\s*:\s*(-?[0-9.]+)/.exec(attr(el, 'style') ?? '')?.[1];
  if (rotation && +rotation) shape.rotation = +rotation;
  if (floating) shape.floating = floating;
  if (txbx) {
    const blocks = ctx.blocksOf(txbx);
    if (blocks.length) {
      shape.blocks = blocks;
      const inset = (attr(textbox, 'inset') ?? '').split(',');
      const side = (i: number, d: number) => length(inset[i] || undefined, d);
      shape.textInsets = { left: side(0, 7.2), top: side(1, 3.6), right: side(2, 7.2), bottom: side(3, 3.6) };
      // A text box that does not grow to its text shows only what fits (Word's "resize shape to fit text" off).
      if (!/mso-fit-shape-to-text\s*:\s*t/i.test(attr(textbox, 'style') ?? '') && h > 0) shape.clipsText = true;
    }
  }
  return shape;
}

const VML_END_TYPES: Record<string, LineEnd['type']> = { block: 'triangle', classic: 'stealth', open: 'arrow', diamond: 'diamond', oval: 'oval' };
const VML_END_SIZES: Record<string, number> = { narrow: 2, short: 2, medium: 3, wide: 5, long: 5 };

/** A v:stroke's startarrow or endarrow, with its width and length (narrow/short 2, medium 3, wide/long 5 line widths). */
function vmlLineEnd(stroke: XmlElement | undefined, which: 'start' | 'end'): LineEnd | undefined {
  const type = VML_END_TYPES[attr(stroke, `${which}arrow`) ?? ''];
  if (!type) return undefined;
  return { type, width: VML_END_SIZES[attr(stroke, `${which}arrowwidth`) ?? 'medium'] ?? 3, length: VML_END_SIZES[attr(stroke, `${which}arrowlength`) ?? 'medium'] ?? 3 };
}

/** A v:textpath's text and font (WordArt), when the shape shows one. */
function readTextPath(el: XmlElement): NonNullable<Shape['wordArt']> | undefined {
  const path = child(el, 'textpath');
  const text = attr(path, 'string');
  if (!path || !text?.trim() || off(attr(path, 'on'))) return undefined;
  const style = attr(path, 'style') ?? '';
  const font = /font-family\s*:\s*"?([^";]+)"?/i.exec(style)?.[1]?.trim() || 'Arial';
  const art: NonNullable<Shape['wordArt']> = { text, font };
  if (/font-weight\s*:\s*bold/i.test(style)) art.bold = true;
  if (/font-style\s*:\s*italic/i.test(style)) art.italic = true;
  return art;
}

/**
 * WordArt in its fill colour (a gradient's second colour when the first is VML's default white),
 * at its fill's opacity ("0.5" or "32768f", a fraction of 65536).
 */
function wordArtShape(el: XmlElement, wordArt: NonNullable<Shape['wordArt']>, width: number, height: number, floating: FloatingPlacement | undefined): Shape {
  const fillEl = child(el, 'fill');
  const gradient = /gradient/.test(attr(fillEl, 'type') ?? '');
  const fill = vmlColor(attr(el, 'fillcolor') ?? attr(fillEl, 'color')) ?? (gradient ? vmlColor(attr(fillEl, 'color2')) : undefined) ?? 'FFFFFF';
  const opacity = attr(fillEl, 'opacity');
  if (opacity) {
    const v = opacity.endsWith('f') ? parseFloat(opacity) / 65536 : parseFloat(opacity);
    if (v >= 0 && v < 1) wordArt.opacity = v;
  }
  const shape: Shape = { kind: 'shape', geometry: 'rect', width, height, fill, wordArt };
  const rotation = /(?:^|;)\s*rotation\s*:\s*(-?[0-9.]+)/.exec(attr(el, 'style') ?? '')?.[1];
  if (rotation && +rotation) shape.rotation = +rotation;
  if (floating) shape.floating = floating;
  return shape;
}
