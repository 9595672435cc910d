/**
 * ODF drawn shapes (draw:custom-shape, draw:rect, draw:ellipse, draw:circle, draw:line,
 * draw:connector, a draw:frame holding a draw:text-box or a draw:image, and draw:g groups of them),
 * in a spreadsheet or on a slide, as the Office parts' shapes: the geometry their enhanced
 * geometry's draw:type names (a DrawingML preset by its ooxml- name or LibreOffice's own) and its
 * mirroring, their fill (solid, a gradient as its colours' average, a bitmap as a picture over the
 * box) and stroke from their graphic or presentation style (its parents and the default style
 * under it), arrowheads, turning (draw:transform), and their text (text.ts) in what the style
 * gives. Boxes are as the element places them: from a sheet's cell, or on the slide.
 */
import { attr, child, children, type XmlElement } from '../../../codecs/xml';
import type { Gradient, LineEnd, Picture, Shape, TextParagraph } from '../model';
import { presetShape } from '../drawingml/shapes';
import { imageContentType } from '../package';
import { packagePath, type PartReader } from './package';
import { hexColor, lengthPoints, ODF_TEXT_MAX, type StyleSources, type TextLook } from './styles';
import { odfParagraphs, over, type ShapeText } from './text';
import { middleColor, odfFillOpacity, odfGradient } from './gradient';

export const SHAPE_ELEMENTS = new Set(['custom-shape', 'rect', 'ellipse', 'circle', 'line', 'connector', 'g']);

/** LibreOffice's own shape types as the DrawingML presets drawn for them. */
const ODF_PRESETS: Record<string, string> = {
  rectangle: 'rect', 'round-rectangle': 'roundRect', ellipse: 'ellipse', circle: 'ellipse', 'isosceles-triangle': 'triangle', 'right-triangle': 'rtTriangle',
  diamond: 'diamond', parallelogram: 'parallelogram', trapezoid: 'trapezoid', hexagon: 'hexagon', octagon: 'octagon', pentagon: 'pentagon',
  'right-arrow': 'rightArrow', 'left-arrow': 'leftArrow', 'up-arrow': 'upArrow', 'down-arrow': 'downArrow', 'left-right-arrow': 'leftRightArrow',
  star4: 'star4', star5: 'star5', star6: 'star6', star8: 'star8', cross: 'plus', chevron: 'chevron', pentagon_right: 'homePlate',
  'flowchart-process': 'rect', 'flowchart-decision': 'diamond', 'flowchart-connector': 'ellipse', 'flowchart-alternate-process': 'roundRect',
};
const ELEMENT_PRESETS: Record<string, string> = { rect: 'rect', ellipse: 'ellipse', circle: 'ellipse', line: 'line', connector: 'line' };
/** Text of one shape kept at most. */
const SHAPE_TEXT_MAX = 32_767;
/** Groups within groups followed at most. */
export const GROUP_DEPTH_MAX = 32;
/** Pictures a print can show, preferred over the others a frame offers (LibreOffice's own .svm, SVG). */
const RASTER_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/bmp', 'image/tiff', 'image/emf', 'image/wmf']);

/** What shapes are read with: the styles, the text's look where no style says, the package (pictures), and a budget of characters shared by the shapes read. */
export interface ShapeContext {
  sources: StyleSources;
  base: TextLook;
  read?: PartReader;
  text?: { left: number };
}

/** A shape read: itself, and its box as the element places it (points). */
export interface PlacedShape {
  shape: Shape<TextParagraph>;
  x: number;
  y: number;
  width: number;
  height: number;
}

const length = (v: string | undefined) => Math.max(-1e6, Math.min(lengthPoints(v) ?? 0, 1e6)) || 0;

/** A placeholder (presentation:class), or a shape naming a presentation style, is styled by a presentation style; anything else by a graphic style. */
export const styleFamilyOf = (el: XmlElement, sources: StyleSources): 'presentation' | 'graphic' =>
  // The parser keeps attributes by local name, so presentation:style-name and draw:style-name read alike: a presentation style
  // is told by its family (LibreOffice names them pr1, pr2... and gives them to frames without a presentation:class too).
  attr(el, 'class') !== undefined || sources.style('presentation', attr(el, 'style-name')) ? 'presentation' : 'graphic';

