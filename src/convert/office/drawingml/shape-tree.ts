/**
 * A DrawingML shape tree's members (a sheet anchor's xdr:sp, xdr:cxnSp, xdr:grpSp, xdr:pic; a
 * slide's p:sp, p:cxnSp, p:grpSp, p:pic) as shapes in one frame: each with its geometry, fill and
 * outline (shapes.ts), its text body (text-body.ts) and its box in the frame. Groups are flattened
 * into their members, placed through the groups' coordinate spaces. A shape that draws nothing but
 * holds text is a plain text box; one that draws nothing and holds nothing is left out.
 */
import { attr, child, descendant, elements, type XmlElement } from '../../../codecs/xml';
import type { FramedShape, Picture, Shape, TextParagraph } from '../model';
import type { Theme } from '../theme';
import { colorIn } from '../drawing-color';
import { drawnShape, groupFrame, memberBox, textLayout, type ToFrame } from './shapes';
import { readTextBody, type FieldValues, type LinkTarget } from './text-body';
import { srcRectCrop } from './picture';
import { chooseAlternate } from '../alternate';

export interface ShapeTreeContext {
  theme: Theme;
  /** The size text is when neither a run nor its list style says (Excel's 11 pt, PowerPoint's 18 pt). */
  textSize: number;
  /** The picture a blip's relationship id names. */
  picture(relId: string | undefined): Picture | undefined;
  /** Members kept at most (what is past is dropped). */
  most: number;
  /** Characters of text the holder's shapes may still keep, all together (counted down as they are read). */
  text: { left: number };
  /** What fields show (a slide's number), by field type. */
  fields?: FieldValues;
  /** Where a text run's hyperlink goes. */
  link?: LinkTarget;
}

/** Groups nested deeper than this are not followed (a hostile file could nest them without end). */
const GROUPS_DEEPEST = 32;

/** The text a shape's style (a:fontRef) sets: the theme's minor or major font in its colour. */
function textDefaults(style: XmlElement | undefined, ctx: ShapeTreeContext) {
  const ref = child(style, 'fontRef');
  const major = attr(ref, 'idx') === 'major';
  const font = (major ? ctx.theme.majorFont : ctx.theme.minorFont) ?? ctx.theme.minorFont ?? 'Calibri';
  return { font, size: ctx.textSize, color: colorIn(ref, ctx.theme) ?? '000000' };
}

/** How a shape sets its text: insets, anchor, wrapping, and whether text past the box is cut (a:bodyPr vertOverflow="clip"). */
function bodyLayout(bodyPr: XmlElement | undefined): Pick<Shape, 'textInsets' | 'textAnchor' | 'unwrapped' | 'clipsText' | 'textTurn' | 'shrinksText' | 'textColumns'> {
  // Insets and anchor as Word's shapes take them; whether text is cut is DrawingML's own vertOverflow here, not Word's "resize to fit".
  const { textInsets, textAnchor } = textLayout(bodyPr, 0);
  const layout: Pick<Shape, 'textInsets' | 'textAnchor' | 'unwrapped' | 'clipsText' | 'textTurn' | 'shrinksText' | 'textColumns'> = { textInsets, textAnchor };
  // Shrunk here only where the file saved no shrink of its own (writers other than PowerPoint leave it out): a saved fontScale is what PowerPoint showed.
  const columns = Math.min(Math.max(Math.floor(Number(attr(bodyPr, 'numCol') ?? 1)) || 1, 1), 16);
  if (columns > 1) layout.textColumns = { count: columns, gap: Math.min(Math.max(Number(attr(bodyPr, 'spcCol') ?? 0) || 0, 0), 12_700 * 500) / 12_700 };
  const autofit = child(bodyPr, 'normAutofit');
  if (autofit && attr(autofit, 'fontScale') === undefined && attr(autofit, 'lnSpcReduction') === undefined) layout.shrinksText = true;
  const vert = attr(bodyPr, 'vert');
  if (vert === 'vert' || vert === 'eaVert' || vert === 'wordArtVertRtl') layout.textTurn = 90;
  else if (vert === 'vert270') layout.textTurn = 270;
  if (attr(bodyPr, 'wrap') === 'none') layout.unwrapped = true;
  if (attr(bodyPr, 'vertOverflow') === 'clip') layout.clipsText = true;
  return layout;
}

