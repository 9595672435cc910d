/**
 * Legacy VML shapes (v:rect, v:roundrect, v:oval, v:line, the rectangle-like v:shape types — text
 * box, rectangle, straight connector —, freeforms and the OfficeArt types that are polygons,
 * preset-geometry.ts), with VML's defaults: filled white and stroked black 0.75 pt unless told
 * otherwise; WordArt (v:textpath); where a shape is placed (its CSS style's position and
 * mso-position-*), the space of a group's members, and the part of a picture (v:imagedata) shown.
 * Word (w:pict), spreadsheets (legacy drawings) and slides hold VML alike: the text of a v:textbox is
 * read by the format (VmlText).
 */
import type { Anchor, FreeformPath, LineEnd, PictureCrop, Shape, ShapeGeometry, WordArt } from './model';
import { outOfFlow, shownCrop } from './model';
import { OFFICE_ART_PRESETS, presetFreeform, vmlFreeform } from './preset-geometry';
import { attr, child, descendant, type XmlElement } from '../../codecs/xml';

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

/**
 * The text of a v:textbox, which each format holds its own way (Word: a w:txbxContent of
 * paragraphs): `content` finds it in the v:textbox, `blocksOf` reads it as the format's blocks.
 */
export interface VmlText<Block> {
  content(textbox: XmlElement | undefined): XmlElement | undefined;
  blocksOf(content: XmlElement): Block[];
}

/** The element names of VML's shapes (v:group among them). */
export const VML_SHAPES = new Set(['shape', 'rect', 'roundrect', 'oval', 'group', 'line', 'polyline']);

const SHAPE_TYPES: Record<string, ShapeGeometry> = { '#_x0000_t202': 'rect', '#_x0000_t1': 'rect', '#_x0000_t32': 'line', '#_x0000_t2': 'roundRect', '#_x0000_t3': 'ellipse' };

