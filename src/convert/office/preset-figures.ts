/**
 * More DrawingML presets, drawn from their descriptions in ECMA-376 with their default
 * adjustments: regular polygons and stars, the maths signs, more arrows, pies, chords and arcs,
 * and figures approximated by what they mostly cover (a cloud as its ellipse, a callout or an action
 * button as its rectangle, a sun as its disc and rays), which print closer to the deck than their
 * text alone would.
 */
import type { PathOp, PathPart } from './model';
import { arc } from './preset-geometry';
import { ellipse, onEllipse, part, poly, radial, type Box } from './preset-parts';

type Figure = (box: Box, name: string) => PathPart[];

const rect = ({ w, h }: Box): PathPart[] => [part(poly([[0, 0], [w, 0], [w, h], [0, h]]))];
const oval = ({ w, h }: Box): PathPart[] => [part(ellipse(w / 2, h / 2, w / 2, h / 2))];

/** A pie (closed through the centre), chord (closed straight) or arc (open) from adj1 to adj2, in 60,000ths of a degree clockwise from the x axis. */
function slice({ w, h, adj }: Box, name: string): PathPart[] {
  const [start, end] = name === 'arc' ? [adj('adj1', 16_200_000), adj('adj2', 0)] : name === 'chord' ? [adj('adj1', 2_700_000), adj('adj2', 16_200_000)] : [adj('adj1', 0), adj('adj2', 16_200_000)];
  const [a, b] = [start / 60_000, end / 60_000];
  const sweep = ((b - a) % 360 + 360) % 360 || 360;
  const from = onEllipse(w, h, a);
  const ops: PathOp[] = [['M', ...from]];
  arc(ops, from[0], from[1], w / 2, h / 2, a, sweep);
  if (name === 'pie') ops.push(['L', w / 2, h / 2], ['Z']);
  if (name === 'chord') ops.push(['Z']);
  return [part(ops, name !== 'arc')];
}

function blockArc({ w, h, ss, adj }: Box): PathPart[] {
  const [a, b] = [adj('adj1', 10_800_000) / 60_000, adj('adj2', 0) / 60_000];
  const t = (ss * adj('adj3', 25_000)) / 100_000;
  const sweep = ((b - a) % 360 + 360) % 360 || 360;
  const ops: PathOp[] = [['M', ...onEllipse(w, h, a)]];
  arc(ops, ...onEllipse(w, h, a), w / 2, h / 2, a, sweep);
  const [iw, ih] = [Math.max(0, w - 2 * t), Math.max(0, h - 2 * t)];
  const inner = (d: number): [number, number] => [t + onEllipse(iw, ih, d)[0], t + onEllipse(iw, ih, d)[1]];
  ops.push(['L', ...inner(b)]);
  arc(ops, ...inner(b), iw / 2, ih / 2, b, -sweep);
  ops.push(['Z']);
  return [part(ops)];
}