/**
 * Text shrunk as the file saved it (a:normAutofit, in thousandths of a percent), PowerPoint's shrink
 * on overflow, not recomputed: fontScale scales the text and its space above and below,
 * lnSpcReduction is taken off each proportional line spacing (90 % less 10 % is 80 %).
 */
function autofitted(text: TextParagraph[], autofit: XmlElement | undefined): TextParagraph[] {
  if (!autofit) return text;
  const share = (name: string, none: number) => Number(attr(autofit, name) ?? none) / 100_000;
  const scale = share('fontScale', 100_000);
  const reduction = share('lnSpcReduction', 0);
  const scaled = scale > 0.05 && scale < 1 ? scale : 1;
  if (scaled === 1 && !(reduction > 0 && reduction < 0.9)) return text;
  return text.map((p) => {
    const out = { ...p, size: p.size * scaled, runs: p.runs.map((r) => ({ ...r, size: r.size * scaled })) };
    if (p.spaceBefore) out.spaceBefore = p.spaceBefore * scaled;
    if (p.spaceAfter) out.spaceAfter = p.spaceAfter * scaled;
    if (reduction > 0 && reduction < 0.9 && p.line?.rule !== 'exact') out.line = { rule: 'auto', value: Math.max(0.1, (p.line?.value ?? 1) - reduction) };
    return out;
  });
}

/** A shape (sp, cxnSp) with its text, or undefined when it shows nothing. */
function shapeOf(el: XmlElement, box: FramedShape['box'], ctx: ShapeTreeContext): Shape<TextParagraph> | undefined {
  const spPr = child(el, 'spPr');
  const style = child(el, 'style');
  const txBody = child(el, 'txBody');
  const text = autofitted(readTextBody(txBody, ctx.theme, textDefaults(style, ctx), ctx.text.left, ctx.fields, ctx.link), child(child(txBody, 'bodyPr'), 'normAutofit'));
  for (const p of text) for (const r of p.runs) ctx.text.left -= r.text.length;
  const hasText = text.some((p) => p.runs.some((r) => r.text.trim()));
  const drawn = drawnShape(spPr, style, box.width, box.height, ctx.theme);
  const picture = pictureFill(spPr, drawn, ctx);
  if (!drawn && !hasText && !picture) return undefined;
  const shape: Shape<TextParagraph> = drawn ?? { kind: 'shape', geometry: 'rect', width: box.width, height: box.height };
  if (picture) shape.picture = picture;
  if (!drawn) {
    // Text in a shape we cannot draw still turns with it.
    const rot = Number(attr(child(spPr, 'xfrm'), 'rot') ?? 0) / 60000;
    if (rot) shape.rotation = rot;
  }
  if (hasText) Object.assign(shape, { blocks: text }, bodyLayout(child(txBody, 'bodyPr')));
  return shape;
}

/** A rectangle's picture fill (a:blipFill in its a:spPr: a photo in a placeholder), cropped as its a:srcRect says; other outlines keep their colour fill. */
function pictureFill(spPr: XmlElement | undefined, drawn: Shape | undefined, ctx: ShapeTreeContext): Picture | undefined {
  const blipFill = child(spPr, 'blipFill');
  return blipFill && (!drawn || drawn.geometry === 'rect') ? blipPicture(blipFill, ctx) : undefined;
}

/** The picture an a:blipFill shows, the part its a:srcRect keeps, as opaque as its a:alphaModFix says. */
function blipPicture(blipFill: XmlElement | undefined, ctx: ShapeTreeContext): Picture | undefined {
  const blip = descendant(blipFill, 'blip');
  const found = ctx.picture(attr(blip, 'r:embed'));
  if (!found) return undefined;
  const crop = srcRectCrop(child(blipFill, 'srcRect'));
  const amount = Number(attr(child(blip, 'alphaModFix'), 'amt'));
  const opacity = amount >= 0 && amount < 100_000 ? { opacity: amount / 100_000 } : {};
  return { ...found, ...(crop ? { crop } : {}), ...opacity, ...(child(blip, 'grayscl') ? { grayscale: true } : {}) };
}

