/**
 * The display list: what layout hands to paint, and all the two share. Layout (our line breaker
 * and pager, src/layout/) places text, boxes, pictures and links on a page and lists them
 * here in drawing order; paint (paint/display-painter.ts) draws the list onto a page device, text
 * into the content stream in embedded faces (paint/page-text.ts). Neither imports the other.
 * Coordinates are PDF points, y down from the page's top-left, as MuPDF's devices take them.
 */
import type * as Mupdf from 'mupdf';

/** Text in one face, size and colour, in the order its glyphs are drawn (right-to-left text reversed by layout). */
export interface ShownText {
  font: Mupdf.Font;
  size: number;
  text: string;
  /** Its advance, kerning included. */
  width: number;
  /** rrggbb; black when absent. */
  color?: string;
  /** Pair kerning: [index in text, adjustment in em before that character, …]. */
  kerns?: number[];
}

/** A rectangle filled with one colour (shading, highlights, underlines, rules, table cells). */
export interface FilledBox {
  kind: 'fill';
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** rrggbb; black when absent or not a colour. */
  color?: string;
}

export interface TextItem {
  kind: 'text';
  text: ShownText;
  x: number;
  baseline: number;
  /** Degrees counter-clockwise the text runs at, turned about (x, baseline) (a spreadsheet's rotated cell); level when absent. */
  angle?: number;
}

/** A picture over the parallelogram `at` maps the unit square to, `crop` the share of each side cut off. */
export interface PictureItem {
  kind: 'picture';
  data: Uint8Array;
  contentType: string;
  at: Mupdf.Matrix;
  crop?: { left: number; top: number; right: number; bottom: number };
  /** How opaque the picture is drawn, 0 to 1; opaque when absent. */
  opacity?: number;
  /** Drawn in greys (a:grayscl). */
  grayscale?: boolean;
}

/** A link over `rect`: a URI, or `#name` for a bookmark. */
export interface LinkItem {
  kind: 'link';
  rect: Mupdf.Rect;
  uri: string;
}

/** A polygon filled with one colour, or a polyline stroked (charts' bars, areas, slices, lines and axes). */
export interface ShapeItem {
  kind: 'shape';
  points: [number, number][];
  /** rrggbb: the closed polygon filled. */
  fill?: string;
  /** How opaque the fill is, 0 to 1 (a colour's alpha); opaque when absent. */
  opacity?: number;
  /** A linear gradient over the polygon in place of `fill` where the writer draws it (`fill` then its average): angle clockwise from the x axis, stops 0 to 1. */
  gradient?: { radial?: boolean; angle: number; stops: { at: number; color: string }[] };
  /** The open polyline stroked in `stroke` at `width` points. */
  stroke?: { color: string; width: number; dash?: number[] };
}

/** Items drawn only within `rect` [x0, y0, x1, y1] (a spreadsheet's picture or chart cut at the edge of a page's cells). */
export interface ClipItem {
  kind: 'clip';
  rect: [number, number, number, number];
  items: DisplayItem[];
}

export type DisplayItem = FilledBox | TextItem | PictureItem | LinkItem | ShapeItem | ClipItem;
