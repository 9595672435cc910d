/**
 * The Office parts' shapes laid out for any Office format (a sheet's drawings, a slide's shape
 * tree; the Office parts themselves know no layout): shapes and text boxes as display items, in
 * the box their holder gives them on the page: their frame stretched over it, each shape's outline (office/shape-outline.ts) filled and stroked
 * as polygons (curves flattened finely enough for print), its arrowheads, its picture, and its
 * text laid out by layout's line breaker in its insets, at its anchor, turned with the shape.
 * Text is set at the page's zoom, not stretched with the frame.
 */
import type { DisplayItem } from '../../contracts/display';
import type { FramedShape, Shape, TextParagraph } from '../office/model';
import { drawable, filled, lineEndOutline, lineEnds, paintSteps, shadedColor, stroked, traced, tracedStep, type Box, type PathSink } from '../office/shape-outline';
import type { Family } from '../../fonts/catalog';
import type { InlineItem, ParagraphBlock } from '../../layout/blocks/model';
import type { LineContext } from '../../layout/blocks/paragraph-lines';
import { stackParagraphs, type PlacedLine } from '../../layout/blocks/paragraph-stack';
import { displayLines } from '../../layout/display/draw-lines';
import { rotateItems } from '../../layout/display/rotate';
import { textItems } from '../../layout/blocks/text-items';

/** Straight pieces a curve is drawn in. */
const CURVE_STEPS = 12;

/** An outline's subpaths as points: what a display shape item takes. */
class PointPaths implements PathSink {
  readonly paths: { points: [number, number][]; closed: boolean }[] = [];
  private at: [number, number] = [0, 0];
  moveTo(x: number, y: number): void {
    this.paths.push({ points: [[x, y]], closed: false });
    this.at = [x, y];
  }
  lineTo(x: number, y: number): void {
    if (!this.paths.length) this.moveTo(...this.at);
    this.paths.at(-1)!.points.push([x, y]);
    this.at = [x, y];
  }
  curveTo(x1: number, y1: number, x2: number, y2: number, x3: number, y3: number): void {
    const [x0, y0] = this.at;
    for (let i = 1; i <= CURVE_STEPS; i++) {
      const t = i / CURVE_STEPS, u = 1 - t;
      const [a, b, c, d] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
      this.lineTo(a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3);
    }
  }
  closePath(): void {
    const path = this.paths.at(-1);
    if (path) (path.closed = true), (this.at = path.points[0]!);
  }
}

/** The shape's outline, filled and stroked, and its line ends, in `box` before it is turned. */
function outlineItems(shape: Shape<TextParagraph>, box: Box, zoom: number): DisplayItem[] {
  const out: DisplayItem[] = [];
  const shadow = shape.shadow;
  if (shadow && filled(shape)) {
    // Under the shape: its outline filled in the shadow's colour, moved by the shadow's offset (turned with the shape, as rotWithShape="0" is not told apart).
    for (const p of traced(new PointPaths(), shape, box, 'fill').paths) if (p.points.length > 2) out.push({ kind: 'shape', points: p.points.map(([x, y]) => [x + shadow.dx * zoom, y + shadow.dy * zoom]), fill: shadow.color, ...(shadow.opacity < 1 ? { opacity: shadow.opacity } : {}) });
  }
  const line = shape.line;
  const stroke = line ? { color: line.color, width: line.width * zoom, ...(line.dash ? { dash: line.dash.map((d) => d * line.width * zoom) } : {}) } : undefined;
  const opacity = shape.fillOpacity !== undefined ? { opacity: shape.fillOpacity } : {};
  for (const step of paintSteps(shape)) {
    const paths = tracedStep(new PointPaths(), shape, box, step).paths;
    if (step.stroke) {
      for (const p of paths) out.push({ kind: 'shape', points: p.closed ? [...p.points, p.points[0]!] : p.points, stroke: stroke! });
      continue;
    }
    // A shaded part (a can's lid, a ribbon's fold) is its shade of the fill colour, not of a gradient.
    const look = { ...opacity, ...(shape.gradient && !step.shade ? { gradient: shape.gradient } : {}) };
    const fill = shadedColor(shape.fill!, step.shade);
    for (const p of paths) if (p.points.length > 2) out.push({ kind: 'shape', points: p.points, fill, ...look });
  }
  if (!stroked(shape) || !line || !stroke) return out;
  const ends = lineEnds(shape, box);
  for (const [end, at] of [[line.start, ends.start], [line.end, ends.end]] as const) {
    if (!end || !at) continue;
    const head = new PointPaths();
    const how = lineEndOutline(head, end, at[0], at[1], line.width * zoom);
    for (const p of head.paths) out.push(how === 'fill' ? { kind: 'shape', points: p.points, fill: line.color } : { kind: 'shape', points: p.points, stroke });
  }
  return out;
}

