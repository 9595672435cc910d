/**
 * The shapes of one conversion. MuPDF's HTML engine draws no shapes, so the layout puts a tiny
 * placeholder picture where each goes: an inline shape's placeholder is sized like the shape and
 * the shape is drawn over its box; a floating shape's placeholder is a zero-height block at the
 * start of its anchor paragraph, which tells the page device the page and the anchor's y, and the
 * shape is drawn where its FloatingPlacement says (page, margin, column or paragraph relative).
 * The device (metafile/device.ts `wrap`) hands every picture to `handler()` first.
 *
 * Floating shapes are drawn before the page's text, in their stacking order (behind-text ones
 * first): a first pass runs the page into a device that draws nothing, to find their placeholders
 * (`handler('find')`), then `drawFound` draws them. Text stays readable over a shape Word puts in
 * front of it; the text boxes' own text is drawn after all shapes.
 */
import type * as Mupdf from 'mupdf';
import type { Block, FloatingPlacement, Inline, PageGeometry, PictureCrop, Shape } from '../model/index';
import { SHAPE_MAGIC, imagePlaceholderIndex, placeholderUrl } from './placeholders';
import type { PlaceholderHandler } from './metafile-device';
import { DEFAULT_INSETS, paintShape } from './shape-paint';
import type { Box } from '../../office/shape-outline';
import { longOutline, shapeContent, type ShapeContent } from './shape-content';
import { paintWordArt } from './word-art';
import type { FontBook } from '../../../layout/text/font-book';
import { METAFILE } from '../../../paint/metafile';

type MupdfModule = typeof Mupdf;
type Matrix = [number, number, number, number, number, number];

/** What a page offers floating shapes to be placed against. */
export interface PageFrame extends Omit<PageGeometry, 'header' | 'footer'> {
  /** Text columns, left edges and widths in page space. */
  columns: { left: number; width: number }[];
}

/** Lays out a shape's text in the given width: its content height, and how to draw it. */
export type TextLayout = (blocks: Block[], width: number) => { height: number; draw(device: Mupdf.Device, matrix: Mupdf.Matrix): void } | undefined;

export class ShapePictures {
  private list: { shape: Shape; url: string }[] = [];
  /** Shapes of `list` whose text textsAhead has handed out. */
  private textsSeen = 0;
  private index = new Map<Shape, number>();
  /** Whether some shape floats (pages need the finding pass). */
  hasFloating = false;
  private page?: { device: Mupdf.Device; frame: PageFrame; layoutText: TextLayout; found: Map<Shape, Matrix> };
  /** Shape text waiting to be drawn after what is being run now (MuPDF is not re-entered from a device callback). */
  private pendingText: { draw: (device: Mupdf.Device, matrix: Mupdf.Matrix) => void; matrix: Mupdf.Matrix }[] = [];

  /** Floating pictures drawn as shapes (inline-html.ts), one shape per picture inline; their decoded images. */
  private pictureShapes = new WeakMap<object, Shape>();
  /** Shapes anchored in a table cell: the cell's text width. */
  private cellWidths = new WeakMap<Shape, number>();
  private images = new Map<Shape, Mupdf.Image | null>();

  /**
   * `drawMetafile`: draws an EMF/WMF picture over the unit square mapped by a matrix (metafile/device.ts);
   * `pictureImage`: what stands for a raster picture on the page (picture-passthrough.ts placeholderImage).
   */
  constructor(
    private readonly mupdf: MupdfModule,
    private readonly drawMetafile: (device: Mupdf.Device, picture: NonNullable<Shape['picture']>, ctm: Matrix) => void,
    private readonly pictureImage: (data: Uint8Array, crop?: PictureCrop) => Mupdf.Image | undefined,
    /** The faces WordArt is drawn with. */
    private readonly fonts: Pick<FontBook, 'face' | 'familyFor'>,
    /** The blocks that start within `height` of text `width` wide (block-html's estimate), for boxes that do not grow to their text. */
    private readonly blocksWithin?: (blocks: Block[], height: number, width: number) => Block[],
    /** What stands for a shape's own operators on the page (picture-passthrough.ts contentImage); without it, shapes are drawn through the device. */
    private readonly contentImage?: (content: ShapeContent) => Mupdf.Image | undefined,
  ) {}

