/**
 * A shape's fill and outline as PDF operators, for a form XObject that stands where the shape is
 * drawn (picture-forms.ts contentForm), without a call into MuPDF and a number printed there
 * for every point of the outline. The operators are written as bytes, in hundredths of a point
 * (the form's matrix scales them back): integers print fast and make no garbage, where printing
 * decimals cost as much as MuPDF's device did.
 */
import type { Shape } from '../model/index';
import { rgb } from './shape-paint';
import { paintSteps, rotationAbout, shadedColor, tracedStep, type Box, type PathSink } from '../../office/shape-outline';

/** Operators of a form in hundredths of a point of page space, and the box (in that space) that holds all it draws. */
export interface ShapeContent {
  content: Uint8Array;
  bbox: [number, number, number, number];
}

/** Units of the form's space per point. */
export const FORM_UNITS = 100;

/**
 * Outlines with more points than this are drawn as forms (shape-pictures.ts): below it, the calls
 * into MuPDF cost less than a form object adds to the file (GASU.docx's 1,500 small shapes made it
 * 400 KB bigger as forms).
 */
const LONG_OUTLINE_POINTS = 256;

/** Whether a shape is a freeform with an outline long enough to be written as a form. */
export function longOutline(shape: Shape): boolean {
  if (shape.geometry !== 'path' || !shape.path) return false;
  let points = 0;
  for (const part of shape.path.parts) points += part.ops.length;
  return points > LONG_OUTLINE_POINTS;
}

/** ASCII bytes, grown as needed. */
class Bytes {
  buf = new Uint8Array(4096);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }
  /** An integer and a space. */
  int(v: number): void {
    this.room(13);
    if (v < 0) {
      this.buf[this.length++] = 45; // -
      v = -v;
    }
    let digits = 1;
    for (let p = 10; p <= v; p *= 10) digits++;
    for (let i = this.length + digits - 1; i >= this.length; i--, v = (v / 10) | 0) this.buf[i] = 48 + (v % 10);
    this.length += digits;
    this.buf[this.length++] = 32;
  }
  /** Text (ASCII) as it is. */
  text(s: string): void {
    this.room(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.length++] = s.charCodeAt(i);
  }
  /** An operator of one letter and a newline. */
  op(code: number): void {
    this.room(2);
    this.buf[this.length++] = code;
    this.buf[this.length++] = 10;
  }
}

const M = 109, L = 108, C = 99, H = 104;
const units = (v: number): number => Math.round(v * FORM_UNITS);

/**
 * A traced outline as path operators (in form units), with the bounds of its points (curves'
 * control points included). Curves and lines that go nowhere at this precision are written as
 * MuPDF's path builder writes them (fz_curveto, fz_lineto): a curve whose control points sit on
 * its ends is a line, one that stays on its point (after anything but a move) is left out, and so
 * is a line to where the path already is. Freeforms traced by hand are full of them: half of
 * kwsymphony.doc's plan.
 */
class PathOperators implements PathSink {
  x0 = Infinity;
  y0 = Infinity;
  x1 = -Infinity;
  y1 = -Infinity;
  /** The current point as written, and whether the last operator was a move. */
  private cx = NaN;
  private cy = NaN;
  private moved = false;
  empty = true;

  constructor(readonly out: Bytes) {}

