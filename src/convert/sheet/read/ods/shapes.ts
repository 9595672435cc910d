/**
 * A table's drawn shapes (draw:custom-shape, draw:rect, draw:ellipse, draw:circle, draw:line,
 * draw:connector, a draw:frame holding a draw:text-box, and draw:g groups of them) as the Office
 * parts' shapes: the geometry their enhanced geometry's draw:type names (a DrawingML preset by its
 * ooxml- name or LibreOffice's own), their fill and stroke from their graphic style (its parents and
 * the default style under it), arrowheads, turning (draw:transform), and their text paragraphs with
 * the paragraph and text styles they name. Placed as frames are (drawings.ts): from their cell.
 */
import { attr, child, type XmlElement } from '../../../../codecs/xml';
import type { LineEnd, Shape, TextParagraph, TextRun } from '../../../office/model';
import { presetShape } from '../../../office/drawingml/shapes';
import type { Font } from '../../model';
import { fontOf, hexColor, lengthPoints, paragraphText, type StyleSources } from './styles';

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

/** A shape read: itself, and its box from the anchor cell's corner (points). */
export interface PlacedShape {
  shape: Shape<TextParagraph>;
  x: number;
  y: number;
  width: number;
  height: number;
}

const length = (v: string | undefined) => Math.max(-1e6, Math.min(lengthPoints(v) ?? 0, 1e6)) || 0;

/** A graphic style's properties with its parents' and the default's under them; `element` is the properties element. */
function graphicProps(sources: StyleSources, name: string | undefined, element: string): Record<string, string> {
  const chain: Record<string, string>[] = [];
  const seen = new Set<string>();
  for (let s = sources.style('graphic', name); s && chain.length < 16; s = sources.style('graphic', attr(s, 'parent-style-name'))) {
    const key = attr(s, 'name') ?? '';
    if (seen.has(key)) break;
    seen.add(key);
    chain.unshift(child(s, element)?.attrs ?? {});
  }
  return chain.reduce(over, child(sources.defaults.get('graphic'), element)?.attrs ?? {});
}

function marker(props: Record<string, string>, which: 'start' | 'end'): LineEnd | undefined {
  const name = props[`marker-${which}`];
  if (!name) return undefined;
  const type: LineEnd['type'] = /circle|oval/i.test(name) ? 'oval' : /diamond|square/i.test(name) ? 'diamond' : /line|open/i.test(name) ? 'arrow' : 'triangle';
  return { type, width: 3, length: 3 };
}

/** Fill, outline and text layout of a graphic style. */
function looks(sources: StyleSources, styleName: string | undefined, height: number): Pick<Shape<TextParagraph>, 'fill' | 'line' | 'textInsets' | 'textAnchor' | 'clipsText'> {
  const g = graphicProps(sources, styleName, 'graphic-properties');
  const out: ReturnType<typeof looks> = {};
  // LibreOffice's defaults: filled (#729fcf) and stroked (#3465a4) unless the style says none.
  const fill = g['fill'] ?? 'solid';
  if (fill !== 'none') out.fill = hexColor(g['fill-color']) ?? '729FCF';
  if ((g['stroke'] ?? 'solid') !== 'none') {
    const start = marker(g, 'start'), end = marker(g, 'end');
    out.line = { color: hexColor(g['stroke-color']) ?? '3465A4', width: Math.max(length(g['stroke-width']), 0.1), ...(start ? { start } : {}), ...(end ? { end } : {}) };
  }
  out.textInsets = { left: length(g['padding-left'] ?? '0.1in'), top: length(g['padding-top'] ?? '0.05in'), right: length(g['padding-right'] ?? '0.1in'), bottom: length(g['padding-bottom'] ?? '0.05in') };
  const v = g['textarea-vertical-align'];
  out.textAnchor = v === 'middle' ? 'center' : v === 'bottom' ? 'bottom' : 'top';
  if (g['auto-grow-height'] === 'false' && height > 0) out.clipsText = true;
  return out;
}

/** Text properties over others: a colour of its own clears the window's font colour under it, and the other way round. */
function over(base: Record<string, string>, own: Record<string, string> | undefined): Record<string, string> {
  const out = { ...base, ...own };
  if (own?.['color'] && !own['use-window-font-color']) delete out['use-window-font-color'];
  if (own?.['use-window-font-color'] === 'true' && !own['color']) delete out['color'];
  return out;
}

const ALIGN: Record<string, TextParagraph['align']> = { start: 'left', left: 'left', center: 'center', end: 'right', right: 'right', justify: 'justify' };

