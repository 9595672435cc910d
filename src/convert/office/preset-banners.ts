/**
 * The DrawingML banners, from ECMA-376's shape definitions: ribbons (straight and curved, their
 * folds a darker shade), scrolls (their curls a darker shade) and waves. Each is its filled
 * outline, its shaded parts, and its outline with the fold lines as strokes.
 */
import type { PathPart } from './model';
import { from, pin, type Pen } from './preset-pen';
import { fillOnly, mapped, part, strokeOnly, type Box } from './preset-parts';

type Figure = (box: Box, name: string) => PathPart[];

/** A filled outline stroked with its fold lines (each a pair of points) drawn over it. */
function withFolds(outline: () => Pen, shaded: Pen[], folds: [number, number, number, number][]): PathPart[] {
  const strokes = outline().close();
  for (const [x1, y1, x2, y2] of folds) strokes.move(x1, y1).line(x2, y2);
  return [fillOnly(outline().close().ops), ...shaded.map((p) => fillOnly(p.ops, 'darkenLess')), strokeOnly(strokes.ops)];
}

/** ribbon: a band (adj2: its width) over two tails, folded under at its ends (adj1: the band's height). */
function ribbon({ w, h, adj }: Box): PathPart[] {
  const a1 = pin(0, adj('adj1', 16_667), 33_333), a2 = pin(25_000, adj('adj2', 50_000), 75_000);
  const [e, t] = [w / 32, w / 8];
  const x2 = w / 2 - (w * a2) / 2e5, x9 = w / 2 + (w * a2) / 2e5;
  const [x3, x8, x5, x6] = [x2 + e, x9 - e, x2 + t, x9 - t];
  const [x4, x7] = [x5 - e, x6 + e];
  const y1 = (h * a1) / 2e5, y2 = (h * a1) / 1e5, y4 = h - y2, hR = (h * a1) / 4e5;
  const outline = () => {
    const pen = from(0, 0).line(x4, 0).arc(e, hR, 270, 180).line(x3, y1).arc(e, hR, 270, -180).line(x8, y2).arc(e, hR, 90, -180).line(x7, y1).arc(e, hR, 90, 180);
    return pen.lines([w, 0], [w - t, y4 / 2], [w, y4], [x9, y4], [x9, h - hR]).arc(e, hR, 0, 90).line(x3, h).arc(e, hR, 90, 90).lines([x2, y4], [0, y4], [t, y4 / 2]);
  };
  const folds = [from(x5, hR).arc(e, hR, 0, 90).line(x3, y1).arc(e, hR, 270, -180).line(x5, y2).close(), from(x6, hR).arc(e, hR, 180, -90).line(x8, y1).arc(e, hR, 270, 180).line(x6, y2).close()];
  return withFolds(outline, folds, [[x5, hR, x5, y2], [x6, y2, x6, hR], [x2, y4, x2, y2 - hR], [x9, y2 - hR, x9, y4]]);
}

/** ellipseRibbon: ribbon's band and tails curved down in the middle (adj3: how far). */
function ellipseRibbon({ w, h, adj }: Box): PathPart[] {
  const a1 = pin(0, adj('adj1', 25_000), 1e5), a2 = pin(25_000, adj('adj2', 50_000), 75_000);
  const a3 = pin(Math.max(0, a1 - (1e5 - a1) / 2), adj('adj3', 12_500), a1);
  const hc = w / 2, x2 = hc - (w * a2) / 2e5, x3 = x2 + w / 8, x4 = w - x3, x5 = w - x2, x6 = w - w / 8;
  // The band's edges are parabolas: f1 their curvature, each point's depth f1·x·(1 − x/w).
  const dy1 = (h * a3) / 1e5, f1 = (4 * dy1) / w, depth = (x: number) => f1 * (x - (x * x) / w);
  const q1 = (h * a1) / 1e5, dy3 = q1 - dy1, rh = h - q1;
  const [y1, y3] = [depth(x3), depth(x2) + dy3];
  const cy3 = 2 * dy1 + 2 * dy3 - y3, [cx1, cy1, cx4] = [x3 / 2, (f1 * x3) / 2, x2 / 2], cy4 = (f1 * x2) / 2 + rh;
  const [y2, y5, y6, y7] = [((dy1 * 14) / 16 + rh) / 2, depth(x2) + rh, y3 + rh, y1 + dy3];
  const outline = () => from(0, 0).quad(cx1, cy1, x3, y1).line(x2, y3).quad(hc, cy3, x5, y3).line(x4, y1).quad(w - cx1, cy1, w, 0)
    .lines([x6, y2], [w, rh]).quad(w - cx4, cy4, x5, y5).line(x5, y6).quad(hc, cy3 + rh, x2, y6).line(x2, y5).quad(cx4, cy4, 0, rh).line(w / 8, y2);
  const fold = from(x3, y7).lines([x3, y1], [x2, y3]).quad(hc, cy3, x5, y3).lines([x4, y1], [x4, y7]).quad(hc, 2 * q1 - y7, x3, y7).close();
  return withFolds(outline, [fold], [[x2, y5, x2, y3], [x5, y3, x5, y5], [x3, y1, x3, y7], [x4, y7, x4, y1]]);
}

