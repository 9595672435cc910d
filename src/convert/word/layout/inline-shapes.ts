/** Floating shapes, pictures and text boxes in a paragraph's HTML: the placeholders the page device draws them at, and inline shape boxes. */
import type { Inline, Shape } from '../model/index';
import { DEFAULT_INSETS } from './shape-paint';
import type { ShapePictures } from './shape-pictures';
import type { InlineContext } from './inline-context';
import { pt } from './css-units';

/**
 * A floating shape's placeholder: a zero-height block at the start of its anchor paragraph. With
 * line-height 0, as a block picture otherwise takes a line of its paragraph's line height (34
 * header rules in stress004 each pushed its body down a line) and sits below that line.
 */
export function shapeAnchor(shape: Shape, ctx: InlineContext): string {
  // In a cell, the page device places it from the anchor's left and the cell's text width.
  return `<img ${SHAPE_ANCHOR} src="${ctx.shapes!.placeholder(shape, ctx.inCell ? ctx.columnWidth : undefined)}" style="display:block;width:0.01pt;height:0.01pt;line-height:0"${placeholderId(ctx)}/>`;
}

const textBoxShapes = new WeakMap<Extract<Inline, { kind: 'textbox' }>, Shape>();
/** The shape a floating object that floatsApart is drawn as. */
export function shapeApart(it: Extract<Inline, { kind: 'shape' | 'image' | 'textbox' }>, shapes: ShapePictures): Shape {
  return it.kind === 'shape' ? it : it.kind === 'image' ? shapes.pictureShape(it) : floatingTextBox(it);
}

/** A floating text box as a shape with no fill or outline (one object per box: the page device keys its placeholders by shape). */
export function floatingTextBox(box: Extract<Inline, { kind: 'textbox' }>): Shape {
  let shape = textBoxShapes.get(box);
  if (!shape) {
    shape = { kind: 'shape', geometry: 'rect', width: box.width, height: box.height ?? 0, floating: box.floating, blocks: box.blocks, textInsets: { left: 0, top: 0, right: 0, bottom: 0 } };
    if (box.textRoom !== undefined) shape.clipsText = true;
    textBoxShapes.set(box, shape);
  }
  return shape;
}

/** Marks the placeholder of a floating shape: it holds no line open (block-html's empty-paragraph test). */
export const SHAPE_ANCHOR = 'data-shape-anchor="1"';

/** An inline shape with text: a box with the shape's fill and outline around the text, in the flow. */
export function inlineShapeBox(s: Shape, ctx: InlineContext): string {
  const inset = s.textInsets ?? DEFAULT_INSETS;
  const border = s.line ? s.line.width : 0;
  const width = Math.min(s.width || ctx.columnWidth, ctx.columnWidth);
  const inner = Math.max(width - inset.left - inset.right - 2 * border, 10);
  const css = [`width:${pt(inner)}`, `padding:${[inset.top, inset.right, inset.bottom, inset.left].map(pt).join(' ')}`];
  if (s.fill) css.push(`background-color:#${s.fill}`);
  if (s.line) css.push(`border:${pt(s.line.width)} solid #${s.line.color}`);
  // A box that keeps its size shows only the text that starts within it (estimated), as Word clips the rest.
  const room = s.clipsText && s.height > 0 ? Math.max(0, s.height - inset.top - inset.bottom - 2 * border) : undefined;
  return `<div style="${css.join(';')}">${ctx.renderBlocks(s.blocks!, inner, room)}</div>`;
}

/** The id of a stand-in the page device draws itself (`ph<n>`), by which its page is found after layout. */
export const placeholderId = (ctx: InlineContext): string => (ctx.placeholderIds ? ` id="ph${ctx.placeholderIds.count++}"` : '');
