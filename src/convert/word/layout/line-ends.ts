/** Arrowheads and other line ends of shapes' outlines, drawn onto a MuPDF device. */
import type * as Mupdf from 'mupdf';
import type { LineEnd, Shape } from '../model/index';

type MupdfModule = typeof Mupdf;
type Point = [number, number];

/** Line widths below this size arrowheads as this: a hairline's heads are still seen (LibreOffice's import does the same). */
const LEAST_BASE_WIDTH = 2;

/**
 * The ends of a line or of a freeform's open outline, each as its point and the point the line
 * comes from there (which way the head points), in page space before the shape's rotation.
 */
export function lineEnds(shape: Shape, b: { x: number; y: number; width: number; height: number }): { start?: [Point, Point]; end?: [Point, Point] } {
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

/** Draws an arrowhead (or diamond, oval) with its point at `tip`, the line coming from `from`. */
export function drawLineEnd(mupdf: MupdfModule, device: Mupdf.Device, end: LineEnd, tip: Point, from: Point, lineWidth: number, color: [number, number, number], ctm: Mupdf.Matrix): void {
  const dx = tip[0] - from[0], dy = tip[1] - from[1];
  const d = Math.hypot(dx, dy);
  if (!(d > 0)) return;
  const ux = dx / d, uy = dy / d; // along the line, towards the tip
  const base = Math.max(lineWidth, LEAST_BASE_WIDTH);
  const len = end.length * base, half = (end.width * base) / 2;
  const at = (along: number, across: number): Point => [tip[0] - ux * along - uy * across, tip[1] - uy * along + ux * across];
  const path = new mupdf.Path();
  try {
    const poly = (points: Point[], close = true) => {
      points.forEach(([x, y], i) => (i ? path.lineTo(x, y) : path.moveTo(x, y)));
      if (close) path.closePath();
    };
    switch (end.type) {
      case 'triangle':
        poly([tip, at(len, half), at(len, -half)]);
        break;
      case 'stealth':
        poly([tip, at(len, half), at(len / 2, 0), at(len, -half)]);
        break;
      case 'diamond':
        poly([at(-len / 2, 0), at(0, half), at(len / 2, 0), at(0, -half)]);
        break;
      case 'oval': {
        const k = 0.5523;
        const [rx, ry] = [len / 2, half];
        const p = (a: number, c: number) => at(a, c);
        const [e0, e1, e2, e3] = [p(-rx, 0), p(0, ry), p(rx, 0), p(0, -ry)];
        path.moveTo(...e0);
        path.curveTo(...p(-rx, ry * k), ...p(-rx * k, ry), ...e1);
        path.curveTo(...p(rx * k, ry), ...p(rx, ry * k), ...e2);
        path.curveTo(...p(rx, -ry * k), ...p(rx * k, -ry), ...e3);
        path.curveTo(...p(-rx * k, -ry), ...p(-rx, -ry * k), ...e0);
        path.closePath();
        break;
      }
      case 'arrow': {
        // An open head: two strokes of the line's width.
        poly([at(len, half), tip, at(len, -half)], false);
        const stroke = new mupdf.StrokeState({ lineCap: 'Round', lineJoin: 'Miter', lineWidth, miterLimit: 10 });
        try {
          device.strokePath(path, stroke, ctm, mupdf.ColorSpace.DeviceRGB, color, 1);
        } finally {
          stroke.destroy();
        }
        return;
      }
    }
    device.fillPath(path, false, ctm, mupdf.ColorSpace.DeviceRGB, color, 1);
  } finally {
    path.destroy();
  }
}