/** leftRightRibbon: two arrow-ended bands, the left one's passing behind the right one's in the middle. */
function leftRightRibbon({ w, h, ss, adj }: Box): PathPart[] {
  const a3 = pin(0, adj('adj3', 16_667), 33_333), a1 = pin(0, adj('adj1', 50_000), 1e5 - a3);
  const e = w / 32, a2 = pin(0, adj('adj2', 50_000), (1e5 * (w / 2 - e)) / ss);
  const hc = w / 2, vc = h / 2, x1 = (ss * a2) / 1e5, x4 = w - x1, x2 = hc - e, x3 = hc + e;
  const dy1 = (h * a1) / 2e5, dy2 = (h * a3) / 2e5, hR = (a3 * ss) / 4e5;
  const ly1 = vc - dy2 - dy1, ry4 = vc + dy1 + dy2, ly2 = ly1 + dy1, ly4 = ly2 * 2, ly3 = ly4 - ly1;
  const [ry1, ry2, ry3] = [h - ly4, h - ly3, h - ly2];
  const outline = () => from(0, ly2).lines([x1, 0], [x1, ly1], [hc, ly1]).arc(e, hR, 270, 180).arc(e, hR, 270, -180)
    .lines([x4, ry2], [x4, ry1], [w, ry3], [x4, h], [x4, ry4], [hc, ry4]).arc(e, hR, 90, 90).lines([x2, ly3], [x1, ly3], [x1, ly4]);
  const fold = from(x3, ly1 + hR).arc(e, hR, 0, 90).arc(e, hR, 270, -180).line(x3, ry2).close();
  return withFolds(outline, [fold], [[x3, ly1 + hR, x3, ry2], [x2, ry2 - hR, x2, ly3]]);
}

/** horizontalScroll: a sheet rolled at the top right and the bottom left (adj: the roll's size), the curls a darker shade. */
function horizontalScroll({ w, h, ss, adj }: Box): PathPart[] {
  const ch = (ss * pin(0, adj('adj', 12_500), 25_000)) / 1e5, [c2, c4] = [ch / 2, ch / 4];
  const [y3, y4, y6, y7, x3, x4] = [ch + c2, 2 * ch, h - ch, h - c2, w - ch, w - c2];
  const sheet = from(w, c2).arc(c2, c2, 0, 90).line(x4, c2).arc(c4, c4, 0, 180).lines([x3, ch], [c2, ch]).arc(c2, c2, 270, -90).line(0, y7).arc(c2, c2, 180, -180).lines([ch, y6], [x4, y6]).arc(c2, c2, 90, -90).close();
  const curls = from(c2, y4).arc(c2, c2, 90, -90).arc(c4, c4, 0, -180).close().move(x4, ch).arc(c2, c2, 90, -270).arc(c4, c4, 180, -180).close();
  const lines = from(0, y3).arc(c2, c2, 180, 90).lines([x3, ch], [x3, c2]).arc(c2, c2, 180, 180).line(w, y6 - c2).arc(c2, c2, 0, 90).lines([ch, y6], [ch, y7]).arc(c2, c2, 0, 180).close();
  lines.move(x3, ch).line(x4, ch).arc(c2, c2, 90, -90).move(x4, ch).line(x4, c2).arc(c4, c4, 0, 180);
  lines.move(c2, y4).line(c2, y3).arc(c4, c4, 180, 180).arc(c2, c2, 0, 180).move(ch, y3).line(ch, y6);
  return [fillOnly(sheet.ops), fillOnly(curls.ops, 'darkenLess'), strokeOnly(lines.ops)];
}