  private fitted = new WeakMap<Shape, Block[]>();
  /**
   * The text a shape shows: a box that keeps its size (clipsText) shows the paragraphs that start
   * within it, as Word clips the rest (a paragraph that starts inside is shown whole, as for rows
   * of exact height: our lines may be a little taller than Word's).
   */
  private textOf(shape: Shape, width: number): Block[] {
    if (!shape.clipsText || !this.blocksWithin) return shape.blocks!;
    let blocks = this.fitted.get(shape);
    if (!blocks) {
      const inset = shape.textInsets ?? DEFAULT_INSETS;
      blocks = this.blocksWithin(shape.blocks!, Math.max(0, shape.height - inset.top - inset.bottom), width);
      this.fitted.set(shape, blocks);
    }
    return blocks;
  }

  /** Operators written per shape and box (a header's shape is drawn on every page in the same box). */
  private contents = new WeakMap<Shape, Map<string, ShapeContent | undefined>>();
  private readonly asContent = (shape: Shape, box: Box): Mupdf.Image | undefined => {
    // A form is an object of its own (a few hundred bytes): worth it for long outlines only.
    if (!this.contentImage || !longOutline(shape)) return undefined;
    let byBox = this.contents.get(shape);
    if (!byBox) this.contents.set(shape, (byBox = new Map()));
    const key = `${box.x},${box.y},${box.width},${box.height}`;
    if (!byBox.has(key)) byBox.set(key, shapeContent(shape, box));
    const content = byBox.get(key);
    return content && this.contentImage(content);
  };

  /** A shape's outline, or its WordArt text. */
  private paint(device: Mupdf.Device, shape: Shape, box: Box): void {
    if (shape.wordArt) paintWordArt(this.mupdf, device, this.fonts, shape, box);
    else paintShape(this.mupdf, device, shape, box, this.asContent);
  }

  /** A floating picture as a floating shape it fills, the same one each time the picture is written. */
  pictureShape(image: Extract<Inline, { kind: 'image' }>): Shape {
    let shape = this.pictureShapes.get(image);
    if (!shape) {
      shape = { kind: 'shape', geometry: 'rect', width: image.width, height: image.height, floating: image.floating, picture: { data: image.data, contentType: image.contentType, crop: image.crop } };
      this.pictureShapes.set(image, shape);
    }
    return shape;
  }

  /** Releases the decoded pictures. */
  destroy(): void {
    for (const image of this.images.values()) image?.destroy();
    this.images.clear();
  }

  get size(): number {
    return this.list.length;
  }

  /** A data: URL standing for the shape in the HTML. */
  placeholder(shape: Shape, cellWidth?: number): string {
    if (cellWidth !== undefined) this.cellWidths.set(shape, cellWidth);
    let i = this.index.get(shape);
    if (i === undefined) {
      i = this.list.length;
      this.list.push({ shape, url: placeholderUrl(SHAPE_MAGIC, i) });
      this.index.set(shape, i);
      if (shape.floating) this.hasFloating = true;
    }
    return this.list[i]!.url;
  }

  private lookup(image: Mupdf.Image): Shape | undefined {
    const i = imagePlaceholderIndex(image, SHAPE_MAGIC);
    return i === undefined ? undefined : this.list[i]?.shape;
  }


  /** The page shapes are drawn onto next (the writer's page device, not a wrapper). */
  beginPage(device: Mupdf.Device, frame: PageFrame, layoutText: TextLayout): void {
    this.page = { device, frame, layoutText, found: new Map() };
    this.pendingText = [];
  }

  endPage(): void {
    this.page = undefined;
    this.pendingText = [];
  }

  /**
   * The device's picture handler. 'find': notes where floating shapes are anchored (the finding
   * pass); 'rest': draws inline shapes, and floating ones the finding pass did not see.
   */
  handler(pass: 'find' | 'rest'): PlaceholderHandler {
    return (image, ctm) => {
      const page = this.page;
      if (!page || !this.list.length) return false;
      let shape: Shape | undefined;
      try {
        shape = this.lookup(image);
      } catch {
        shape = undefined;
      }
      if (!shape) return false;
      if (pass === 'find') {
        if (shape.floating && !page.found.has(shape)) page.found.set(shape, ctm);
        return true;
      }
      if (shape.floating && page.found.has(shape)) return true;
      if (shape.floating) this.drawFloating(shape, shape.floating, ctm);
      else this.drawInline(shape, ctm);
      return true;
    };
  }

  /**
   * A floating shape layout's own engine (src/layout/pages/) anchored at (x, y) of the page (its paragraph's top
   * left), drawn with those the finding pass found; `cellWidth` when the anchor is in a table cell.
   */
  anchorAt(shape: Shape, x: number, y: number, cellWidth?: number): void {
    this.placeholder(shape, cellWidth);
    this.page?.found.set(shape, [0, 0, 0, 0, x, y]);
  }

