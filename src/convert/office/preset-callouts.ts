/**
 * The DrawingML callouts, from ECMA-376's shape definitions: the line callouts (a box and a
 * leader line of one to three segments, with or without a border and an accent bar), the wedge
 * callouts (a box, rounded box or ellipse with a wedge out to the tip), and the cloud and its
 * thought-bubble callout. Leader lines and accent bars are strokes, never filled.
 */
import type { PathOp, PathPart } from './model';
import { from, onEllipseAt } from './preset-pen';
import { fillOnly, mapped, part, poly, strokeOnly, type Box } from './preset-parts';

type Point = [number, number];
type Figure = (box: Box, name: string) => PathPart[];

/** The leader's points' defaults (adj1, adj2 the first point's y and x in 100,000ths of the height and width, and so on) for one, two and three segments. */
const LEADERS: Record<number, number[]> = {
  1: [18_750, -8_333, 112_500, -38_333],
  2: [18_750, -8_333, 18_750, -16_667, 112_500, -46_667],
  3: [18_750, -8_333, 18_750, -16_667, 100_000, -16_667, 112_963, -8_333],
};

/** callout1-3, borderCallout1-3 (the box outlined), accentCallout1-3 (an accent bar at the leader's start), accentBorderCallout1-3 (both). */
function lineCallout({ w, h, adj }: Box, name: string): PathPart[] {
  const defaults = LEADERS[Number(name.at(-1))] ?? LEADERS[1]!;
  const leader: Point[] = [];
  for (let i = 0; i < defaults.length; i += 2) leader.push([(w * adj(`adj${i + 2}`, defaults[i + 1]!)) / 1e5, (h * adj(`adj${i + 1}`, defaults[i]!)) / 1e5]);
  const box = poly([[0, 0], [w, 0], [w, h], [0, h]]);
  const parts = [/border/i.test(name) ? part(box) : fillOnly(box)];
  if (name.startsWith('accent')) parts.push(strokeOnly(poly([[leader[0]![0], 0], [leader[0]![0], h]], false)));
  parts.push(strokeOnly(poly(leader, false)));
  return parts;
}

/**
 * wedgeRectCallout and wedgeRoundRectCallout: the box with a wedge to the tip (adj1, adj2: the tip
 * from the centre in 100,000ths of the width and height) out of the side the tip is beyond, its
 * base a quarter of that side, on the tip's half; adj3 the rounded one's corner.
 */
function wedgeBox({ w, h, ss, adj }: Box, name: string): PathPart[] {
  const dx = (w * adj('adj1', -20_833)) / 1e5, dy = (h * adj('adj2', 62_500)) / 1e5;
  const [tx, ty] = [w / 2 + dx, h / 2 + dy];
  // The wedge leaves the top or bottom when the tip is further out up or down than across (in the box's proportions).
  const vertical = Math.abs(dy) - Math.abs((dx * h) / w) > 0;
  const [x1, x2] = dx > 0 ? [(w * 7) / 12, (w * 10) / 12] : [(w * 2) / 12, (w * 5) / 12];
  const [y1, y2] = dy > 0 ? [(h * 7) / 12, (h * 10) / 12] : [(h * 2) / 12, (h * 5) / 12];
  // Each side's middle point: the tip on the side it leaves, else a point on the side itself.
  const top: Point = vertical && dy <= 0 ? [tx, ty] : [x1, 0];
  const bottom: Point = vertical && dy > 0 ? [tx, ty] : [x1, h];
  const left: Point = !vertical && dx <= 0 ? [tx, ty] : [0, y1];
  const right: Point = !vertical && dx > 0 ? [tx, ty] : [w, y1];
  const r = name === 'wedgeRoundRectCallout' ? (ss * adj('adj3', 16_667)) / 1e5 : 0;
  const pen = from(0, r).arc(r, r, 180, 90).lines([x1, 0], top, [x2, 0], [w - r, 0]).arc(r, r, 270, 90).lines([w, y1], right, [w, y2], [w, h - r]);
  pen.arc(r, r, 0, 90).lines([x2, h], bottom, [x1, h], [r, h]).arc(r, r, 90, 90).lines([0, y2], left, [0, y1]);
  return [part(pen.close().ops)];
}

/** wedgeEllipseCallout: the ellipse opened 22° where it faces the tip, closed through the tip. */
function wedgeEllipse({ w, h, adj }: Box): PathPart[] {
  const [hc, vc] = [w / 2, h / 2];
  const dx = (w * adj('adj1', -20_833)) / 1e5, dy = (h * adj('adj2', 62_500)) / 1e5;
  const toward = (Math.atan2(dy * w, dx * h) * 180) / Math.PI;
  // The opening's ends are at the ellipse's parameter ±11° of the tip's direction; the arc takes their ray angles.
  const end = (d: number): Point => [hc + hc * Math.cos((d * Math.PI) / 180), vc + vc * Math.sin((d * Math.PI) / 180)];
  const [p1, p2] = [end(toward + 11), end(toward - 11)];
  const a1 = (Math.atan2(p1[1] - vc, p1[0] - hc) * 180) / Math.PI, a2 = (Math.atan2(p2[1] - vc, p2[0] - hc) * 180) / Math.PI;
  const sweep = a2 - a1 > 0 ? a2 - a1 : a2 - a1 + 360;
  return [part(from(hc + dx, vc + dy).line(...p1).arc(hc, vc, a1, sweep).close().ops)];
}

