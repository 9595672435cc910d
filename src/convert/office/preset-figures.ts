/**
 * More DrawingML presets, drawn from their descriptions in ECMA-376 with their default
 * adjustments: regular polygons and stars, the maths signs, more arrows, pies, chords and arcs,
 * flowchart symbols, the chart marks and corner tabs, and figures approximated by what they
 * mostly cover (a sun as its disc and rays, a gear as a star).
 */
import type { PathOp, PathPart, Shade } from './model';
import { arc } from './preset-geometry';
import { degrees, from, onEllipseAt, pin } from './preset-pen';
import { ellipse, fillOnly, part, poly, radial, strokeOnly, type Box } from './preset-parts';

type Figure = (box: Box, name: string) => PathPart[];


/**
 * A pie (closed through the centre), chord (closed straight) or arc from adj1 to adj2 (60,000ths
 * of a degree clockwise from the x axis, as a ray from the centre): an arc is filled as its pie
 * but stroked along its curve only.
 */
function slice({ w, h, adj }: Box, name: string): PathPart[] {
  const [start, end] = name === 'arc' ? [adj('adj1', 16_200_000), adj('adj2', 0)] : name === 'chord' ? [adj('adj1', 2_700_000), adj('adj2', 16_200_000)] : [adj('adj1', 0), adj('adj2', 16_200_000)];
  const [a, b] = [degrees(pin(0, start, 21_599_999)), degrees(pin(0, end, 21_599_999))];
  const sweep = b - a > 0 ? b - a : b - a + 360;
  const curve = () => from(...onEllipseAt(w / 2, h / 2, w / 2, h / 2, a)).arc(w / 2, h / 2, a, sweep);
  if (name === 'chord') return [part(curve().close().ops)];
  const pie = curve().line(w / 2, h / 2).close().ops;
  return name === 'arc' ? [fillOnly(pie), strokeOnly(curve().ops)] : [part(pie)];
}

/** blockArc: the band between the ellipse and one adj3 inside it, from adj1 to adj2 and back. */
function blockArc({ w, h, ss, adj }: Box): PathPart[] {
  const [a, b] = [degrees(pin(0, adj('adj1', 10_800_000), 21_599_999)), degrees(pin(0, adj('adj2', 0), 21_599_999))];
  const t = (ss * pin(0, adj('adj3', 25_000), 50_000)) / 1e5;
  const sweep = b - a > 0 ? b - a : b - a + 360;
  const [cx, cy, iw, ih] = [w / 2, h / 2, Math.max(0, w / 2 - t), Math.max(0, h / 2 - t)];
  const pen = from(...onEllipseAt(cx, cy, cx, cy, a)).arc(cx, cy, a, sweep).line(...onEllipseAt(cx, cy, iw, ih, b)).arc(iw, ih, b, -sweep);
  return [part(pen.close().ops)];
}

/** heart: two curves from its notch at a quarter of the height down to its point, their handles reaching past the box. */
function heart({ w, h }: Box): PathPart[] {
  const [hc, out, inward, top] = [w / 2, (w * 49) / 48, (w * 10) / 48, -h / 3];
  return [part(from(hc, h / 4).cubic(hc + inward, top, hc + out, h / 4, hc, h).cubic(hc - out, h / 4, hc - inward, top, hc, h / 4).close().ops)];
}

function smiley({ w, h }: Box): PathPart[] {
  const eye = (x: number) => ellipse(x, h * 0.38, w * 0.05, h * 0.05);
  const mouth: PathOp[] = [['M', w * 0.3, h * 0.68], ['C', w * 0.42, h * 0.8, w * 0.58, h * 0.8, w * 0.7, h * 0.68]];
  return [part(ellipse(w / 2, h / 2, w / 2, h / 2)), part([...eye(w * 0.35), ...eye(w * 0.65)]), part(mouth, false)];
}

function sun({ w, h }: Box): PathPart[] {
  const rays: PathOp[] = [];
  for (let i = 0; i < 8; i++) {
    const a = (i * 45 * Math.PI) / 180, d = 0.12;
    const at = (r: number, da: number): [number, number] => [w / 2 + (w / 2) * r * Math.cos(a + da), h / 2 + (h / 2) * r * Math.sin(a + da)];
    rays.push(...poly([at(1, 0), at(0.7, d), at(0.7, -d)]));
  }
  return [part(ellipse(w / 2, h / 2, w / 4, h / 4)), part(rays)];
}

