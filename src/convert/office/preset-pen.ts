/**
 * A pen that draws DrawingML path commands (moveTo, lnTo, arcTo, cubicBezTo, quadBezTo, close)
 * into outline operations, for the presets written from ECMA-376's shape definitions. Angles are
 * in degrees, clockwise from the x axis (y is down), as the specification's are once divided by
 * 60,000.
 */
import type { PathOp } from './model';
import { arc, ellipseParameter } from './preset-geometry';


type Point = [number, number];

/** The point at the ray angle `degrees` on the ellipse of radii rx, ry centred at (cx, cy). */
export function onEllipseAt(cx: number, cy: number, rx: number, ry: number, degrees: number): Point {
  const t = (ellipseParameter(degrees, rx, ry) * Math.PI) / 180;
  return [cx + rx * Math.cos(t), cy + ry * Math.sin(t)];
}

export class Pen {
  readonly ops: PathOp[] = [];
  private at: Point = [0, 0];

  get x(): number {
    return this.at[0];
  }
  get y(): number {
    return this.at[1];
  }
  move(x: number, y: number): this {
    this.ops.push(['M', x, y]);
    this.at = [x, y];
    return this;
  }
  line(x: number, y: number): this {
    this.ops.push(['L', x, y]);
    this.at = [x, y];
    return this;
  }
  /** Lines through each point in turn. */
  lines(...points: Point[]): this {
    for (const [x, y] of points) this.line(x, y);
    return this;
  }
  /** arcTo: the current point is on the ellipse of radii wR, hR at ray angle `start`; the arc sweeps `sweep` degrees from there. */
  arc(wR: number, hR: number, start: number, sweep: number): this {
    const from = ellipseParameter(start, wR, hR);
    const to = ellipseParameter(start + sweep, wR, hR);
    this.at = arc(this.ops, this.at[0], this.at[1], wR, hR, from, to - from);
    return this;
  }
  cubic(x1: number, y1: number, x2: number, y2: number, x: number, y: number): this {
    this.ops.push(['C', x1, y1, x2, y2, x, y]);
    this.at = [x, y];
    return this;
  }
  /** A quadratic Bézier, as the cubic with control points two thirds of the way to its one. */
  quad(qx: number, qy: number, x: number, y: number): this {
    const [x0, y0] = this.at;
    return this.cubic(x0 + ((qx - x0) * 2) / 3, y0 + ((qy - y0) * 2) / 3, x + ((qx - x) * 2) / 3, y + ((qy - y) * 2) / 3, x, y);
  }
  close(): this {
    this.ops.push(['Z']);
    return this;
  }
}

/** A pen put down at (x, y). */
export const from = (x: number, y: number): Pen => new Pen().move(x, y);

/** A value kept within [lo, hi] (the specification's "pin"). */
export const pin = (lo: number, v: number, hi: number): number => (v < lo ? lo : v > hi ? hi : v);

/** An angle adjustment (60,000ths of a degree) in degrees. */
export const degrees = (v: number): number => v / 60_000;