/** The family a font name is drawn in: the document's own face of it, else the catalog's substitute (FontBook.familyOf). */
type FamilyOf = (name: string | undefined) => Family;

function paragraphBlock(p: TextParagraph, zoom: number, familyOf: FamilyOf): ParagraphBlock {
  const items: InlineItem[] = [];
  for (const run of p.runs) {
    const family = familyOf(run.font);
    const size = run.size * zoom;
    const style = { face: { family, bold: !!run.bold, italic: !!run.italic, size, kern: false }, look: { rise: 0, color: run.color, ...(run.underline ? { underline: true } : {}), ...(run.strike ? { strike: true } : {}), ...(run.link ? { link: run.link } : {}) }, sizes: { family, size } };
    // A tab in the text goes to the paragraph's next tab stop.
    run.text.split('\t').forEach((piece, i) => {
      if (i) items.push({ kind: 'tab', style });
      items.push(...textItems(piece, style));
    });
  }
  const indents = { ...(p.marginLeft ? { indentLeft: p.marginLeft * zoom } : {}), ...(p.indent ? { firstLine: p.indent * zoom } : {}) };
  const label = p.bullet ? bulletItems(p, zoom, familyOf, (p.indent ?? 0) < 0) : [];
  // The text after a bullet starts at the margin (a tab to it), the bullet hanging at margin + indent.
  const stops = [...(p.bullet && p.marginLeft ? [{ pos: p.marginLeft, align: 'left' as const }] : []), ...(p.tabs ?? [])].map((t) => ({ ...t, pos: t.pos * zoom }));
  const tabs = stops.length ? { tabs: stops } : {};
  const spacing = {
    ...(p.spaceBefore ? { spaceBefore: p.spaceBefore * zoom } : {}),
    ...(p.spaceAfter ? { spaceAfter: p.spaceAfter * zoom } : {}),
    ...(p.line ? { line: p.line.rule === 'exact' ? { rule: 'exact' as const, value: p.line.value * zoom } : p.line } : {}),
  };
  // The layout's alignment of a right-to-left paragraph names its start and end: DrawingML's left is its end.
  const align = p.rtl && (p.align === 'left' || p.align === 'right') ? (p.align === 'left' ? 'right' : 'left') : p.align;
  const direction = p.rtl ? { bidi: true } : {};
  return { kind: 'paragraph', props: { align, ...direction, markFace: { family: familyOf(p.font), size: p.size * zoom }, ...indents, ...tabs, ...spacing }, items: [...label, ...items] };
}

/** Symbol-font bullets as the Unicode characters they show (Wingdings' l is a round bullet, n a square one...). */
const SYMBOL_BULLETS: Record<string, string> = { l: '●', n: '■', q: '❑', u: '◆', v: '❖', Ø: '➢', '§': '▪', ü: '✓', '·': '•', o: '○', p: '□', è: '➔', à: '➔', Ü: '➢' };

/**
 * A paragraph's bullet, in its font, colour and size (its first run's where it gives none), and the
 * tab after it to the margin when it hangs there. A bullet that does not hang (indent 0 or more)
 * has the text right after it, as LibreOffice prints it: a tab would push the text on to the next
 * default stop, half an inch away.
 */