/** A style's properties with its parents' and the default's under them; `element` is the properties element. */
export function graphicProps(sources: StyleSources, family: string, name: string | undefined, element: string): Record<string, string> {
  return sources.chain(family, name).reduce((out, s) => over(out, child(s, element)?.attrs), child(sources.defaults.get('graphic'), element)?.attrs ?? {});
}

/**
 * What a style gives its shape's text at each list level. A presentation outline's levels are
 * styled by its master's outline styles ("Default-outline2" for the second): the chain's outline1
 * style gives way to the level's.
 */
export function shapeText(sources: StyleSources, family: string, styleName: string | undefined, base: TextLook): ShapeText {
  const chain = sources.chain(family, styleName);
  const outline = chain.findIndex((s) => /-outline1$/.test(attr(s, 'name') ?? ''));
  const known = new Map<string, Record<string, string>>();
  const props = (level: number, element: string) => {
    const key = `${level}:${element}`;
    if (!known.has(key)) {
      const deeper = outline >= 0 && level > 1 ? sources.chain(family, attr(chain[outline]!, 'name')!.replace(/1$/, String(level))) : [];
      const at = deeper.length ? [...deeper, ...chain.slice(outline + 1)] : chain;
      known.set(key, at.reduce((out, s) => over(out, child(s, element)?.attrs), child(sources.defaults.get('graphic'), element)?.attrs ?? {}));
    }
    return known.get(key)!;
  };
  const listStyle = [...chain].reverse().map((s) => child(child(s, 'graphic-properties'), 'list-style')).find(Boolean);
  return { text: (l) => props(l, 'text-properties'), paragraph: (l) => props(l, 'paragraph-properties'), ...(listStyle ? { listStyle } : {}), base };
}

function marker(props: Record<string, string>, which: 'start' | 'end'): LineEnd | undefined {
  const name = props[`marker-${which}`];
  if (!name) return undefined;
  const type: LineEnd['type'] = /circle|oval/i.test(name) ? 'oval' : /diamond|square/i.test(name) ? 'diamond' : /line|open/i.test(name) ? 'arrow' : 'triangle';
  return { type, width: 3, length: 3 };
}

/** A package picture by its xlink:href, when it is in the package and not empty. */
function packagePicture(href: string | undefined, read: PartReader | undefined): Picture | undefined {
  const path = packagePath(href);
  const data = path && read ? read(path) : undefined;
  return data?.length ? { data, contentType: imageContentType(path!, data) } : undefined;
}

/** A style's fill (draw:fill): its colour, or a bitmap's picture; LibreOffice's default is a solid #729fcf. */
export function fillOf(g: Record<string, string>, sources: StyleSources, read: PartReader | undefined): { fill?: string; picture?: Picture; gradient?: Gradient; fillOpacity?: number } {
  const kind = g['fill'] ?? 'solid';
  if (kind === 'none') return {};
  const opacity = odfFillOpacity(g, sources.opacities);
  const seeThrough = opacity !== undefined ? { fillOpacity: opacity } : {};
  if (kind === 'gradient') {
    const gradient = odfGradient(sources.gradients.get(g['fill-gradient-name'] ?? ''));
    const fill = gradient ? middleColor(gradient.stops[0]!.color, gradient.stops.at(-1)!.color) : (hexColor(g['fill-color']) ?? '729FCF');
    return { fill, ...(gradient ? { gradient } : {}), ...seeThrough };
  }
  if (kind === 'bitmap') {
    const picture = packagePicture(attr(sources.fillImages.get(g['fill-image-name'] ?? ''), 'href'), read);
    return picture ? { picture } : {};
  }
  return { fill: hexColor(g['fill-color']) ?? '729FCF', ...seeThrough };
}

type Looks = Pick<Shape<TextParagraph>, 'fill' | 'picture' | 'gradient' | 'fillOpacity' | 'line' | 'textInsets' | 'textAnchor' | 'clipsText' | 'shrinksText'>;