/** verticalScroll: horizontalScroll's sheet standing, rolled at the top left and the bottom right. */
function verticalScroll({ w, h, ss, adj }: Box): PathPart[] {
  const ch = (ss * pin(0, adj('adj', 12_500), 25_000)) / 1e5, [c2, c4] = [ch / 2, ch / 4];
  const [x3, x4, x6, x7, y3, y4] = [ch + c2, 2 * ch, w - ch, w - c2, h - ch, h - c2];
  const sheet = from(c2, h).arc(c2, c2, 90, -90).line(c2, y4).arc(c4, c4, 90, -180).lines([ch, y3], [ch, c2]).arc(c2, c2, 180, 90).line(x7, 0).arc(c2, c2, 270, 180).lines([x6, ch], [x6, y4]).arc(c2, c2, 0, 90).close();
  const curls = from(x4, c2).arc(c2, c2, 0, 90).arc(c4, c4, 90, 180).close().move(ch, y4).arc(c2, c2, 0, 270).arc(c4, c4, 270, 180).close();
  const lines = from(ch, y3).line(ch, c2).arc(c2, c2, 180, 90).line(x7, 0).arc(c2, c2, 270, 180).lines([x6, ch], [x6, y4]).arc(c2, c2, 0, 90).line(c2, h).arc(c2, c2, 90, 180).close();
  lines.move(x3, 0).arc(c2, c2, 270, 180).arc(c4, c4, 90, 180).line(x4, c2).move(x6, ch).line(x3, ch);
  lines.move(c2, y3).arc(c4, c4, 270, 180).line(ch, y4).move(c2, h).arc(c2, c2, 90, -90).line(ch, y3);
  return [fillOnly(sheet.ops), fillOnly(curls.ops, 'darkenLess'), strokeOnly(lines.ops)];
}

/**
 * wave and doubleWave: a band whose top and bottom edges are one or two S curves (adj1: their
 * height, in 100,000ths of the height; adj2: the band leaning left or right, the edges moved apart).
 */
function wave({ w, h, adj }: Box, name: string): PathPart[] {
  const double = name === 'doubleWave';
  const y1 = (h * pin(0, adj('adj1', double ? 6_250 : 12_500), double ? 12_500 : 20_000)) / 1e5;
  const of2 = (w * pin(-10_000, adj('adj2', 0), 10_000)) / 5e4;
  const [dy2, y4] = [(y1 * 10) / 3, h - y1];
  // The top edge runs from x2 to x8, the bottom one from x9 to x15: one of them shifted by the lean.
  const [x2, x8, x9, x15] = of2 > 0 ? [0, w - of2, of2, w] : [-of2, w, 0, w + of2];
  const run = x8 - x2, step = run / (double ? 6 : 3);
  const pen = from(x2, y1);
  if (double) pen.cubic(x2 + step, y1 - dy2, x2 + 2 * step, y1 + dy2, x2 + run / 2, y1).cubic(x2 + 4 * step, y1 - dy2, x2 + 5 * step, y1 + dy2, x8, y1);
  else pen.cubic(x2 + step, y1 - dy2, x2 + 2 * step, y1 + dy2, x8, y1);
  pen.line(x15, y4);
  if (double) pen.cubic(x9 + 5 * step, y4 + dy2, x9 + 4 * step, y4 - dy2, x9 + run / 2, y4).cubic(x9 + 2 * step, y4 + dy2, x9 + step, y4 - dy2, x9, y4);
  else pen.cubic(x9 + 2 * step, y4 + dy2, x9 + step, y4 - dy2, x9, y4);
  return [part(pen.close().ops)];
}

const upsideDown = (figure: Figure): Figure => (box, name) => mapped(figure(box, name), (x, y) => [x, box.h - y]);

export const BANNERS: Record<string, Figure> = {
  ribbon, ribbon2: upsideDown(ribbon), ellipseRibbon, ellipseRibbon2: upsideDown(ellipseRibbon), leftRightRibbon,
  horizontalScroll, verticalScroll, wave, doubleWave: wave,
};