function bulletItems(p: TextParagraph, zoom: number, familyOf: FamilyOf, hangs: boolean): InlineItem[] {
  const bullet = p.bullet!;
  const first = p.runs[0];
  const symbolic = /wingdings|symbol|webdings/i.test(bullet.font ?? '');
  const text = symbolic ? (SYMBOL_BULLETS[bullet.text] ?? '•') : bullet.text;
  const family = familyOf(symbolic ? first?.font ?? p.font : bullet.font ?? first?.font ?? p.font);
  const size = (first?.size ?? p.size) * (bullet.scale ?? 1) * zoom;
  const style = { face: { family, bold: !!first?.bold && !symbolic, italic: false, size, kern: false }, look: { rise: 0, color: bullet.color ?? first?.color ?? '000000' }, sizes: { family, size } };
  return [{ kind: 'text', text, style }, ...(hangs ? [{ kind: 'tab' as const, style }] : [])];
}

/** The shape's text in its box: inside the insets, at the top, middle or foot, cut at the box when the shape says so. */
function shapeTextItems(shape: Shape<TextParagraph>, box: Box, zoom: number, ctx: LineContext): DisplayItem[] {
  if (!shape.blocks?.length) return [];
  const insets = shape.textInsets ?? { left: 7.2, top: 3.6, right: 7.2, bottom: 3.6 };
  const [left, right, top, bottom] = [insets.left * zoom, insets.right * zoom, insets.top * zoom, insets.bottom * zoom];
  const inner = box.height - top - bottom;
  const columns = shape.textColumns;
  const gap = (columns?.gap ?? 0) * zoom;
  const count = columns?.count ?? 1;
  const width = Math.max(1, (box.width - left - right - gap * (count - 1)) / count);
  const laid = fittedText(shape, shape.blocks, width, count > 1 ? inner * count : inner, zoom, ctx);
  const { lines, height } = count > 1 ? intoColumns(laid.lines, count, width + gap, inner) : laid;
  const y = box.y + top + (shape.textAnchor === 'center' ? (inner - height) / 2 : shape.textAnchor === 'bottom' ? inner - height : 0);
  const items = displayLines(lines, box.x + left, y, () => {});
  if (!shape.clipsText || height <= inner) return items;
  return [{ kind: 'clip', rect: [box.x, box.y, box.x + box.width, box.y + box.height], items }];
}

/** Lines set at a column's width moved into `count` columns, the next one begun where a line would pass `inner`; the height is the tallest column's. */
function intoColumns(lines: PlacedLine[], count: number, step: number, inner: number): { lines: PlacedLine[]; height: number } {
  let [column, top, height] = [0, 0, 0];
  for (const placed of lines) {
    if (placed.y - top + placed.line.height > inner && column < count - 1 && placed.y > top) [column, top] = [column + 1, placed.y];
    placed.x = (placed.x ?? 0) + column * step;
    placed.y -= top;
    height = Math.max(height, placed.y + placed.line.height);
  }
  return { lines, height };
}

/** The text set in `width`: at its size, or shrunk (to a quarter at most) until it fits `inner` where the shape shrinks text on overflow. */
function fittedText(shape: Shape<TextParagraph>, paragraphs: TextParagraph[], width: number, inner: number, zoom: number, ctx: LineContext): { lines: PlacedLine[]; height: number } {
  const familyOf = (name: string | undefined) => ctx.fonts.familyOf(name);
  const set = (scale: number) => {
    // Unwrapped text (wrap="none") is laid out on endless lines from the left, then each line placed by its paragraph's alignment in the box.
    const blocks = paragraphs.map((p) => paragraphBlock(shape.unwrapped ? { ...p, align: 'left' } : p, zoom * scale, familyOf));
    // As LibreOffice's edit engine sets drawing text: spaces after and before add up, the first paragraph's space before is not applied, extra line height goes above the text.
    const laid = stackParagraphs(blocks, shape.unwrapped ? 100_000 : width, { ...ctx, sum: true, firstSpaceBefore: false, spacingAbove: true });
    if (shape.unwrapped) alignUnwrapped(laid.lines, blocks, paragraphs, width);
    return laid;
  };
  let laid = set(1);
  if (!shape.shrinksText || laid.height <= inner || inner <= 0) return laid;
  // Halving the range six times finds the size within 1.2 % of the largest that fits.
  let [fits, over] = [0.25, 1];
  for (let i = 0; i < 6; i++) {
    const mid = (fits + over) / 2;
    if (set(mid).height <= inner) fits = mid;
    else over = mid;
  }
  laid = set(fits);
  return laid;
}