/** The shape's text:p paragraphs, each span in its text style over the paragraph's over the shape's. */
export function paragraphs(el: XmlElement, sources: StyleSources, styleName: string | undefined, base: Font): TextParagraph[] {
  const shapeText = graphicProps(sources, styleName, 'text-properties');
  const shapeAlign = graphicProps(sources, styleName, 'paragraph-properties')['text-align'];
  const out: TextParagraph[] = [];
  let left = SHAPE_TEXT_MAX;
  for (const p of el.children) {
    if (typeof p === 'string' || p.name !== 'p' || left <= 0) continue;
    const pStyle = sources.style('paragraph', attr(p, 'style-name'));
    const pText = over(shapeText, child(pStyle, 'text-properties')?.attrs);
    const font = fontOf(sources, pText, base);
    const runs: TextRun[] = [];
    const run = (text: string, props: Record<string, string>) => {
      const f = fontOf(sources, props, base);
      const kept = text.slice(0, left);
      left -= kept.length;
      if (kept) runs.push({ text: kept, font: f.name, size: f.size, color: f.color ?? '000000', ...(f.bold ? { bold: true } : {}), ...(f.italic ? { italic: true } : {}), ...(f.underline ? { underline: true } : {}), ...(f.strike ? { strike: true } : {}) });
    };
    for (const c of p.children) {
      if (typeof c === 'string') run(c, pText);
      else if (c.name === 'span') run(paragraphText(c, left), over(pText, child(sources.style('text', attr(c, 'style-name')), 'text-properties')?.attrs));
      else run(paragraphText({ ...p, children: [c] }, left), pText);
    }
    const align = ALIGN[child(pStyle, 'paragraph-properties')?.attrs['text-align'] ?? shapeAlign ?? 'start'] ?? 'left';
    out.push({ align, runs, size: font.size, font: font.name });
  }
  return out.some((p) => p.runs.length) ? out : [];
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
  if (el.name !== 'custom-shape') return Object.hasOwn(ELEMENT_PRESETS, el.name) ? ELEMENT_PRESETS[el.name] : undefined;
  const type = attr(child(el, 'enhanced-geometry'), 'type') ?? '';
  return type.startsWith('ooxml-') ? type.slice(6) : Object.hasOwn(ODF_PRESETS, type) ? ODF_PRESETS[type] : undefined;
}

/** One shape element (not a group) as a placed shape; undefined for what it does not draw. */
function oneShape(el: XmlElement, sources: StyleSources, base: Font): PlacedShape | undefined {
  const styleName = attr(el, 'style-name');
  const line = el.name === 'line' || el.name === 'connector';
  const [x1, y1, x2, y2] = line ? [length(attr(el, 'x1')), length(attr(el, 'y1')), length(attr(el, 'x2')), length(attr(el, 'y2'))] : [0, 0, 0, 0];
  let [x, y, width, height] = line ? [Math.min(x1, x2), Math.min(y1, y2), Math.abs(x2 - x1), Math.abs(y2 - y1)] : [length(attr(el, 'x')), length(attr(el, 'y')), Math.max(0, length(attr(el, 'width'))), Math.max(0, length(attr(el, 'height')))];
  const blocks = el.name === 'frame' ? paragraphs(child(el, 'text-box') ?? el, sources, styleName, base) : paragraphs(el, sources, styleName, base);
  const drawn = presetShape(el.name === 'frame' ? 'rect' : (presetOf(el) ?? ''), width, height);
  if (!drawn && !blocks.length) return undefined;
  const shape: Shape<TextParagraph> = { kind: 'shape', geometry: drawn?.geometry ?? 'rect', ...(drawn?.path ? { path: drawn.path } : {}), width, height, ...looks(sources, styleName, height) };
  if (line) {
    // The line starts at (x1, y1): a corner other than the top-left is told by flips.
    delete shape.fill;
    if (x2 < x1) shape.flipH = true;
    if (y2 < y1) shape.flipV = true;
  }
  if (!drawn) {
    // Text alone: a custom shape of a kind not drawn.
    delete shape.fill;
    delete shape.line;
  }
  if (blocks.length) shape.blocks = blocks;
  const turned = transformed(attr(el, 'transform'), width, height);
  if (turned) {
    [x, y] = [turned.x, turned.y];
    if (Math.abs(turned.rotation) > 0.01) shape.rotation = turned.rotation;
  }
  return { shape, x, y, width, height };
}

/** The shapes of a shape element or group (its members, groups within it followed `depth` deep), at most `most`. */
export function readShapes(el: XmlElement, sources: StyleSources, base: Font, most: number, depth = 0): PlacedShape[] {
  if (el.name !== 'g') {
    const one = oneShape(el, sources, base);
    return one ? [one] : [];
  }
  const out: PlacedShape[] = [];
  for (const c of el.children) {
    if (typeof c === 'string' || out.length >= most || depth >= 16) continue;
    if (SHAPE_ELEMENTS.has(c.name) || (c.name === 'frame' && child(c, 'text-box'))) out.push(...readShapes(c, sources, base, most - out.length, depth + 1));
  }
  return out;
}
