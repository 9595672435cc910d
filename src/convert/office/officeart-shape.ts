/**
 * What an OfficeArt shape looks like, from its properties (office/officeart.ts ShapeInfo): its
 * geometry (the four drawn directly, OfficeArt's polygon presets, custom geometry, WordArt), its
 * fill and outline with Escher's defaults, flips and rotation, and its text's insets and anchor.
 * The Word .doc reader places it where it floats; the XLS reader over the cells of its anchor.
 */
import type { LineEnd, Outline, Shape } from './model';
import { OFFICE_ART_PRESETS, presetFreeform } from './preset-geometry';
import { customGeometry } from './custom-geometry';
import type { ShapeInfo } from './officeart';
import { averageColor } from './drawing-color';

/** MSOSPT shape types drawn as the model's geometries; a text box (202) is a rectangle, a straight connector (32) a line. */
const GEOMETRY: Record<number, Shape['geometry']> = { 1: 'rect', 2: 'roundRect', 3: 'ellipse', 20: 'line', 32: 'line', 202: 'rect' };
/** msosptNil: no preset, the outline is the shape's own (LibreOffice writes its custom shapes so). */
const NIL = 0x0fff;
/** lineStartArrowhead/lineEndArrowhead values (MSOLINEEND) as the model's line ends. */
const LINE_ENDS: (LineEnd['type'] | undefined)[] = [undefined, 'triangle', 'stealth', 'diamond', 'oval', 'arrow'];
/** Arrowhead width and length (narrow/short, medium, wide/long) in line widths, as VML's. */
const LINE_END_SIZES = [2, 3, 5];

const EMU_PER_POINT = 12700;

export const enum Prop {
  rotation = 0x0004,
  dxTextLeft = 0x0081,
  dyTextTop = 0x0082,
  dxTextRight = 0x0083,
  dyTextBottom = 0x0084,
  anchorText = 0x0087,
  textBooleans = 0x00bf,
  fillType = 0x0180,
  gtextBooleans = 0x00ff,
  fillColor = 0x0181,
  fillOpacity = 0x0182,
  fillBackColor = 0x0183,
  fillBooleans = 0x01bf,
  lineColor = 0x01c0,
  lineWidth = 0x01cb,
  lineStartArrowhead = 0x01d0,
  lineEndArrowhead = 0x01d1,
  lineStartArrowWidth = 0x01d2,
  lineStartArrowLength = 0x01d3,
  lineEndArrowWidth = 0x01d4,
  lineEndArrowLength = 0x01d5,
  lineBooleans = 0x01ff,
  posH = 0x038f,
  posRelH = 0x0390,
  posV = 0x0391,
  posRelV = 0x0392,
}

/**
 * The shape `info` describes, `width` × `height` points, with `blocks` (its text) inside; undefined
 * for a shape type this does not draw that holds no text (an arrow or a star drawn as a rectangle
 * would mislead), and for one of no extent.
 */
