/**
 * `data:` SVG pictures drawn for html-to-pdf, whose MuPDF build reads no SVG: the shapes of the
 * picture (rect, circle, ellipse, line, polyline, polygon, path with arcs) with their fills,
 * strokes, opacity and transforms, drawn by MuPDF's draw device at twice the picture's size and
 * embedded as PNG. Text, gradients, patterns, masks and filters in the SVG are not drawn.
 */
import type * as Mupdf from 'mupdf';
import { parseDocument } from 'htmlparser2';
import { Element } from 'domhandler';
import { parseColor } from './html-page-decor';
import { arcCurves } from '../../paint/arc';

type Matrix = [number, number, number, number, number, number];
interface Paint {
  fill: string;
  stroke: string;
  strokeWidth: number;
  opacity: number;
  fillOpacity: number;
  strokeOpacity: number;
  evenOdd: boolean;
}

/** The SVG as PNG bytes with its size in CSS pixels, or undefined where it has nothing drawable. */
export function svgToPng(mupdf: typeof Mupdf, svg: string, maxPixels = 4_000_000): { png: Uint8Array; width: number; height: number } | undefined {
  const root = parseDocument(svg, { xmlMode: true }).children.find((n): n is Element => n instanceof Element && n.name.toLowerCase().endsWith('svg'));
  if (!root) return undefined;
  const box = (root.attribs.viewBox ?? root.attribs.viewbox ?? '').split(/[\s,]+/).map(Number);
  const hasBox = box.length === 4 && box.every(Number.isFinite) && box[2]! > 0 && box[3]! > 0;
  const width = length(root.attribs.width) ?? (hasBox ? box[2]! : 300);
  const height = length(root.attribs.height) ?? (hasBox ? box[3]! : 150);
  if (!(width > 0 && height > 0)) return undefined;
  const scale = Math.min(2, Math.sqrt(maxPixels / (width * height)));
  const [pw, ph] = [Math.max(1, Math.ceil(width * scale)), Math.max(1, Math.ceil(height * scale))];
  let base: Matrix = [scale, 0, 0, scale, 0, 0];
  if (hasBox) base = multiply([width / box[2]!, 0, 0, height / box[3]!, (-box[0]! * width) / box[2]!, (-box[1]! * height) / box[3]!], base);
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, pw, ph], true);
  pixmap.clear(0);
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pixmap);
  try {
    draw(mupdf, device, root, base, { fill: 'black', stroke: 'none', strokeWidth: 1, opacity: 1, fillOpacity: 1, strokeOpacity: 1, evenOdd: false });
    device.close();
    return { png: pixmap.asPNG(), width, height };
  } finally {
    pixmap.destroy();
  }
}

function draw(mupdf: typeof Mupdf, device: Mupdf.Device, el: Element, ctm: Matrix, inherited: Paint): void {
  const attrs = { ...el.attribs, ...styleAttrs(el.attribs.style) };
  if (attrs.display === 'none' || attrs.visibility === 'hidden') return;
  const m = attrs.transform ? multiply(transformOf(attrs.transform), ctm) : ctm;
  const paint: Paint = {
    fill: attrs.fill ?? inherited.fill,
    stroke: attrs.stroke ?? inherited.stroke,
    strokeWidth: length(attrs['stroke-width']) ?? inherited.strokeWidth,
    opacity: inherited.opacity * (Number(attrs.opacity ?? 1) || 0),
    fillOpacity: attrs['fill-opacity'] !== undefined ? Number(attrs['fill-opacity']) : inherited.fillOpacity,
    strokeOpacity: attrs['stroke-opacity'] !== undefined ? Number(attrs['stroke-opacity']) : inherited.strokeOpacity,
    evenOdd: (attrs['fill-rule'] ?? (inherited.evenOdd ? 'evenodd' : 'nonzero')) === 'evenodd',
  };
  const name = el.name.toLowerCase().replace(/^svg:/, '');
  if (['defs', 'clippath', 'mask', 'pattern', 'lineargradient', 'radialgradient', 'symbol', 'title', 'desc', 'metadata', 'style', 'text'].includes(name)) return;
  const path = shape(mupdf, name, attrs);
  if (path) {
    const fill = paintColor(paint.fill);
    if (fill && name !== 'line' && name !== 'polyline') device.fillPath(path, paint.evenOdd, m, mupdf.ColorSpace.DeviceRGB, fill, paint.opacity * paint.fillOpacity);
    const stroke = paintColor(paint.stroke);
    if (stroke && paint.strokeWidth > 0) {
      const state = new mupdf.StrokeState({ lineWidth: paint.strokeWidth, lineCap: capOf(attrs['stroke-linecap']), lineJoin: joinOf(attrs['stroke-linejoin']), miterLimit: 4 });
      device.strokePath(path, state, m, mupdf.ColorSpace.DeviceRGB, stroke, paint.opacity * paint.strokeOpacity);
    }
    return;
  }
  for (const child of el.children) if (child instanceof Element) draw(mupdf, device, child, m, paint);
}

