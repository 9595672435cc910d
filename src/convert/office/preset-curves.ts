/**
 * DrawingML presets with curves, several parts or open outlines (connectors, cans and cubes,
 * flowchart symbols, callouts, brackets, rings), drawn from their geometry as ECMA-376 describes
 * each (written here from the shapes' descriptions, with their default adjustments; `adjust`
 * overrides adj / adj1 / adj2 in the specification's units, 100,000 being the whole).
 */
import type { FreeformPath, PathOp, PathPart } from './model';
import { arc } from './preset-geometry';
import { ellipse, part, poly, type Adjust, type Box } from './preset-parts';
import { FIGURES } from './preset-figures';

function can({ w, h, ss, adj }: Box, lip = ss * adj('adj', 25_000) / 200_000): PathPart[] {
  const body: PathOp[] = [['M', 0, lip], ['L', 0, h - lip]];
  arc(body, 0, h - lip, w / 2, lip, 180, -180);
  body.push(['L', w, lip]);
  arc(body, w, lip, w / 2, lip, 0, -180);
  body.push(['Z']);
  return [part(body), part(ellipse(w / 2, lip, w / 2, lip))];
}

function cube({ w, h, ss, adj }: Box): PathPart[] {
  const d = ss * adj('adj', 25_000) / 100_000;
  return [part(poly([[0, d], [w - d, d], [w - d, h], [0, h]])), part(poly([[0, d], [d, 0], [w, 0], [w - d, d]])), part(poly([[w - d, d], [w, 0], [w, h - d], [w - d, h]]))];
}

/** A callout's box with a wedge out to its tip (adj1, adj2: the tip from the centre, in shares of the width and height). */
function wedge({ w, h, adj }: Box): PathPart[] {
  const tip: [number, number] = [w / 2 + (w * adj('adj1', -20_833)) / 100_000, h / 2 + (h * adj('adj2', 62_500)) / 100_000];
  const corners: [number, number][] = [[0, 0], [w, 0], [w, h], [0, h]];
  const [dx, dy] = [(tip[0] - w / 2) / w, (tip[1] - h / 2) / h];
  if (Math.abs(dx) <= 0.5 && Math.abs(dy) <= 0.5) return [part(poly(corners))];
  // The side the tip is beyond (clockwise from the top: 0 top, 1 right, 2 bottom, 3 left), the wedge's base a sixth of it, walked the side's way.
  const side = Math.abs(dx) > Math.abs(dy) ? (dx < 0 ? 3 : 1) : dy < 0 ? 0 : 2;
  const along = side % 2 ? h : w;
  const at = Math.max(along * 0.15, Math.min((side % 2 ? tip[1] : tip[0]), along * 0.85));
  const [from, to] = side === 0 || side === 1 ? [at - along / 12, at + along / 12] : [at + along / 12, at - along / 12];
  const onSide = (v: number): [number, number] => (side === 0 ? [v, 0] : side === 1 ? [w, v] : side === 2 ? [v, h] : [0, v]);
  const points: [number, number][] = [];
  corners.forEach((c, i) => {
    points.push(c);
    if (i === side) points.push(onSide(from), tip, onSide(to));
  });
  return [part(poly(points))];
}

function wedgeEllipse({ w, h, adj }: Box): PathPart[] {
  const tip: [number, number] = [w / 2 + (w * adj('adj1', -20_833)) / 100_000, h / 2 + (h * adj('adj2', 62_500)) / 100_000];
  const toward = Math.atan2((tip[1] - h / 2) / h, (tip[0] - w / 2) / w);
  const points: [number, number][] = [];
  for (let i = 0; i < 72; i++) {
    const a = toward + 0.2 + (i / 72) * (2 * Math.PI - 0.4);
    points.push([w / 2 + (w / 2) * Math.cos(a), h / 2 + (h / 2) * Math.sin(a)]);
  }
  points.push(tip);
  return [part(poly(points))];
}