/** Fill, outline and text layout of a shape's style. */
function looks(ctx: ShapeContext, family: string, styleName: string | undefined, height: number): Looks {
  const g = graphicProps(ctx.sources, family, styleName, 'graphic-properties');
  const out: Looks = fillOf(g, ctx.sources, ctx.read);
  // LibreOffice's default: stroked (#3465a4) unless the style says none.
  if ((g['stroke'] ?? 'solid') !== 'none') {
    const start = marker(g, 'start'), end = marker(g, 'end');
    out.line = { color: hexColor(g['stroke-color']) ?? '3465A4', width: Math.max(length(g['stroke-width']), 0.1), ...(start ? { start } : {}), ...(end ? { end } : {}) };
  }
  out.textInsets = { left: length(g['padding-left'] ?? '0.1in'), top: length(g['padding-top'] ?? '0.05in'), right: length(g['padding-right'] ?? '0.1in'), bottom: length(g['padding-bottom'] ?? '0.05in') };
  const v = g['textarea-vertical-align'];
  out.textAnchor = v === 'middle' ? 'center' : v === 'bottom' ? 'bottom' : 'top';
  if (g['auto-grow-height'] === 'false' && height > 0) out.clipsText = true;
  // Impress's "shrink on overflow" (PowerPoint's normAutofit as LibreOffice saves it): it saves no scale, so the text is shrunk until it fits.
  if (g['shrink-to-fit'] === 'true' || g['fit-to-size'] === 'shrink-to-fit') out.shrinksText = true;
  return out;
}

/** The text:p paragraphs of an element (a sheet's note or shape) in its graphic style `styleName`. */
export function paragraphs(el: XmlElement, sources: StyleSources, styleName: string | undefined, base: TextLook): TextParagraph[] {
  return odfParagraphs(el, sources, shapeText(sources, 'graphic', styleName, base), { left: SHAPE_TEXT_MAX });
}

/** draw:transform "rotate (a) translate (x y)": the box turned by a about its top-left corner, then moved; as a turn about its centre. */
function transformed(value: string | undefined, width: number, height: number): { x: number; y: number; rotation: number } | undefined {
  const rotate = /rotate\s*\(\s*([-\d.eE]+)\s*\)/.exec(value ?? '');
  const translate = /translate\s*\(\s*([-\d.eE]+[a-z]*)\s+([-\d.eE]+[a-z]*)\s*\)/.exec(value ?? '');
  if (!translate) return undefined;
  const a = rotate ? -Number(rotate[1]) : 0;
  if (!Number.isFinite(a)) return undefined;
  const [tx, ty] = [length(translate[1]), length(translate[2])];
  // The centre, turned clockwise by a (y down) about the corner, then moved.
  const cx = tx + (width / 2) * Math.cos(a) - (height / 2) * Math.sin(a);
  const cy = ty + (width / 2) * Math.sin(a) + (height / 2) * Math.cos(a);
  return { x: cx - width / 2, y: cy - height / 2, rotation: (a * 180) / Math.PI };
}

/** The preset the element draws: its enhanced geometry's type, or its own kind. */
function presetOf(el: XmlElement): string | undefined {
  if (el.name === 'frame') return 'rect';
  if (el.name !== 'custom-shape') return Object.hasOwn(ELEMENT_PRESETS, el.name) ? ELEMENT_PRESETS[el.name] : undefined;
  const type = attr(child(el, 'enhanced-geometry'), 'type') ?? '';
  return type.startsWith('ooxml-') ? type.slice(6) : Object.hasOwn(ODF_PRESETS, type) ? ODF_PRESETS[type] : undefined;
}

/** A frame's picture: the first of its draw:image elements a print shows best. */
export function framePicture(frame: XmlElement, read: PartReader | undefined): Picture | undefined {
  const offered = children(frame, 'image').slice(0, 8).map((image) => packagePicture(attr(image, 'href'), read)).filter((p): p is Picture => !!p);
  return offered.find((p) => RASTER_TYPES.has(p.contentType)) ?? offered.find((p) => p.contentType !== 'application/octet-stream');
}