function moon({ w, h, adj }: Box): PathPart[] {
  const inner = (w * adj('adj', 50_000)) / 100_000;
  const ops: PathOp[] = [['M', w, 0]];
  arc(ops, w, 0, w, h / 2, 270, -180);
  arc(ops, w, h, w - inner, h / 2, 90, 180);
  ops.push(['Z']);
  return [part(ops)];
}

function teardrop({ w, h }: Box): PathPart[] {
  const ops: PathOp[] = [['M', 0, h / 2]];
  arc(ops, 0, h / 2, w / 2, h / 2, 180, 90);
  ops.push(['L', w, 0], ['L', w, h / 2]);
  arc(ops, w, h / 2, w / 2, h / 2, 0, 180);
  ops.push(['Z']);
  return [part(ops)];
}

function upDownArrow({ w, h, ss }: Box): PathPart[] {
  const head = ss * 0.5, dx = w / 4;
  return [part(poly([[w / 2, 0], [w, head], [w / 2 + dx, head], [w / 2 + dx, h - head], [w, h - head], [w / 2, h], [0, h - head], [w / 2 - dx, h - head], [w / 2 - dx, head], [0, head]]))];
}

function quadArrow({ w, h, ss }: Box): PathPart[] {
  const [hc, vc, s, hd, hw] = [w / 2, h / 2, ss * 0.1125, ss * 0.225, ss * 0.225];
  return [part(poly([
    [0, vc], [hd, vc - hw], [hd, vc - s], [hc - s, vc - s], [hc - s, hd], [hc - hw, hd], [hc, 0], [hc + hw, hd], [hc + s, hd], [hc + s, vc - s], [w - hd, vc - s], [w - hd, vc - hw], [w, vc],
    [w - hd, vc + hw], [w - hd, vc + s], [hc + s, vc + s], [hc + s, h - hd], [hc + hw, h - hd], [hc, h], [hc - hw, h - hd], [hc - s, h - hd], [hc - s, vc + s], [hd, vc + s], [hd, vc + hw],
  ]))];
}

function notchedRightArrow({ w, h, ss }: Box): PathPart[] {
  const head = ss * 0.5, dy = h / 4, notch = (dy * head) / (h / 2);
  return [part(poly([[0, h / 2 - dy], [w - head, h / 2 - dy], [w - head, 0], [w, h / 2], [w - head, h], [w - head, h / 2 + dy], [0, h / 2 + dy], [notch, h / 2]]))];
}

function stripedRightArrow({ w, h, ss }: Box): PathPart[] {
  const head = ss * 0.5, dy = h / 4, x = ss * 0.15625;
  const stripe = (x0: number, x1: number) => poly([[x0, h / 2 - dy], [x1, h / 2 - dy], [x1, h / 2 + dy], [x0, h / 2 + dy]]);
  return [part([...stripe(0, x / 4), ...stripe(x / 2, x), ...poly([[x * 1.25, h / 2 - dy], [w - head, h / 2 - dy], [w - head, 0], [w, h / 2], [w - head, h], [w - head, h / 2 + dy], [x * 1.25, h / 2 + dy]])])];
}

function halfFrame({ w, h, ss }: Box): PathPart[] {
  const t = ss / 3;
  return [part(poly([[0, 0], [w, 0], [w - t * (w / h > 1 ? 1 : w / h), t], [t, t], [t, h - t], [0, h]]))];
}

const corner = ({ w, h, ss }: Box): PathPart[] => [part(poly([[0, 0], [ss / 2, 0], [ss / 2, h - ss / 2], [w, h - ss / 2], [w, h], [0, h]]))];
const diagStripe = ({ w, h }: Box): PathPart[] => [part(poly([[0, h / 2], [w / 2, 0], [w, 0], [0, h]]))];

