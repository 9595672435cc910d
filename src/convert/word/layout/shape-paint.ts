/**
 * Draws a Word shape's outline (rectangle, rounded rectangle, ellipse, line) filled and stroked in
 * a box on a MuPDF device, in page space.
 */
import type * as Mupdf from 'mupdf';
import { drawLineEnd, lineEnds } from './line-ends';
import type { Shape } from '../model/index';

type MupdfModule = typeof Mupdf;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Word's default text box insets, points. */
export const DEFAULT_INSETS = { left: 7.2, top: 3.6, right: 7.2, bottom: 3.6 };

/** RRGGBB as MuPDF's RGB components (0..1). */
export const rgb = (hex: string): [number, number, number] => {
  const v = parseInt(hex, 16) || 0;
  return [((v >> 16) & 0xff) / 255, ((v >> 8) & 0xff) / 255, (v & 0xff) / 255];
};

/** Bézier handle length for a quarter ellipse. */
const KAPPA = 0.5523;
/** Word's default corner of a rounded rectangle: 1/6 of the shorter side. */
const ROUND_CORNER = 1 / 6;

/** What an outline is traced into: a MuPDF path, or PDF operators (shape-content.ts). */
export interface PathSink {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  curveTo(x1: number, y1: number, x2: number, y2: number, x3: number, y3: number): void;
  closePath(): void;
}

/**
 * A freeform's parts that are filled (or stroked) as one path, stretched from its own space over
 * the box, mirrored where the shape is flipped.
 */
export function freeformOutline<P extends PathSink>(path: P, shape: Shape, b: Box, which: 'fill' | 'stroke'): P {
  const f = shape.path!;
  const sx = b.width / f.width, sy = b.height / f.height;
  const X = (x: number) => (shape.flipH ? b.x + b.width - x * sx : b.x + x * sx);
  const Y = (y: number) => (shape.flipV ? b.y + b.height - y * sy : b.y + y * sy);
  for (const part of f.parts) {
    if (!part[which]) continue;
    for (const op of part.ops) {
      if (op[0] === 'M') path.moveTo(X(op[1]), Y(op[2]));
      else if (op[0] === 'L') path.lineTo(X(op[1]), Y(op[2]));
      else if (op[0] === 'C') path.curveTo(X(op[1]), Y(op[2]), X(op[3]), Y(op[4]), X(op[5]), Y(op[6]));
      else path.closePath();
    }
  }
  return path;
}

export function outline<P extends PathSink>(path: P, shape: Shape, b: Box): P {
  const { x, y, width: w, height: h } = b;
  switch (shape.geometry) {
    case 'line': {
      // A line runs corner to corner; flipping one axis (not both) makes it the other diagonal.
      const other = !!shape.flipH !== !!shape.flipV;
      path.moveTo(x, other ? y + h : y);
      path.lineTo(x + w, other ? y : y + h);
      break;
    }
    case 'ellipse': {
      const rx = w / 2, ry = h / 2, cx = x + rx, cy = y + ry, kx = rx * KAPPA, ky = ry * KAPPA;
      path.moveTo(cx + rx, cy);
      path.curveTo(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry);
      path.curveTo(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy);
      path.curveTo(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry);
      path.curveTo(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy);
      path.closePath();
      break;
    }
    case 'roundRect': {
      const r = Math.min(w, h) * ROUND_CORNER, k = r * (1 - KAPPA);
      path.moveTo(x + r, y);
      path.lineTo(x + w - r, y);
      path.curveTo(x + w - k, y, x + w, y + k, x + w, y + r);
      path.lineTo(x + w, y + h - r);
      path.curveTo(x + w, y + h - k, x + w - k, y + h, x + w - r, y + h);
      path.lineTo(x + r, y + h);
      path.curveTo(x + k, y + h, x, y + h - k, x, y + h - r);
      path.lineTo(x, y + r);
      path.curveTo(x, y + k, x + k, y, x + r, y);
      path.closePath();
      break;
    }
    default:
      path.moveTo(x, y);
      path.lineTo(x + w, y);
      path.lineTo(x + w, y + h);
      path.lineTo(x, y + h);
      path.closePath();
  }
  return path;
}

