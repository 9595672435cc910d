/**
 * Pictures and text boxes: DrawingML (w:drawing with wp:inline / wp:anchor) and legacy VML (w:pict,
 * w:object), as Word inlines. What the Office parts read alike for every format (a part's pictures
 * and their crops, office/drawingml/picture.ts; VML shapes, anchors and group spaces, office/vml.ts)
 * is read there; what is Word's stays here: wp:anchor's placement, and text boxes whose
 * w:txbxContent is read like any other story. Images become image inlines with their media bytes.
 * Charts are drawn from their cached values (chart.ts); SmartArt has no picture of its own in the
 * package and is skipped (an mc:Fallback picture, when present, is chosen by the caller).
 */
import type { Block, FloatingPlacement, Inline, PictureCrop, Shape } from '../../model/index';
import { attr, child, descendant, descendants, elements, type XmlElement } from '../../../../codecs/xml';
import { chartInlines } from './chart';
import { themePalette } from '../../../office/chart/read';
import type { Package } from '../../../office/package';
import { emu } from './props';
import { readShapes } from './shapes';
import type { Theme } from '../../../office/theme';
import { partPicture, srcRectCrop } from '../../../office/drawingml/picture';
import { cssLength, groupSpace, memberBox, readVmlShape, vmlAnchor, vmlCrop, VML_SHAPES, type GroupMember, type GroupSpace, type VmlText } from '../../../office/vml';

export interface DrawingContext {
  pkg: Package;
  /** The part whose relationships r:embed / r:id refer to. */
  part: string;
  /** Read the blocks of a w:txbxContent. */
  blocksOf(txbxContent: XmlElement): Block[];
  /** Resolves shapes' scheme colours. */
  theme: Theme;
}

const REL_X: Record<string, FloatingPlacement['relativeX']> = {
  page: 'page', margin: 'margin', column: 'column', character: 'character',
  leftMargin: 'page', rightMargin: 'margin', insideMargin: 'margin', outsideMargin: 'margin',
};
const REL_Y: Record<string, FloatingPlacement['relativeY']> = {
  page: 'page', margin: 'margin', paragraph: 'paragraph', line: 'line',
  topMargin: 'page', bottomMargin: 'margin', insideMargin: 'margin', outsideMargin: 'margin',
};

function floatingOf(anchor: XmlElement): FloatingPlacement {
  // Word 2010 writes percentage positions inside mc:AlternateContent (wp14:pctPosHOffset).
  const ph = child(anchor, 'positionH') ?? descendant(anchor, 'positionH');
  const pv = child(anchor, 'positionV') ?? descendant(anchor, 'positionV');
  const place: FloatingPlacement = {
    x: emu(descendantText(ph, 'posOffset')) ?? 0,
    y: emu(descendantText(pv, 'posOffset')) ?? 0,
    relativeX: REL_X[attr(ph, 'relativeFrom') ?? 'column'] ?? 'column',
    relativeY: REL_Y[attr(pv, 'relativeFrom') ?? 'paragraph'] ?? 'paragraph',
    wrap: 'none',
  };
  const align = descendantText(ph, 'align');
  if (align === 'left' || align === 'center' || align === 'right') place.alignX = align;
  else if (align === 'inside') place.alignX = 'left';
  else if (align === 'outside') place.alignX = 'right';
  const pctX = descendantText(ph, 'pctPosHOffset');
  const pctY = descendantText(pv, 'pctPosVOffset');
  if (pctX && Number.isFinite(+pctX)) place.percentX = +pctX / 100000;
  if (pctY && Number.isFinite(+pctY)) place.percentY = +pctY / 100000;
  const alignY = descendantText(pv, 'align');
  if (alignY === 'top' || alignY === 'bottom') place.alignY = alignY;
  else if (alignY === 'center') place.alignY = 'center';
  const behind = anchor.attrs['behindDoc'] === '1' || anchor.attrs['behindDoc'] === 'true';
  if (anchor.attrs['layoutInCell'] === '1' || anchor.attrs['layoutInCell'] === 'true') place.layoutInCell = true;
  for (const e of elements(anchor)) {
    if (e.name === 'wrapNone') place.wrap = behind ? 'behind' : 'inFront';
    else if (e.name === 'wrapSquare') place.wrap = 'square';
    else if (e.name === 'wrapTight' || e.name === 'wrapThrough') place.wrap = 'tight';
    else if (e.name === 'wrapTopAndBottom') place.wrap = 'topAndBottom';
  }
  return place;
}