/** Moves each unwrapped line across by its paragraph's alignment within `width` (a centred line of a wider text runs out on both sides). */
function alignUnwrapped(lines: PlacedLine[], blocks: ParagraphBlock[], paragraphs: TextParagraph[], width: number): void {
  let align: TextParagraph['align'] = 'left';
  for (const placed of lines) {
    if (placed.opens) align = paragraphs[blocks.indexOf(placed.opens)]?.align ?? 'left';
    if (align !== 'center' && align !== 'right') continue;
    const used = placed.line.texts.reduce((w, t) => Math.max(w, t.x + t.width), 0);
    placed.x = (placed.x ?? 0) + (align === 'center' ? (width - used) / 2 : width - used);
  }
}

/** The shape's text, set across the box turned (its width the box's height) and turned back with it when the shape says. */
function turnedTextItems(shape: Shape<TextParagraph>, box: Box, zoom: number, ctx: LineContext): DisplayItem[] {
  if (!shape.textTurn) return shapeTextItems(shape, box, zoom, ctx);
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  const across = { x: cx - box.height / 2, y: cy - box.width / 2, width: box.height, height: box.width };
  // The insets stay with the box's sides: turned with the text, the left inset becomes the top one.
  const insets = shape.textInsets ?? { left: 7.2, top: 3.6, right: 7.2, bottom: 3.6 };
  const turned = shape.textTurn === 90 ? { left: insets.top, top: insets.right, right: insets.bottom, bottom: insets.left } : { left: insets.bottom, top: insets.left, right: insets.top, bottom: insets.right };
  return rotateItems(shapeTextItems({ ...shape, textInsets: turned }, across, zoom, ctx), shape.textTurn, cx, cy);
}

function shapeItems(shape: Shape<TextParagraph>, box: Box, zoom: number, ctx: LineContext): DisplayItem[] {
  if (!drawable(shape, box)) return [];
  const items = outlineItems(shape, box, zoom);
  const picture = shape.picture;
  if (picture) items.unshift({ kind: 'picture', data: picture.data, contentType: picture.contentType, at: [box.width, 0, 0, box.height, box.x, box.y], ...(picture.crop ? { crop: picture.crop } : {}), ...(picture.opacity !== undefined ? { opacity: picture.opacity } : {}), ...(picture.grayscale ? { grayscale: true } : {}) });
  items.push(...turnedTextItems(shape, box, zoom, ctx));
  return shape.rotation ? rotateItems(items, shape.rotation, box.x + box.width / 2, box.y + box.height / 2) : items;
}

/** A drawing's shapes over `box` (page points): each framed shape's box stretched as the frame is over it. */
export function framedShapeItems(frame: { width: number; height: number }, shapes: FramedShape<TextParagraph>[], box: Box, zoom: number, ctx: LineContext): DisplayItem[] {
  if (!(frame.width > 0 && frame.height > 0)) return [];
  const sx = box.width / frame.width, sy = box.height / frame.height;
  const out: DisplayItem[] = [];
  for (const { box: b, shape } of shapes) out.push(...shapeItems(shape, { x: box.x + b.x * sx, y: box.y + b.y * sy, width: b.width * sx, height: b.height * sy }, zoom, ctx));
  return out;
}
