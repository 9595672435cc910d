/**
 * The DrawingML arrows that bend or curve, and the arrow callouts (a box with an arrow out of it),
 * written from ECMA-376's shape definitions with their adjustments (adj1… in 100,000ths of the
 * shorter side, the width or the height, each kept within the range the specification gives).
 */
import type { PathPart } from './model';
import { from, pin } from './preset-pen';
import { fillOnly, part, poly, strokeOnly, type Box } from './preset-parts';

type Point = [number, number];
type Figure = (box: Box, name: string) => PathPart[];

/** bentArrow: a shaft up from the bottom left, bent (rounded) to the right into a head. */
function bentArrow({ w, h, ss, adj }: Box): PathPart[] {
  const a2 = pin(0, adj('adj2', 25_000), 50_000);
  const a1 = pin(0, adj('adj1', 25_000), a2 * 2);
  const a3 = pin(0, adj('adj3', 25_000), 50_000);
  const [th, aw2, ah] = [(ss * a1) / 1e5, (ss * a2) / 1e5, (ss * a3) / 1e5];
  const dh2 = aw2 - th / 2;
  const a4 = pin(0, adj('adj4', 43_750), (1e5 * Math.min(w - ah, h - dh2)) / ss);
  const bd = (ss * a4) / 1e5, bd2 = Math.max(bd - th, 0);
  const [x4, y3] = [w - ah, dh2 + th];
  const pen = from(0, h).line(0, dh2 + bd).arc(bd, bd, 180, 90).lines([x4, dh2], [x4, 0], [w, aw2], [x4, y3 + dh2], [x4, y3], [th + bd2, y3]);
  return [part(pen.arc(bd2, bd2, 270, -90).line(th, h).close().ops)];
}

function bentUpArrow({ w, h, ss, adj }: Box): PathPart[] {
  const [a1, a2, a3] = ['adj1', 'adj2', 'adj3'].map((n) => pin(0, adj(n, 25_000), 50_000)) as [number, number, number];
  const y1 = (ss * a3) / 1e5, x1 = w - (ss * a2) / 5e4, x3 = w - (ss * a2) / 1e5, dx2 = (ss * a1) / 2e5, y2 = h - (ss * a1) / 1e5;
  return [part(poly([[0, y2], [x3 - dx2, y2], [x3 - dx2, y1], [x1, y1], [x3, 0], [w, y1], [x3 + dx2, y1], [x3 + dx2, h], [0, h]]))];
}

/** leftRightUpArrow and leftUpArrow: shafts meeting at the bottom (leftRightUp) or the bottom right (leftUp), a head on each end. */
function threeWayArrow({ w, h, ss, adj }: Box, name: string): PathPart[] {
  const a2 = pin(0, adj('adj2', 25_000), 50_000);
  const a1 = pin(0, adj('adj1', 25_000), a2 * 2);
  const a3 = pin(0, adj('adj3', 25_000), name === 'leftUpArrow' ? 1e5 - a2 * 2 : (1e5 - a2 * 2) / 2);
  const x1 = (ss * a3) / 1e5, dx2 = (ss * a2) / 1e5, dx3 = (ss * a1) / 2e5;
  if (name === 'leftUpArrow') {
    const [x4, y4] = [w - dx2, h - dx2];
    const [x2, y2] = [w - dx2 * 2, h - dx2 * 2];
    return [part(poly([[0, y4], [x1, y2], [x1, y4 - dx3], [x4 - dx3, y4 - dx3], [x4 - dx3, x1], [x2, x1], [x4, 0], [w, x1], [x4 + dx3, x1], [x4 + dx3, y4 + dx3], [x1, y4 + dx3], [x1, h]]))];
  }
  const hc = w / 2, y2 = h - dx2 * 2, y4 = h - dx2, x6 = w - x1;
  return [part(poly([
    [0, y4], [x1, y2], [x1, y4 - dx3], [hc - dx3, y4 - dx3], [hc - dx3, x1], [hc - dx2, x1], [hc, 0], [hc + dx2, x1], [hc + dx3, x1], [hc + dx3, y4 - dx3],
    [x6, y4 - dx3], [x6, y2], [w, y4], [x6, h], [x6, y4 + dx3], [x1, y4 + dx3], [x1, h],
  ]))];
}

