/**
 * The DrawingML presets that are polygons (triangles, arrows, stars…), from ECMA-376's shape
 * definitions with their adjustments (adj, adj1… in 100,000ths of the shorter side, the width or
 * the height, kept within the ranges the specification gives; the defaults where left out).
 */

type Point = [number, number];

/** A polygon preset's box: width, height, shorter side, centre, and its adjustments. */
export interface PolygonBox {
  w: number;
  h: number;
  ss: number;
  hc: number;
  vc: number;
  adj: (name: string, preset: number) => number;
}

const pin = (lo: number, v: number, hi: number) => (v < lo ? lo : v > hi ? hi : v);

/**
 * A star of `n` points from the top, its inner corners `inner` of the way out; hf and vf stretch
 * its outer ellipse past the box's width and height (and move its centre down by vf), as the
 * specification's stars with an odd or uneven number of points do so that they fill the box.
 */
export function starPoints(w: number, h: number, n: number, inner: number, hf = 1, vf = 1): Point[] {
  const [rx, ry, cx, cy] = [(w / 2) * hf, (h / 2) * vf, w / 2, (h / 2) * vf];
  const points: Point[] = [];
  for (let i = 0; i < n * 2; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / n;
    const r = i % 2 ? inner : 1;
    points.push([cx + rx * r * Math.cos(a), cy + ry * r * Math.sin(a)]);
  }
  return points;
}

/** rightArrow (leftArrow is its mirror): adj1 the shaft's thickness (of the height), adj2 the head's length (of the shorter side). */
function rightArrow({ w, h, ss, vc, adj }: PolygonBox): Point[] {
  const dy = (h * pin(0, adj('adj1', 50_000), 1e5)) / 2e5, x1 = w - (ss * pin(0, adj('adj2', 50_000), (1e5 * w) / ss)) / 1e5;
  return [[0, vc - dy], [x1, vc - dy], [x1, 0], [w, vc], [x1, h], [x1, vc + dy], [0, vc + dy]];
}

/** downArrow (upArrow is its mirror): adj1 the shaft's thickness (of the width), adj2 the head's length. */
function downArrow({ w, h, ss, hc, adj }: PolygonBox): Point[] {
  const dx = (w * pin(0, adj('adj1', 50_000), 1e5)) / 2e5, y1 = h - (ss * pin(0, adj('adj2', 50_000), (1e5 * h) / ss)) / 1e5;
  return [[hc - dx, 0], [hc + dx, 0], [hc + dx, y1], [w, y1], [hc, h], [0, y1], [hc - dx, y1]];
}

/** A star preset: its points, its inner corners' default (adj, 100,000ths of the half width… ×2), and its stretch. */
const star = (n: number, inner: number, hf = 1, vf = 1) => ({ w, h, adj }: PolygonBox) => starPoints(w, h, n, pin(0, adj('adj', inner), 50_000) / 50_000, hf, vf);