/** The element's box: a line's or connector's from its ends (and flips for the corner it starts at), anything else's svg:x, y, width, height. */
function boxOf(el: XmlElement): Omit<PlacedShape, 'shape'> & { flipH?: boolean; flipV?: boolean } {
  if (el.name !== 'line' && el.name !== 'connector') {
    return { x: length(attr(el, 'x')), y: length(attr(el, 'y')), width: Math.max(0, length(attr(el, 'width'))), height: Math.max(0, length(attr(el, 'height'))) };
  }
  const [x1, y1, x2, y2] = [length(attr(el, 'x1')), length(attr(el, 'y1')), length(attr(el, 'x2')), length(attr(el, 'y2'))];
  return { x: Math.min(x1, x2), y: Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1), ...(x2 < x1 ? { flipH: true } : {}), ...(y2 < y1 ? { flipV: true } : {}) };
}

/** The element's text, against its own budget and the context's. */
function textOf(el: XmlElement, ctx: ShapeContext, family: string, styleName: string | undefined): TextParagraph[] {
  const holder = el.name === 'frame' ? child(el, 'text-box') : el;
  if (!holder) return [];
  const budget = { left: Math.min(SHAPE_TEXT_MAX, ctx.text?.left ?? ODF_TEXT_MAX) };
  const before = budget.left;
  const blocks = odfParagraphs(holder, ctx.sources, shapeText(ctx.sources, family, styleName, ctx.base), budget);
  if (ctx.text) ctx.text.left -= before - budget.left;
  return blocks;
}

/** One shape element (not a group) as a placed shape; undefined for what it does not draw. */
function oneShape(el: XmlElement, ctx: ShapeContext): PlacedShape | undefined {
  const family = styleFamilyOf(el, ctx.sources);
  const styleName = attr(el, 'style-name');
  const placed = boxOf(el);
  const { width, height } = placed;
  const picture = el.name === 'frame' ? framePicture(el, ctx.read) : undefined;
  const blocks = picture ? [] : textOf(el, ctx, family, styleName);
  const drawn = presetShape(presetOf(el) ?? '', width, height);
  if (!drawn && !blocks.length && !picture) return undefined;
  const shape: Shape<TextParagraph> = { kind: 'shape', geometry: drawn?.geometry ?? 'rect', ...(drawn?.path ? { path: drawn.path } : {}), width, height, ...looks(ctx, family, styleName, height) };
  if (picture) [shape.picture, shape.fill] = [picture, undefined];
  if (el.name === 'line' || el.name === 'connector') {
    delete shape.fill;
    delete shape.picture;
  }
  const geometry = child(el, 'enhanced-geometry');
  if (placed.flipH || attr(geometry, 'mirror-horizontal') === 'true') shape.flipH = true;
  if (placed.flipV || attr(geometry, 'mirror-vertical') === 'true') shape.flipV = true;
  if (!drawn) {
    // Text alone: a custom shape of a kind not drawn.
    delete shape.fill;
    delete shape.line;
    delete shape.picture;
  }
  if (blocks.length) shape.blocks = blocks;
  const turned = transformed(attr(el, 'transform'), width, height);
  if (turned) {
    [placed.x, placed.y] = [turned.x, turned.y];
    if (Math.abs(turned.rotation) > 0.01) shape.rotation = turned.rotation;
  }
  return { shape: clean(shape), x: placed.x, y: placed.y, width, height };
}

/** The shape without the keys left undefined. */
const clean = (shape: Shape<TextParagraph>): Shape<TextParagraph> => Object.fromEntries(Object.entries(shape).filter(([, v]) => v !== undefined)) as unknown as Shape<TextParagraph>;

/** Whether the shape reader draws an element: a shape, a group, or a frame with text or a picture. */
export const drawsElement = (c: XmlElement, ctx: ShapeContext): boolean => SHAPE_ELEMENTS.has(c.name) || (c.name === 'frame' && (!!child(c, 'text-box') || (!!ctx.read && !!child(c, 'image'))));

/** The shapes of a shape element or group (its members, groups within it followed `depth` deep), at most `most`. */
export function readShapes(el: XmlElement, ctx: ShapeContext, most: number, depth = 0): PlacedShape[] {
  if (el.name !== 'g') {
    const one = oneShape(el, ctx);
    return one ? [one] : [];
  }
  const out: PlacedShape[] = [];
  for (const c of el.children) {
    if (typeof c === 'string' || out.length >= most || depth >= GROUP_DEPTH_MAX) continue;
    if (drawsElement(c, ctx)) out.push(...readShapes(c, ctx, most - out.length, depth + 1));
  }
  return out;
}
