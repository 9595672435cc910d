/**
 * Floating shapes of a .doc (a 0x08 character anchoring an FSPA, drawn from the OfficeArt drawing
 * group): text boxes, rectangles, ellipses and lines, with their fill, outline, text insets and
 * the position properties Word 2000+ writes (posh/posrelh/posv/posrelv). They become the model's
 * Shape, drawn where they float by the same code as a DOCX's shapes, instead of flowing at their
 * anchor; a text box Word shows in the margin or beside other text stays there.
 */
import type { Block, FloatingPlacement, Inline, Shape } from '../../model/index';
import { OFFICE_ART_PRESETS, presetFreeform } from '../../../office/preset-geometry';
import { floatingPicture, type Anchor } from './pictures';
import { customGeometry } from '../../../office/custom-geometry';
import type { DrawingGroup, ShapeInfo } from '../../../office/officeart';
import { averageColor } from '../../../office/drawing-color';

/** MSOSPT shape types drawn as the model's geometries; a text box (202) is a rectangle. */
const GEOMETRY: Record<number, Shape['geometry']> = { 1: 'rect', 2: 'roundRect', 3: 'ellipse', 20: 'line', 202: 'rect' };

const EMU_PER_POINT = 12700;

const enum Prop {
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
  lineBooleans = 0x01ff,
  posH = 0x038f,
  posRelH = 0x0390,
  posV = 0x0391,
  posRelV = 0x0392,
}

/**
 * The shape an anchor names, with `blocks` (its text box story) inside; undefined for a shape
 * type this does not draw that holds no text (an arrow or a star drawn as a rectangle would mislead).
 */