const capOf = (v: string | undefined) => (v === 'round' ? 'Round' : v === 'square' ? 'Square' : 'Butt') as Mupdf.LineCap;
const joinOf = (v: string | undefined) => (v === 'round' ? 'Round' : v === 'bevel' ? 'Bevel' : 'Miter') as Mupdf.LineJoin;

function paintColor(value: string): [number, number, number] | undefined {
  if (!value || value === 'none' || value.startsWith('url(')) return undefined;
  if (value === 'currentColor') return [0, 0, 0];
  return parseColor(value) ?? undefined;
}

function styleAttrs(style: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (style ?? '').split(';')) {
    const colon = part.indexOf(':');
    if (colon > 0) out[part.slice(0, colon).trim().toLowerCase()] = part.slice(colon + 1).trim();
  }
  return out;
}

function length(value: string | undefined): number | undefined {
  const m = /^\s*(-?[\d.]+(?:e-?\d+)?)\s*(px|pt|mm|cm|in)?\s*$/i.exec(value ?? '');
  if (!m) return undefined;
  const unit = { px: 1, pt: 4 / 3, mm: 96 / 25.4, cm: 96 / 2.54, in: 96 }[(m[2] ?? 'px').toLowerCase() as 'px'];
  return Number(m[1]) * unit;
}

function numbers(value: string | undefined): number[] {
  return (value ?? '').match(/-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?/gi)?.map(Number) ?? [];
}

function shape(mupdf: typeof Mupdf, name: string, a: Record<string, string>): Mupdf.Path | undefined {
  const n = (key: string) => length(a[key]) ?? 0;
  const path = new mupdf.Path();
  switch (name) {
    case 'rect':
      if (n('width') <= 0 || n('height') <= 0) return undefined;
      path.rect(n('x'), n('y'), n('x') + n('width'), n('y') + n('height'));
      return path;
    case 'circle':
    case 'ellipse': {
      const [rx, ry] = name === 'circle' ? [n('r'), n('r')] : [n('rx'), n('ry')];
      if (rx <= 0 || ry <= 0) return undefined;
      ellipse(path, n('cx'), n('cy'), rx, ry);
      return path;
    }
    case 'line':
      path.moveTo(n('x1'), n('y1'));
      path.lineTo(n('x2'), n('y2'));
      return path;
    case 'polyline':
    case 'polygon': {
      const p = numbers(a.points);
      if (p.length < 4) return undefined;
      path.moveTo(p[0]!, p[1]!);
      for (let i = 2; i + 1 < p.length; i += 2) path.lineTo(p[i]!, p[i + 1]!);
      if (name === 'polygon') path.closePath();
      return path;
    }
    case 'path':
      return a.d ? pathData(path, a.d) : undefined;
    default:
      return undefined;
  }
}

