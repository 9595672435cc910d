/**
 * DrawingML presets with curves, several parts or open outlines (connectors, cans and cubes,
 * flowchart symbols, brackets and braces, rings), drawn from their geometry as ECMA-376 describes
 * each (written here from the shapes' descriptions, with their default adjustments; `adjust`
 * overrides adj / adj1… in the specification's units, 100,000 being the whole), and the registry
 * of all the presets drawn as paths: arrows (preset-arrows.ts), callouts (preset-callouts.ts),
 * banners (preset-banners.ts), action buttons (preset-buttons.ts), circular arrows
 * (preset-circular.ts), maths signs (preset-maths.ts) and the rest (preset-figures.ts).
 */
import type { FreeformPath, PathOp, PathPart } from './model';
import { arc } from './preset-geometry';
import { ellipse, fillOnly, mapped, part, poly, strokeOnly, type Adjust, type Box } from './preset-parts';
import { from, pin } from './preset-pen';
import { FIGURES } from './preset-figures';
import { ARROWS } from './preset-arrows';
import { BANNERS } from './preset-banners';
import { BUTTONS } from './preset-buttons';
import { CALLOUTS } from './preset-callouts';
import { CIRCULAR } from './preset-circular';
import { MATHS } from './preset-maths';

/**
 * can (adj: the lid's height, 100,000ths of the shorter side) and flowChartMagneticDisk (a lid a
 * third of the height): the body filled over the lid's back, the can's lid a lighter shade, the
 * front of the lid and the outline stroked.
 */
function can({ w, h, ss, adj }: Box, name: string): PathPart[] {
  const disk = name === 'flowChartMagneticDisk';
  const r = disk ? h / 6 : (ss * pin(0, adj('adj', 25_000), (50_000 * h) / ss)) / 2e5, hc = w / 2;
  const body = from(0, r).arc(hc, r, 180, 180).line(w, h - r).arc(hc, r, 0, 180).close();
  const lid = from(0, r).arc(hc, r, 180, 180).arc(hc, r, 0, 180).close();
  const outline = from(w, r).arc(hc, r, 0, 180).arc(hc, r, 180, 180).line(w, h - r).arc(hc, r, 0, 180).line(0, r);
  return [fillOnly(body.ops), ...(disk ? [] : [fillOnly(lid.ops, 'lighten')]), strokeOnly(outline.ops)];
}

/** cube (adj: the depth, 100,000ths of the shorter side): its front, its side darker, its top lighter. */
function cube({ w, h, ss, adj }: Box): PathPart[] {
  const d = (ss * pin(0, adj('adj', 25_000), 1e5)) / 1e5, x = w - d;
  const outline = [...poly([[0, d], [d, 0], [w, 0], [w, h - d], [x, h], [0, h]]), ...poly([[0, d], [x, d], [w, 0]], false), ...poly([[x, d], [x, h]], false)];
  return [fillOnly(poly([[0, d], [x, d], [x, h], [0, h]])), fillOnly(poly([[x, d], [w, 0], [w, h - d], [x, h]]), 'darkenLess'), fillOnly(poly([[0, d], [d, 0], [w, 0], [x, d]]), 'lightenLess'), strokeOnly(outline)];
}

