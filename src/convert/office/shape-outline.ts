/**
 * The outlines of Office shapes (rectangles, rounded rectangles, ellipses, lines, freeforms) and of
 * their line ends, traced into whatever draws them: a MuPDF path (Word's shape painter), PDF
 * operators (Word's shape forms), or points for display items (a sheet's shapes). Geometry only,
 * in page space before the shape's rotation, y down.
 */
import type { LineEnd, PathPart, Shade, Shape } from './model';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

type Point = [number, number];

/** What an outline is traced into. */
export interface PathSink {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  curveTo(x1: number, y1: number, x2: number, y2: number, x3: number, y3: number): void;
  closePath(): void;
}

/** Bézier handle length for a quarter ellipse. */
export const KAPPA = 0.5523;
/** Office's default corner of a rounded rectangle: 1/6 of the shorter side. */
const ROUND_CORNER = 1 / 6;
/** Line widths below this size arrowheads as this: a hairline's heads are still seen (LibreOffice's import does the same). */
const LEAST_BASE_WIDTH = 2;

/**
 * A freeform's parts that are filled (or stroked) as one path, stretched from its own space over
 * the box, mirrored where the shape is flipped.
 */
export function freeformOutline<P extends PathSink>(path: P, shape: Shape<unknown>, b: Box, which: 'fill' | 'stroke'): P {
  return partsOutline(path, shape, b, shape.path!.parts.filter((part) => part[which]));
}

function partsOutline<P extends PathSink>(path: P, shape: Shape<unknown>, b: Box, parts: PathPart[]): P {
  const f = shape.path!;
  const sx = b.width / f.width, sy = b.height / f.height;
  const X = (x: number) => (shape.flipH ? b.x + b.width - x * sx : b.x + x * sx);
  const Y = (y: number) => (shape.flipV ? b.y + b.height - y * sy : b.y + y * sy);
  for (const part of parts) {
    for (const op of part.ops) {
      if (op[0] === 'M') path.moveTo(X(op[1]), Y(op[2]));
      else if (op[0] === 'L') path.lineTo(X(op[1]), Y(op[2]));
      else if (op[0] === 'C') path.curveTo(X(op[1]), Y(op[2]), X(op[3]), Y(op[4]), X(op[5]), Y(op[6]));
      else path.closePath();
    }
  }
  return path;
}

/** Parts filled (in one shade) or stroked together; `parts` left out for the whole outline. */
export interface PaintStep {
  stroke?: true;
  shade?: Shade;
  parts?: PathPart[];
}

/**
 * What a shape is painted as, in order: its fill (each run of filled parts of one shade together:
 * a can's body, then its lighter lid over it), then its outline; a preset's parts one after
 * another, each filled then stroked, consecutive ones of a kind together.
 */
export function paintSteps(shape: Shape<unknown>): PaintStep[] {
  const [fill, stroke] = [filled(shape), stroked(shape)];
  const f = shape.geometry === 'path' ? shape.path : undefined;
  if (!f) return [...(fill ? [{}] : []), ...(stroke ? [{ stroke: true as const }] : [])];
  const steps: PaintStep[] = [];
  const add = (part: PathPart, isStroke: boolean) => {
    const last = steps.at(-1);
    if (last && !!last.stroke === isStroke && (isStroke || last.shade === part.shade)) last.parts!.push(part);
    else steps.push({ ...(isStroke ? { stroke: true as const } : {}), ...(!isStroke && part.shade ? { shade: part.shade } : {}), parts: [part] });
  };
  if (f.ordered) {
    for (const part of f.parts) {
      if (fill && part.fill) add(part, false);
      if (stroke && part.stroke) add(part, true);
    }
    return steps;
  }
  if (fill) for (const part of f.parts) if (part.fill) add(part, false);
  if (stroke) steps.push({ stroke: true, parts: f.parts.filter((part) => part.stroke) });
  return steps;
}