  /**
   * Draws the floating shapes found on the page: behind-text ones first, then drawn shapes, then
   * pictures and text boxes, each by stacking order. Pictures and text boxes go over drawn shapes
   * as LibreOffice layers them (frames over drawing objects): a .doc's white page-sized rectangle
   * stacked after its header band and logos then frames them instead of hiding them.
   */
  drawFound(): void {
    const rank = (s: Shape) => (s.floating?.wrap === 'behind' ? 0 : s.picture || s.blocks?.length ? 2 : 1);
    const found = [...this.page!.found].sort(([a], [b]) => rank(a) - rank(b) || (a.z ?? 0) - (b.z ?? 0));
    for (const [shape, ctm] of found) this.drawFloating(shape, shape.floating!, ctm);
  }

  /** Draws the shape text queued by the shapes drawn so far, through `device` (so nested pictures draw too). */
  flushText(device: Mupdf.Device): void {
    // Text boxes can hold shapes with text: bounded, in case a document nests absurdly.
    for (let round = 0; round < 4 && this.pendingText.length; round++) {
      const batch = this.pendingText;
      this.pendingText = [];
      for (const { draw, matrix } of batch) draw(device, matrix);
    }
  }

  private drawInline(shape: Shape, ctm: Matrix): void {
    // The placeholder's ctm maps the unit square onto the box the layout gave the shape.
    const box = { x: ctm[4], y: ctm[5], width: ctm[0], height: ctm[3] };
    if (shape.members) return this.drawMembers(shape, box);
    if (shape.geometry === 'line' && shape.height < 1) {
      // A horizontal rule: its placeholder is as tall as the line is thick; the line runs along its middle.
      box.y += box.height / 2;
      box.height = 0;
    }
    this.paint(this.page!.device, shape, box);
  }

  private drawFloating(shape: Shape, f: FloatingPlacement, ctm: Matrix): void {
    const page = this.page!;
    // Only with layoutInCell (DOCX): placed from our cell, kwsymphony.doc's logo lands off the page, where LibreOffice shows it beside the table.
    const cellWidth = f.layoutInCell ? this.cellWidths.get(shape) : undefined;
    const cell = cellWidth !== undefined ? { left: ctm[4], width: cellWidth } : undefined;
    // A text box that resizes to fit its text (DrawingML spAutoFit, VML mso-fit-shape-to-text, DOC
    // fFitShapeToText: all that do not clip it) is as tall as its text laid out here, as Word and
    // LibreOffice draw it, whatever height was saved with it (tika testWORD_2006ml.docx: 110 pt
    // saved around one line).
    const fits = !!shape.blocks?.length && !shape.clipsText && !shape.wordArt && shape.geometry === 'rect' && !shape.picture;
    const laid = fits ? this.layOutText(shape, shape.width) : undefined;
    const inset = shape.textInsets ?? DEFAULT_INSETS;
    const height = laid ? laid.height + inset.top + inset.bottom : shape.height;
    const box = { ...floatingOrigin(f, { width: shape.width, height }, { x: ctm[4], y: ctm[5] }, page.frame, cell), width: shape.width, height };
    // Placed from its paragraph, a shape that would run off the page's bottom is moved up onto it, as
    // Word and LibreOffice keep it (a text box anchored near the foot of the page).
    if ((f.relativeY === 'paragraph' || f.relativeY === 'line') && !f.inGroup && box.y + height > page.frame.height) box.y = Math.max(0, page.frame.height - height);
    if (shape.picture) return this.drawPicture(shape, box);
    this.paint(page.device, shape, box);
    if (shape.blocks?.length) this.queueText(shape, box, laid);
  }

  /** A shape's text laid out in a box `width` wide (the shape's own width for what it shows). */
  private layOutText(shape: Shape, width: number): ReturnType<TextLayout> {
    return this.page!.layoutText(this.textOf(shape, textWidth(shape, shape.width)), textWidth(shape, width));
  }

  /** An inline group's members over its box, scaled as the layout scaled the group (narrowed to the column). */
  private drawMembers(group: Shape, box: Box): void {
    const sx = group.width ? box.width / group.width : 1;
    const sy = group.height ? box.height / group.height : 1;
    for (const member of group.members!) {
      const at = member.floating?.inGroup ?? { dx: 0, dy: 0 };
      const place = { x: box.x + at.dx * sx, y: box.y + at.dy * sy, width: member.width * sx, height: member.height * sy };
      if (member.picture) this.drawPicture(member, place);
      else {
        this.paint(this.page!.device, member, place);
        if (member.blocks?.length) this.queueText(member, place);
      }
    }
  }