/** What a VML element draws: one of the four geometries, or a freeform path (its own, or an OfficeArt type's polygon). */
function geometryOf(el: XmlElement, width: number, height: number): { geometry?: ShapeGeometry; path?: FreeformPath } {
  if (el.name === 'rect') return { geometry: 'rect' };
  if (el.name === 'roundrect') return { geometry: 'roundRect' };
  if (el.name === 'oval') return { geometry: 'ellipse' };
  if (el.name === 'line') return { geometry: 'line' };
  if (el.name !== 'shape' || descendant(el, 'imagedata')) return {};
  const geometry = SHAPE_TYPES[attr(el, 'type') ?? ''] ?? (attr(el, 'o:spt') === '202' ? 'rect' : undefined);
  if (geometry || !(width > 0 && height > 0)) return { geometry };
  // Freeforms (a path of the shape's own) and the OfficeArt types that are polygon presets.
  const own = attr(el, 'path');
  const type = Number(/^#_x0000_t(\d+)$/.exec(attr(el, 'type') ?? '')?.[1] ?? attr(el, 'o:spt'));
  const path = own ? vmlFreeform(own, attr(el, 'coordsize'), attr(el, 'coordorigin')) : OFFICE_ART_PRESETS[type] ? presetFreeform(OFFICE_ART_PRESETS[type]!, width, height) : undefined;
  return path ? { geometry: 'path', path } : {};
}

/**
 * A v:line's box: it runs from `from` to `to`, flipped along the axes where `to` comes first
 * (arrowheads keep their end). In a group, or without a size of its own, its box is its end
 * points' and its placement moves to where they start.
 */
function lineBox(el: XmlElement, width: number, height: number, floating: Anchor | undefined, lineSpace: GroupMember['lineSpace']) {
  // In a group, from/to are in its coordinates (`lineSpace` maps them to points from its corner).
  const point = (v: string | undefined): number[] => {
    const xy = (v ?? '0,0').split(',');
    return lineSpace ? lineSpace(parseFloat(xy[0]!) || 0, parseFloat(xy[1]!) || 0) : xy.map((c) => length(c, 0));
  };
  const [x0, y0] = point(attr(el, 'from'));
  const [x1, y1] = point(attr(el, 'to'));
  const box = { width, height, floating, flipH: x1! < x0!, flipV: y1! < y0! };
  if (lineSpace || (!width && !height)) {
    box.width = Math.abs(x1! - x0!);
    box.height = Math.abs(y1! - y0!);
    if (floating && x0 !== undefined && y0 !== undefined) {
      const [dx, dy] = [Math.min(x0, x1!), Math.min(y0, y1!)];
      box.floating = floating.inGroup ? { ...floating, inGroup: { ...floating.inGroup, dx, dy } } : { ...floating, x: floating.x + dx, y: floating.y + dy };
    }
  }
  return box;
}

/**
 * A drawn VML shape, or undefined when the element is a picture, a group, or draws nothing (a text
 * box without fill or outline stays a text box, which the format reads as such).
 */
export function readVmlShape<Block>(el: XmlElement, width: number, height: number, floating: Anchor | undefined, text: VmlText<Block>, group?: GroupMember): Shape<Block> | undefined {
  const { geometry, path } = geometryOf(el, width, height);
  const wordArt = el.name === 'shape' ? readTextPath(el) : undefined;
  if (wordArt) return width > 0 && height > 0 ? wordArtShape(el, wordArt, width, height, floating) : undefined;
  if (!geometry) return undefined;
  const box = geometry === 'line' ? lineBox(el, width, height, floating, group?.lineSpace) : { width, height, floating, flipH: false, flipV: false };
  const fillEl = child(el, 'fill');
  const strokeEl = child(el, 'stroke');
  const filled = geometry !== 'line' && !off(attr(el, 'filled')) && !off(attr(fillEl, 'on'));
  const stroked = !off(attr(el, 'stroked')) && !off(attr(strokeEl, 'on'));
  const fill = filled ? (vmlColor(attr(el, 'fillcolor') ?? attr(fillEl, 'color')) ?? 'FFFFFF') : undefined;
  const lineColor = stroked ? (vmlColor(attr(el, 'strokecolor') ?? attr(strokeEl, 'color')) ?? '000000') : undefined;
  const textbox = child(el, 'textbox');
  const content = text.content(textbox);
  // A text box type with its default white fill and black frame is what Word shows; without text it is nothing.
  // A text box without either is drawn as a shape all the same where it is placed exactly: in a
  // group, or floating over or under the text (outOfFlow).
  if (!fill && !lineColor && !(content && (group || outOfFlow(box.floating)))) return undefined;
  if (!box.width && !box.height) return undefined;
  const shape: Shape<Block> = { kind: 'shape', geometry, width: box.width, height: box.height };
  if (path) shape.path = path;
  if (fill) shape.fill = fill;
  if (lineColor) {
    shape.line = { color: lineColor, width: length(attr(el, 'strokeweight') ?? attr(strokeEl, 'weight'), 0.75) };
    const start = vmlLineEnd(strokeEl, 'start');
    const end = vmlLineEnd(strokeEl, 'end');
    if (start) shape.line.start = start;
    if (end) shape.line.end = end;
  }
  if (box.flipH) shape.flipH = true;
  if (box.flipV) shape.flipV = true;
  const rotation = /(?:^|;)\s*rotation\s*:\s*(-?[0-9.]+)/.exec(attr(el, 'style') ?? '')?.[1];
  if (rotation && +rotation) shape.rotation = +rotation;
  if (box.floating) shape.floating = box.floating;
  if (content) textOf(shape, textbox!, text.blocksOf(content));
  return shape;
}

/** The shape's text, inset as its v:textbox says; a text box that does not grow to its text shows only what fits. */
function textOf<Block>(shape: Shape<Block>, textbox: XmlElement, blocks: Block[]): void {
  if (!blocks.length) return;
  shape.blocks = blocks;
  const inset = (attr(textbox, 'inset') ?? '').split(',');
  const side = (i: number, d: number) => length(inset[i] || undefined, d);
  shape.textInsets = { left: side(0, 7.2), top: side(1, 3.6), right: side(2, 7.2), bottom: side(3, 3.6) };
  // Word's "resize shape to fit text" off: no mso-fit-shape-to-text.
  if (!/mso-fit-shape-to-text\s*:\s*t/i.test(attr(textbox, 'style') ?? '') && shape.height > 0) shape.clipsText = true;
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
function readTextPath(el: XmlElement): WordArt | undefined {
  const path = child(el, 'textpath');
  const text = attr(path, 'string');
  if (!path || !text?.trim() || off(attr(path, 'on'))) return undefined;
  const style = attr(path, 'style') ?? '';
  const font = /font-family\s*:\s*"?([^";]+)"?/i.exec(style)?.[1]?.trim() || 'Arial';
  const art: WordArt = { text, font };
  if (/font-weight\s*:\s*bold/i.test(style)) art.bold = true;
  if (/font-style\s*:\s*italic/i.test(style)) art.italic = true;
  return art;
}

/**
 * WordArt in its fill colour (a gradient's second colour when the first is VML's default white),
 * at its fill's opacity ("0.5" or "32768f", a fraction of 65536).
 */
