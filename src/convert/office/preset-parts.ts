/** What the drawn presets (preset-curves.ts, preset-figures.ts) are built from: a box with its adjustments, outline parts, polygons and ellipses. */
import type { PathOp, PathPart, Shade } from './model';
import { arc } from './preset-geometry';

export type Adjust = Partial<Record<string, number>>;

/** A preset's box: width, height, shorter side, and its adjustments (the given one, else the preset's default). */
export interface Box {
  w: number;
  h: number;
  ss: number;
  adj: (name: string, preset: number) => number;
}

export const part = (ops: PathOp[], fill = true, stroke = true): PathPart => ({ ops, fill, stroke });
/** A part only filled (its outline drawn by another), in the fill or a shade of it. */
export const fillOnly = (ops: PathOp[], shade?: Shade): PathPart => ({ ops, fill: true, stroke: false, ...(shade ? { shade } : {}) });
/** A part only stroked: an outline drawn over the fills, a callout's leader line. */
export const strokeOnly = (ops: PathOp[]): PathPart => ({ ops, fill: false, stroke: true });
export const poly = (points: [number, number][], close = true): PathOp[] => [...points.map(([x, y], i): PathOp => [i ? 'L' : 'M', x, y]), ...(close ? [['Z'] as PathOp] : [])];

/** An ellipse of radii rx, ry around (cx, cy) as one closed subpath, clockwise, or the other way with `back`. */
export function ellipse(cx: number, cy: number, rx: number, ry: number, back = false): PathOp[] {
  const ops: PathOp[] = [['M', cx + rx, cy]];
  arc(ops, cx + rx, cy, rx, ry, 0, back ? -360 : 360);
  ops.push(['Z']);
  return ops;
}


/** A regular polygon or star of `n` points over w × h, the first at the top; `inner` the star's inner radius (1: a polygon). */
export function radial(w: number, h: number, n: number, inner = 1): [number, number][] {
  const points: [number, number][] = [];
  const steps = inner === 1 ? n : n * 2;
  for (let i = 0; i < steps; i++) {
    const a = -Math.PI / 2 + (i * 2 * Math.PI) / steps;
    const r = inner !== 1 && i % 2 ? inner : 1;
    points.push([w / 2 + (w / 2) * r * Math.cos(a), h / 2 + (h / 2) * r * Math.sin(a)]);
  }
  return points;
}

/** Parts with each point moved by `to` (a mirror image, a turn across the diagonal). */
export function mapped(parts: PathPart[], to: (x: number, y: number) => [number, number]): PathPart[] {
  const op = (o: PathOp): PathOp => {
    if (o[0] === 'Z') return o;
    if (o[0] === 'C') return ['C', ...to(o[1], o[2]), ...to(o[3], o[4]), ...to(o[5], o[6])];
    return [o[0], ...to(o[1], o[2])];
  };
  return parts.map((p) => ({ ...p, ops: p.ops.map(op) }));
}
