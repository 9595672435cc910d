/**
 * The DrawingML arrows bent round an ellipse (circularArrow, leftCircularArrow,
 * leftRightCircularArrow) and the no-smoking sign, from ECMA-376's shape definitions. An arrow is
 * a band between two ellipses from one angle to another, with a head (or two) whose base is
 * square to the band at its end and whose tip lies on the band's middle line further round.
 */
import type { PathOp, PathPart } from './model';
import { degrees, from, onEllipseAt, pin } from './preset-pen';
import { fillOnly, part, strokeOnly, type Box } from './preset-parts';

type Point = [number, number];

const rad = (d: number) => (d * Math.PI) / 180;
/** The angle of (x, y) from the x axis in degrees, from 0 up to 360. */
const angleOf = (x: number, y: number) => (((Math.atan2(y, x) * 180) / Math.PI) % 360 + 360) % 360;
const plus = (p: Point, r: number, d: number): Point => [p[0] + r * Math.cos(rad(d)), p[1] + r * Math.sin(rad(d))];

/**
 * Where the line through p and q meets the ellipse of radii rx, ry round (cx, cy): the crossing
 * nearer `near`, found (as the specification does) on the circle the ellipse is squeezed to.
 */
function crossing(p: Point, q: Point, cx: number, cy: number, rx: number, ry: number, near: Point): Point {
  const r = Math.min(rx, ry);
  // An ellipse shrunk to its centre (a band as thick as the shape) is met there.
  if (!(r > 0)) return [cx, cy];
  const [sx, sy] = [r / rx, r / ry];
  const [px, py, qx, qy, nx, ny] = [(p[0] - cx) * sx, (p[1] - cy) * sy, (q[0] - cx) * sx, (q[1] - cy) * sy, (near[0] - cx) * sx, (near[1] - cy) * sy];
  const [dx, dy] = [qx - px, qy - py];
  const a = dx * dx + dy * dy || 1e-9, b = 2 * (px * dx + py * dy), c = px * px + py * py - r * r;
  const root = Math.sqrt(Math.max(0, b * b - 4 * a * c));
  const at = (t: number): Point => [px + t * dx, py + t * dy];
  const [s1, s2] = [at((-b + root) / (2 * a)), at((-b - root) / (2 * a))];
  const [x, y] = Math.hypot(s1[0] - nx, s1[1] - ny) <= Math.hypot(s2[0] - nx, s2[1] - ny) ? s1 : s2;
  return [cx + x / sx, cy + y / sy];
}

/**
 * The furthest the head's tip may be turned past the band's end (degrees): where the line from
 * the end's middle point (dx, dy from the centre) just touches the inner circle of radius rI.
 */
function headRoom(dx: number, dy: number, rI: number, end: number): number {
  const [u1, u2, u3] = [dx * dx || 1e-9, dy * dy || 1e-9, rI * rI];
  const slope = (1 + Math.sqrt(Math.max(0, 1 - ((u1 - u3) * (u2 - u3)) / (u1 * u2)))) / ((u1 - u3) / (dx || 1e-9) / (dy || 1e-9));
  const turn = ((((Math.atan2(slope, 1) * 180) / Math.PI + 360) % 360) - end + 360) % 360;
  return Math.abs(turn > 180 ? turn - 360 : turn);
}

/** The band's ellipses (outer, inner, middle radii) and its thickness and head's half width, round the box's centre. */
function band({ w, h, ss, adj }: Box) {
  const a5 = pin(0, adj('adj5', 12_500), 25_000), a1 = pin(0, adj('adj1', 12_500), a5 * 2);
  const th = (ss * a1) / 1e5, thh = (ss * a5) / 1e5;
  const [rw1, rh1] = [w / 2 + th / 2 - thh, h / 2 + th / 2 - thh];
  return { hc: w / 2, vc: h / 2, th, thh, rw1, rh1, rw2: rw1 - th, rh2: rh1 - th, rw3: rw1 - th / 2, rh3: rh1 - th / 2 };
}

type Band = ReturnType<typeof band>;