function wordArtShape<Block>(el: XmlElement, wordArt: WordArt, width: number, height: number, floating: Anchor | undefined): Shape<Block> {
  const fillEl = child(el, 'fill');
  const gradient = /gradient/.test(attr(fillEl, 'type') ?? '');
  const fill = vmlColor(attr(el, 'fillcolor') ?? attr(fillEl, 'color')) ?? (gradient ? vmlColor(attr(fillEl, 'color2')) : undefined) ?? 'FFFFFF';
  const opacity = attr(fillEl, 'opacity');
  if (opacity) {
    const v = opacity.endsWith('f') ? parseFloat(opacity) / 65536 : parseFloat(opacity);
    if (v >= 0 && v < 1) wordArt.opacity = v;
  }
  const shape: Shape<Block> = { kind: 'shape', geometry: 'rect', width, height, fill, wordArt };
  const rotation = /(?:^|;)\s*rotation\s*:\s*(-?[0-9.]+)/.exec(attr(el, 'style') ?? '')?.[1];
  if (rotation && +rotation) shape.rotation = +rotation;
  if (floating) shape.floating = floating;
  return shape;
}

/** How text wraps around a VML shape: its w10:wrap (type none, or no element: in front of the text, or behind it with a negative z-index). */
function vmlWrap(shape: XmlElement, style: string): Anchor['wrap'] {
  const wrap = child(shape, 'wrap');
  const type = wrap ? (attr(wrap, 'type') ?? 'square') : 'none';
  if (type === 'topAndBottom') return 'topAndBottom';
  if (type === 'tight' || type === 'through') return 'tight';
  if (type !== 'none') return 'square';
  return /z-index\s*:\s*-/.test(style) ? 'behind' : 'inFront';
}

/** mso-position-horizontal:center / mso-position-vertical:top and the like. */
function vmlAlign(style: string): Pick<Anchor, 'alignX' | 'alignY'> {
  const h = /mso-position-horizontal\s*:\s*(left|center|right|inside|outside)/.exec(style)?.[1];
  const v = /mso-position-vertical\s*:\s*(top|center|bottom)/.exec(style)?.[1];
  const out: Pick<Anchor, 'alignX' | 'alignY'> = {};
  if (h) out.alignX = h === 'inside' ? 'left' : h === 'outside' ? 'right' : (h as 'left' | 'center' | 'right');
  if (v) out.alignY = v as 'top' | 'center' | 'bottom';
  return out;
}

/** Where an absolutely positioned VML shape (position:absolute in its style) is anchored; undefined for one in the text's line. */
export function vmlAnchor(shape: XmlElement, style: string): Anchor | undefined {
  if (!/position\s*:\s*absolute/i.test(style)) return undefined;
  return {
    x: cssLength(style, 'margin-left') ?? cssLength(style, 'left') ?? 0,
    y: cssLength(style, 'margin-top') ?? cssLength(style, 'top') ?? 0,
    relativeX: /mso-position-horizontal-relative\s*:\s*page/.test(style) ? 'page' : /mso-position-horizontal-relative\s*:\s*margin/.test(style) ? 'margin' : 'column',
    relativeY: /mso-position-vertical-relative\s*:\s*page/.test(style) ? 'page' : /mso-position-vertical-relative\s*:\s*margin/.test(style) ? 'margin' : 'paragraph',
    wrap: vmlWrap(shape, style),
    ...vmlAlign(style),
  };
}

/** Maps a VML group's coordinates to points from the outermost group's corner. */
export type GroupSpace = (x: number, y: number) => [number, number];

/** A box in a VML group's coordinates (or in points, for the outermost group). */
export interface GroupBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The space of a group's members: its coordorigin and coordsize (VML's default 1000 × 1000) stretched over `box` (in the parent's space). */
export function groupSpace(g: XmlElement, parent: GroupSpace, box: GroupBox): GroupSpace {
  const [ox, oy] = (attr(g, 'coordorigin') ?? '0,0').split(',').map((v) => parseFloat(v) || 0);
  const [cw, ch] = (attr(g, 'coordsize') ?? '1000,1000').split(',').map((v) => parseFloat(v) || 1000);
  return (x, y) => parent(box.x + ((x - ox!) * box.width) / cw!, box.y + ((y - oy!) * box.height) / ch!);
}

/** A member's left, top, width and height: plain numbers in its group's coordinates. */
export function memberBox(el: XmlElement): GroupBox {
  const style = el.attrs['style'] ?? '';
  const n = (prop: string) => parseFloat(new RegExp(`(?:^|;)\\s*${prop}\\s*:\\s*(-?[0-9.]+)`).exec(style)?.[1] ?? '0') || 0;
  return { x: n('left'), y: n('top'), width: n('width'), height: n('height') };
}

/** The part of a VML picture shown: v:imagedata's cropleft, croptop… as fractions ("0.25") or in 1/65536 ("16384f"). */
export function vmlCrop(imagedata: XmlElement): PictureCrop | undefined {
  const side = (name: string) => {
    const v = imagedata.attrs[name]?.trim();
    const n = !v ? 0 : v.endsWith('f') ? Number(v.slice(0, -1)) / 65536 : Number(v);
    return Math.min(Math.max(n || 0, 0), 0.99);
  };
  return shownCrop({ left: side('cropleft'), top: side('croptop'), right: side('cropright'), bottom: side('cropbottom') });
}
