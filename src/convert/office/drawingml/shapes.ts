/**
 * DrawingML shapes, whatever holds them (Word's wps:wsp, a slide's p:sp, a sheet's xdr:sp): their
 * geometry (rectangles, rounded rectangles, ellipses, lines and connectors, the presets that are
 * polygons and custom geometry, preset-geometry.ts), their fill and outline (drawing-color.ts),
 * flip and rotation, the insets and anchoring of their text (a:bodyPr); and the coordinate spaces
 * of groups (a:grpSpPr) their members are placed in. The text itself is the format's.
 */
import type { Insets, Shape, ShapeGeometry } from '../model';
import { attr, child, children, type XmlElement } from '../../../codecs/xml';
import { fillOpacity, gradientOf, outerShadow, shapeFill, shapeLine } from '../drawing-color';
import type { Theme } from '../theme';
import { drawingMlFreeform, presetFreeform } from '../preset-geometry';
import { presetAdjust, presetCurves } from '../preset-curves';
import type { Adjust } from '../preset-parts';

/** The presets drawn as one of the four plain geometries. */
const GEOMETRY: Record<string, ShapeGeometry> = {
  rect: 'rect', flowChartProcess: 'rect',
  roundRect: 'roundRect', flowChartAlternateProcess: 'roundRect',
  ellipse: 'ellipse', flowChartConnector: 'ellipse',
  line: 'line', straightConnector1: 'line',
};

/** The plain geometry a preset is, if it is one: a rounded rectangle only with its default corners (1/6 of the shorter side; others are drawn as paths). */
const plainGeometry = (prst: string, adjust: Adjust): ShapeGeometry | undefined =>
  Object.hasOwn(GEOMETRY, prst) && !(prst === 'roundRect' && adjust['adj'] !== undefined && adjust['adj'] !== 16_667) ? GEOMETRY[prst] : undefined;

/** A box in the frame a shape is placed in (an anchor's extent), in points. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Maps a group's child coordinates (EMU) to its parent's frame (points). */
export type ToFrame = (x: number, y: number) => [number, number];

const scaleOf = (map: ToFrame): [number, number] => {
  const [x0, y0] = map(0, 0);
  const [x1, y1] = map(1, 1);
  return [x1 - x0, y1 - y0];
};

/**
 * The map from a group's child space to the anchor's frame: its chOff/chExt stretched over `box`
 * for the outermost group, over its own off/ext in its parent group's space for one inside another.
 */
export function groupFrame(g: XmlElement, box: Box, parent?: ToFrame): ToFrame {
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

/** A group member's box in the anchor's frame: its a:xfrm's off and ext mapped by the group's `toFrame`. */
export function memberBox(spPr: XmlElement | undefined, toFrame: ToFrame): Box {
  const xfrm = child(spPr, 'xfrm');
  const off = child(xfrm, 'off'), ext = child(xfrm, 'ext');
  const [x, y] = toFrame(+(attr(off, 'x') ?? 0), +(attr(off, 'y') ?? 0));
  const [sx, sy] = scaleOf(toFrame);
  return { x, y, width: +(attr(ext, 'cx') ?? 0) * sx, height: +(attr(ext, 'cy') ?? 0) * sy };
}

/** A text body's insets (a:bodyPr lIns…, EMU), DrawingML's defaults where left out (0.1 in left and right, 0.05 in top and bottom). */
export function bodyInsets(bodyPr: XmlElement | undefined): Insets {
  const v = (a: string, d: number) => {
    const s = attr(bodyPr, a);
    return s !== undefined && Number.isFinite(+s) ? +s / 12700 : d;
  };
  return { left: v('lIns', 7.2), top: v('tIns', 3.6), right: v('rIns', 7.2), bottom: v('bIns', 3.6) };
}

/** Whether the shape grows to its text (a:spAutoFit, "resize shape to fit text"). */
export const growsToText = (bodyPr: XmlElement | undefined): boolean => !!child(bodyPr, 'spAutoFit');

/**
 * How a shape of `height` lays out its text: inset and anchored as its body properties say; without
 * "resize shape to fit text" the box keeps its size and shows only what fits in it.
 */
export function textLayout(bodyPr: XmlElement | undefined, height: number): Pick<Shape, 'textInsets' | 'textAnchor' | 'clipsText'> {
  const anchor = attr(bodyPr, 'anchor');
  const text: Pick<Shape, 'textInsets' | 'textAnchor' | 'clipsText'> = { textInsets: bodyInsets(bodyPr), textAnchor: anchor === 'ctr' ? 'center' : anchor === 'b' ? 'bottom' : 'top' };
  if (bodyPr && !growsToText(bodyPr) && height > 0) text.clipsText = true;
  return text;
}

/** A DrawingML preset's outline in a width × height box, with its adjustments: one of the plain geometries, or a path; undefined for one not drawn. */
export function presetShape(prst: string, width: number, height: number, adjust: Adjust = {}): Pick<Shape, 'geometry' | 'path'> | undefined {
  const geometry = plainGeometry(prst, adjust);
  if (geometry) return { geometry };
  const path = presetFreeform(prst, width, height, adjust) ?? presetCurves(prst, width, height, adjust);
  return path ? { geometry: 'path', path } : undefined;
}

/**
 * The shape an a:spPr (with its a:style) draws in a width × height box: its geometry, fill, outline,
 * flip and rotation. Undefined when it draws nothing: no fill and no outline, or a geometry that is
 * not drawn (an unknown preset).
 */
export function drawnShape(spPr: XmlElement | undefined, style: XmlElement | undefined, width: number, height: number, theme: Theme): Shape | undefined {
  const prst = attr(child(spPr, 'prstGeom'), 'prst');
  const adjust = presetAdjust(children(child(child(spPr, 'prstGeom'), 'avLst'), 'gd').map((gd) => ({ name: attr(gd, 'name'), fmla: attr(gd, 'fmla') })));
  let geometry = prst ? plainGeometry(prst, adjust) : undefined;
  // Other presets as paths, and custom geometry (in EMU); an unknown preset is not drawn.
  const custGeom = child(spPr, 'custGeom');
  const path = geometry ? undefined : prst ? (presetFreeform(prst, width, height, adjust) ?? presetCurves(prst, width, height, adjust)) : custGeom ? drawingMlFreeform(custGeom, width * 12700, height * 12700) : undefined;
  if (path) geometry = 'path';
  const fill = geometry && geometry !== 'line' ? shapeFill(spPr, style, theme) : null;
  const line = geometry ? shapeLine(spPr, style, theme) : undefined;
  if (!geometry || (!fill && !line)) return undefined;
  const shape: Shape = { kind: 'shape', geometry, width, height };
  if (path) shape.path = path;
  if (fill) shape.fill = fill;
  const shadow = outerShadow(spPr, theme);
  if (shadow && (shadow.dx || shadow.dy)) shape.shadow = shadow;
  const gradient = fill ? gradientOf(spPr, theme) : undefined;
  if (gradient) shape.gradient = gradient;
  const opacity = fill ? fillOpacity(spPr) : undefined;
  if (opacity !== undefined) shape.fillOpacity = opacity;
  if (line) shape.line = line;
  const xfrm = child(spPr, 'xfrm');
  if (attr(xfrm, 'flipH') === '1') shape.flipH = true;
  if (attr(xfrm, 'flipV') === '1') shape.flipV = true;
  const rot = +(attr(xfrm, 'rot') ?? 0) / 60000;
  if (rot) shape.rotation = rot;
  return shape;
}