/**
 * The cloud's bumps in its 43,200-unit square, clockwise from the left: each an elliptical arc
 * (radii, start and sweep in degrees) continuing from the last.
 */
const BUMPS: [number, number, number, number][] = [
  [6753, 9190, -190.4875, 123.7805], [5333, 7267, -144.1024, 89.9452], [4365, 5945, -145.8079, 99.723], [4857, 6595, -130.9861, 117.2417],
  [5333, 7273, -78.7089, 109.0269], [6775, 9220, -46.2672, 130.269], [5785, 7867, 0.625, 114.0333], [6752, 9215, 22.4516, 115.1726],
  [7720, 10543, 66.2426, 75.711], [4360, 5918, -274.9421, 146.7356], [4345, 5945, -246.8285, 152.5188],
];
const CLOUD_START: Point = [3900, 14370];
/** The creases inside the cloud where its bumps overlap: arcs of a bump's ellipse (its index, start, sweep). */
const CREASES: [number, number, number][] = [
  [10, 86.742, 26.4295], [9, 73.6105, 11.4475], [7, 137.6241, 14.0811], [7, 6.4533, 15.9984], [6, -70.2923, 70.9174], [4, 30.318, 27.7515],
  [3, -13.7443, 14.8589], [3, -149.1815, 18.1954], [2, -163.4943, 17.6864], [0, -66.707, 12.3194], [0, 157.6543, 11.8582],
];

/**
 * The cloud over w × h: its outline, and the creases as strokes. Drawn in its square and then
 * stretched, as its arcs' angles are the square's (stretched, they would be other points).
 */
function cloudParts(w: number, h: number): PathPart[] {
  const pen = from(...CLOUD_START);
  const centres: Point[] = [];
  for (const [rx, ry, start, sweep] of BUMPS) {
    const at = onEllipseAt(0, 0, rx, ry, start);
    centres.push([pen.x - at[0], pen.y - at[1]]);
    pen.arc(rx, ry, start, sweep);
  }
  const creases: PathOp[] = [];
  for (const [i, start, sweep] of CREASES) {
    const [rx, ry] = [BUMPS[i]![0], BUMPS[i]![1]];
    creases.push(...from(...onEllipseAt(...centres[i]!, rx, ry, start)).arc(rx, ry, start, sweep).ops);
  }
  return mapped([part(pen.close().ops), strokeOnly(creases)], (x, y) => [(x * w) / 43_200, (y * h) / 43_200]);
}

const circle = (cx: number, cy: number, r: number): PathOp[] => from(cx + r, cy).arc(r, r, 0, 360).close().ops;

/** cloudCallout: the cloud, and three bubbles shrinking towards the tip (adj1, adj2 as a wedge callout's). */
function cloudCallout({ w, h, ss, adj }: Box): PathPart[] {
  const [hc, vc] = [w / 2, h / 2];
  const dx = (w * adj('adj1', -20_833)) / 1e5, dy = (h * adj('adj2', 62_500)) / 1e5;
  const [tx, ty] = [hc + dx, vc + dy];
  // Where the ellipse the cloud fills meets the line to the tip, and how far that is from the tip.
  const [ex, ey] = onEllipseAt(hc, vc, hc, vc, (Math.atan2(dy, dx) * 180) / Math.PI);
  const [ux, uy, gap] = [ex - tx, ey - ty, Math.hypot(ex - tx, ey - ty) || 1];
  const step = (gap - (ss * 6600) / 21_600) / 3;
  const along = (d: number): Point => [tx + (d * ux) / gap, ty + (d * uy) / gap];
  const [cloud, creases] = cloudParts(w, h);
  const bubbles = [circle(tx, ty, (ss * 600) / 21_600), circle(...along(step + (ss * 1800) / 21_600), (ss * 1200) / 21_600), circle(...along(2 * step + (ss * 4800) / 21_600), (ss * 1800) / 21_600)];
  return [cloud!, ...bubbles.map((ops) => part(ops)), creases!];
}

export const CALLOUTS: Record<string, Figure> = {
  ...Object.fromEntries(['callout', 'borderCallout', 'accentCallout', 'accentBorderCallout'].flatMap((k) => [1, 2, 3].map((n) => [`${k}${n}`, lineCallout]))),
  wedgeRectCallout: wedgeBox, wedgeRoundRectCallout: wedgeBox, wedgeEllipseCallout: wedgeEllipse,
  cloud: ({ w, h }) => cloudParts(w, h), cloudCallout,
};
