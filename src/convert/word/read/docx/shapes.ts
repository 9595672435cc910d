/**
 * DrawingML shapes of Word (wps:wsp) and groups of them (wpg:wgp): rectangles, rounded rectangles,
 * ellipses, lines and connectors, the presets that are polygons and custom geometry (freeform.ts),
 * with their fill and outline, and the text they hold. A shape that
 * draws nothing (no fill, no outline, or a geometry we cannot draw) but holds text stays a plain
 * text box, as before.
 */
import { borderShows, type Block, type FloatingPlacement, type Inline, type Shape } from '../../model/index';
import { attr, child, elements, type XmlElement } from '../../../../codecs/xml';
import { shapeFill, shapeLine } from '../../../office/drawing-color';
import type { Theme } from '../../../office/theme';
import { drawingMlFreeform, presetFreeform } from '../../../office/preset-geometry';

export interface ShapeContext {
  theme: Theme;
  blocksOf(txbxContent: XmlElement): Block[];
}

const GEOMETRY: Record<string, Shape['geometry']> = {
  rect: 'rect', flowChartProcess: 'rect', snip1Rect: 'rect', snip2SameRect: 'rect', snip2DiagRect: 'rect', snipRoundRect: 'rect', round2DiagRect: 'roundRect',
  roundRect: 'roundRect', flowChartAlternateProcess: 'roundRect', round1Rect: 'roundRect', round2SameRect: 'roundRect',
  ellipse: 'ellipse', flowChartConnector: 'ellipse',
  line: 'line', straightConnector1: 'line', bentConnector2: 'line', bentConnector3: 'line', bentConnector4: 'line',
  curvedConnector2: 'line', curvedConnector3: 'line', curvedConnector4: 'line',
};

/** A box in the frame the shape is placed in: the anchor's extent, in points. */
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Maps a group's child coordinates (EMU) to its parent's frame (points). */
type ToFrame = (x: number, y: number) => [number, number];
const scaleOf = (map: ToFrame): [number, number] => {
  const [x0, y0] = map(0, 0);
  const [x1, y1] = map(1, 1);
  return [x1 - x0, y1 - y0];
};

/** The shapes of a w:drawing's graphicData holding a wps:wsp or wpg:wgp, placed in the anchor's box. */
export function readShapes(graphicData: XmlElement, box: Box, floating: FloatingPlacement | undefined, ctx: ShapeContext): Inline[] {
  const out: Inline[] = [];
  for (const e of elements(graphicData)) {
    if (e.name === 'wsp') {
      // The top-level shape fills the anchor's extent, whatever its own xfrm offset says.
      out.push(...shapeInlines(e, box, floating, ctx));
    } else if (e.name === 'wgp' || e.name === 'grpSp') {
      // Members are placed like the group, offset in it (FloatingPlacement.inGroup).
      group(e, groupFrame(e, box), floating && { ...floating, inGroup: { width: box.width, height: box.height, dx: 0, dy: 0 } }, ctx, out);
    }
  }
  return out;
}

/** The map from a group's child space to the anchor's frame (its chOff/chExt stretched over `box`). */
function groupFrame(g: XmlElement, box: Box, parent?: ToFrame): ToFrame {
  const xfrm = child(child(g, 'grpSpPr'), 'xfrm');
  const n = (el: XmlElement | undefined, a: string, d = 0) => +(attr(el, a) ?? d);
  const chOff = child(xfrm, 'chOff'), chExt = child(xfrm, 'chExt');
  const cx = n(chOff, 'x'), cy = n(chOff, 'y');
  const cw = n(chExt, 'cx', 1) || 1, ch = n(chExt, 'cy', 1) || 1;
  if (!parent) {
    // The outermost group is stretched over the anchor's extent.
    return (x, y) => [box.x + ((x - cx) * box.width) / cw, box.y + ((y - cy) * box.height) / ch];
  }
  const off = child(xfrm, 'off'), ext = child(xfrm, 'ext');
  const ox = n(off, 'x'), oy = n(off, 'y'), ow = n(ext, 'cx', cw), oh = n(ext, 'cy', ch);
  return (x, y) => parent(ox + ((x - cx) * ow) / cw, oy + ((y - cy) * oh) / ch);
}

function group(g: XmlElement, toFrame: ToFrame, floating: FloatingPlacement | undefined, ctx: ShapeContext, out: Inline[]): void {
  for (const e of elements(g)) {
    if (e.name === 'wsp') {
      const xfrm = child(child(e, 'spPr'), 'xfrm');
      const off = child(xfrm, 'off'), ext = child(xfrm, 'ext');
      const [x, y] = toFrame(+(attr(off, 'x') ?? 0), +(attr(off, 'y') ?? 0));
      const [sx, sy] = scaleOf(toFrame);
      const box = { x, y, width: +(attr(ext, 'cx') ?? 0) * sx, height: +(attr(ext, 'cy') ?? 0) * sy };
      // Children of a group are placed like the group, offset by where they sit in it.
      out.push(...shapeInlines(e, box, floating && { ...floating, inGroup: { ...floating.inGroup!, dx: box.x, dy: box.y } }, ctx));
    } else if (e.name === 'grpSp') group(e, groupFrame(e, { x: 0, y: 0, width: 0, height: 0 }, toFrame), floating, ctx, out);
  }
}

