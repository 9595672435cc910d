/**
 * The DrawingML maths signs, from ECMA-376's shape definitions: bars 73.49 % of the width long
 * (adj1: their thickness, in 100,000ths of the height, or of the shorter side for the plus and the
 * cross), the equals sign's gap adj2 (adj3 for the not-equal sign), the division sign's dots.
 */
import type { PathOp, PathPart } from './model';
import { from, pin } from './preset-pen';
import { part, poly, type Box } from './preset-parts';

/** A bar across the middle 73.49 % of the width, from y0 to y1. */
const bar = (w: number, y0: number, y1: number): PathOp[] => {
  const [x1, x2] = [w / 2 - (w * 73_490) / 2e5, w / 2 + (w * 73_490) / 2e5];
  return poly([[x1, y0], [x2, y0], [x2, y1], [x1, y1]]);
};

function mathMinus({ w, h, adj }: Box): PathPart[] {
  const dy = (h * pin(0, adj('adj1', 23_520), 1e5)) / 2e5;
  return [part(bar(w, h / 2 - dy, h / 2 + dy))];
}

/** The equals sign's bars: their thickness and the gap between them. */
function equalBars({ h, adj }: Box, gapName: string): [number, number, number, number] {
  const a1 = pin(0, adj('adj1', 23_520), gapName === 'adj3' ? 50_000 : 36_745);
  const dy1 = (h * a1) / 1e5, dy2 = (h * pin(0, adj(gapName, 11_760), 1e5 - 2 * a1)) / 2e5;
  return [h / 2 - dy2 - dy1, h / 2 - dy2, h / 2 + dy2, h / 2 + dy2 + dy1];
}

function mathEqual(box: Box): PathPart[] {
  const [y1, y2, y3, y4] = equalBars(box, 'adj2');
  return [part([...bar(box.w, y1, y2), ...bar(box.w, y3, y4)])];
}

function mathDivide({ w, h, adj }: Box): PathPart[] {
  const a1 = pin(1000, adj('adj1', 23_520), 36_745);
  const a3 = pin(1000, adj('adj3', 11_760), Math.min((73_490 - a1) / 4, (36_745 * w) / h));
  const a2 = pin(0, adj('adj2', 5_880), 73_490 - 4 * a3 - a1);
  const dy1 = (h * a1) / 2e5, gap = (h * a2) / 1e5, r = (h * a3) / 1e5;
  const top = h / 2 - dy1 - gap - 2 * r;
  const dot = (y: number) => from(w / 2, y).arc(r, r, 270, 360).close().ops;
  return [part([...dot(top), ...dot(h - top - 2 * r), ...bar(w, h / 2 - dy1, h / 2 + dy1)])];
}

function mathPlus({ w, h, ss, adj }: Box): PathPart[] {
  const t = (ss * pin(0, adj('adj1', 23_520), 73_490)) / 2e5;
  const [hc, vc, dx, dy] = [w / 2, h / 2, (w * 73_490) / 2e5, (h * 73_490) / 2e5];
  return [part(poly([[hc - dx, vc - t], [hc - t, vc - t], [hc - t, vc - dy], [hc + t, vc - dy], [hc + t, vc - t], [hc + dx, vc - t], [hc + dx, vc + t], [hc + t, vc + t], [hc + t, vc + dy], [hc - t, vc + dy], [hc - t, vc + t], [hc - dx, vc + t]]))];
}

/** mathMultiply: two bars along the box's diagonals, 51.97 % of the diagonal short of its corners. */
function mathMultiply({ w, h, ss, adj }: Box): PathPart[] {
  const th = (ss * pin(0, adj('adj1', 23_520), 51_965)) / 1e5;
  const a = Math.atan2(h, w), [sa, ca, ta] = [Math.sin(a), Math.cos(a), Math.tan(a)];
  const lM = Math.hypot(w, h) * (1 - 0.51965);
  const [xM, yM] = [(ca * lM) / 2, (sa * lM) / 2];
  const [xA, yA, xB, yB] = [xM - (sa * th) / 2, yM + (ca * th) / 2, xM + (sa * th) / 2, yM - (ca * th) / 2];
  const yC = (w / 2 - xB) * ta + yB, xFE = (h / 2 - yA) / ta;
  return [part(poly([[xA, yA], [xB, yB], [w / 2, yC], [w - xB, yB], [w - xA, yA], [w - xA - xFE, h / 2], [w - xA, h - yA], [w - xB, h - yB], [w / 2, h - yC], [xB, h - yB], [xA, h - yA], [xA + xFE, h / 2]]))];
}

/** mathNotEqual: the equals sign crossed by a slash at adj2 (70° to 110°, 60,000ths of a degree) from the horizontal. */
function mathNotEqual(box: Box): PathPart[] {
  const { w, h, adj } = box, [hc, hd2] = [w / 2, h / 2];
  const [y1, y2, y3, y4] = equalBars(box, 'adj3');
  const lean = ((pin(4_200_000, adj('adj2', 6_600_000), 6_600_000) / 60_000 - 90) * Math.PI) / 180;
  const dx = hd2 * Math.tan(lean), len = Math.hypot(dx, hd2), bw = ((len * (y2 - y1)) / hd2);
  // The slash's left edge at each height, and its right edge a bar's width over; its ends cut square.
  const x7 = hc + dx - bw / 2, at = (y: number) => x7 - (dx * y) / hd2;
  const [cut, rise] = [((y2 - y1) * hd2) / len, ((y2 - y1) * dx) / len];
  const [rx, ry, lx, ly] = lean > 0 ? [x7 + cut, rise, x7, 0] : [x7 + bw, 0, x7 + bw - cut, -rise];
  const [x1, x8] = [hc - (w * 73_490) / 2e5, hc + (w * 73_490) / 2e5];
  return [part(poly([
    [x1, y1], [at(y1), y1], [lx, ly], [rx, ry], [at(y1) + bw, y1], [x8, y1], [x8, y2], [at(y2) + bw, y2], [at(y3) + bw, y3], [x8, y3], [x8, y4], [at(y4) + bw, y4],
    [w - lx, h - ly], [w - rx, h - ry], [at(y4), y4], [x1, y4], [x1, y3], [at(y3), y3], [at(y2), y2], [x1, y2],
  ]))];
}

export const MATHS: Record<string, (box: Box) => PathPart[]> = { mathMinus, mathEqual, mathDivide, mathPlus, mathMultiply, mathNotEqual };