  /** A floating picture over its box; one that cannot be decoded draws nothing. */
  private drawPicture(shape: Shape, box: Box): void {
    const ctm: Matrix = [box.width, 0, 0, box.height, box.x, box.y];
    if (METAFILE.test(shape.picture!.contentType)) return this.drawMetafile(this.page!.device, shape.picture!, ctm);
    let image = this.images.get(shape);
    if (image === undefined) {
      try {
        image = this.pictureImage(shape.picture!.data, shape.picture!.crop) ?? null;
      } catch {
        image = null;
      }
      this.images.set(shape, image);
    }
    if (image && box.width > 0 && box.height > 0) this.page!.device.fillImage(image, ctm, 1);
  }

  /**
   * The text of shapes placed in the HTML since the last call, with the width each is laid out in
   * when drawn (unscaled): to be laid out ahead, many at once (areas.ts).
   */
  textsAhead(): { blocks: Block[]; width: number }[] {
    const out: { blocks: Block[]; width: number }[] = [];
    const add = (shape: Shape) => {
      if (shape.blocks?.length) out.push({ blocks: this.textOf(shape, textWidth(shape, shape.width)), width: textWidth(shape, shape.width) });
      shape.members?.forEach(add);
    };
    for (; this.textsSeen < this.list.length; this.textsSeen++) add(this.list[this.textsSeen]!.shape);
    return out;
  }

  private queueText(shape: Shape, box: Box, ready?: ReturnType<TextLayout>): void {
    const inset = shape.textInsets ?? DEFAULT_INSETS;
    const laid = ready ?? this.layOutText(shape, box.width);
    if (!laid) return;
    const room = box.height - inset.top - inset.bottom;
    const y =
      shape.textAnchor === 'center' ? box.y + inset.top + (room - laid.height) / 2
      : shape.textAnchor === 'bottom' ? box.y + inset.top + room - laid.height
      : box.y + inset.top;
    this.pendingText.push({ draw: laid.draw, matrix: this.mupdf.Matrix.translate(box.x + inset.left, y) });
  }
}


/** The width a shape's text is laid out in, for a box `width` wide. */
const textWidth = (shape: Shape, width: number): number => {
  const inset = shape.textInsets ?? DEFAULT_INSETS;
  return Math.max(width - inset.left - inset.right, 10);
};

/** Top-left corner of a floating shape on the page, from its placement and its anchor's position. */
export function floatingOrigin(f: FloatingPlacement, shapeSize: { width: number; height: number }, anchor: { x: number; y: number }, page: PageFrame, cell?: { left: number; width: number }): { x: number; y: number } {
  // A group's member: the group is placed (and aligned), the member offset in it.
  const size = f.inGroup ?? shapeSize;
  const [gx, gy] = f.inGroup ? [f.inGroup.dx, f.inGroup.dy] : [0, 0];
  // In a table cell, "column" is the cell (Word's layout in cell).
  const column = cell ?? page.columns.find((c) => anchor.x >= c.left - 1 && anchor.x <= c.left + c.width + 1) ?? page.columns[0] ?? { left: page.marginLeft, width: page.width - page.marginLeft - page.marginRight };
  const [x0, x1] =
    f.relativeX === 'page' ? [0, page.width]
    : f.relativeX === 'margin' ? [page.marginLeft, page.width - page.marginRight]
    : f.relativeX === 'column' ? [column.left, column.left + column.width]
    : [anchor.x, anchor.x];
  const [y0, y1] =
    f.relativeY === 'page' ? [0, page.height]
    : f.relativeY === 'margin' ? [page.marginTop, page.height - page.marginBottom]
    : [anchor.y, anchor.y];
  const dx = f.percentX !== undefined ? f.percentX * (x1 - x0) : f.x;
  const dy = f.percentY !== undefined ? f.percentY * (y1 - y0) : f.y;
  const x = f.alignX === 'left' ? x0 : f.alignX === 'center' ? (x0 + x1 - size.width) / 2 : f.alignX === 'right' ? x1 - size.width : x0 + dx;
  const y = f.alignY === 'top' ? y0 : f.alignY === 'center' ? (y0 + y1 - size.height) / 2 : f.alignY === 'bottom' ? y1 - size.height : y0 + dy;
  return { x: x + gx, y: y + gy };
}