/** The polygon presets' corners in their box. */
export const PRESET_POLYGONS = new Map<string, (box: PolygonBox) => Point[]>([
  ['triangle', ({ w, h, adj }) => [[0, h], [(w * pin(0, adj('adj', 50_000), 1e5)) / 1e5, 0], [w, h]]],
  ['flowChartExtract', ({ w, h, hc }) => [[0, h], [hc, 0], [w, h]]],
  ['flowChartMerge', ({ w, h, hc }) => [[0, 0], [w, 0], [hc, h]]],
  ['rtTriangle', ({ w, h }) => [[0, 0], [w, h], [0, h]]],
  ['diamond', ({ w, h, hc, vc }) => [[hc, 0], [w, vc], [hc, h], [0, vc]]],
  ['flowChartDecision', ({ w, h, hc, vc }) => [[hc, 0], [w, vc], [hc, h], [0, vc]]],
  ['parallelogram', ({ w, h, ss, adj }) => {
    const x = (ss * pin(0, adj('adj', 25_000), (1e5 * w) / ss)) / 1e5;
    return [[0, h], [x, 0], [w, 0], [w - x, h]];
  }],
  ['flowChartInputOutput', ({ w, h }) => [[0, h], [w / 5, 0], [w, 0], [(w * 4) / 5, h]]],
  ['trapezoid', ({ w, h, ss, adj }) => {
    const x = (ss * pin(0, adj('adj', 25_000), (5e4 * w) / ss)) / 1e5;
    return [[0, h], [x, 0], [w - x, 0], [w, h]];
  }],
  ['flowChartManualOperation', ({ w, h }) => [[0, 0], [w, 0], [(w * 4) / 5, h], [w / 5, h]]],
  ['hexagon', ({ w, h, ss, vc, adj }) => {
    // vf stretches the slanted sides' height: at its default they meet the top and bottom.
    const x = (ss * pin(0, adj('adj', 25_000), (5e4 * w) / ss)) / 1e5, dy = (((h / 2) * adj('vf', 115_470)) / 1e5) * Math.sin(Math.PI / 3);
    return [[0, vc], [x, vc - dy], [w - x, vc - dy], [w, vc], [w - x, vc + dy], [x, vc + dy]];
  }],
  ['flowChartPreparation', ({ w, h, vc }) => [[0, vc], [w / 5, 0], [(w * 4) / 5, 0], [w, vc], [(w * 4) / 5, h], [w / 5, h]]],
  ['octagon', ({ w, h, ss, adj }) => {
    const x = (ss * pin(0, adj('adj', 29_289), 50_000)) / 1e5;
    return [[0, x], [x, 0], [w - x, 0], [w, x], [w, h - x], [w - x, h], [x, h], [0, h - x]];
  }],
  // The pentagon is star5's outer points.
  ['pentagon', ({ w, h, adj }) => starPoints(w, h, 5, 1, adj('hf', 105_146) / 1e5, adj('vf', 110_557) / 1e5).filter((_, i) => i % 2 === 0)],
  ['flowChartOffpageConnector', ({ w, h, hc }) => [[0, 0], [w, 0], [w, h * 0.8], [hc, h], [0, h * 0.8]]],
  ['homePlate', ({ w, h, ss, vc, adj }) => {
    const x = w - (ss * pin(0, adj('adj', 50_000), (1e5 * w) / ss)) / 1e5;
    return [[0, 0], [x, 0], [w, vc], [x, h], [0, h]];
  }],
  ['chevron', ({ w, h, ss, vc, adj }) => {
    const x = (ss * pin(0, adj('adj', 50_000), (1e5 * w) / ss)) / 1e5;
    return [[0, 0], [w - x, 0], [w, vc], [w - x, h], [0, h], [x, vc]];
  }],
  ['plus', ({ w, h, ss, adj }) => {
    const x = (ss * pin(0, adj('adj', 25_000), 50_000)) / 1e5;
    return [[x, 0], [w - x, 0], [w - x, x], [w, x], [w, h - x], [w - x, h - x], [w - x, h], [x, h], [x, h - x], [0, h - x], [0, x], [x, x]];
  }],
  ['rightArrow', rightArrow],
  ['leftArrow', (box) => rightArrow(box).map(([x, y]) => [box.w - x, y])],
  ['downArrow', downArrow],
  ['upArrow', (box) => downArrow(box).map(([x, y]) => [x, box.h - y])],
  ['leftRightArrow', ({ w, h, ss, vc, adj }) => {
    const dy = (h * pin(0, adj('adj1', 50_000), 1e5)) / 2e5, head = (ss * pin(0, adj('adj2', 50_000), (5e4 * w) / ss)) / 1e5;
    return [[0, vc], [head, 0], [head, vc - dy], [w - head, vc - dy], [w - head, 0], [w, vc], [w - head, h], [w - head, vc + dy], [head, vc + dy], [head, h]];
  }],
  ['star4', star(4, 12_500)],
  ['star5', (box) => star(5, 19_098, box.adj('hf', 105_146) / 1e5, box.adj('vf', 110_557) / 1e5)(box)],
  ['star6', (box) => star(6, 28_868, box.adj('hf', 115_470) / 1e5)(box)],
  ['star7', (box) => star(7, 34_601, box.adj('hf', 102_572) / 1e5, box.adj('vf', 105_210) / 1e5)(box)],
  ['star8', star(8, 38_268)],
  ['star10', (box) => star(10, 42_533, box.adj('hf', 105_146) / 1e5)(box)],
  ['star12', star(12, 37_500)],
  ['star16', star(16, 37_500)],
  ['star24', star(24, 37_500)],
  ['star32', star(32, 37_500)],
]);