export function floatingShape(anchor: Anchor, info: ShapeInfo | undefined, blocks: Block[] | undefined, z: number): Shape | undefined {
  const props = info?.props ?? new Map<number, number>();
  // WordArt (msosptTextPlainText... 136-175): its text, drawn stretched over the box.
  const wordArt = info?.gtext?.text.trim() && info.type !== undefined && info.type >= 136 && info.type <= 175 ? wordArtOf(info.gtext, props) : undefined;
  const width = (anchor.right - anchor.left) / 20;
  const height = (anchor.bottom - anchor.top) / 20;
  // OfficeArt types that are polygon presets (triangles, diamonds, stars...: freeform.ts).
  const preset = !wordArt && info?.type !== undefined && !GEOMETRY[info.type] ? OFFICE_ART_PRESETS[info.type] : undefined;
  // Type 0 is custom geometry: the shape's own outline (custom-geometry.ts).
  const path = preset ? presetFreeform(preset, width, height) : !wordArt && info?.type === 0 && info.complex ? customGeometry(props, info.complex) : undefined;
  const geometry = wordArt ? 'rect' : path ? 'path' : info?.type !== undefined ? GEOMETRY[info.type] : undefined;
  if (!geometry && !blocks?.length) return undefined;
  if (width <= 0 && height <= 0) return undefined;
  const shape: Shape = {
    kind: 'shape',
    ...(path ? { path } : {}),
    geometry: geometry ?? 'rect',
    width: Math.max(width, 0),
    height: Math.max(height, 0),
    floating: placement(anchor.placement, props),
    z,
  };
  if (info?.flipH) shape.flipH = true;
  if (info?.flipV) shape.flipV = true;
  const rotation = props.get(Prop.rotation);
  if (rotation) shape.rotation = (rotation | 0) / 65536;
  // Escher's defaults: filled white, outlined black 0.75 pt, unless the booleans say otherwise.
  if (shape.geometry !== 'line' && flag(props.get(Prop.fillBooleans), 0x10, true)) {
    const fill = color(props.get(Prop.fillColor) ?? 0xffffff);
    // A gradient (fillType 4-8, the "shade" fills) is drawn as the average of its two colours, as DOCX gradients are.
    const type = props.get(Prop.fillType) ?? 0;
    const back = type >= 4 && type <= 8 ? color(props.get(Prop.fillBackColor) ?? 0xffffff) : undefined;
    if (fill) shape.fill = back ? averageColor([fill, back])! : fill;
  }
  if (wordArt) {
    shape.wordArt = wordArt;
    shape.fill ??= 'FFFFFF';
    return shape;
  }
  if (flag(props.get(Prop.lineBooleans), 0x08, true)) {
    const line = color(props.get(Prop.lineColor) ?? 0);
    if (line) shape.line = { color: line, width: (props.get(Prop.lineWidth) ?? 9525) / EMU_PER_POINT };
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

/**
 * The page colour of a document's background shape (the OfficeArt shape flagged fBackground): its
 * fill colour when it is filled with a plain RGB colour, else none.
 */
export function backgroundColor(shapes: Iterable<ShapeInfo>): string | undefined {
  for (const info of shapes) {
    if (!info.background || !flag(info.props.get(Prop.fillBooleans), 0x10, true)) continue;
    if ((info.props.get(Prop.fillType) ?? 0) !== 0) return undefined; // patterns, pictures, gradients: not a plain colour
    return color(info.props.get(Prop.fillColor) ?? 0xffffff);
  }
  return undefined;
}

/** Groups within groups followed at most this deep, and members drawn at most (a damaged file's groups may name themselves). */
const MOST_NESTED_GROUPS = 8;
const MOST_MEMBERS = 5000;

/**
 * The members of a group (a logo made of several pictures, a diagram of boxes and lines), each
 * placed where it sits in the group's box: the box is the anchor's, the members' places are in the
 * group's own coordinate space (OfficeArtFSPGR), each member's in it (OfficeArtChildAnchor).
 * Pictures become floating pictures, drawn shapes and text boxes shapes (`storyOf`: a text box's
 * text, by spid); groups within the group are followed. Each is placed like the group
 * (FloatingPlacement.inGroup: its offset from the group's corner).
 */
export function groupMembers(anchor: Anchor, group: ShapeInfo, drawings: DrawingGroup, storyOf: (spid: number) => Block[] | undefined): Inline[] {
  const out: Inline[] = [];
  const base = placement(anchor.placement, group.props);
  const inGroup = { width: (anchor.right - anchor.left) / 20, height: (anchor.bottom - anchor.top) / 20 };
  /** Members of `info`, its box at (x, y) from the group's corner, w × h (twips). */
  const open = new Set<ShapeInfo>([group]);
  let visited = 0;
  const place = (info: ShapeInfo, x: number, y: number, w: number, h: number, depth: number) => {
    const [left, top, right, bottom] = info.groupSpace!;
    const sx = w / (right - left || 1);
    const sy = h / (bottom - top || 1);
    for (const spid of info.members ?? []) {
      const member = drawings.shapes.get(spid);
      if (!member?.inGroup || open.has(member) || ++visited > MOST_MEMBERS) continue;
      const [l, t, r, b] = member.inGroup;
      const [mx, my, mw, mh] = [x + (l - left) * sx, y + (t - top) * sy, (r - l) * sx, (b - t) * sy];
      if (member.members && member.groupSpace) {
        open.add(member);
        if (depth < MOST_NESTED_GROUPS) place(member, mx, my, mw, mh, depth + 1);
        open.delete(member);
        continue;
      }
      const at: Anchor = {
        spid,
        left: anchor.left + mx,
        top: anchor.top + my,
        right: anchor.left + mx + mw,
        bottom: anchor.top + my + mh,
        placement: { ...base, inGroup: { ...inGroup, dx: mx / 20, dy: my / 20 } },
      };
      const drawn = floatingPicture(at, drawings) ?? floatingShape(at, { ...member, props: withoutPosition(member.props) }, storyOf(spid), member.order);
      if (drawn) out.push(drawn);
    }
  };
  if (group.groupSpace) place(group, 0, 0, anchor.right - anchor.left, anchor.bottom - anchor.top, 0);
  return out;
}

/** A member's properties without the position ones: it is placed in its group, not on the page. */
function withoutPosition(props: Map<number, number>): Map<number, number> {
  const out = new Map(props);
  for (const id of [Prop.posH, Prop.posRelH, Prop.posV, Prop.posRelV]) out.delete(id);
  return out;
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
function flag(value: number | undefined, bit: number, fallback: boolean): boolean {
  if (value === undefined || !(value & (bit << 16))) return fallback;
  return (value & bit) !== 0;
}

/** An OfficeArtCOLORREF as RRGGBB; undefined for scheme, system and palette colours, which name no RGB here. */
function color(value: number): string | undefined {
  if ((value >>> 24) & 0x1d) return undefined;
  const r = value & 0xff, g = (value >> 8) & 0xff, b = (value >> 16) & 0xff;
  return ((r << 16) | (g << 8) | b).toString(16).padStart(6, '0').toUpperCase();
}

const REL_X: FloatingPlacement['relativeX'][] = ['margin', 'page', 'column', 'character'];
const REL_Y: FloatingPlacement['relativeY'][] = ['margin', 'page', 'paragraph', 'line'];
const ALIGN_X: (FloatingPlacement['alignX'] | undefined)[] = [undefined, 'left', 'center', 'right', 'left', 'right'];
const ALIGN_Y: (FloatingPlacement['alignY'] | undefined)[] = [undefined, 'top', 'center', 'bottom', 'top', 'bottom'];

/** The FSPA's placement, with the position properties that override its bx/by when a shape has them. */
function placement(base: FloatingPlacement, props: Map<number, number>): FloatingPlacement {
  const out = { ...base };
  const relH = props.get(Prop.posRelH);
  const relV = props.get(Prop.posRelV);
  if (relH !== undefined && REL_X[relH]) out.relativeX = REL_X[relH]!;
  if (relV !== undefined && REL_Y[relV]) out.relativeY = REL_Y[relV]!;
  const alignX = ALIGN_X[props.get(Prop.posH) ?? 0];
  const alignY = ALIGN_Y[props.get(Prop.posV) ?? 0];
  if (alignX) out.alignX = alignX;
  if (alignY) out.alignY = alignY;
  return out;
}
