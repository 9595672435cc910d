/**
 * The DrawingML action buttons, from ECMA-376's shape definitions: a box with an icon in its
 * middle (in a square three quarters of the shorter side), the icon a darker (or lighter) shade
 * of the fill, outlined.
 */
import type { PathOp, PathPart, Shade } from './model';
import { from } from './preset-pen';
import { fillOnly, poly, strokeOnly, type Box } from './preset-parts';

type Point = [number, number];

/** The icon's square: its left, top and size, and a point at fractions of it. */
interface Square {
  l: number;
  t: number;
  s: number;
  at: (fx: number, fy: number) => Point;
}

/** An icon: its shaded fills in order, and what of it is stroked (its fills' outlines unless told). */
interface Icon {
  fills: [Shade, PathOp[]][];
  strokes?: PathOp[];
}

function square({ w, h, ss }: Box): Square {
  const s = (ss * 3) / 4, l = w / 2 - s / 2, t = h / 2 - s / 2;
  return { l, t, s, at: (fx, fy) => [l + fx * s, t + fy * s] };
}

/** A polygon through points given in fractions of the icon's square. */
const shape = (q: Square, points: Point[]): PathOp[] => poly(points.map(([fx, fy]) => q.at(fx, fy)));

const ICONS: Record<string, (q: Square) => Icon> = {
  actionButtonBlank: () => ({ fills: [] }),
  actionButtonBackPrevious: (q) => ({ fills: [['darken', shape(q, [[0, 0.5], [1, 0], [1, 1]])]] }),
  actionButtonForwardNext: (q) => ({ fills: [['darken', shape(q, [[1, 0.5], [0, 0], [0, 1]])]] }),
  actionButtonBeginning: (q) => ({ fills: [['darken', [...shape(q, [[0.25, 0.5], [1, 0], [1, 1]]), ...shape(q, [[0.125, 0], [0, 0], [0, 1], [0.125, 1]])]]] }),
  actionButtonEnd: (q) => ({ fills: [['darken', [...shape(q, [[0.75, 0.5], [0, 0], [0, 1]]), ...shape(q, [[0.875, 0], [1, 0], [1, 1], [0.875, 1]])]]] }),
  actionButtonDocument: (q) => {
    // A page (narrower than the square: 9/16 of it) with its top right corner folded down.
    const [l, r, fold] = [0.125, 0.875, 0.25];
    const page = shape(q, [[l, 0], [r - fold, 0], [r, fold], [r, 1], [l, 1]]);
    const crease = poly([q.at(r, fold), q.at(r - fold, fold), q.at(r - fold, 0)], false);
    return { fills: [['darkenLess', shape(q, [[l, 0], [r - fold, 0], [r - fold, fold], [r, fold], [r, 1], [l, 1]])], ['darken', shape(q, [[r - fold, 0], [r - fold, fold], [r, fold]])]], strokes: [...page, ...crease] };
  },
  actionButtonHome: (q) => {
    const f = (n: number) => n / 16;
    const chimney = shape(q, [[f(13), f(5)], [f(13), f(1)], [f(11), f(1)], [f(11), f(3)]]);
    const walls = shape(q, [[f(2), 0.5], [f(2), 1], [f(7), 1], [f(7), 0.75], [f(9), 0.75], [f(9), 1], [f(14), 1], [f(14), 0.5]]);
    const roof = shape(q, [[0.5, 0], [0, 0.5], [1, 0.5]]), door = shape(q, [[f(7), 0.75], [f(9), 0.75], [f(9), 1], [f(7), 1]]);
    const outline = shape(q, [[0.5, 0], [f(11), f(3)], [f(11), f(1)], [f(13), f(1)], [f(13), f(5)], [1, 0.5], [f(14), 0.5], [f(14), 1], [f(2), 1], [f(2), 0.5], [0, 0.5]]);
    const lines = [...poly([q.at(f(11), f(3)), q.at(f(13), f(5))], false), ...poly([q.at(f(14), 0.5), q.at(f(2), 0.5)], false), ...poly([q.at(f(7), 1), q.at(f(7), 0.75), q.at(f(9), 0.75), q.at(f(9), 1)], false)];
    return { fills: [['darkenLess', [...chimney, ...walls]], ['darken', [...roof, ...door]]], strokes: [...outline, ...lines] };
  },
  actionButtonHelp: (q) => {
    // A question mark: its hook of arcs down to the stem, and its dot.
    const { s } = q, u = s / 28;
    const mark = from(...q.at(3 / 14, 2 / 7)).arc(8 * u, 8 * u, 180, 180).arc(4 * u, 6 * u, 0, 90).arc(2 * u, 3 * u, 270, -90).lines(q.at(4 / 7, 0.75), q.at(3 / 7, 0.75), q.at(3 / 7, 17 / 28));
    mark.arc(4 * u, 6 * u, 180, 90).arc(2 * u, 3 * u, 90, -90).arc(4 * u, 4 * u, 0, -180).close();
    const dot = from(...q.at(0.5, 11 / 14)).arc(3 * u, 3 * u, 270, 360).close();
    return { fills: [['darken', [...mark.ops, ...dot.ops]]] };
  },
  actionButtonInformation: (q) => {
    const { s } = q;
    const disc = from(q.l + s / 2, q.t).arc(s / 2, s / 2, 270, 360).close();
    const dot = from(...q.at(0.5, 1 / 32)).arc((s * 3) / 32, (s * 3) / 32, 270, 360).close();
    const body = shape(q, [[5 / 16, 5 / 16], [19 / 32, 5 / 16], [19 / 32, 13 / 16], [11 / 16, 13 / 16], [11 / 16, 7 / 8], [5 / 16, 7 / 8], [5 / 16, 13 / 16], [13 / 32, 13 / 16], [13 / 32, 3 / 8], [5 / 16, 3 / 8]]);
    return { fills: [['darken', disc.ops], ['lighten', [...dot.ops, ...body]]] };
  },
  actionButtonMovie: (q) => {
    // A film camera, its outline in 21,600ths of the square.
    const points: Point[] = [[0, 5280], [0, 9555], [1455, 9555], [1905, 9067], [2325, 9067], [2325, 15592], [17010, 15592], [17010, 13342], [19335, 13342], [20595, 14580], [21600, 14580], [21600, 6630], [20595, 6630], [19725, 7492], [17010, 7492], [17010, 6630], [16155, 5730], [1905, 5730], [1455, 5280]];
    return { fills: [['darken', shape(q, points.map(([x, y]): Point => [x / 21_600, y / 21_600]))]] };
  },
  actionButtonReturn: (q) => {
    // An arrow pointing up on the right, its shaft curving down, left and back up.
    const { s } = q, [r1, r2] = [s / 8, (s * 3) / 8];
    const arrow = from(...q.at(1, 0.25)).lines(q.at(0.75, 0), q.at(0.5, 0.25), q.at(5 / 8, 0.25), q.at(5 / 8, 5 / 8)).arc(r1, r1, 0, 90).line(...q.at(3 / 8, 0.75)).arc(r1, r1, 90, 90);
    arrow.lines(q.at(0.25, 0.25), q.at(0, 0.25), q.at(0, 5 / 8)).arc(r2, r2, 180, -90).line(...q.at(0.5, 1)).arc(r2, r2, 90, -90).line(...q.at(7 / 8, 0.25)).close();
    return { fills: [['darken', arrow.ops]] };
  },
  actionButtonSound: (q) => {
    const speaker = shape(q, [[0, 5 / 16], [0, 11 / 16], [5 / 16, 11 / 16], [5 / 8, 1], [5 / 8, 0], [5 / 16, 5 / 16]]);
    // Three lines fanning out from the speaker: from 3/4 of the way across at each height to the square's edge.
    const waves = [[5 / 16, 1 / 8], [0.5, 0.5], [11 / 16, 7 / 8]].flatMap(([y0, y1]) => poly([q.at(0.75, y0!), q.at(1, y1!)], false));
    return { fills: [['darken', speaker]], strokes: [...speaker, ...waves] };
  },
};

/** The button: its box filled, its icon's shades over it, then the icon's and the box's outlines. */
function actionButton(box: Box, name: string): PathPart[] {
  const rect = poly([[0, 0], [box.w, 0], [box.w, box.h], [0, box.h]]);
  const icon = ICONS[name]!(square(box));
  const strokes = icon.strokes ?? icon.fills.flatMap(([, ops]) => ops);
  return [fillOnly(rect), ...icon.fills.map(([shade, ops]) => fillOnly(ops, shade)), strokeOnly([...strokes, ...rect])];
}

export const BUTTONS: Record<string, (box: Box, name: string) => PathPart[]> = Object.fromEntries(Object.keys(ICONS).map((name) => [name, actionButton]));