/** uturnArrow: a shaft up from the bottom left, round over the top and down into a head on the right. */
function uturnArrow({ w, h, ss, adj }: Box): PathPart[] {
  const a2 = pin(0, adj('adj2', 25_000), 25_000);
  const a1 = pin(0, adj('adj1', 25_000), a2 * 2);
  const a3 = pin(0, adj('adj3', 25_000), ((1e5 - (a1 * ss) / h) * h) / ss);
  const a5 = pin(((a3 + a1) * ss) / h, adj('adj5', 75_000), 1e5);
  const [th, aw2, ah] = [(ss * a1) / 1e5, (ss * a2) / 1e5, (ss * a3) / 1e5];
  const dh2 = aw2 - th / 2, y5 = (h * a5) / 1e5, y4 = y5 - ah, x9 = w - dh2;
  const bd = (ss * pin(0, adj('adj4', 43_750), (Math.min(x9 / 2, y4) * 1e5) / ss)) / 1e5, bd2 = Math.max(bd - th, 0);
  const x8 = w - aw2, x6 = x8 - aw2, x7 = x6 + dh2;
  const pen = from(0, h).line(0, bd).arc(bd, bd, 180, 90).line(x9 - bd, 0).arc(bd, bd, 270, 90).lines([x9, y4], [w, y4], [x8, y5], [x6, y4], [x7, y4], [x7, th + bd2]);
  return [part(pen.arc(bd2, bd2, 0, -90).line(th + bd2, th).arc(bd2, bd2, 270, -90).line(th, h).close().ops)];
}

/** swooshArrow: a curved blade sweeping up from the bottom left to a head at the top right. */
function swooshArrow({ w, h, ss, adj }: Box): PathPart[] {
  const a1 = pin(1, adj('adj1', 25_000), 75_000), a2 = pin(0, adj('adj2', 16_667), (70_000 * w) / ss);
  const ad1 = (h * a1) / 1e5, xB = w - (ss * a2) / 1e5, yB = ss / 8;
  const lean = Math.tan(Math.PI / 28); // the head leans back 90° / 14
  const xF = xB + ad1 * lean, yF = yB + ad1, yE = yF + ss / 8;
  const pen = from(0, h).quad(w / 6, h / 3, xB, yB).lines([xB - (ss / 8) * lean, 0], [w, yE / 2 + h / 20], [xF + (ss / 8) * lean, yE], [xF, yF]);
  return [part(pen.quad(w / 4, yF + h / 12, 0, h).close().ops)];
}

/**
 * The guides a curved arrow shares (curvedRightArrow's, across the box for the up and down ones):
 * the shaft's thickness, the head's width and length, the arc's radius across, and the points and
 * angles where the head meets the arc.
 */
function curvedGuides(across: number, along: number, ss: number, adj: Box['adj'], vertical: boolean) {
  const a2 = pin(0, adj('adj2', 50_000), (50_000 * across) / ss);
  const a1 = pin(0, adj('adj1', 25_000), vertical ? 1e5 : a2);
  const th = (ss * a1) / 1e5, aw = (ss * a2) / 1e5;
  const r = across / 2 - (th + aw) / 4;
  const inner = (Math.sqrt(Math.max(0, 4 * r * r - th * th)) * along) / (2 * r || 1);
  // The up and down arrows take their head's length from adj3 as given (the specification's own quirk).
  const given = adj('adj3', 25_000);
  const ah = (ss * (vertical ? given : pin(0, given, (1e5 * inner) / ss))) / 1e5;
  const d = (Math.sqrt(Math.max(0, along * along - ah * ah)) * r) / along;
  const deg = (y: number, x: number) => (Math.atan2(y, x) * 180) / Math.PI;
  return { th, aw, r, inner, ah, d, dh: (aw - th) / 2, sw: deg(d, ah), dang2: deg(th / 2, inner) };
}

function curvedRightArrow({ w, h, ss, adj }: Box): PathPart[] {
  const { th, aw, r: hR, ah, d, dh, sw, dang2 } = curvedGuides(h, w, ss, adj, false);
  const y3 = hR + th, y5 = hR + d, y7 = y3 + d, x1 = w - ah;
  const front = () => from(0, hR).arc(w, hR, 180, -sw).lines([x1, y5 - dh], [w, h - aw / 2], [x1, y7 + dh], [x1, y7]).arc(w, hR, 180 - sw, sw);
  const back = from(w, th).arc(w, hR, 270, dang2 - 90).arc(w, hR, 180 - dang2, 90 + dang2).close();
  const outline = front().line(0, hR).arc(w, hR, 180, 90).line(w, th).arc(w, hR, 270, dang2 - 90);
  return [fillOnly(front().close().ops), fillOnly(back.ops, 'darkenLess'), strokeOnly(outline.ops)];
}

