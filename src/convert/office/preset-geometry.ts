/**
 * Outlines other than rectangles, ellipses and lines, for shapes with `geometry: 'path'`: VML
 * freeforms (a v:shape's path attribute), DrawingML custom geometry (a:custGeom) and the common
 * DrawingML presets that are polygons (triangles, arrows, stars...). Each is kept in its own
 * coordinate space, stretched over the shape's box when it is drawn (layout/shape-paint.ts), as
 * Word does when a shape is resized.
 */
import type { FreeformPath, PathOp, PathPart } from './model';
import { attr, elements, type XmlElement } from '../../codecs/xml';
import { arcCurves } from '../../paint/arc';
import { PRESET_POLYGONS } from './preset-polygons';

/**
 * The parts of a VML path ("m0,0 l100,0,100,100 x e"), or undefined when it uses what is not read
 * here (formula references "@n", arcs, quadrant curves): such a shape is left out, as before.
 * Commands: m/t move (absolute/relative), l/r line, c/v Bézier curve, x close, e end of a part,
 * nf/ns no fill/no stroke for the part. Numbers may be left out (0) and separated by commas or spaces.
 */
export function vmlPathParts(path: string): PathPart[] | undefined {
  if (/@/.test(path)) return undefined;
  const parts: PathPart[] = [];
  let part: PathPart = { ops: [], fill: true, stroke: true };
  let x = 0, y = 0;
  const each = (n: number[], k: number, f: (v: number[]) => void) => {
    for (let i = 0; i + k <= n.length; i += k) f(n.slice(i, i + k));
  };
  // One pass over the characters (GASU.docx has 1,100 such paths; a regular-expression split took 16 µs each).
  const len = path.length;
  let at = 0;
  const isLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  while (at < len && !isLetter(path.charCodeAt(at))) at++;
  while (at < len) {
    const start = at;
    while (at < len && isLetter(path.charCodeAt(at))) at++;
    const letters = path.slice(start, at);
    // Parameters: separated by commas or spaces; one left out between commas is 0.
    const n: number[] = [];
    let commas = false;
    let inSegment = false; // the current comma-separated segment has a number
    while (at < len && !isLetter(path.charCodeAt(at))) {
      const c = path.charCodeAt(at);
      if (c === 44 /* , */) {
        if (!inSegment) n.push(0);
        commas = true;
        inSegment = false;
        at++;
      } else if (c === 32 || c === 9 || c === 10 || c === 13) at++;
      else {
        const from = at;
        while (at < len) {
          const d = path.charCodeAt(at);
          if (d === 44 || d === 32 || d === 9 || d === 10 || d === 13 || isLetter(d)) break;
          at++;
        }
        const v = Number(path.slice(from, at));
        if (!Number.isFinite(v)) return undefined;
        n.push(v);
        inSegment = true;
      }
    }
    if (commas && !inSegment) n.push(0);
    // "xe", "nfns": commands run together; the parameters belong to the last.
    const commands = letters!.toLowerCase().match(/nf|ns|ar|at|wa|wr|qx|qy|h[a-i]|[a-z]/g) ?? [];
    for (const [i, command] of commands.entries()) {
      const v = i === commands.length - 1 ? n : [];
      switch (command) {
        case 'm': each(v, 2, ([a, b]) => part.ops.push(['M', (x = a!), (y = b!)])); break;
        case 't': each(v, 2, ([a, b]) => part.ops.push(['M', (x += a!), (y += b!)])); break;
        case 'l': each(v, 2, ([a, b]) => part.ops.push(['L', (x = a!), (y = b!)])); break;
        case 'r': each(v, 2, ([a, b]) => part.ops.push(['L', (x += a!), (y += b!)])); break;
        case 'c': each(v, 6, ([a, b, c, d, e, f]) => part.ops.push(['C', a!, b!, c!, d!, (x = e!), (y = f!)])); break;
        case 'v':
          each(v, 6, ([a, b, c, d, e, f]) => {
            part.ops.push(['C', x + a!, y + b!, x + c!, y + d!, x + e!, y + f!]);
            x += e!;
            y += f!;
          });
          break;
        case 'x': part.ops.push(['Z']); break;
        case 'e':
          if (part.ops.length) parts.push(part);
          part = { ops: [], fill: true, stroke: true };
          break;
        case 'nf': part.fill = false; break;
        case 'ns': part.stroke = false; break;
        default: return undefined; // arcs, quadrants...: not read
      }
    }
  }
  if (part.ops.length) parts.push(part);
  return parts.length ? parts : undefined;
}