/** An ellipse as four cubic Béziers (the usual 0.5523 handle length). */
function ellipse(path: Mupdf.Path, cx: number, cy: number, rx: number, ry: number): void {
  const k = 0.5522847498;
  path.moveTo(cx + rx, cy);
  path.curveTo(cx + rx, cy + k * ry, cx + k * rx, cy + ry, cx, cy + ry);
  path.curveTo(cx - k * rx, cy + ry, cx - rx, cy + k * ry, cx - rx, cy);
  path.curveTo(cx - rx, cy - k * ry, cx - k * rx, cy - ry, cx, cy - ry);
  path.curveTo(cx + k * rx, cy - ry, cx + rx, cy - k * ry, cx + rx, cy);
  path.closePath();
}

/** SVG path data (M L H V C S Q T A Z, absolute and relative) into a MuPDF path. */
function pathData(path: Mupdf.Path, d: string): Mupdf.Path {
  const tokens = d.match(/[a-df-z]|-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?/gi) ?? [];
  let [x, y, sx, sy, cx, cy, qx, qy] = [0, 0, 0, 0, 0, 0, 0, 0];
  let [command, previous] = ['', ''];
  let i = 0;
  const num = () => {
    const v = Number(tokens[i++]);
    if (!Number.isFinite(v)) throw new RangeError('path data ends early');
    return v;
  };
  const hasNumber = () => i < tokens.length && !/^[a-z]$/i.test(tokens[i]!);
  try {
    while (i < tokens.length) {
      const at = i;
      if (/^[a-z]$/i.test(tokens[i]!)) command = tokens[i++]!;
      const rel = command === command.toLowerCase();
      const [ox, oy] = rel ? [x, y] : [0, 0];
      switch (command.toUpperCase()) {
        case 'M':
          [x, y] = [ox + num(), oy + num()];
          [sx, sy] = [x, y];
          path.moveTo(x, y);
          command = rel ? 'l' : 'L';
          break;
        case 'L':
          [x, y] = [ox + num(), oy + num()];
          path.lineTo(x, y);
          break;
        case 'H':
          x = (rel ? x : 0) + num();
          path.lineTo(x, y);
          break;
        case 'V':
          y = (rel ? y : 0) + num();
          path.lineTo(x, y);
          break;
        case 'C': {
          const [x1, y1, x2, y2, ex, ey] = [ox + num(), oy + num(), ox + num(), oy + num(), ox + num(), oy + num()];
          path.curveTo(x1, y1, x2, y2, ex, ey);
          [cx, cy, x, y] = [x2, y2, ex, ey];
          break;
        }
        case 'S': {
          const [x1, y1] = /[CS]/i.test(previous) ? [2 * x - cx, 2 * y - cy] : [x, y];
          const [x2, y2, ex, ey] = [ox + num(), oy + num(), ox + num(), oy + num()];
          path.curveTo(x1, y1, x2, y2, ex, ey);
          [cx, cy, x, y] = [x2, y2, ex, ey];
          break;
        }
        case 'Q':
        case 'T': {
          const [x1, y1] = command.toUpperCase() === 'Q' ? [ox + num(), oy + num()] : /[QT]/i.test(previous) ? [2 * x - qx, 2 * y - qy] : [x, y];
          const [ex, ey] = [ox + num(), oy + num()];
          path.curveTo(x + (2 / 3) * (x1 - x), y + (2 / 3) * (y1 - y), ex + (2 / 3) * (x1 - ex), ey + (2 / 3) * (y1 - ey), ex, ey);
          [qx, qy, x, y] = [x1, y1, ex, ey];
          break;
        }
        case 'A': {
          const [rx, ry, angle, large, sweep, ex, ey] = [num(), num(), num(), num(), num(), ox + num(), oy + num()];
          arc(path, x, y, rx, ry, angle, large !== 0, sweep !== 0, ex, ey);
          [x, y] = [ex, ey];
          break;
        }
        case 'Z':
          path.closePath();
          [x, y] = [sx, sy];
          break;
        default:
          return path; // a command SVG does not have: what came before is drawn
      }
      previous = command;
      if (command.toUpperCase() === 'Z' && hasNumber()) command = 'L';
      if (i === at) break; // nothing read: malformed data ends the path here
    }
  } catch {
    // malformed path data: what came before it is drawn, as browsers do
  }
  return path;
}

