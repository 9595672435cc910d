/**
 * Floating shapes of a .doc (a 0x08 character anchoring an FSPA, drawn from the OfficeArt drawing
 * group): text boxes, rectangles, ellipses and lines, with their fill, outline, text insets and
 * the position properties Word 2000+ writes (posh/posrelh/posv/posrelv). They become the model's
 * Shape, drawn where they float by the same code as a DOCX's shapes, instead of flowing at their
 * anchor; a text box Word shows in the margin or beside other text stays there.
 */
import type { Block, FloatingPlacement, Inline, Shape } from '../../model/index';
import { floatingPicture, type Anchor } from './pictures';
import type { DrawingGroup, ShapeInfo } from '../../../office/officeart';
import { flag, officeArtColor, officeArtShape, Prop } from '../../../office/officeart-shape';

/**
 * The shape an anchor names, with `blocks` (its text box story) inside; undefined for a shape
 * type this does not draw that holds no text (an arrow or a star drawn as a rectangle would mislead).
 */
export function floatingShape(anchor: Anchor, info: ShapeInfo | undefined, blocks: Block[] | undefined, z: number): Shape | undefined {
  const shape = officeArtShape(info, (anchor.right - anchor.left) / 20, (anchor.bottom - anchor.top) / 20, blocks);
  if (!shape) return undefined;
  shape.floating = placement(anchor.placement, info?.props ?? new Map());
  shape.z = z;
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
    return officeArtColor(info.props.get(Prop.fillColor) ?? 0xffffff);
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