function terminator({ w, h }: Box): PathPart[] {
  const rx = (w * 3_475) / 21_600, ry = h / 2;
  const ops: PathOp[] = [['M', rx, 0], ['L', w - rx, 0]];
  arc(ops, w - rx, 0, rx, ry, 270, 180);
  ops.push(['L', rx, h]);
  arc(ops, rx, h, rx, ry, 90, 180);
  ops.push(['Z']);
  return [part(ops)];
}

function delay({ w, h }: Box): PathPart[] {
  const ops: PathOp[] = [['M', 0, 0], ['L', w / 2, 0]];
  arc(ops, w / 2, 0, w / 2, h / 2, 270, 180);
  ops.push(['L', 0, h], ['Z']);
  return [part(ops)];
}

/**
 * A donut or frame: its outer edge and its hole. The fill is one ring (the outer edge, across to the
 * hole, round the hole the other way and back), as the drawing fills each outline on its own; the
 * two edges are stroked apart so the crossing does not show.
 */
function ring({ w, h, ss, adj }: Box, name: string): PathPart[] {
  const d = ss * adj('adj', name === 'donut' ? 25_000 : 12_500) / 100_000;
  const [iw, ih] = [Math.max(0, w / 2 - d), Math.max(0, h / 2 - d)];
  const outer = name === 'donut' ? ellipse(w / 2, h / 2, w / 2, h / 2) : poly([[w, h / 2], [w, h], [0, h], [0, 0], [w, 0], [w, h / 2]]);
  const inner = name === 'donut' ? ellipse(w / 2, h / 2, iw, ih, true) : poly([[w - d, h / 2], [w - d, d], [d, d], [d, h - d], [w - d, h - d], [w - d, h / 2]]);
  const open = (ops: PathOp[]) => ops.filter((op) => op[0] !== 'Z');
  const filled: PathOp[] = [...open(outer), ['L', w / 2 + iw, h / 2], ...open(inner).slice(1), ['L', w / 2 + iw, h / 2], ['L', w, h / 2], ['Z']];
  return [part(filled, true, false), part(outer, false), part(inner, false)];
}

/** Brackets and braces: open outlines, stroked only. */
function bracket({ w, h, ss, adj }: Box, name: string): PathPart[] {
  const r = Math.min(ss * adj('adj', name === 'bracketPair' ? 16_667 : 8_333) / 100_000, h / 2);
  const left = (x: number, rx: number): PathOp[] => {
    const ops: PathOp[] = [['M', x + rx, 0]];
    arc(ops, x + rx, 0, rx, r, 270, -90);
    ops.push(['L', x, h - r]);
    arc(ops, x, h - r, rx, r, 180, -90);
    return ops;
  };
  const mirrored = (ops: PathOp[]): PathOp[] => ops.map((op) => (op[0] === 'C' ? ['C', w - op[1], op[2], w - op[3], op[4], w - op[5], op[6]] : op[0] === 'Z' ? op : [op[0], w - op[1], op[2]]));
  if (name === 'leftBracket') return [part(left(0, w), false)];
  if (name === 'rightBracket') return [part(mirrored(left(0, w)), false)];
  return [part(left(0, r), false), part(mirrored(left(0, r)), false)];
}

/** Connectors: open lines through their bends (adj1: where the middle leg is, a share of the width). */
function connector({ w, h, adj }: Box, name: string): PathPart[] {
  const x = (w * adj('adj1', 50_000)) / 100_000;
  if (name === 'bentConnector2') return [part(poly([[0, 0], [w, 0], [w, h]], false), false)];
  if (name.startsWith('bent')) return [part(poly([[0, 0], [x, 0], [x, h], [w, h]], false), false)];
  if (name === 'curvedConnector2') return [part([['M', 0, 0], ['C', w / 2, 0, w, h / 2, w, h]], false)];
  return [part([['M', 0, 0], ['C', x, 0, x, h, w, h]], false)];
}