/** An elliptical arc (SVG's endpoint form) as cubic Béziers: its centre and angles by SVG's implementation notes (F.6), its curves by paint/arc.ts. */
function arc(path: Mupdf.Path, x1: number, y1: number, rx: number, ry: number, angle: number, large: boolean, sweep: boolean, x2: number, y2: number): void {
  if (rx === 0 || ry === 0 || (x1 === x2 && y1 === y2)) return path.lineTo(x2, y2);
  [rx, ry] = [Math.abs(rx), Math.abs(ry)];
  const phi = (angle * Math.PI) / 180;
  const [cos, sin] = [Math.cos(phi), Math.sin(phi)];
  const dx = (x1 - x2) / 2;
  const dy = (y1 - y2) / 2;
  const x1p = cos * dx + sin * dy;
  const y1p = -sin * dx + cos * dy;
  const lambda = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry);
  if (lambda > 1) [rx, ry] = [rx * Math.sqrt(lambda), ry * Math.sqrt(lambda)];
  const sign = large === sweep ? -1 : 1;
  const num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p;
  const coef = sign * Math.sqrt(Math.max(0, num / (rx * rx * y1p * y1p + ry * ry * x1p * x1p)));
  const cxp = (coef * rx * y1p) / ry;
  const cyp = (-coef * ry * x1p) / rx;
  const cx = cos * cxp - sin * cyp + (x1 + x2) / 2;
  const cy = sin * cxp + cos * cyp + (y1 + y2) / 2;
  const angleOf = (ux: number, uy: number, vx: number, vy: number) => Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
  const start = angleOf(1, 0, (x1p - cxp) / rx, (y1p - cyp) / ry);
  let delta = angleOf((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry);
  if (!sweep && delta > 0) delta -= 2 * Math.PI;
  if (sweep && delta < 0) delta += 2 * Math.PI;
  const degrees = 180 / Math.PI;
  for (const curve of arcCurves(cx, cy, rx, ry, start * degrees, delta * degrees, angle)) path.curveTo(...curve);
}

/** An SVG transform list as one matrix (applied right to left, as SVG composes them). */
function transformOf(value: string): Matrix {
  let m: Matrix = [1, 0, 0, 1, 0, 0];
  for (const [, fn, args] of value.matchAll(/(\w+)\s*\(([^)]*)\)/g)) {
    const v = numbers(args);
    let t: Matrix = [1, 0, 0, 1, 0, 0];
    if (fn === 'matrix' && v.length === 6) t = v as Matrix;
    else if (fn === 'translate') t = [1, 0, 0, 1, v[0] ?? 0, v[1] ?? 0];
    else if (fn === 'scale') t = [v[0] ?? 1, 0, 0, v[1] ?? v[0] ?? 1, 0, 0];
    else if (fn === 'rotate') {
      const r = ((v[0] ?? 0) * Math.PI) / 180;
      const [c, s] = [Math.cos(r), Math.sin(r)];
      const [px, py] = [v[1] ?? 0, v[2] ?? 0];
      t = [c, s, -s, c, px - c * px + s * py, py - s * px - c * py];
    } else if (fn === 'skewX') t = [1, 0, Math.tan(((v[0] ?? 0) * Math.PI) / 180), 1, 0, 0];
    else if (fn === 'skewY') t = [1, Math.tan(((v[0] ?? 0) * Math.PI) / 180), 0, 1, 0, 0];
    m = multiply(t, m);
  }
  return m;
}

/** `a` then `b` (MuPDF's order: points go through `a` first). */
function multiply(a: Matrix, b: Matrix): Matrix {
  return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]];
}
