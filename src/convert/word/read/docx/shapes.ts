/**
 * Word's DrawingML shapes (wps:wsp) and groups of them (wpg:wgp): each drawn as the Office parts read
 * it (office/drawingml/shapes.ts), with the text it holds (a w:txbxContent) read as Word blocks. A
 * shape that draws nothing (no fill, no outline, or a geometry we cannot draw) but holds text stays
 * a plain text box, as before.
 */
import { borderShows, type Block, type FloatingPlacement, type Inline, type Shape } from '../../model/index';
import { child, elements, type XmlElement } from '../../../../codecs/xml';
import type { Theme } from '../../../office/theme';
import { outOfFlow } from '../../../office/model';
import { bodyInsets, drawnShape, groupFrame, growsToText, memberBox, textLayout, type Box, type ToFrame } from '../../../office/drawingml/shapes';

export interface ShapeContext {
  theme: Theme;
  blocksOf(txbxContent: XmlElement): Block[];
}

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

function group(g: XmlElement, toFrame: ToFrame, floating: FloatingPlacement | undefined, ctx: ShapeContext, out: Inline[]): void {
  for (const e of elements(g)) {
    if (e.name === 'wsp') {
      const box = memberBox(child(e, 'spPr'), toFrame);
      // Children of a group are placed like the group, offset by where they sit in it.
      out.push(...shapeInlines(e, box, floating && { ...floating, inGroup: { ...floating.inGroup!, dx: box.x, dy: box.y } }, ctx));
    } else if (e.name === 'grpSp') group(e, groupFrame(e, { x: 0, y: 0, width: 0, height: 0 }, toFrame), floating, ctx, out);
  }
}

/** One wps:wsp placed in `box`: a shape inline, a text box, or nothing. */
function shapeInlines(wsp: XmlElement, box: Box, floating: FloatingPlacement | undefined, ctx: ShapeContext): Inline[] {
  const txbx = child(child(wsp, 'txbx'), 'txbxContent');
  const blocks = txbx ? ctx.blocksOf(txbx) : undefined;
  const width = box.width, height = box.height;
  const drawn = drawnShape(child(wsp, 'spPr'), child(wsp, 'style'), width, height, ctx.theme);
  if (!drawn) return blocks ? textBox(wsp, blocks, width, height, floating) : [];
  const shape: Shape = drawn;
  if (floating) shape.floating = floating;
  return [blocks?.some(hasContent) ? textOf(shape, wsp, blocks) : shape];
}

/**
 * The text of a shape that draws nothing. A floating text box that text does not wrap around (in
 * front of it or behind it, outOfFlow) is drawn where it is placed, as a shape without fill or
 * outline; one that text wraps around stays in the flow, the nearest the layout comes to wrapping
 * (GASU.docx: labels of its diagrams, in the flow, pushed its figures down and took 8 extra pages).
 */
function textBox(wsp: XmlElement, blocks: Block[], width: number, height: number, floating: FloatingPlacement | undefined): Inline[] {
  if (outOfFlow(floating)) return blocks.some(hasContent) ? [textOf({ kind: 'shape', geometry: 'rect', width, height, floating: floating! }, wsp, blocks)] : [];
  const tb: Inline = { kind: 'textbox', blocks, width };
  if (height) tb.height = height;
  // Without "resize shape to fit text" Word shows only what fits in the box (a business card's overflow).
  const bodyPr = child(wsp, 'bodyPr');
  if (height && bodyPr && !growsToText(bodyPr)) {
    const inset = bodyInsets(bodyPr);
    tb.textRoom = Math.max(0, height - inset.top - inset.bottom);
  }
  if (floating) tb.floating = floating;
  return [tb];
}

/** The shape with the text it holds, inset and anchored as its body properties say. */
function textOf(shape: Shape, wsp: XmlElement, blocks: Block[]): Shape {
  return { ...shape, blocks, ...textLayout(child(wsp, 'bodyPr'), shape.height) };
}

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