/** A head at the band's angle `end`, its tip turned `turn` degrees further: tip, base corners, and where its base line meets the band's edges. */
function head(b: Band, end: number, turn: number) {
  const mid = onEllipseAt(b.hc, b.vc, b.rw3, b.rh3, end);
  const tipAngle = end + turn;
  const tip = onEllipseAt(b.hc, b.vc, b.rw3, b.rh3, tipAngle);
  const [outer, inner] = [plus(mid, b.thh, tipAngle), plus(mid, -b.thh, tipAngle)];
  const onOuter = crossing(inner, outer, b.hc, b.vc, b.rw1, b.rh1, outer);
  const onInner = crossing(inner, outer, b.hc, b.vc, b.rw2, b.rh2, inner);
  // A head narrower than the band is cut to it: its corners are where its base meets the edges.
  const narrow = Math.hypot(onOuter[0] - onInner[0], onOuter[1] - onInner[1]) / 2 > b.thh;
  return { mid, tip, tipAngle, outer: narrow ? onOuter : outer, inner: narrow ? onInner : inner, onOuter, onInner, narrow };
}

/** How far the head may turn (headRoom at the band's end) and how far it is asked to, both in degrees. */
function headTurn(b: Band, end: number, given: number): [number, number] {
  const [dx, dy] = onEllipseAt(0, 0, b.rw3, b.rh3, end);
  return [headRoom(dx, dy, Math.min(b.rw2, b.rh2), end), degrees(given)];
}

/** circularArrow: clockwise from adj4 to adj3, the head's tip adj2 further round (angles in 60,000ths of a degree). */
function circularArrow(box: Box): PathPart[] {
  const b = band(box);
  const end = degrees(pin(1, box.adj('adj3', 20_457_681), 21_599_999)), start = degrees(pin(0, box.adj('adj4', 10_800_000), 21_599_999));
  const [room, given] = headTurn(b, end, box.adj('adj2', 1_142_319));
  const hd = head(b, end, pin(0, given, room));
  const sweep = ((angleOf(hd.onOuter[0] - b.hc, hd.onOuter[1] - b.vc) - start) % 360 + 360) % 360 || 360;
  const innerStart = angleOf(hd.onInner[0] - b.hc, hd.onInner[1] - b.vc);
  const back = start - innerStart > 0 ? start - innerStart - 360 : start - innerStart;
  const pen = from(...onEllipseAt(b.hc, b.vc, b.rw1, b.rh1, start)).arc(b.rw1, b.rh1, start, sweep).lines(hd.outer, hd.tip, hd.inner, hd.onInner);
  return [part(pen.arc(b.rw2, b.rh2, innerStart, back).close().ops)];
}

/** leftCircularArrow: the same band drawn anticlockwise, its head at the start's side (adj2 turning it back). */
function leftCircularArrow(box: Box): PathPart[] {
  const b = band(box);
  const end = degrees(pin(1, box.adj('adj3', 1_142_319), 21_599_999)), start = degrees(pin(0, box.adj('adj4', 10_800_000), 21_599_999));
  const [room, given] = headTurn(b, end, box.adj('adj2', -1_142_319));
  const hd = head(b, end, pin(-room, -Math.abs(given), 0));
  const innerStart = angleOf(hd.onInner[0] - b.hc, hd.onInner[1] - b.vc);
  const innerSweep = start - innerStart > 0 ? start - innerStart : start - innerStart + 360;
  const outerFrom = angleOf(hd.onOuter[0] - b.hc, hd.onOuter[1] - b.vc);
  const sweep = outerFrom - start > 0 ? outerFrom - start - 360 : outerFrom - start;
  const pen = from(...onEllipseAt(b.hc, b.vc, b.rw1, b.rh1, start)).line(...onEllipseAt(b.hc, b.vc, b.rw2, b.rh2, start));
  pen.arc(b.rw2, b.rh2, innerStart + innerSweep, -innerSweep).lines(hd.inner, hd.tip, hd.outer, hd.onOuter).arc(b.rw1, b.rh1, start + sweep, -sweep);
  return [part(pen.close().ops)];
}

