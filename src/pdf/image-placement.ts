/**
 * Where an image goes on a page and how it is turned: the matrices that draw an image's unit
 * square upright (its EXIF orientation applied) into a box, in PDF space (y up) for a page's
 * content and in MuPDF's device space (y down) for drawing into a pixmap.
 */
import type { Orientation } from '../codecs/image-header';

export type Matrix = [number, number, number, number, number, number];

/** A4 in points, and 10 mm of margin (DECISIONS: photo-to-pdf; jpg-to-pdf's portrait and landscape sheets). */
export const A4: readonly [number, number] = [595.28, 841.89];
export const MARGIN_PT = (10 / 25.4) * 72;

/** Orientations whose upright picture is the stored one turned a quarter: width and height swap. */
export const swapsSides = (o: Orientation): boolean => o >= 5;

/**
 * Where the stored image's top-left, top-right and bottom-left corners land in a W × H box seen
 * upright (fractions of the box, from its top-left, y down), for each EXIF orientation.
 */
const CORNERS: Record<Orientation, [[number, number], [number, number], [number, number]]> = {
  1: [[0, 0], [1, 0], [0, 1]],
  2: [[1, 0], [0, 0], [1, 1]],
  3: [[1, 1], [0, 1], [1, 0]],
  4: [[0, 1], [1, 1], [0, 0]],
  5: [[0, 0], [0, 1], [1, 0]],
  6: [[1, 0], [1, 1], [0, 0]],
  7: [[1, 1], [1, 0], [0, 1]],
  8: [[0, 1], [0, 0], [1, 1]],
};

/**
 * The `cm` matrix that draws an image XObject upright into the box whose bottom-left corner is at
 * (x, y) with width w and height h in PDF space. A PDF image's unit square has its top-left at (0, 1).
 */
export function pdfImageMatrix(o: Orientation, x: number, y: number, w: number, h: number): Matrix {
  const at = ([fx, fy]: [number, number]): [number, number] => [x + fx * w, y + h - fy * h];
  const [tl, tr, bl] = CORNERS[o].map(at) as [[number, number], [number, number], [number, number]];
  return [tr[0] - tl[0], tr[1] - tl[1], tl[0] - bl[0], tl[1] - bl[1], bl[0], bl[1]];
}

/** The matrix that draws an image upright onto a w × h pixmap (MuPDF's device space: the image's top-left at (0, 0)). */
export function deviceImageMatrix(o: Orientation, w: number, h: number): Matrix {
  const [tl, tr, bl] = CORNERS[o].map(([fx, fy]) => [fx * w, fy * h]) as [[number, number], [number, number], [number, number]];
  return [tr[0] - tl[0], tr[1] - tl[1], bl[0] - tl[0], bl[1] - tl[1], tl[0], tl[1]];
}

/** The largest w × h of the image's proportions that fits in the box, and where it sits centred in it. */
export function fitCentred(imageW: number, imageH: number, boxX: number, boxY: number, boxW: number, boxH: number): { x: number; y: number; w: number; h: number } {
  const scale = Math.min(boxW / imageW, boxH / imageH);
  const [w, h] = [imageW * scale, imageH * scale];
  return { x: boxX + (boxW - w) / 2, y: boxY + (boxH - h) / 2, w, h };
}

/** Numbers for a content stream: at most 4 decimals, no exponent. */
export const num = (v: number): string => (Math.round(v * 10000) / 10000).toString();