/** A picture member: a rectangle its picture fills, the part a:srcRect shows of it. */
function pictureOf(el: XmlElement, box: FramedShape['box'], ctx: ShapeTreeContext): Shape<TextParagraph> | undefined {
  const picture = blipPicture(child(el, 'blipFill'), ctx);
  if (!picture) return undefined;
  const shape: Shape<TextParagraph> = { kind: 'shape', geometry: 'rect', width: box.width, height: box.height, picture };
  const rot = Number(attr(child(child(el, 'spPr'), 'xfrm'), 'rot') ?? 0) / 60000;
  if (rot) shape.rotation = rot;
  return shape;
}

function collect(members: Iterable<XmlElement>, toFrame: ToFrame, ctx: ShapeTreeContext, depth: number, out: FramedShape<TextParagraph>[]): void {
  for (const el of members) {
    if (out.length >= ctx.most) return;
    if (el.name === 'AlternateContent') {
      // The choice we can draw, else the fallback (a picture of what we cannot).
      const chosen = chooseAlternate(el);
      if (chosen && depth < GROUPS_DEEPEST) collect(elements(chosen), toFrame, ctx, depth + 1, out);
      continue;
    }
    if (el.name === 'grpSp') {
      if (depth < GROUPS_DEEPEST) collect(elements(el), groupFrame(el, { x: 0, y: 0, width: 0, height: 0 }, toFrame), ctx, depth + 1, out);
      continue;
    }
    if (el.name !== 'sp' && el.name !== 'cxnSp' && el.name !== 'pic') continue;
    const box = memberBox(child(el, 'spPr'), toFrame);
    if (!(box.width >= 0 && box.height >= 0) || !Number.isFinite(box.x + box.y + box.width + box.height)) continue;
    const shape = el.name === 'pic' ? pictureOf(el, box, ctx) : shapeOf(el, box, ctx);
    if (shape) out.push({ box, shape });
  }
}

const EMU_PER_POINT = 12_700;

/**
 * The shapes one top-level member (a shape, connector, picture or group) shows, in a frame of its
 * own size (its a:xfrm extent, points) with its top-left at the frame's corner; the holder
 * stretches the frame over where it is anchored. Undefined when it shows nothing.
 */
export function framedShapes(el: XmlElement, ctx: ShapeTreeContext): { frame: { width: number; height: number }; shapes: FramedShape<TextParagraph>[] } | undefined {
  const xfrm = child(child(el, el.name === 'grpSp' ? 'grpSpPr' : 'spPr'), 'xfrm');
  const n = (e: XmlElement | undefined, a: string) => Math.min(Math.max(Number(attr(e, a) ?? 0) || 0, -2e10), 2e10);
  const [ox, oy] = [n(child(xfrm, 'off'), 'x'), n(child(xfrm, 'off'), 'y')];
  const [cx, cy] = [n(child(xfrm, 'ext'), 'cx'), n(child(xfrm, 'ext'), 'cy')];
  const frame = { width: Math.max(cx, 0) / EMU_PER_POINT, height: Math.max(cy, 0) / EMU_PER_POINT };
  const shapes: FramedShape<TextParagraph>[] = [];
  if (el.name !== 'grpSp' && !(frame.width > 0 && frame.height > 0)) {
    // No extent of its own (some writers leave it 0): the shape fills the frame, whatever size it is stretched to.
    const box = { x: 0, y: 0, width: 1, height: 1 };
    const shape = el.name === 'pic' ? pictureOf(el, box, ctx) : el.name === 'sp' || el.name === 'cxnSp' ? shapeOf(el, box, ctx) : undefined;
    return shape && { frame: { width: 1, height: 1 }, shapes: [{ box, shape }] };
  }
  if (el.name === 'grpSp') collect(elements(el), groupFrame(el, { x: 0, y: 0, ...frame }), ctx, 1, shapes);
  else collect([el], (x, y) => [(x - ox) / EMU_PER_POINT, (y - oy) / EMU_PER_POINT], ctx, 0, shapes);
  return shapes.length ? { frame, shapes } : undefined;
}