/** A v:shape's freeform: its path in the coordinate space its coordsize and coordorigin give (1000 × 1000 by default). */
export function vmlFreeform(path: string, coordsize?: string, coordorigin?: string): FreeformPath | undefined {
  const parts = vmlPathParts(path);
  if (!parts) return undefined;
  const pair = (v: string | undefined, d: number) => (v ?? '').split(',').map((s) => (s.trim() === '' ? d : parseFloat(s)));
  const [w = 1000, h = 1000] = pair(coordsize, 1000);
  const [ox = 0, oy = 0] = pair(coordorigin, 0);
  if (!(w > 0 && h > 0)) return undefined;
  return { width: w, height: h, parts: ox || oy ? parts.map((p) => ({ ...p, ops: p.ops.map((op) => shift(op, -ox, -oy)) })) : parts };
}

function shift(op: PathOp, dx: number, dy: number): PathOp {
  switch (op[0]) {
    case 'M':
    case 'L':
      return [op[0], op[1] + dx, op[2] + dy];
    case 'C':
      return ['C', op[1] + dx, op[2] + dy, op[3] + dx, op[4] + dy, op[5] + dx, op[6] + dy];
    default:
      return op;
  }
}

/**
 * DrawingML custom geometry (a:custGeom's a:pathLst): each a:path in its own w × h space (the
 * shape's extent when left out), here all put in the first one's. arcTo is drawn as Béziers from
 * the current point. Undefined when there is no path to draw or a point is a guide's name.
 */
export function drawingMlFreeform(custGeom: XmlElement, extentW: number, extentH: number): FreeformPath | undefined {
  const pathLst = elements(custGeom).find((e) => e.name === 'pathLst');
  if (!pathLst) return undefined;
  let width = 0, height = 0;
  const parts: PathPart[] = [];
  for (const p of elements(pathLst)) {
    if (p.name !== 'path') continue;
    const w = num(attr(p, 'w')) ?? extentW;
    const h = num(attr(p, 'h')) ?? extentH;
    if (!(w > 0 && h > 0)) continue;
    if (!width) [width, height] = [w, h];
    const sx = width / w, sy = height / h;
    const part: PathPart = { ops: [], fill: attr(p, 'fill') !== 'none', stroke: attr(p, 'stroke') !== '0' && attr(p, 'stroke') !== 'false' };
    let x = 0, y = 0;
    for (const c of elements(p)) {
      const pts: [number, number][] = [];
      for (const pt of elements(c)) {
        if (pt.name !== 'pt') continue;
        const px = num(attr(pt, 'x')), py = num(attr(pt, 'y'));
        if (px === undefined || py === undefined) return undefined; // a guide's name: formulas are not read
        pts.push([px * sx, py * sy]);
      }
      if (c.name === 'moveTo' && pts[0]) part.ops.push(['M', (x = pts[0][0]), (y = pts[0][1])]);
      else if (c.name === 'lnTo' && pts[0]) part.ops.push(['L', (x = pts[0][0]), (y = pts[0][1])]);
      else if (c.name === 'cubicBezTo' && pts.length === 3) {
        part.ops.push(['C', pts[0]![0], pts[0]![1], pts[1]![0], pts[1]![1], (x = pts[2]![0]), (y = pts[2]![1])]);
      } else if (c.name === 'quadBezTo' && pts.length === 2) {
        // The quadratic as a cubic: control points two thirds of the way to the quadratic's one.
        const [q, e] = [pts[0]!, pts[1]!];
        part.ops.push(['C', x + ((q[0] - x) * 2) / 3, y + ((q[1] - y) * 2) / 3, e[0] + ((q[0] - e[0]) * 2) / 3, e[1] + ((q[1] - e[1]) * 2) / 3, (x = e[0]), (y = e[1])]);
      } else if (c.name === 'arcTo') {
        const wR = num(attr(c, 'wR')), hR = num(attr(c, 'hR')), st = num(attr(c, 'stAng')), sw = num(attr(c, 'swAng'));
        if (wR === undefined || hR === undefined || st === undefined || sw === undefined) return undefined;
        // arcTo's angles are a ray's from the centre in the path's own space, not the ellipse's
        // parameter; the parameter stays the same when the path is stretched over the box.
        const from = ellipseParameter(st / 60000, wR, hR);
        [x, y] = arc(part.ops, x, y, wR * sx, hR * sy, from, ellipseParameter((st + sw) / 60000, wR, hR) - from);
      } else if (c.name === 'close') part.ops.push(['Z']);
    }
    if (part.ops.length) parts.push(part);
  }
  return parts.length ? { width, height, parts } : undefined;
}