function heart({ w, h }: Box): PathPart[] {
  return [part([['M', w / 2, h / 4], ['C', (w * 3) / 4, -h / 6, w * 1.2, h / 3, w / 2, h], ['C', -w * 0.2, h / 3, w / 4, -h / 6, w / 2, h / 4], ['Z']])];
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

/** The maths signs: bars a fifth of the height thick. */
function mathSign({ w, h }: Box, name: string): PathPart[] {
  const t = h * 0.2;
  const bar = (y: number) => poly([[w * 0.1, y - t / 2], [w * 0.9, y - t / 2], [w * 0.9, y + t / 2], [w * 0.1, y + t / 2]]);
  if (name === 'mathMinus') return [part(bar(h / 2))];
  if (name === 'mathEqual') return [part([...bar(h * 0.35), ...bar(h * 0.65)])];
  if (name === 'mathDivide') return [part([...bar(h / 2), ...ellipse(w / 2, h * 0.22, t / 2, t / 2), ...ellipse(w / 2, h * 0.78, t / 2, t / 2)])];
  const d = Math.min(w, h) * 0.1;
  // mathMultiply: an X of two bars.
  return [part(poly([[d, 2 * d], [2 * d, d], [w / 2, h / 2 - d], [w - 2 * d, d], [w - d, 2 * d], [w / 2 + d, h / 2], [w - d, h - 2 * d], [w - 2 * d, h - d], [w / 2, h / 2 + d], [2 * d, h - d], [d, h - 2 * d], [w / 2 - d, h / 2]]))];
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

function bevel(box: Box): PathPart[] {
  const { w, h, ss } = box, d = ss * 0.125;
  return [...rect(box), part(poly([[d, d], [w - d, d], [w - d, h - d], [d, h - d]]))];
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

const star = (n: number, inner: number): Figure => ({ w, h }) => [part(poly(radial(w, h, n, inner)))];
const polygon = (n: number): Figure => ({ w, h }) => [part(poly(radial(w, h, n)))];

export const FIGURES: Record<string, Figure> = {
  heptagon: polygon(7), decagon: polygon(10), dodecagon: polygon(12),
  star7: star(7, 0.6), star10: star(10, 0.81), star12: star(12, 0.75), star16: star(16, 0.75), star24: star(24, 0.75), star32: star(32, 0.75),
  pie: slice, chord: slice, arc: slice, blockArc,
  heart, smileyFace: smiley, sun, moon, teardrop,
  mathPlus: ({ w, h }) => { const t = Math.min(w, h) * 0.2; return [part(poly([[w / 2 - t / 2, h * 0.1], [w / 2 + t / 2, h * 0.1], [w / 2 + t / 2, h / 2 - t / 2], [w * 0.9, h / 2 - t / 2], [w * 0.9, h / 2 + t / 2], [w / 2 + t / 2, h / 2 + t / 2], [w / 2 + t / 2, h * 0.9], [w / 2 - t / 2, h * 0.9], [w / 2 - t / 2, h / 2 + t / 2], [w * 0.1, h / 2 + t / 2], [w * 0.1, h / 2 - t / 2], [w / 2 - t / 2, h / 2 - t / 2]]))]; },
  mathMinus: mathSign, mathEqual: mathSign, mathDivide: mathSign, mathMultiply: mathSign,
  upDownArrow, quadArrow, notchedRightArrow, stripedRightArrow,
  halfFrame, corner, diagStripe, bevel, plaque,
  flowChartCollate, flowChartSort, flowChartOr: circleWithCross, flowChartSummingJunction: circleWithCross, flowChartMultidocument: multidocument,
  flowChartOfflineStorage: ({ w, h }) => [part(poly([[0, 0], [w, 0], [w / 2, h]]))],
  flowChartMagneticTape: oval, flowChartOnlineStorage: oval, cloud: oval, cloudCallout: oval, ellipseRibbon: rect, ellipseRibbon2: rect, ribbon: rect, ribbon2: rect,
  verticalScroll: rect, horizontalScroll: rect, wave: rect, doubleWave: rect,
  actionButtonBlank: rect, actionButtonHome: rect, actionButtonHelp: rect, actionButtonInformation: rect, actionButtonForwardNext: rect, actionButtonBackPrevious: rect,
  actionButtonEnd: rect, actionButtonBeginning: rect, actionButtonReturn: rect, actionButtonDocument: rect, actionButtonSound: rect, actionButtonMovie: rect,
  // Callouts as their box (their leader lines not drawn), arrow callouts as theirs.
  ...Object.fromEntries(['callout', 'borderCallout', 'accentCallout', 'accentBorderCallout'].flatMap((k) => [1, 2, 3].map((n) => [`${k}${n}`, rect]))),
  ...Object.fromEntries(['right', 'left', 'up', 'down', 'leftRight', 'upDown', 'quad'].map((k) => [`${k}ArrowCallout`, rect])),
  flowChartInternalStorage: rect, flowChartDisplay: rect, flowChartPunchedTape: rect, flowChartMagneticDrum: oval,
  nonIsoscelesTrapezoid: ({ w, h, ss }) => [part(poly([[0, h], [ss * 0.25, 0], [w - ss * 0.25, 0], [w, h]]))],
  pieWedge: ({ w, h }) => { const ops: PathOp[] = [['M', 0, h]]; arc(ops, 0, h, w, h, 180, 90); ops.push(['L', w, h], ['Z']); return [part(ops)]; },
  lineInv: ({ w, h }) => [part(poly([[0, h], [w, 0]], false), false)],
  mathNotEqual: (box) => [...mathSign(box, 'mathEqual'), part(poly([[box.w * 0.6, box.h * 0.1], [box.w * 0.4, box.h * 0.9]], false), false)],
  irregularSeal1: star(12, 0.6), irregularSeal2: star(12, 0.55), gear6: star(6, 0.8), gear9: star(9, 0.85),
  funnel: ({ w, h }) => [part(poly([[0, 0], [w, 0], [w / 2, h]]))],
};