/** bevel (adj: the edge's width): a raised face, its edges lit from the top left. */
function bevel({ w, h, ss, adj }: Box): PathPart[] {
  const d = (ss * pin(0, adj('adj', 12_500), 50_000)) / 1e5, [x2, y2] = [w - d, h - d];
  const face = poly([[d, d], [x2, d], [x2, y2], [d, y2]]), outer = poly([[0, 0], [w, 0], [w, h], [0, h]]);
  const edges: [Shade, [number, number][]][] = [['lightenLess', [[0, 0], [w, 0], [x2, d], [d, d]]], ['darkenLess', [[0, h], [d, y2], [x2, y2], [w, h]]], ['lighten', [[0, 0], [d, d], [d, y2], [0, h]]], ['darken', [[w, 0], [w, h], [x2, y2], [x2, d]]]];
  const diagonals = [[0, 0, d, d], [0, h, d, y2], [w, 0, x2, d], [w, h, x2, y2]].flatMap(([a, b, c, e]) => poly([[a!, b!], [c!, e!]], false));
  return [fillOnly(face), ...edges.map(([shade, points]) => fillOnly(poly(points), shade)), strokeOnly([...outer, ...face, ...diagonals])];
}

function plaque({ w, h, ss }: Box): PathPart[] {
  const r = ss * 0.16667;
  const ops: PathOp[] = [['M', 0, r]];
  arc(ops, 0, r, r, r, 90, -90);
  ops.push(['L', w - r, 0]);
  arc(ops, w - r, 0, r, r, 180, -90);
  ops.push(['L', w, h - r]);
  arc(ops, w, h - r, r, r, 270, -90);
  ops.push(['L', r, h]);
  arc(ops, r, h, r, r, 0, -90);
  ops.push(['Z']);
  return [part(ops)];
}

function flowChartCollate({ w, h }: Box): PathPart[] {
  return [part(poly([[0, 0], [w, 0], [w / 2, h / 2], [w, h], [0, h], [w / 2, h / 2]]))];
}

function flowChartSort(box: Box): PathPart[] {
  const { w, h } = box;
  return [part(poly([[w / 2, 0], [w, h / 2], [w / 2, h], [0, h / 2]])), part(poly([[0, h / 2], [w, h / 2]], false), false)];
}

function circleWithCross({ w, h }: Box, name: string): PathPart[] {
  const cross = name === 'flowChartOr' ? [poly([[w / 2, 0], [w / 2, h]], false), poly([[0, h / 2], [w, h / 2]], false)] : [poly([[w * 0.146, h * 0.146], [w * 0.854, h * 0.854]], false), poly([[w * 0.854, h * 0.146], [w * 0.146, h * 0.854]], false)];
  return [part(ellipse(w / 2, h / 2, w / 2, h / 2)), ...cross.map((ops) => part(ops, false))];
}

function multidocument({ w, h }: Box): PathPart[] {
  const page = (x: number, y: number, pw: number, ph: number): PathOp[] => [['M', x, y], ['L', x + pw, y], ['L', x + pw, y + ph * 0.8], ['C', x + pw / 2, y + ph * 0.8, x + pw / 2, y + ph * 1.1, x, y + ph * 0.93], ['Z']];
  const [pw, ph] = [w * 0.85, h * 0.85];
  return [part(page(w - pw, 0, pw, ph)), part(page((w - pw) / 2, (h - ph) / 2, pw, ph)), part(page(0, h - ph, pw, ph))];
}

/** chartPlus, chartStar, chartX: a box, not outlined, with its marks stroked across it. */
function chartMark({ w, h }: Box, name: string): PathPart[] {
  const lines: PathOp[] = [];
  if (name !== 'chartPlus') lines.push(...poly([[0, 0], [w, h]], false), ...poly([[0, h], [w, 0]], false));
  if (name !== 'chartX') lines.push(...poly([[w / 2, 0], [w / 2, h]], false));
  if (name === 'chartPlus') lines.push(...poly([[0, h / 2], [w, h / 2]], false));
  return [fillOnly(poly([[0, 0], [0, h], [w, h], [w, 0]])), strokeOnly(lines)];
}