function insetsOf(bodyPr: XmlElement | undefined): Shape['textInsets'] {
  const v = (a: string, d: number) => {
    const s = attr(bodyPr, a);
    return s !== undefined && Number.isFinite(+s) ? +s / 12700 : d;
  };
  return { left: v('lIns', 7.2), top: v('tIns', 3.6), right: v('rIns', 7.2), bottom: v('bIns', 3.6) };
}

/** One wps:wsp placed in `box`: a shape inline, a text box, or nothing. */
function shapeInlines(wsp: XmlElement, box: Box, floating: FloatingPlacement | undefined, ctx: ShapeContext): Inline[] {
  const spPr = child(wsp, 'spPr');
  const style = child(wsp, 'style');
  const txbx = child(child(wsp, 'txbx'), 'txbxContent');
  const blocks = txbx ? ctx.blocksOf(txbx) : undefined;
  const prst = attr(child(spPr, 'prstGeom'), 'prst');
  const width = box.width, height = box.height;
  let geometry = prst ? GEOMETRY[prst] : undefined;
  // Other presets that are polygons, and custom geometry (freeform.ts); the rest is not drawn.
  const custGeom = child(spPr, 'custGeom');
  const path = geometry ? undefined : prst ? presetFreeform(prst, width, height) : custGeom ? drawingMlFreeform(custGeom, width * 12700, height * 12700) : undefined;
  if (path) geometry = 'path';
  const fill = geometry && geometry !== 'line' ? shapeFill(spPr, style, ctx.theme) : null;
  const line = geometry ? shapeLine(spPr, style, ctx.theme) : undefined;
  if (!geometry || (!fill && !line)) {
    if (!blocks) return [];
    if (positionedTextBox(floating)) return blocks.some(hasContent) ? [textOf({ kind: 'shape', geometry: 'rect', width, height, floating: floating! }, wsp, blocks)] : [];
    const tb: Inline = { kind: 'textbox', blocks, width };
    if (height) tb.height = height;
    // Without "resize shape to fit text" Word shows only what fits in the box (a business card's overflow).
    const bodyPr = child(wsp, 'bodyPr');
    if (height && bodyPr && !child(bodyPr, 'spAutoFit')) {
      const inset = insetsOf(bodyPr)!;
      tb.textRoom = Math.max(0, height - inset.top - inset.bottom);
    }
    if (floating) tb.floating = floating;
    return [tb];
  }
  const shape: Shape = { kind: 'shape', geometry, width, height };
  if (path) shape.path = path;
  if (fill) shape.fill = fill;
  if (line) shape.line = line;
  const xfrm = child(spPr, 'xfrm');
  if (attr(xfrm, 'flipH') === '1') shape.flipH = true;
  if (attr(xfrm, 'flipV') === '1') shape.flipV = true;
  const rot = +(attr(xfrm, 'rot') ?? 0) / 60000;
  if (rot) shape.rotation = rot;
  if (floating) shape.floating = floating;
  return [blocks?.some(hasContent) ? textOf(shape, wsp, blocks) : shape];
}

/** The shape with the text it holds, inset and anchored as its body properties say. */
function textOf(shape: Shape, wsp: XmlElement, blocks: Block[]): Shape {
  const bodyPr = child(wsp, 'bodyPr');
  const anchor = attr(bodyPr, 'anchor');
  const text: Shape = { ...shape, blocks, textInsets: insetsOf(bodyPr), textAnchor: anchor === 'ctr' ? 'center' : anchor === 'b' ? 'bottom' : 'top' };
  // Without "resize shape to fit text" the box keeps its size and Word shows only what fits in it.
  if (bodyPr && !child(bodyPr, 'spAutoFit') && shape.height > 0) text.clipsText = true;
  return text;
}

/**
 * A floating text box that text does not wrap around (in front of it or behind it) is drawn where
 * it is placed, as a shape without fill or outline; one that text wraps around stays in the flow,
 * the nearest the layout comes to wrapping (GASU.docx: labels of its diagrams, in the flow, pushed
 * its figures down and took 8 extra pages).
 */
export const positionedTextBox = (floating: FloatingPlacement | undefined): boolean => floating?.wrap === 'inFront' || floating?.wrap === 'behind';

/**
 * Whether a block shows anything (an empty paragraph in a shape is the usual "no text"); a
 * paragraph's border or shading shows without text (the double rule of LibreOffice's letter templates).
 */
function hasContent(b: Block): boolean {
  if (b.kind === 'table') return true;
  const { borders, shading, list } = b.props;
  const bordered = !!borders && Object.values(borders).some(borderShows);
  return b.inlines.some((i) => i.kind !== 'text' || (!i.style.hidden && i.text.trim() !== '')) || !!list || bordered || (!!shading && shading !== 'auto');
}
