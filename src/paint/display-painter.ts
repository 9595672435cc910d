/**
 * Paints a display list (contracts/display.ts) onto a page device in its order: filled boxes as
 * paths (or, until the device draws, as operators of their own: page-graphics.ts), pictures through the caller's picture drawer (raster pictures as placeholders the finished
 * PDF gets them for, metafiles as vectors), text into the page's content stream in embedded faces
 * (page-text.ts), and links handed to the caller, who adds them when the PDF is finished.
 */
import type * as Mupdf from 'mupdf';
import type { ClipItem, DisplayItem, FilledBox, PictureItem, ShapeItem, ShownText } from '../contracts/display';

/** Draws a picture into the unit square mapped by `ctm`. */
/** How a picture is drawn besides where: the part shown, how opaque, whether in greys. */
export type PictureLook = Pick<PictureItem, 'crop' | 'opacity' | 'grayscale'>;
export type DrawPicture = (device: Mupdf.Device, data: Uint8Array, contentType: string, ctm: Mupdf.Matrix, look?: PictureLook) => void;

/** Where what a device does not draw goes: the text writer and the links. */
export interface DisplaySinks {
  text(t: ShownText, x: number, baseline: number, angle?: number): void;
  link(rect: Mupdf.Rect, uri: string): void;
  /** The text written between clip and unclip shows only within `rect` (the text writer is not the device: page-text.ts). */
  clip?(rect: [number, number, number, number]): void;
  unclip?(): void;
  /**
   * Boxes and shapes written as operators in a stream before the device's (page-graphics.ts):
   * used until the device draws its first picture or clip on the page, so what covers what is kept.
   */
  under?: UnderSink;
}

/** What draws before the device (page-graphics.ts): boxes and shapes, and the pictures and clips it takes. */
export interface UnderSink {
  fill(box: FilledBox): void;
  shape(shape: ShapeItem): void;
  /** Whether it draws this picture (the device draws the rest). */
  takes?(picture: PictureItem): boolean;
  picture?(picture: PictureItem): void;
  clip?(rect: [number, number, number, number]): void;
  unclip?(): void;
}

/** Whether `under` draws everything in the items (a clip's): boxes, shapes and text always, pictures when it takes them. */
function allUnder(under: UnderSink, items: readonly DisplayItem[]): boolean {
  return items.every((item) => (item.kind === 'picture' ? !!under.takes?.(item) : item.kind === 'clip' ? !!under.clip && allUnder(under, item.items) : true));
}

const rgb = (hex: string | undefined): Mupdf.Color => {
  if (!hex || !/^[0-9a-fA-F]{6}$/.test(hex)) return [0, 0, 0];
  const n = parseInt(hex, 16);
  return [(n >> 16) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
};

export function paintDisplay(mupdf: typeof Mupdf, device: Mupdf.Device, items: readonly DisplayItem[], drawPicture: DrawPicture, sinks: DisplaySinks): void {
  let under = sinks.under;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (under && item.kind === 'fill') under.fill(item);
    else if (under && item.kind === 'shape') under.shape(item);
    else if (item.kind === 'fill') i = fillBoxes(mupdf, device, items, i) - 1;
    else if (item.kind === 'text') sinks.text(item.text, item.x, item.baseline, item.angle);
    else if (item.kind === 'picture' && under?.takes?.(item)) under.picture!(item);
    else if (item.kind === 'picture') {
      drawPicture(device, item.data, item.contentType, item.at, item);
      under = undefined;
    }
    else if (item.kind === 'shape') drawShape(mupdf, device, item);
    else if (item.kind === 'clip' && under?.clip && allUnder(under, item.items)) clippedUnder(mupdf, device, item, drawPicture, { ...sinks, under });
    else if (item.kind === 'clip') {
      paintClipped(mupdf, device, item, drawPicture, { ...sinks, under: undefined });
      under = undefined;
    }
    else sinks.link(item.rect, item.uri);
  }
}

/** A clip whose items all draw before the device: the clip set there (and in the text), the device untouched. */
function clippedUnder(mupdf: typeof Mupdf, device: Mupdf.Device, clip: ClipItem, drawPicture: DrawPicture, sinks: DisplaySinks & { under: UnderSink }): void {
  sinks.under.clip!(clip.rect);
  sinks.clip?.(clip.rect);
  try {
    paintDisplay(mupdf, device, clip.items, drawPicture, sinks);
  } finally {
    sinks.unclip?.();
    sinks.under.unclip!();
  }
}

function paintClipped(mupdf: typeof Mupdf, device: Mupdf.Device, clip: ClipItem, drawPicture: DrawPicture, sinks: DisplaySinks): void {
  const path = new mupdf.Path();
  path.rect(...clip.rect);
  device.clipPath(path, false, mupdf.Matrix.identity);
  path.destroy();
  sinks.clip?.(clip.rect);
  try {
    paintDisplay(mupdf, device, clip.items, drawPicture, sinks);
  } finally {
    sinks.unclip?.();
    device.popClip();
  }
}

function drawShape(mupdf: typeof Mupdf, device: Mupdf.Device, shape: ShapeItem): void {
  if (shape.points.length < 2) return;
  const path = new mupdf.Path();
  try {
    const [first, ...rest] = shape.points;
    path.moveTo(first![0], first![1]);
    for (const [x, y] of rest) path.lineTo(x, y);
    if (shape.fill) {
      path.closePath();
      device.fillPath(path, false, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, rgb(shape.fill), shape.opacity ?? 1);
    }
    if (shape.stroke) {
      const state = new mupdf.StrokeState({ lineCap: 'Butt', lineJoin: 'Round', lineWidth: shape.stroke.width, miterLimit: 10, dashes: shape.stroke.dash?.length ? shape.stroke.dash : undefined });
      device.strokePath(path, state, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, rgb(shape.stroke.color), 1);
      state.destroy();
    }
  } finally {
    path.destroy();
  }
}

/**
 * The run of filled boxes from `from` in one colour as one path (a sheet's page is thousands of
 * border and fill boxes: a path and a fill call each cost more in MuPDF's bindings than drawing
 * them); returns the index after the run. Opaque boxes of one colour look the same in one path.
 */
function fillBoxes(mupdf: typeof Mupdf, device: Mupdf.Device, items: readonly DisplayItem[], from: number): number {
  const first = items[from] as FilledBox;
  const path = new mupdf.Path();
  let i = from;
  for (; i < items.length; i++) {
    const box = items[i]!;
    if (box.kind !== 'fill' || box.color !== first.color) break;
    // One winding for all, so that overlapping boxes never cancel out.
    path.rect(Math.min(box.x0, box.x1), Math.min(box.y0, box.y1), Math.max(box.x0, box.x1), Math.max(box.y0, box.y1));
  }
  device.fillPath(path, false, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, rgb(first.color), 1);
  path.destroy();
  return i;
}