function descendantText(el: XmlElement | undefined, name: string): string | undefined {
  const d = descendant(el, name);
  const t = d?.children[0];
  return typeof t === 'string' ? t.trim() : undefined;
}

/** w:drawing → image or textbox inlines (a group may hold several). */
export function readDrawing(drawing: XmlElement, ctx: DrawingContext): Inline[] {
  const out: Inline[] = [];
  for (const holder of elements(drawing)) {
    if (holder.name !== 'inline' && holder.name !== 'anchor') continue;
    const extent = child(holder, 'extent');
    const width = emu(attr(extent, 'cx')) ?? 0;
    const height = emu(attr(extent, 'cy')) ?? 0;
    const floating = holder.name === 'anchor' ? floatingOf(holder) : undefined;
    const graphicData = descendant(child(holder, 'graphic'), 'graphicData');
    if (!graphicData) continue;
    const uri = graphicData.attrs['uri'] ?? '';
    if (/\/chart$/.test(uri)) {
      // The chart part is drawn from its cached values (chart.ts).
      const rel = ctx.pkg.rels(ctx.part).get(attr(child(graphicData, 'chart'), 'r:id') ?? '');
      const xml = rel && !rel.external ? ctx.pkg.read(rel.target) : undefined;
      const themePart = ctx.pkg.relTarget(ctx.part, '/theme') ?? 'word/theme/theme1.xml';
      const palette = themePalette(ctx.pkg.has(themePart) ? ctx.pkg.read(themePart) : undefined);
      for (const box of xml && width && height ? chartInlines(xml, width, height, palette) : []) {
        if (floating && box.kind === 'textbox') box.floating = floating;
        out.push(box);
      }
      continue;
    }
    if (/\/diagram$|chartex/.test(uri)) continue;
    // Drawn shapes (rectangles, lines...) and groups of them, with the text they hold.
    if (!floating && child(graphicData, 'wgp') && width && height) {
      // An inline group: its members drawn over its box in the line (as one inline shape).
      out.push(inlineGroup(readShapes(graphicData, { x: 0, y: 0, width, height }, { ...IN_GROUP_BOX, inGroup: { width, height, dx: 0, dy: 0 } }, ctx), width, height));
      continue;
    }
    if (child(graphicData, 'wsp') || child(graphicData, 'wgp')) {
      const z = Number(holder.attrs['relativeHeight'] ?? NaN);
      for (const shape of readShapes(graphicData, { x: 0, y: 0, width, height }, floating, ctx)) {
        if (shape.kind === 'shape' && Number.isFinite(z)) shape.z = z;
        out.push(shape);
      }
      continue;
    }
    // Text box shapes (wps:wsp with wps:txbx) and groups: their text is the content worth keeping.
    const boxes = textBoxes(graphicData, width, height, floating, ctx);
    if (boxes.length) {
      out.push(...boxes);
      continue;
    }
    for (const blip of descendants(graphicData, 'blip')) {
      const picture = pictureInline(partPicture(ctx.pkg, ctx.part, blip.attrs['r:embed']), width, height, floating, srcRectCrop(descendant(graphicData, 'srcRect')));
      if (!picture) continue;
      out.push(picture);
      // A picture's blip appears once; a group's several pictures share one extent we cannot split.
      break;
    }
  }
  return out;
}

/** The text boxes (w:txbxContent) inside a DrawingML or VML shape, each sized and placed like the shape. */
function textBoxes(shape: XmlElement, width: number, height: number, floating: FloatingPlacement | undefined, ctx: DrawingContext): Inline[] {
  return outermost(shape, 'txbxContent').map((t) => {
    const box: Inline = { kind: 'textbox', blocks: ctx.blocksOf(t), width };
    if (height) box.height = height;
    if (floating) box.floating = floating;
    return box;
  });
}

/**
 * The descendants named `name` not inside another of them: a text box's own text boxes are read
 * with its text (all descendants read each one again at every level above it, 2^n times for n).
 */
function outermost(el: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of el.children) {
    if (typeof c === 'string') continue;
    if (c.name === name) out.push(c);
    else outermost(c, name, out);
  }
  return out;
}