/** foldedCorner (adj: the fold's size): the page, its bottom right corner folded up in a darker shade. */
function foldedCorner({ w, h, ss, adj }: Box): PathPart[] {
  const d = (ss * pin(0, adj('adj', 16_667), 50_000)) / 1e5, [x1, y2] = [w - d, h - d];
  const fold: [number, number][] = [[x1, h], [x1 + d / 5, y2 + d / 5], [w, y2]];
  return [fillOnly(poly([[0, 0], [w, 0], [w, y2], [x1, h], [0, h]])), fillOnly(poly(fold), 'darkenLess'), strokeOnly(poly([...fold, [x1, h], [0, h], [0, 0], [w, 0], [w, y2]], false))];
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

/**
 * Brackets and braces: filled inside (a bracket's fill closes it straight across), stroked along
 * their curve only. leftBracket's and leftBrace's mirror images are the right ones.
 */
function bracket({ w, h, ss, adj }: Box, name: string): PathPart[] {
  if (name === 'bracketPair') {
    const r = (ss * pin(0, adj('adj', 16_667), 50_000)) / 1e5;
    const left = () => from(r, h).arc(r, r, 90, 90).line(0, r).arc(r, r, 180, 90);
    const right = () => from(w - r, 0).arc(r, r, 270, 90).line(w, h - r).arc(r, r, 0, 90);
    return [fillOnly(left().line(w - r, 0).arc(r, r, 270, 90).line(w, h - r).arc(r, r, 0, 90).close().ops), strokeOnly([...left().ops, ...right().ops])];
  }
  const r = (ss * pin(0, adj('adj', 8_333), (50_000 * h) / ss)) / 1e5;
  const curve = () => from(w, h).arc(w, r, 90, 90).line(0, r).arc(w, r, 180, 90);
  return mirroredIf(name === 'rightBracket', w, [fillOnly(curve().close().ops), strokeOnly(curve().ops)]);
}

/** leftBrace and rightBrace (adj1: the curls' size, adj2: where the point is, in 100,000ths of the height); bracePair. */
function brace({ w, h, ss, adj }: Box, name: string): PathPart[] {
  if (name === 'bracePair') {
    const r = (ss * pin(0, adj('adj', 8_333), 25_000)) / 1e5, vc = h / 2;
    const left = () => from(2 * r, h).arc(r, r, 90, 90).line(r, vc + r).arc(r, r, 0, -90).arc(r, r, 90, -90).line(r, r).arc(r, r, 180, 90);
    const right = () => from(w - 2 * r, 0).arc(r, r, 270, 90).line(w - r, vc - r).arc(r, r, 180, -90).arc(r, r, 270, -90).line(w - r, h - r).arc(r, r, 0, 90);
    const outline = left().line(w - 2 * r, 0).arc(r, r, 270, 90).line(w - r, vc - r).arc(r, r, 180, -90).arc(r, r, 270, -90).line(w - r, h - r).arc(r, r, 0, 90).close();
    return [fillOnly(outline.ops), strokeOnly([...left().ops, ...right().ops])];
  }
  const a2 = pin(0, adj('adj2', 50_000), 1e5);
  const r = (ss * pin(0, adj('adj1', 8_333), ((Math.min(1e5 - a2, a2) / 2) * h) / ss)) / 1e5;
  const y3 = (h * a2) / 1e5, hc = w / 2;
  const curve = () => from(w, h).arc(hc, r, 90, 90).line(hc, y3 + r).arc(hc, r, 0, -90).arc(hc, r, 90, -90).line(hc, r).arc(hc, r, 180, 90);
  return mirroredIf(name === 'rightBrace', w, [fillOnly(curve().close().ops), strokeOnly(curve().ops)]);
}

const mirroredIf = (mirror: boolean, w: number, parts: PathPart[]) => (mirror ? mapped(parts, (x, y) => [w - x, y]) : parts);

/**
 * Connectors: open lines through their bends, or S curves through the same points (adj1, adj3:
 * where the upright legs are, in 100,000ths of the width; adj2: the crossing leg, of the height).
 */
function connector({ w, h, adj }: Box, name: string): PathPart[] {
  const [x1, y2, x3] = [(w * adj('adj1', 50_000)) / 1e5, (h * adj('adj2', 50_000)) / 1e5, (w * adj('adj3', 50_000)) / 1e5];
  const bends = Number(name.at(-1));
  if (name.startsWith('bent')) {
    const points: [number, number][] = bends === 2 ? [[0, 0], [w, 0], [w, h]] : bends === 3 ? [[0, 0], [x1, 0], [x1, h], [w, h]] : bends === 4 ? [[0, 0], [x1, 0], [x1, y2], [w, y2], [w, h]] : [[0, 0], [x1, 0], [x1, y2], [x3, y2], [x3, h], [w, h]];
    return [strokeOnly(poly(points, false))];
  }
  const pen = from(0, 0);
  if (bends === 2) pen.cubic(w / 2, 0, w, h / 2, w, h);
  else if (bends === 3) pen.cubic(x1 / 2, 0, x1, h / 4, x1, h / 2).cubic(x1, (h * 3) / 4, (w + x1) / 2, h, w, h);
  else if (bends === 4) {
    const xm = (w + x1) / 2;
    pen.cubic(x1 / 2, 0, x1, y2 / 4, x1, y2 / 2).cubic(x1, (y2 * 3) / 4, (x1 + xm) / 2, y2, xm, y2).cubic((xm + w) / 2, y2, w, (h + y2) / 2, w, h);
  } else {
    const xm = (x1 + x3) / 2, y5 = (h + y2) / 2;
    pen.cubic(x1 / 2, 0, x1, y2 / 4, x1, y2 / 2).cubic(x1, (y2 * 3) / 4, (x1 + xm) / 2, y2, xm, y2).cubic((x3 + xm) / 2, y2, x3, (y5 + y2) / 2, x3, y5).cubic(x3, (y5 + h) / 2, (x3 + w) / 2, h, w, h);
  }
  return [strokeOnly(pen.ops)];
}

/**
 * roundRect (adj), round1Rect (its top right corner), round2SameRect (the top corners by adj1,
 * the bottom ones by adj2) and round2DiagRect (top left and bottom right by adj1, the others by
 * adj2): corners rounded by 100,000ths of the shorter side.
 */
function rounded({ w, h, ss, adj }: Box, name: string): PathPart[] {
  const r = (n: string, d: number) => (ss * pin(0, adj(n, d), 50_000)) / 1e5;
  const [tl, tr, br, bl] =
    name === 'roundRect' ? Array(4).fill(r('adj', 16_667)) : name === 'round1Rect' ? [0, r('adj', 16_667), 0, 0]
      : name === 'round2SameRect' ? [r('adj1', 16_667), r('adj1', 16_667), r('adj2', 0), r('adj2', 0)] : [r('adj1', 16_667), r('adj2', 0), r('adj1', 16_667), r('adj2', 0)];
  const pen = from(0, tl).arc(tl, tl, 180, 90).line(w - tr, 0).arc(tr, tr, 270, 90).line(w, h - br).arc(br, br, 0, 90).line(bl, h).arc(bl, bl, 90, 90);
  return [part(pen.close().ops)];
}

/** The snipped rectangles: snip1Rect (its top right corner, adj), snip2SameRect (the top ones), snip2DiagRect (top right and bottom left), snipRoundRect (top left rounded by adj1, top right snipped by adj2). */
function snip({ w, h, ss, adj }: Box, name: string): PathPart[] {
  const cut = (n: string, d: number) => (ss * pin(0, adj(n, d), 50_000)) / 1e5;
  if (name === 'snipRoundRect') {
    const [r, d] = [cut('adj1', 16_667), cut('adj2', 16_667)];
    return [part(from(r, 0).lines([w - d, 0], [w, d], [w, h], [0, h], [0, r]).arc(r, r, 180, 90).close().ops)];
  }
  const d = cut(name === 'snip1Rect' ? 'adj' : name === 'snip2DiagRect' ? 'adj2' : 'adj1', 16_667);
  if (name === 'snip1Rect') return [part(poly([[0, 0], [w - d, 0], [w, d], [w, h], [0, h]]))];
  if (name === 'snip2SameRect') {
    const b = cut('adj2', 0);
    return [part(poly([[d, 0], [w - d, 0], [w, d], [w, h - b], [w - b, h], [b, h], [0, h - b], [0, d]]))];
  }
  const e = cut('adj1', 0);
  return [part(poly([[e, 0], [w - d, 0], [w, d], [w, h - e], [w - e, h], [d, h], [0, h - d], [0, e]]))];
}

const PRESETS: Record<string, (box: Box, name: string) => PathPart[]> = {
  ...FIGURES,
  ...ARROWS,
  ...CALLOUTS,
  ...BANNERS,
  ...BUTTONS,
  ...CIRCULAR,
  ...MATHS,
  can,
  flowChartMagneticDisk: can,
  cube,
  foldedCorner,
  flowChartTerminator: terminator,
  flowChartDelay: delay,
  flowChartDocument: ({ w, h }) => [part([['M', 0, 0], ['L', w, 0], ['L', w, (h * 17_322) / 21_600], ['C', w / 2, (h * 17_322) / 21_600, w / 2, (h * 23_922) / 21_600, 0, (h * 20_172) / 21_600], ['Z']])],
  flowChartPredefinedProcess: ({ w, h }) => [part(poly([[0, 0], [w, 0], [w, h], [0, h]])), part(poly([[w / 8, 0], [w / 8, h]], false), false), part(poly([[(w * 7) / 8, 0], [(w * 7) / 8, h]], false), false)],
  flowChartManualInput: ({ w, h }) => [part(poly([[0, h / 5], [w, 0], [w, h], [0, h]]))],
  flowChartPunchedCard: ({ w, h }) => [part(poly([[0, h / 5], [w / 5, 0], [w, 0], [w, h], [0, h]]))],
  donut: ring,
  frame: ring,
  bracketPair: bracket,
  leftBracket: bracket,
  rightBracket: bracket,
  bracePair: brace,
  leftBrace: brace,
  rightBrace: brace,
  bentConnector2: connector,
  bentConnector3: connector,
  bentConnector4: connector,
  bentConnector5: connector,
  curvedConnector2: connector,
  curvedConnector3: connector,
  curvedConnector4: connector,
  curvedConnector5: connector,
  roundRect: rounded,
  round1Rect: rounded,
  round2SameRect: rounded,
  round2DiagRect: rounded,
  snip1Rect: snip,
  snip2SameRect: snip,
  snip2DiagRect: snip,
  snipRoundRect: snip,
};

/** The preset's outline in its w × h box, undefined for one not drawn here. */
export function presetCurves(prst: string, w: number, h: number, adjust: Adjust = {}): FreeformPath | undefined {
  const draw = Object.hasOwn(PRESETS, prst) ? PRESETS[prst] : undefined;
  if (!draw || !(w >= 0 && h >= 0) || w + h <= 0) return undefined;
  // Angles run to 21,600,000 (60,000ths of a degree); beyond a few turns nothing changes, and the arithmetic stays finite.
  const adj = (name: string, preset: number) => {
    const given = adjust[name] ?? (name === 'adj1' ? adjust['adj'] : undefined);
    return given !== undefined && Number.isFinite(given) ? Math.max(-1e8, Math.min(given, 1e8)) : preset;
  };
  // A line's box may be flat (a straight bent connector): keep a hair of extent so it can be stretched.
  const [bw, bh] = [Math.max(w, 1e-3), Math.max(h, 1e-3)];
  return { width: bw, height: bh, parts: draw({ w: bw, h: bh, ss: Math.min(bw, bh), adj }, prst), ordered: true };
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
