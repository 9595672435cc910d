/**
 * Elliptical arcs as cubic Béziers: the one arc of the readers and painters that draw them with
 * curves (DrawingML's arcTo in office/preset-geometry.ts, SVG's A command in
 * convert/html/svg-picture.ts). The metafile players' ARC/CHORD/PIE (gdi.ts) and a chart's pie
 * slices (office/chart/draw.ts) are flattened to polylines instead, for what draws them.
 */

/** A cubic Bézier from the current point: its two control points, then its end. */
export type CubicTo = [number, number, number, number, number, number];

/**
 * The arc of the ellipse centred at (cx, cy) with radii rx and ry, its axes turned `rotation`
 * degrees, from the angle `start` sweeping `sweep` degrees (positive from the x axis towards the y
 * axis: clockwise in y-down space), as Béziers of at most 90° each. Each one's handles are
 * 4/3·tan(θ/4) of the radius long: exact at its ends, within 0.03% of the ellipse between them.
 */
export function arcCurves(cx: number, cy: number, rx: number, ry: number, start: number, sweep: number, rotation = 0): CubicTo[] {
  const rad = (d: number) => (d * Math.PI) / 180;
  const cos = Math.cos(rad(rotation)), sin = Math.sin(rad(rotation));
  // A point (u, v) of the unit circle's plane on the ellipse's: stretched by the radii, turned, moved to the centre.
  const at = (u: number, v: number): [number, number] => [cx + (rx * u * cos - ry * v * sin), cy + (rx * u * sin + ry * v * cos)];
  // A sweep a rounding above a multiple of 90° (SVG's half circle, π in radians made degrees) takes no extra sliver.
  const steps = Math.max(1, Math.ceil(Math.abs(sweep) / 90 - 1e-9));
  const step = sweep / steps;
  const curves: CubicTo[] = [];
  let a = start;
  for (let i = 0; i < steps; i++) {
    const a0 = rad(a), a1 = rad(a + step);
    const k = (4 / 3) * Math.tan((a1 - a0) / 4);
    const [x0, y0] = [Math.cos(a0), Math.sin(a0)];
    const [x1, y1] = [Math.cos(a1), Math.sin(a1)];
    curves.push([...at(x0 - k * y0, y0 + k * x0), ...at(x1 + k * y1, y1 - k * x1), ...at(x1, y1)]);
    a += step;
  }
  return curves;
}