/** The outline a paint step covers over the box. */
export const tracedStep = <P extends PathSink>(path: P, shape: Shape<unknown>, box: Box, step: PaintStep): P => (step.parts ? partsOutline(path, shape, box, step.parts) : traced(path, shape, box, step.stroke ? 'stroke' : 'fill'));

/** A fill colour (RRGGBB) as a shaded part shows it: as LibreOffice does, 40 % or 20 % of the way to black or to white. */
export function shadedColor(hex: string, shade: Shade | undefined): string {
  if (!shade) return hex;
  const v = parseInt(hex, 16) || 0;
  const f = shade === 'darken' ? 0.6 : shade === 'darkenLess' ? 0.8 : shade === 'lighten' ? 0.4 : 0.2;
  const channel = (c: number) => Math.round(shade.startsWith('darken') ? c * f : c + (255 - c) * f);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255].map((c) => channel(c).toString(16).padStart(2, '0')).join('').toUpperCase();
}

function ellipse(path: PathSink, { x, y, width: w, height: h }: Box): void {
  const rx = w / 2, ry = h / 2, cx = x + rx, cy = y + ry, kx = rx * KAPPA, ky = ry * KAPPA;
  path.moveTo(cx + rx, cy);
  path.curveTo(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry);
  path.curveTo(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy);
  path.curveTo(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry);
  path.curveTo(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy);
  path.closePath();
}

function roundRect(path: PathSink, { x, y, width: w, height: h }: Box): void {
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
}

/** The outline of one of the plain geometries over the box. */
export function outline<P extends PathSink>(path: P, shape: Shape<unknown>, b: Box): P {
  const { x, y, width: w, height: h } = b;
  if (shape.geometry === 'line') {
    // A line runs corner to corner; flipping one axis (not both) makes it the other diagonal.
    const other = !!shape.flipH !== !!shape.flipV;
    path.moveTo(x, other ? y + h : y);
    path.lineTo(x + w, other ? y : y + h);
  } else if (shape.geometry === 'ellipse') ellipse(path, b);
  else if (shape.geometry === 'roundRect') roundRect(path, b);
  else {
    path.moveTo(x, y);
    path.lineTo(x + w, y);
    path.lineTo(x + w, y + h);
    path.lineTo(x, y + h);
    path.closePath();
  }
  return path;
}

/** The path the shape is filled with, or stroked with: a freeform's stroked parts may differ from its filled ones (VML's nf and ns, DrawingML's fill="none"). */
export const traced = <P extends PathSink>(path: P, shape: Shape<unknown>, box: Box, which: 'fill' | 'stroke'): P =>
  shape.geometry === 'path' ? freeformOutline(path, shape, box, which) : outline(path, shape, box);

/** Open freeform parts are filled as if closed, as Office fills them; a line has nothing to fill. */
export const filled = (shape: Shape<unknown>): boolean => !!shape.fill && shape.geometry !== 'line';
export const stroked = (shape: Shape<unknown>): boolean => !!shape.line && shape.line.width > 0;

/** Whether the shape has an outline to draw over this box (a malformed one draws nothing rather than throw). */
export function drawable(shape: Shape<unknown>, box: Box): boolean {
  if (!(box.width >= 0 && box.height >= 0) || !Number.isFinite(box.x + box.y + box.width + box.height)) return false;
  return shape.geometry !== 'path' || (!!shape.path && shape.path.width > 0 && shape.path.height > 0);
}

/**
 * The ends of a line or of a freeform's open outline, each as its point and the point the line
 * comes from there (which way the head points).
 */