function curvedLeftArrow({ w, h, ss, adj }: Box): PathPart[] {
  const { th, aw, r: hR, ah, d, dh, sw, dang2 } = curvedGuides(h, w, ss, adj, false);
  const y3 = hR + th, y5 = hR + d, y7 = y3 + d, x1 = ah;
  const front = () => from(0, h - aw / 2).lines([x1, y5 - dh], [x1, y5]).arc(w, hR, sw, dang2 - sw).arc(w, hR, -dang2, sw + dang2).line(x1, y7 + dh);
  const back = () => from(w, y3).arc(w, hR, 0, -90).line(0, 0).arc(w, hR, 270, 90);
  const outline = back().line(w, y3).arc(w, hR, 0, sw).lines([x1, y7 + dh], [0, h - aw / 2], [x1, y5 - dh], [x1, y5]).arc(w, hR, sw, dang2 - sw);
  return [fillOnly(front().close().ops), fillOnly(back().close().ops, 'darkenLess'), strokeOnly(outline.ops)];
}

function curvedDownArrow({ w, h, ss, adj }: Box): PathPart[] {
  const { th, aw, r: wR, inner: idy, ah, d, dh, sw, dang2 } = curvedGuides(w, h, ss, adj, true);
  const x3 = wR + th, x5 = wR + d, x8 = x3 + d + dh, y1 = h - ah, ix = (wR + x3) / 2, iy = h - idy;
  const front = () => from(w - aw / 2, h).lines([x5 - dh, y1], [x5, y1]).arc(wR, h, 270 + sw, -sw).line(x3, 0).arc(wR, h, 270, sw).line(x8, y1);
  const back = from(ix, iy).arc(wR, h, 270 - dang2, dang2 - 90).line(0, h).arc(wR, h, 180, 90 + dang2).close();
  const outline = from(ix, iy).arc(wR, h, 270 - dang2, dang2 - 90).line(0, h).arc(wR, h, 180, 90).line(x3, 0).arc(wR, h, 270, sw).lines([x8, y1], [w - aw / 2, h], [x5 - dh, y1], [x5, y1]).arc(wR, h, 270 + sw, -sw);
  return [fillOnly(front().close().ops), fillOnly(back.ops, 'darkenLess'), strokeOnly(outline.ops)];
}

function curvedUpArrow({ w, h, ss, adj }: Box): PathPart[] {
  const { th, aw, r: wR, inner: idy, ah, d, dh, sw, dang2 } = curvedGuides(w, h, ss, adj, true);
  const x3 = wR + th, x5 = wR + d, x7 = x3 + d, y1 = ah, ix = (wR + x3) / 2;
  const front = from(w - aw / 2, 0).lines([x7 + dh, y1], [x7, y1]).arc(wR, h, 90 - sw, sw + dang2).arc(wR, h, 90 - dang2, dang2 - sw).line(x5 - dh, y1).close();
  const back = () => from(wR, h).arc(wR, h, 90, 90).line(th, 0).arc(wR, h, 180, -90);
  const outline = from(ix, idy).arc(wR, h, 90 - dang2, dang2 - sw).lines([x5 - dh, y1], [w - aw / 2, 0], [x7 + dh, y1], [x7, y1]).arc(wR, h, 90 - sw, sw).line(wR, h).arc(wR, h, 90, 90).line(th, 0).arc(wR, h, 180, -90);
  return [fillOnly(front.ops), fillOnly(back().close().ops, 'darkenLess'), strokeOnly(outline.ops)];
}

/**
 * rightArrowCallout's outline in a w × h box: a box (adj4: its width) and an arrow out of its side
 * to the right edge (adj1: shaft, adj2: head width, adj3: head length). The other arrow callouts
 * are it turned or mirrored.
 */