const num = (v: string | undefined): number | undefined => (v !== undefined && v.trim() !== '' && Number.isFinite(+v) ? +v : undefined);

/**
 * An elliptical arc from (x, y), which lies on the ellipse at angle `start` (degrees, clockwise
 * in y-down space), sweeping `sweep` degrees; appended as Béziers of at most 90° (paint/arc.ts). Returns its end.
 */
export function arc(ops: PathOp[], x: number, y: number, rx: number, ry: number, start: number, sweep: number): [number, number] {
  const rad = (d: number) => (d * Math.PI) / 180;
  const cx = x - rx * Math.cos(rad(start)), cy = y - ry * Math.sin(rad(start));
  for (const curve of arcCurves(cx, cy, rx, ry, start, sweep)) ops.push(['C', ...curve]);
  const end = rad(start + sweep);
  return [cx + rx * Math.cos(end), cy + ry * Math.sin(end)];
}

/**
 * An ellipse's parameter at the angle a ray from its centre makes: arcTo's angles are the ray's
 * (45° on a wide ellipse is below its corner's diagonal), the parametric form's are not. Kept on
 * the same turn as `degrees`, so sweeps keep their direction and length.
 */
export function ellipseParameter(degrees: number, rx: number, ry: number): number {
  if (rx === ry) return degrees;
  const r = (degrees * Math.PI) / 180;
  const t = (Math.atan2(rx * Math.sin(r), ry * Math.cos(r)) * 180) / Math.PI;
  return degrees + ((((t - degrees) % 360) + 540) % 360) - 180;
}

type Point = [number, number];
const polygon = (w: number, h: number, points: Point[]): FreeformPath => ({
  width: w,
  height: h,
  parts: [{ ops: [...points.map(([x, y], i): PathOp => [i ? 'L' : 'M', x, y]), ['Z']], fill: true, stroke: true }],
});

/**
 * The DrawingML presets that are polygons (preset-polygons.ts), in the shape's own w × h, with
 * the adjustments given (an a:avLst's, as presetAdjust reads them) or their defaults. Undefined
 * for others.
 */
export function presetFreeform(prst: string, w: number, h: number, adjust: Partial<Record<string, number>> = {}): FreeformPath | undefined {
  if (!(w > 0 && h > 0)) return undefined;
  const corners = PRESET_POLYGONS.get(prst);
  // An adjustment past a few turns changes nothing; kept finite for the arithmetic.
  const adj = (name: string, preset: number) => {
    const given = adjust[name] ?? (name === 'adj1' ? adjust['adj'] : undefined);
    return given !== undefined && Number.isFinite(given) ? Math.max(-1e8, Math.min(given, 1e8)) : preset;
  };
  return corners ? polygon(w, h, corners({ w, h, ss: Math.min(w, h), hc: w / 2, vc: h / 2, adj })) : undefined;
}

/**
 * OfficeArt shape types (.doc, and VML's o:spt / #_x0000_t<n>) that are one of the presets above,
 * with about the same default look (not the trapezoid: OfficeArt's is DrawingML's upside down).
 */
export const OFFICE_ART_PRESETS: Record<number, string> = {
  4: 'diamond', 5: 'triangle', 6: 'rtTriangle', 7: 'parallelogram', 9: 'hexagon', 10: 'octagon', 11: 'plus',
  12: 'star5', 55: 'chevron', 56: 'pentagon', 110: 'flowChartDecision', 111: 'flowChartInputOutput', 127: 'flowChartExtract', 128: 'flowChartMerge',
};