/** cornerTabs, plaqueTabs, squareTabs: a triangle, quarter disc or square in each corner, a twentieth of the diagonal across. */
function tabs({ w, h }: Box, name: string): PathPart[] {
  const d = Math.hypot(w, h) / 20;
  const corners: [number, number, number, number][] = [[0, 0, 1, 1], [0, h, 1, -1], [w, 0, -1, 1], [w, h, -1, -1]];
  return corners.map(([x, y, sx, sy]) => {
    if (name === 'squareTabs') return part(poly([[x, y], [x + sx * d, y], [x + sx * d, y + sy * d], [x, y + sy * d]]));
    if (name === 'cornerTabs') return part(poly([[x, y], [x + sx * d, y], [x, y + sy * d]]));
    // A quarter disc round the corner: from one side round to the other.
    const start = sx > 0 ? (sy > 0 ? 0 : 270) : sy > 0 ? 90 : 180;
    return part(from(x, y).line(...onEllipseAt(x, y, d, d, start)).arc(d, d, start, 90).close().ops);
  });
}

/** lightningBolt's corners, in 21,600ths of the box. */
const BOLT: [number, number][] = [[8472, 0], [12860, 6080], [11050, 6797], [16577, 12007], [14767, 12877], [21600, 21600], [10012, 14915], [12222, 13987], [5022, 9705], [7602, 8382], [0, 3890]];

/** The storage symbols of flowcharts: tapes, drums, a display, with the curves of their sides. */
const STORAGE: Record<string, Figure> = {
  flowChartMagneticTape: ({ w, h }) => {
    // A reel: the ellipse round to where it meets the box's diagonal, then along the bottom to its corner.
    const [cx, cy] = [w / 2, h / 2];
    const pen = from(cx, h).arc(cx, cy, 90, 90).arc(cx, cy, 180, 90).arc(cx, cy, 270, 90).arc(cx, cy, 0, (Math.atan2(h, w) * 180) / Math.PI);
    return [part(pen.lines([w, cy + cy * Math.SQRT1_2], [w, h]).close().ops)];
  },
  flowChartOnlineStorage: ({ w, h }) => [part(from(w / 6, 0).line(w, 0).arc(w / 6, h / 2, 270, -180).line(w / 6, h).arc(w / 6, h / 2, 90, 180).close().ops)],
  flowChartDisplay: ({ w, h }) => [part(from(0, h / 2).lines([w / 6, 0], [(w * 5) / 6, 0]).arc(w / 6, h / 2, 270, 180).line(w / 6, h).close().ops)],
  flowChartMagneticDrum: ({ w, h }) => {
    const drum = from(w / 6, 0).line((w * 5) / 6, 0).arc(w / 6, h / 2, 270, 180).line(w / 6, h).arc(w / 6, h / 2, 90, 180).close();
    return [part(drum.ops), strokeOnly(from((w * 5) / 6, h).arc(w / 6, h / 2, 90, 180).ops)];
  },
  flowChartInternalStorage: ({ w, h }) => [part(poly([[0, 0], [w, 0], [w, h], [0, h]])), strokeOnly([...poly([[w / 8, 0], [w / 8, h]], false), ...poly([[0, h / 8], [w, h / 8]], false)])],
  flowChartPunchedTape: ({ w, h }) => {
    const [rx, ry] = [w / 4, h / 10];
    return [part(from(0, ry).arc(rx, ry, 180, -180).arc(rx, ry, 180, 180).line(w, h - ry).arc(rx, ry, 0, -180).arc(rx, ry, 0, 180).close().ops)];
  },
};

/**
 * funnel: a wide mouth (the top quarter's ellipse, its inside open a twentieth of the shorter side
 * in from its rim) narrowing to a spout (a quarter as wide). Filled as one outline, into the
 * mouth's opening and back, as the drawing fills each outline on its own.
 */