/** leftRightCircularArrow: circularArrow with a second head at its start, both turned adj2 outwards, the band between their bases. */
function leftRightCircularArrow(box: Box): PathPart[] {
  const b = band(box);
  const end = degrees(pin(1, box.adj('adj3', 20_457_681), 21_599_999)), start = degrees(pin(0, box.adj('adj4', 11_942_319), 21_599_999));
  const [room, given] = headTurn(b, end, box.adj('adj2', 1_142_319));
  const turn = pin(0, given, room), hd = head(b, end, turn);
  // The start's head mirrors the end's: its base as far back from the start as the end's is past the end.
  const startMid = onEllipseAt(b.hc, b.vc, b.rw3, b.rh3, start), back = start - turn;
  const outerEnd = angleOf(hd.onOuter[0] - b.hc, hd.onOuter[1] - b.vc), innerFrom = angleOf(hd.onInner[0] - b.hc, hd.onInner[1] - b.vc);
  const outerStart = ((start - ((outerEnd - end + 360) % 360)) % 360 + 360) % 360;
  const sweep = ((outerEnd - outerStart) % 360 + 360) % 360 || 360;
  const offset = innerFrom - end > 0 ? innerFrom - end - 360 : innerFrom - end;
  const innerEnd = start - offset - 360 > 0 ? start - offset - 360 : start - offset;
  const innerSweep = innerEnd - innerFrom > 0 ? innerEnd - innerFrom - 360 : innerEnd - innerFrom;
  const [e, d] = [onEllipseAt(b.hc, b.vc, b.rw1, b.rh1, outerStart), onEllipseAt(b.hc, b.vc, b.rw2, b.rh2, innerEnd)];
  const [k, j] = hd.narrow ? [e, d] : [plus(startMid, b.thh, back), plus(startMid, -b.thh, back)];
  const pen = from(...onEllipseAt(b.hc, b.vc, b.rw3, b.rh3, back)).lines(k, e).arc(b.rw1, b.rh1, outerStart, sweep).lines(hd.outer, hd.tip, hd.inner, hd.onInner);
  return [part(pen.arc(b.rw2, b.rh2, innerFrom, innerSweep).line(...j).close().ops)];
}

/**
 * noSmoking: a ring (adj: its thickness) crossed by a bar from top left to bottom right. Filled as
 * one outline (the ring, into each half of the hole and back out along the bar), as the drawing
 * fills each outline on its own; its edges stroked apart.
 */
function noSmoking({ w, h, ss, adj }: Box): PathPart[] {
  const [hc, vc] = [w / 2, h / 2], dr = (ss * pin(0, adj('adj', 18_750), 50_000)) / 1e5;
  const [iw, ih] = [hc - dr, vc - dr];
  const ang = (Math.atan2(h, w) * 180) / Math.PI;
  // The bar's half width dr/2 seen from the centre at the inner ellipse's radius along the bar.
  const n = (iw * ih) / (Math.hypot(ih * Math.cos(rad(ang)), iw * Math.sin(rad(ang))) || 1);
  const dang = (Math.atan2(dr / 2, n) * 180) / Math.PI, sweep = 2 * dang - 180;
  const outer: PathOp[] = from(hc + hc, vc).arc(hc, vc, 0, 360).close().ops;
  const half = (startAngle: number) => from(...onEllipseAt(hc, vc, iw, ih, startAngle)).arc(iw, ih, startAngle, sweep).close();
  const p = onEllipseAt(hc, vc, hc, vc, ang), q1 = onEllipseAt(hc, vc, iw, ih, ang - dang), e2 = onEllipseAt(hc, vc, iw, ih, ang + dang);
  const fill = from(...p).arc(hc, vc, ang, 360).line(...q1).arc(iw, ih, ang - dang, sweep).lines(q1, p, e2, onEllipseAt(hc, vc, iw, ih, ang - dang - 180));
  fill.arc(iw, ih, ang - dang - 180, sweep).lines(e2, p).close();
  return [fillOnly(fill.ops), strokeOnly([...outer, ...half(ang - dang).ops, ...half(ang - dang - 180).ops])];
}

export const CIRCULAR: Record<string, (box: Box) => PathPart[]> = { circularArrow, leftCircularArrow, leftRightCircularArrow, noSmoking };