export function lineEnds(shape: Shape<unknown>, b: Box): { start?: [Point, Point]; end?: [Point, Point] } {
  if (shape.geometry === 'line') {
    const from: Point = [shape.flipH ? b.x + b.width : b.x, shape.flipV ? b.y + b.height : b.y];
    const to: Point = [shape.flipH ? b.x : b.x + b.width, shape.flipV ? b.y : b.y + b.height];
    return { start: [from, to], end: [to, from] };
  }
  const f = shape.geometry === 'path' ? shape.path : undefined;
  if (!f) return {};
  const parts = f.parts.filter((p) => p.stroke && p.ops.length > 1 && p.ops.at(-1)![0] !== 'Z');
  if (!parts.length) return {};
  const sx = b.width / f.width, sy = b.height / f.height;
  const map = (x: number, y: number): Point => [shape.flipH ? b.x + b.width - x * sx : b.x + x * sx, shape.flipV ? b.y + b.height - y * sy : b.y + y * sy];
  const first = parts[0]!.ops, last = parts.at(-1)!.ops;
  const pointOf = (op: (typeof first)[number]): Point => (op[0] === 'C' ? map(op[5], op[6]) : op[0] === 'Z' ? map(0, 0) : map(op[1], op[2]));
  // Towards the start: the first curve's first control point, else the next point.
  const second = first[1]!;
  const startFrom = second[0] === 'C' ? map(second[1], second[2]) : pointOf(second);
  const lastOp = last.at(-1)!;
  const endFrom = lastOp[0] === 'C' ? map(lastOp[3], lastOp[4]) : pointOf(last.at(-2)!);
  return { start: [pointOf(first[0]!), startFrom], end: [pointOf(lastOp), endFrom] };
}

/**
 * Traces a line end (arrowhead, diamond, oval) with its point at `tip`, the line coming from
 * `from`. Returns whether it is filled; an open arrow ('arrow') is two strokes of the line's width.
 * Undefined when the line has no direction (its two points the same).
 */
export function lineEndOutline(path: PathSink, end: LineEnd, tip: Point, from: Point, lineWidth: number): 'fill' | 'stroke' | undefined {
  const dx = tip[0] - from[0], dy = tip[1] - from[1];
  const d = Math.hypot(dx, dy);
  if (!(d > 0)) return undefined;
  const ux = dx / d, uy = dy / d; // along the line, towards the tip
  const base = Math.max(lineWidth, LEAST_BASE_WIDTH);
  const len = end.length * base, half = (end.width * base) / 2;
  const at = (along: number, across: number): Point => [tip[0] - ux * along - uy * across, tip[1] - uy * along + ux * across];
  const poly = (points: Point[], close = true) => {
    points.forEach(([x, y], i) => (i ? path.lineTo(x, y) : path.moveTo(x, y)));
    if (close) path.closePath();
  };
  switch (end.type) {
    case 'triangle':
      poly([tip, at(len, half), at(len, -half)]);
      return 'fill';
    case 'stealth':
      poly([tip, at(len, half), at(len / 2, 0), at(len, -half)]);
      return 'fill';
    case 'diamond':
      poly([at(-len / 2, 0), at(0, half), at(len / 2, 0), at(0, -half)]);
      return 'fill';
    case 'oval': {
      const [rx, ry] = [len / 2, half];
      const [e0, e1, e2, e3] = [at(-rx, 0), at(0, ry), at(rx, 0), at(0, -ry)];
      path.moveTo(...e0);
      path.curveTo(...at(-rx, ry * KAPPA), ...at(-rx * KAPPA, ry), ...e1);
      path.curveTo(...at(rx * KAPPA, ry), ...at(rx, ry * KAPPA), ...e2);
      path.curveTo(...at(rx, -ry * KAPPA), ...at(rx * KAPPA, -ry), ...e3);
      path.curveTo(...at(-rx * KAPPA, -ry), ...at(-rx, -ry * KAPPA), ...e0);
      path.closePath();
      return 'fill';
    }
    case 'arrow':
      poly([at(len, half), tip, at(len, -half)], false);
      return 'stroke';
  }
}

/** Rotation about the box's centre, clockwise in degrees (page space is y-down), as a PDF matrix. */
export function rotationAbout(b: Box, degrees: number): [number, number, number, number, number, number] {
  const t = (degrees * Math.PI) / 180, cos = Math.cos(t), sin = Math.sin(t);
  const cx = b.x + b.width / 2, cy = b.y + b.height / 2;
  return [cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy];
}