  private see(x: number, y: number): void {
    if (x < this.x0) this.x0 = x;
    if (x > this.x1) this.x1 = x;
    if (y < this.y0) this.y0 = y;
    if (y > this.y1) this.y1 = y;
  }
  private point(x: number, y: number): void {
    this.see(x, y);
    this.out.int(x);
    this.out.int(y);
  }
  moveTo(x: number, y: number): void {
    this.cx = units(x);
    this.cy = units(y);
    this.point(this.cx, this.cy);
    this.out.op(M);
    this.moved = true;
    this.empty = false;
  }
  lineTo(x: number, y: number): void {
    const ux = units(x), uy = units(y);
    if (!this.moved && ux === this.cx && uy === this.cy) return;
    this.point(ux, uy);
    this.out.op(L);
    this.cx = ux;
    this.cy = uy;
    this.moved = false;
  }
  curveTo(x1: number, y1: number, x2: number, y2: number, x3: number, y3: number): void {
    const a = units(x1), b = units(y1), c = units(x2), d = units(y2), e = units(x3), f = units(y3);
    const fromStart = a === this.cx && b === this.cy;
    const still = a === c && b === d;
    if ((fromStart && ((c === e && d === f) || still)) || (still && c === e && d === f)) {
      // Staying on the current point after anything but a move draws nothing; else a line does.
      if (!(fromStart && still && c === e && d === f && !this.moved)) this.lineTo(x3, y3);
      return;
    }
    this.point(a, b);
    this.point(c, d);
    this.point(e, f);
    this.out.op(C);
    this.cx = e;
    this.cy = f;
    this.moved = false;
  }
  closePath(): void {
    this.out.op(H);
    this.moved = false;
  }
}

/** Colour components and a rotation's sines keep five decimals. */
const fine = (v: number): string => String(Math.round(v * 1e5) / 1e5);

/**
 * The shape's fill (non-zero winding, as the device's fillPath draws it) and outline (butt caps,
 * mitred joins, miter limit 10: the device's stroke state), rotated about the box's centre; or
 * undefined when it draws nothing (paintShape then has nothing to draw either).
 */
export function shapeContent(shape: Shape, box: Box): ShapeContent | undefined {
  const out = new Bytes();
  out.text('q\n');
  const rotation = shape.rotation ? rotationAbout(box, shape.rotation) : undefined;
  // Rotation about the centre in form units: the same turn, its translation in units.
  if (rotation) out.text(`${[rotation[0], rotation[1], rotation[2], rotation[3], rotation[4] * FORM_UNITS, rotation[5] * FORM_UNITS].map(fine).join(' ')} cm\n`);
  const bounds = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  const include = (p: PathOperators, margin: number) => {
    bounds.x0 = Math.min(bounds.x0, p.x0 - margin);
    bounds.y0 = Math.min(bounds.y0, p.y0 - margin);
    bounds.x1 = Math.max(bounds.x1, p.x1 + margin);
    bounds.y1 = Math.max(bounds.y1, p.y1 + margin);
  };
  const colour = (hex: string) => rgb(hex).map(fine).join(' ');
  for (const step of paintSteps(shape)) {
    if (step.stroke) {
      const line = shape.line!;
      out.text(`${units(line.width)} w 0 J 0 j 10 M ${colour(line.color)} RG\n`);
    } else out.text(`${colour(shadedColor(shape.fill!, step.shade))} rg\n`);
    const path = tracedStep(new PathOperators(out), shape, box, step);
    if (path.empty) out.text('n\n');
    else {
      out.op(step.stroke ? 83 : 102); // S, f
      // A mitred corner reaches out up to half the miter limit times the width.
      include(path, step.stroke ? (5 * shape.line!.width + 1) * FORM_UNITS : FORM_UNITS);
    }
  }
  if (!(bounds.x1 >= bounds.x0 && bounds.y1 >= bounds.y0)) return undefined;
  out.text('Q\n');
  return { content: out.buf.subarray(0, out.length), bbox: rotatedBounds(bounds, rotation) };
}

/** The bounds of a box's corners after the rotation (row vectors, as PDF's cm; translation in units). */
function rotatedBounds(b: { x0: number; y0: number; x1: number; y1: number }, m: number[] | undefined): [number, number, number, number] {
  if (!m) return [b.x0, b.y0, b.x1, b.y1];
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [[b.x0, b.y0], [b.x1, b.y0], [b.x0, b.y1], [b.x1, b.y1]] as const) {
    xs.push(m[0]! * x + m[2]! * y + m[4]! * FORM_UNITS);
    ys.push(m[1]! * x + m[3]! * y + m[5]! * FORM_UNITS);
  }
  return [Math.floor(Math.min(...xs)), Math.floor(Math.min(...ys)), Math.ceil(Math.max(...xs)), Math.ceil(Math.max(...ys))];
}