/** VML (w:pict, w:object): v:shape with v:imagedata, a v:textbox, drawn shapes, and groups of them. */
export function readVml(pict: XmlElement, ctx: DrawingContext): Inline[] {
  const out: Inline[] = [];
  for (const shape of elements(pict)) {
    if (!VML_SHAPES.has(shape.name)) continue;
    const style = shape.attrs['style'] ?? '';
    const width = cssLength(style, 'width') ?? 0;
    const height = cssLength(style, 'height') ?? 0;
    const floating = vmlAnchor(shape, style);
    if (shape.name === 'group' && width && height) {
      // Each member placed where it sits in the group: on the page for a floating group, over the
      // group's box in the line for an inline one.
      const space = groupSpace(shape, (x, y) => [x, y], { x: 0, y: 0, width, height });
      const inGroup = { width, height, dx: 0, dy: 0 };
      if (floating) vmlGroup(shape, space, { ...floating, inGroup }, ctx, out);
      else {
        const members: Inline[] = [];
        vmlGroup(shape, space, { ...IN_GROUP_BOX, inGroup }, ctx, members);
        out.push(inlineGroup(members, width, height));
      }
      continue;
    }
    vmlMember(shape, width, height, floating, ctx, out);
  }
  return out;
}

/** Where an inline group's members are placed: offset (inGroup) from its box's top-left corner (see Shape.members). */
const IN_GROUP_BOX: FloatingPlacement = { x: 0, y: 0, relativeX: 'character', relativeY: 'line', wrap: 'inFront' };

/** An inline group's members as one inline shape of the group's size (members that are pictures become shapes they fill). */
export function inlineGroup(members: Inline[], width: number, height: number): Shape {
  const shapes = members.flatMap((m): Shape[] =>
    m.kind === 'shape' ? [m]
    : m.kind === 'image' && m.floating ? [{ kind: 'shape', geometry: 'rect', width: m.width, height: m.height, floating: m.floating, picture: { data: m.data, contentType: m.contentType, crop: m.crop } }]
    : [],
  );
  return { kind: 'shape', geometry: 'rect', width, height, members: shapes };
}

/** A group's members into `out`, placed like the group (`floating`, with its inGroup size). */
function vmlGroup(g: XmlElement, space: GroupSpace, floating: FloatingPlacement, ctx: DrawingContext, out: Inline[]): void {
  for (const member of elements(g)) {
    if (!VML_SHAPES.has(member.name)) continue;
    const box = memberBox(member);
    if (member.name === 'group') {
      vmlGroup(member, groupSpace(member, space, box), floating, ctx, out);
      continue;
    }
    const [x0, y0] = space(box.x, box.y);
    const [x1, y1] = space(box.x + box.width, box.y + box.height);
    // Placed like the group (floating.inGroup: its size), `dx`, `dy` from its corner.
    const at = { ...floating, inGroup: { ...floating.inGroup!, dx: x0, dy: y0 } };
    // A line's from/to are in the group's space too: given as points from the group's corner.
    const line = member.name === 'line' ? floating : undefined;
    vmlMember(member, x1 - x0, y1 - y0, line ?? at, ctx, out, { lineSpace: line ? space : undefined });
  }
}

/** A picture inline of the given size (floating when placed so); undefined without a picture or a size. */
function pictureInline(img: ReturnType<typeof partPicture>, width: number, height: number, floating: FloatingPlacement | undefined, crop?: PictureCrop): Inline | undefined {
  if (!img || !width || !height) return undefined;
  const inline: Inline = { kind: 'image', data: img.data, contentType: img.contentType, width, height };
  if (floating) inline.floating = floating;
  if (crop) inline.crop = crop;
  return inline;
}

/** One VML shape: drawn (shapes, text boxes with a fill or frame), a plain text box, or a picture. */
function vmlMember(shape: XmlElement, width: number, height: number, floating: FloatingPlacement | undefined, ctx: DrawingContext, out: Inline[], group?: GroupMember): void {
  const drawn = readVmlShape(shape, width, height, floating, vmlText(ctx), group);
  if (drawn) {
    out.push(drawn);
    return;
  }
  const boxes = textBoxes(shape, width, height, floating, ctx);
  if (boxes.length) {
    out.push(...boxes);
    return;
  }
  const imagedata = descendant(shape, 'imagedata');
  const picture = pictureInline(partPicture(ctx.pkg, ctx.part, imagedata?.attrs['r:id'] ?? imagedata?.attrs['r:pict']), width, height, floating, imagedata && vmlCrop(imagedata));
  if (picture) out.push(picture);
}

/** The text of a v:textbox in Word: its w:txbxContent, read as Word blocks. */
function vmlText(ctx: DrawingContext): VmlText<Block> {
  return { content: (textbox) => child(textbox, 'txbxContent'), blocksOf: (content) => ctx.blocksOf(content) };
}