/** Rotation about the box's centre, clockwise in degrees (page space is y-down). */
export function rotationAbout(b: Box, degrees: number): Mupdf.Matrix {
  const t = (degrees * Math.PI) / 180, cos = Math.cos(t), sin = Math.sin(t);
  const cx = b.x + b.width / 2, cy = b.y + b.height / 2;
  return [cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy];
}

/** Open freeform parts are filled as if closed, as Word fills them; a line has nothing to fill. */
export const filled = (shape: Shape): boolean => !!shape.fill && shape.geometry !== 'line';
export const stroked = (shape: Shape): boolean => !!shape.line && shape.line.width > 0;
/** Whether the shape has an outline to draw over this box (a malformed one draws nothing rather than throw). */
export function drawable(shape: Shape, box: Box): boolean {
  if (!(box.width >= 0 && box.height >= 0) || !Number.isFinite(box.x + box.y + box.width + box.height)) return false;
  return shape.geometry !== 'path' || (!!shape.path && shape.path.width > 0 && shape.path.height > 0);
}
/** The path the shape is filled with, or stroked with: a freeform's stroked parts may differ from its filled ones (VML's nf and ns, DrawingML's fill="none"). */
export const traced = <P extends PathSink>(path: P, shape: Shape, box: Box, which: 'fill' | 'stroke'): P =>
  shape.geometry === 'path' ? freeformOutline(path, shape, box, which) : outline(path, shape, box);

/**
 * Fills and strokes the shape's outline over `box`. With `asContent` (shape-content.ts), the
 * outline is drawn as a form of PDF operators written here instead of through the device, whose
 * every point is a call into MuPDF and a number printed there (kwsymphony.doc's seating plan: 22,000
 * points, 30 ms); the arrowheads are drawn through the device either way.
 */
export function paintShape(mupdf: MupdfModule, device: Mupdf.Device, shape: Shape, box: Box, asContent?: (shape: Shape, box: Box) => Mupdf.Image | undefined): void {
  if (!drawable(shape, box)) return;
  const ctm = shape.rotation ? rotationAbout(box, shape.rotation) : mupdf.Matrix.identity;
  const form = asContent?.(shape, box);
  if (form) {
    try {
      // The form's own matrix undoes this unit square's placement: it is written in page space.
      device.fillImage(form, mupdf.Matrix.identity, 1);
    } finally {
      form.destroy();
    }
  } else paintOnDevice(mupdf, device, shape, box, ctm);
  if (stroked(shape) && (shape.line!.start || shape.line!.end)) {
    const line = shape.line!;
    const ends = lineEnds(shape, box);
    if (line.start && ends.start) drawLineEnd(mupdf, device, line.start, ...ends.start, line.width, rgb(line.color), ctm);
    if (line.end && ends.end) drawLineEnd(mupdf, device, line.end, ...ends.end, line.width, rgb(line.color), ctm);
  }
}

function paintOnDevice(mupdf: MupdfModule, device: Mupdf.Device, shape: Shape, box: Box, ctm: Mupdf.Matrix): void {
  const path = traced(new mupdf.Path(), shape, box, 'fill');
  const strokePath = shape.geometry === 'path' ? traced(new mupdf.Path(), shape, box, 'stroke') : path;
  try {
    if (filled(shape)) device.fillPath(path, false, ctm, mupdf.ColorSpace.DeviceRGB, rgb(shape.fill!), 1);
    if (stroked(shape)) {
      const stroke = new mupdf.StrokeState({ lineCap: 'Butt', lineJoin: 'Miter', lineWidth: shape.line!.width, miterLimit: 10 });
      try {
        device.strokePath(strokePath, stroke, ctm, mupdf.ColorSpace.DeviceRGB, rgb(shape.line!.color), 1);
      } finally {
        stroke.destroy();
      }
    }
  } finally {
    path.destroy();
    if (strokePath !== path) strokePath.destroy();
  }
}