function funnel({ w, h, ss }: Box): PathPart[] {
  const [hc, hd4, d] = [w / 2, h / 4, ss / 20];
  const deg = (r: number) => (r * 180) / Math.PI;
  const da = deg(Math.atan2(hd4 * Math.sin((8 * Math.PI) / 180), (w / 2) * Math.cos((8 * Math.PI) / 180)));
  const [rw3, rh3] = [w / 8, h / 16];
  const body = () => from(...onEllipseAt(hc, hd4, hc, hd4, 180 - da)).arc(hc, hd4, 180 - da, 180 + 2 * da).line(...onEllipseAt(hc, h - rh3, rw3, rh3, da)).arc(rw3, rh3, da, 180 - 2 * da);
  const opening = from(d, hd4).arc(hc - d, hd4 - d, 180, -360).close();
  const fill = from(...onEllipseAt(hc, hd4, hc, hd4, 180 - da)).line(d, hd4).arc(hc - d, hd4 - d, 180, -360).line(...onEllipseAt(hc, hd4, hc, hd4, 180 - da));
  fill.arc(hc, hd4, 180 - da, 180 + 2 * da).line(...onEllipseAt(hc, h - rh3, rw3, rh3, da)).arc(rw3, rh3, da, 180 - 2 * da).close();
  return [fillOnly(fill.ops), strokeOnly([...body().close().ops, ...opening.ops])];
}

/** The explosion shapes' corners, in 21,600ths of the box. */
const SEAL1: [number, number][] = [
  [10800, 5800], [14522, 0], [14155, 5325], [18380, 4457], [16702, 7315], [21097, 8137], [17607, 10475], [21600, 13290], [16837, 12942], [18145, 18095], [14020, 14457], [13247, 19737],
  [10532, 14935], [8485, 21600], [7715, 15627], [4762, 17617], [5667, 13937], [135, 14587], [3722, 11775], [0, 8615], [4627, 7617], [370, 2295], [7312, 6320], [8352, 2295],
];
const SEAL2: [number, number][] = [
  [11462, 4342], [14790, 0], [14525, 5777], [18007, 3172], [16380, 6532], [21600, 6645], [16985, 9402], [18270, 11290], [16380, 12310], [18877, 15632], [14640, 14350], [14942, 17370], [12180, 15935], [11612, 18842],
  [9872, 17370], [8700, 19712], [7527, 18125], [4917, 21600], [4805, 18240], [1285, 17825], [3330, 15370], [0, 12877], [3935, 11592], [1172, 8270], [5372, 7817], [4502, 3625], [8550, 6382], [9722, 1887],
];
const seal = (corners: [number, number][]): Figure => ({ w, h }) => [part(poly(corners.map(([x, y]): [number, number] => [(x * w) / 21_600, (y * h) / 21_600])))];

const star = (n: number, inner: number): Figure => ({ w, h }) => [part(poly(radial(w, h, n, inner)))];
const polygon = (n: number): Figure => ({ w, h }) => [part(poly(radial(w, h, n)))];

export const FIGURES: Record<string, Figure> = {
  heptagon: polygon(7), decagon: polygon(10), dodecagon: polygon(12),
  pie: slice, chord: slice, arc: slice, blockArc,
  heart, smileyFace: smiley, sun, moon, teardrop,
  upDownArrow, quadArrow, notchedRightArrow, stripedRightArrow,
  halfFrame, corner, diagStripe, bevel, plaque,
  flowChartCollate, flowChartSort, flowChartOr: circleWithCross, flowChartSummingJunction: circleWithCross, flowChartMultidocument: multidocument,
  flowChartOfflineStorage: ({ w, h }) => [part(poly([[0, 0], [w, 0], [w / 2, h]])), strokeOnly(poly([[(w * 2) / 5, (h * 4) / 5], [(w * 3) / 5, (h * 4) / 5]], false))],
  chartPlus: chartMark, chartStar: chartMark, chartX: chartMark,
  cornerTabs: tabs, plaqueTabs: tabs, squareTabs: tabs,
  lightningBolt: ({ w, h }) => [part(poly(BOLT.map(([x, y]): [number, number] => [(x * w) / 21_600, (y * h) / 21_600])))],
  ...STORAGE,
  nonIsoscelesTrapezoid: ({ w, h, ss }) => [part(poly([[0, h], [ss * 0.25, 0], [w - ss * 0.25, 0], [w, h]]))],
  pieWedge: ({ w, h }) => { const ops: PathOp[] = [['M', 0, h]]; arc(ops, 0, h, w, h, 180, 90); ops.push(['L', w, h], ['Z']); return [part(ops)]; },
  lineInv: ({ w, h }) => [part(poly([[0, h], [w, 0]], false), false)],
  irregularSeal1: seal(SEAL1), irregularSeal2: seal(SEAL2), gear6: star(6, 0.8), gear9: star(9, 0.85),
  funnel,
};