function rightCallout(w: number, h: number, ss: number, adj: Box['adj'], both: boolean): Point[] {
  const a2 = pin(0, adj('adj2', 25_000), (50_000 * h) / ss);
  const a1 = pin(0, adj('adj1', 25_000), a2 * 2);
  const a3 = pin(0, adj('adj3', 25_000), ((both ? 50_000 : 1e5) * w) / ss);
  const a4 = pin(0, adj('adj4', both ? 48_123 : 64_977), 1e5 - (a3 * ss) / (both ? w / 2 : w));
  const vc = h / 2, dy1 = (ss * a2) / 1e5, dy2 = (ss * a1) / 2e5, x3 = w - (ss * a3) / 1e5;
  const [y1, y2, y3, y4] = [vc - dy1, vc - dy2, vc + dy2, vc + dy1];
  if (!both) {
    const x2 = (w * a4) / 1e5;
    return [[0, 0], [x2, 0], [x2, y2], [x3, y2], [x3, y1], [w, vc], [x3, y4], [x3, y3], [x2, y3], [x2, h], [0, h]];
  }
  const x1 = w - x3, x2 = w / 2 - (w * a4) / 2e5, x5 = w - x2;
  return [[0, vc], [x1, y1], [x1, y2], [x2, y2], [x2, 0], [x5, 0], [x5, y2], [x3, y2], [x3, y1], [w, vc], [x3, y4], [x3, y3], [x5, y3], [x5, h], [x2, h], [x2, y3], [x1, y3], [x1, y4]];
}

/** The arrow callouts pointing left, right, up, down, both ways: rightCallout's outline mirrored or turned across the diagonal. */
function arrowCallout({ w, h, ss, adj }: Box, name: string): PathPart[] {
  const both = name.startsWith('leftRight') || name.startsWith('upDown');
  if (name.startsWith('right') || name.startsWith('leftRight')) return [part(poly(rightCallout(w, h, ss, adj, both)))];
  if (name.startsWith('left')) return [part(poly(rightCallout(w, h, ss, adj, both).map(([x, y]): Point => [w - x, y])))];
  const across = rightCallout(h, w, ss, adj, both).map(([x, y]): Point => [y, x]);
  return [part(poly(name.startsWith('up') && !both ? across.map(([x, y]): Point => [x, h - y]) : across))];
}

/** quadArrowCallout: a box in the middle (adj4), an arrow out of each side. */
function quadArrowCallout({ w, h, ss, adj }: Box): PathPart[] {
  const a2 = pin(0, adj('adj2', 18_515), 50_000);
  const a1 = pin(0, adj('adj1', 18_515), a2 * 2);
  const a3 = pin(0, adj('adj3', 18_515), 50_000 - a2);
  const a4 = pin(a1, adj('adj4', 48_123), 1e5 - a3 * 2);
  const [hc, vc, dx2, dx3, ah] = [w / 2, h / 2, (ss * a2) / 1e5, (ss * a1) / 2e5, (ss * a3) / 1e5];
  const [dx1, dy1] = [(w * a4) / 2e5, (h * a4) / 2e5];
  const [x2, x7, x8, y2, y7, y8] = [hc - dx1, hc + dx1, w - ah, vc - dy1, vc + dy1, h - ah];
  return [part(poly([
    [0, vc], [ah, vc - dx2], [ah, vc - dx3], [x2, vc - dx3], [x2, y2], [hc - dx3, y2], [hc - dx3, ah], [hc - dx2, ah], [hc, 0], [hc + dx2, ah], [hc + dx3, ah], [hc + dx3, y2],
    [x7, y2], [x7, vc - dx3], [x8, vc - dx3], [x8, vc - dx2], [w, vc], [x8, vc + dx2], [x8, vc + dx3], [x7, vc + dx3], [x7, y7], [hc + dx3, y7], [hc + dx3, y8], [hc + dx2, y8],
    [hc, h], [hc - dx2, y8], [hc - dx3, y8], [hc - dx3, y7], [x2, y7], [x2, vc + dx3], [ah, vc + dx3], [ah, vc + dx2],
  ]))];
}

export const ARROWS: Record<string, Figure> = {
  bentArrow, bentUpArrow, leftRightUpArrow: threeWayArrow, leftUpArrow: threeWayArrow, uturnArrow, swooshArrow,
  curvedRightArrow, curvedLeftArrow, curvedDownArrow, curvedUpArrow,
  ...Object.fromEntries(['right', 'left', 'up', 'down', 'leftRight', 'upDown'].map((k) => [`${k}ArrowCallout`, arrowCallout])),
  quadArrowCallout,
};