export function officeArtShape<Block>(info: ShapeInfo | undefined, width: number, height: number, blocks: Block[] | undefined): Shape<Block> | undefined {
  const props = info?.props ?? new Map<number, number>();
  // WordArt (msosptTextPlainText... 136-175): its text, drawn stretched over the box.
  const wordArt = info?.gtext?.text.trim() && info.type !== undefined && info.type >= 136 && info.type <= 175 ? wordArtOf(info.gtext, props) : undefined;
  // OfficeArt types that are polygon presets (triangles, diamonds, stars...: freeform.ts).
  const preset = !wordArt && info?.type !== undefined && !GEOMETRY[info.type] ? OFFICE_ART_PRESETS[info.type] : undefined;
  // Type 0 is custom geometry: the shape's own outline (custom-geometry.ts).
  const custom = info?.type === 0 || info?.type === NIL;
  const path = preset ? presetFreeform(preset, width, height) : !wordArt && custom && info.complex ? customGeometry(props, info.complex) : undefined;
  const geometry = wordArt ? 'rect' : path ? 'path' : info?.type !== undefined ? GEOMETRY[info.type] : undefined;
  if (!geometry && !blocks?.length) return undefined;
  if (width <= 0 && height <= 0) return undefined;
  const shape: Shape<Block> = { kind: 'shape', ...(path ? { path } : {}), geometry: geometry ?? 'rect', width: Math.max(width, 0), height: Math.max(height, 0) };
  if (info?.flipH) shape.flipH = true;
  if (info?.flipV) shape.flipV = true;
  const rotation = props.get(Prop.rotation);
  if (rotation) shape.rotation = (rotation | 0) / 65536;
  // Escher's defaults: filled white, outlined black 0.75 pt, unless the booleans say otherwise.
  if (shape.geometry !== 'line' && flag(props.get(Prop.fillBooleans), 0x10, true)) {
    const fill = officeArtColor(props.get(Prop.fillColor) ?? 0xffffff);
    // A gradient (fillType 4-8, the "shade" fills) is drawn as the average of its two colours, as DOCX gradients are.
    const type = props.get(Prop.fillType) ?? 0;
    const back = type >= 4 && type <= 8 ? officeArtColor(props.get(Prop.fillBackColor) ?? 0xffffff) : undefined;
    if (fill) shape.fill = back ? averageColor([fill, back])! : fill;
  }
  if (wordArt) {
    shape.wordArt = wordArt;
    shape.fill ??= 'FFFFFF';
    return shape;
  }
  if (flag(props.get(Prop.lineBooleans), 0x08, true)) {
    const line = officeArtColor(props.get(Prop.lineColor) ?? 0);
    if (line) shape.line = { color: line, width: (props.get(Prop.lineWidth) ?? 9525) / EMU_PER_POINT, ...lineEndsOf(props) };
  }
  if (blocks?.length) {
    shape.blocks = blocks;
    const inset = (id: Prop, fallback: number) => (props.get(id) ?? fallback) / EMU_PER_POINT;
    shape.textInsets = { left: inset(Prop.dxTextLeft, 91440), top: inset(Prop.dyTextTop, 45720), right: inset(Prop.dxTextRight, 91440), bottom: inset(Prop.dyTextBottom, 45720) };
    const anchorText = (props.get(Prop.anchorText) ?? 0) % 3; // the centred variants (3..5) anchor alike
    shape.textAnchor = anchorText === 1 ? 'center' : anchorText === 2 ? 'bottom' : 'top';
    // fFitShapeToText off: the box keeps its size and shows only what fits.
    if (!flag(props.get(Prop.textBooleans), 0x2, false) && shape.height > 0) shape.clipsText = true;
  }
  return shape;
}

/** The arrowheads at a line's start and end. */
function lineEndsOf(props: Map<number, number>): Pick<Outline, 'start' | 'end'> {
  const end = (type: Prop, width: Prop, length: Prop): LineEnd | undefined => {
    const kind = LINE_ENDS[props.get(type) ?? 0];
    return kind && { type: kind, width: LINE_END_SIZES[props.get(width) ?? 1] ?? 3, length: LINE_END_SIZES[props.get(length) ?? 1] ?? 3 };
  };
  const start = end(Prop.lineStartArrowhead, Prop.lineStartArrowWidth, Prop.lineStartArrowLength);
  const last = end(Prop.lineEndArrowhead, Prop.lineEndArrowWidth, Prop.lineEndArrowLength);
  return { ...(start ? { start } : {}), ...(last ? { end: last } : {}) };
}

/** WordArt's text, font (Arial unless named), bold and italic (gtextBooleans) and its fill's opacity. */
function wordArtOf(gtext: { text: string; font?: string }, props: Map<number, number>): NonNullable<Shape['wordArt']> {
  const art: NonNullable<Shape['wordArt']> = { text: gtext.text.replace(/\r\n?|\n/g, ' ').trim(), font: gtext.font || 'Arial' };
  const booleans = props.get(Prop.gtextBooleans);
  if (flag(booleans, 0x20, false)) art.bold = true;
  if (flag(booleans, 0x10, false)) art.italic = true;
  const opacity = props.get(Prop.fillOpacity);
  if (opacity !== undefined && opacity < 65536) art.opacity = opacity / 65536;
  return art;
}

/**
 * A boolean of an OfficeArt boolean-properties value: `bit` counts only when its fUse bit (16 bits
 * higher) says it is set; else the default.
 */
export function flag(value: number | undefined, bit: number, fallback: boolean): boolean {
  if (value === undefined || !(value & (bit << 16))) return fallback;
  return (value & bit) !== 0;
}

/** An OfficeArtCOLORREF as RRGGBB; undefined for scheme, system and palette colours, which name no RGB here. */
export function officeArtColor(value: number): string | undefined {
  if ((value >>> 24) & 0x1d) return undefined;
  const r = value & 0xff, g = (value >> 8) & 0xff, b = (value >> 16) & 0xff;
  return ((r << 16) | (g << 8) | b).toString(16).padStart(6, '0').toUpperCase();
}