function snip({ w, h, ss, adj }: Box, name: string): PathPart[] {
  const d = ss * adj(name === 'snip2DiagRect' ? 'adj2' : 'adj1', 16_667) / 100_000;
  if (name === 'snip1Rect' || name === 'snipRoundRect') return [part(poly([[0, 0], [w - d, 0], [w, d], [w, h], [0, h]]))];
  if (name === 'snip2SameRect') return [part(poly([[d, 0], [w - d, 0], [w, d], [w, h], [0, h], [0, d]]))];
  return [part(poly([[0, 0], [w - d, 0], [w, d], [w, h], [d, h], [0, h - d]]))];
}

const PRESETS: Record<string, (box: Box, name: string) => PathPart[]> = {
  ...FIGURES,
  can: (b) => can(b),
  flowChartMagneticDisk: (b) => can(b, b.h / 6),
  cube,
  wedgeRectCallout: wedge,
  wedgeRoundRectCallout: wedge,
  wedgeEllipseCallout: wedgeEllipse,
  flowChartTerminator: terminator,
  flowChartDelay: delay,
  flowChartDocument: ({ w, h }) => [part([['M', 0, 0], ['L', w, 0], ['L', w, (h * 17_322) / 21_600], ['C', w / 2, (h * 17_322) / 21_600, w / 2, (h * 23_922) / 21_600, 0, (h * 20_172) / 21_600], ['Z']])],
  flowChartPredefinedProcess: ({ w, h }) => [part(poly([[0, 0], [w, 0], [w, h], [0, h]])), part(poly([[w / 8, 0], [w / 8, h]], false), false), part(poly([[(w * 7) / 8, 0], [(w * 7) / 8, h]], false), false)],
  flowChartManualInput: ({ w, h }) => [part(poly([[0, h / 5], [w, 0], [w, h], [0, h]]))],
  flowChartPunchedCard: ({ w, h }) => [part(poly([[0, h / 5], [w / 5, 0], [w, 0], [w, h], [0, h]]))],
  foldedCorner: ({ w, h, ss }) => {
    const d = ss / 6;
    return [part(poly([[0, 0], [w, 0], [w, h - d], [w - d, h], [0, h]])), part(poly([[w, h - d], [w - d * 0.8, h - d * 0.8], [w - d, h]]))];
  },
  donut: ring,
  frame: ring,
  bracketPair: bracket,
  leftBracket: bracket,
  rightBracket: bracket,
  bentConnector2: connector,
  bentConnector3: connector,
  bentConnector4: connector,
  bentConnector5: connector,
  curvedConnector2: connector,
  curvedConnector3: connector,
  curvedConnector4: connector,
  curvedConnector5: connector,
  snip1Rect: snip,
  snip2SameRect: snip,
  snip2DiagRect: snip,
  snipRoundRect: snip,
};

/** The preset's outline in its w × h box, undefined for one not drawn here. */
export function presetCurves(prst: string, w: number, h: number, adjust: Adjust = {}): FreeformPath | undefined {
  const draw = Object.hasOwn(PRESETS, prst) ? PRESETS[prst] : undefined;
  if (!draw || !(w >= 0 && h >= 0) || w + h <= 0) return undefined;
  const adj = (name: string, preset: number) => {
    const given = adjust[name] ?? (name === 'adj1' ? adjust['adj'] : undefined);
    return given !== undefined && Number.isFinite(given) ? Math.max(-1e6, Math.min(given, 1e6)) : preset;
  };
  // A line's box may be flat (a straight bent connector): keep a hair of extent so it can be stretched.
  const [bw, bh] = [Math.max(w, 1e-3), Math.max(h, 1e-3)];
  return { width: bw, height: bh, parts: draw({ w: bw, h: bh, ss: Math.min(bw, bh), adj }, prst) };
}

/** The adjustments an a:prstGeom's a:avLst gives (a:gd name="adj1" fmla="val 50000"). */
export function presetAdjust(gds: { name?: string; fmla?: string }[]): Adjust {
  const out: Adjust = {};
  for (const { name, fmla } of gds.slice(0, 16)) {
    const m = /^val\s+(-?\d+(?:\.\d+)?)$/.exec(fmla?.trim() ?? '');
    if (name && m) out[name] = Number(m[1]);
  }
  return out;
}
