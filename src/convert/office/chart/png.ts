/**
 * A tiny rasteriser for chart marks (filled polygons and stroked polylines) into a palette PNG.
 *
 * Why: MuPDF's wasm build cannot draw SVG, and the readers run before (and without) MuPDF, so
 * charts are turned into pixels here. Charts are flat colours, so a palette image deflates to a few
 * kilobytes. No anti-aliasing: at 144 dpi the stair-steps of pie edges are barely visible, and a
 * palette image could not hold the blended colours anyway.
 */
import { assemblePng } from '../../../codecs/png';
import type { ChartMark } from '../model';

/** Pixels per point: 2 gives 144 dpi, sharp enough at print size while staying small. */
const SCALE = 2;

type Pt = [number, number];

/** The outline of a stroked segment as a quad (butt caps; joins are covered by the overlap). */
function strokeQuads(pts: Pt[], width: number): Pt[][] {
  const quads: Pt[][] = [];
  const h = width / 2;
  for (let i = 1; i < pts.length; i++) {
    const [x0, y0] = pts[i - 1]!, [x1, y1] = pts[i]!;
    const len = Math.hypot(x1 - x0, y1 - y0) || 1;
    // Extend each segment by half the width so consecutive segments overlap at the joint.
    const ux = (x1 - x0) / len, uy = (y1 - y0) / len;
    const ex = pts.length > 2 ? ux * h : 0, ey = pts.length > 2 ? uy * h : 0;
    const nx = -uy * h, ny = ux * h;
    quads.push([[x0 - ex + nx, y0 - ey + ny], [x1 + ex + nx, y1 + ey + ny], [x1 + ex - nx, y1 + ey - ny], [x0 - ex - nx, y0 - ey - ny]]);
  }
  return quads;
}

/** Non-zero fill of a polygon into a colour-index buffer, sampled at pixel centres. */
function fill(buf: Uint8Array, w: number, h: number, poly: Pt[], color: number): void {
  let minY = Infinity, maxY = -Infinity;
  for (const p of poly) { minY = Math.min(minY, p[1]); maxY = Math.max(maxY, p[1]); }
  const y0 = Math.max(0, Math.floor(minY * SCALE)), y1 = Math.min(h - 1, Math.ceil(maxY * SCALE));
  const xs: { x: number; dir: number }[] = [];
  for (let py = y0; py <= y1; py++) {
    const y = (py + 0.5) / SCALE;
    xs.length = 0;
    for (let i = 0; i < poly.length; i++) {
      const a = poly[i]!, b = poly[(i + 1) % poly.length]!;
      if ((a[1] <= y) === (b[1] <= y)) continue;
      xs.push({ x: a[0] + ((y - a[1]) * (b[0] - a[0])) / (b[1] - a[1]), dir: b[1] > a[1] ? 1 : -1 });
    }
    xs.sort((p, q) => p.x - q.x);
    let winding = 0;
    for (let i = 0; i < xs.length - 1; i++) {
      winding += xs[i]!.dir;
      if (!winding) continue;
      const from = Math.max(0, Math.round(xs[i]!.x * SCALE)), to = Math.min(w, Math.round(xs[i + 1]!.x * SCALE));
      buf.fill(color, py * w + from, py * w + Math.max(from, to));
    }
  }
}

/** Draws the marks (text ignored) on white and encodes a palette PNG. */
export function rasterPng(shapes: ChartMark[], width: number, height: number): Uint8Array {
  const w = Math.max(1, Math.round(width * SCALE)), h = Math.max(1, Math.round(height * SCALE));
  const palette = ['FFFFFF'];
  const index = (hex: string) => {
    let i = palette.indexOf(hex);
    if (i < 0 && palette.length < 256) i = palette.push(hex) - 1;
    return Math.max(0, i);
  };
  const pixels = new Uint8Array(w * h);
  for (const s of shapes) {
    if (s.t === 'poly') fill(pixels, w, h, s.pts, index(s.fill));
    else if (s.t === 'line') for (const q of strokeQuads(s.pts, Math.max(s.width, 1 / SCALE))) fill(pixels, w, h, q, index(s.stroke));
  }
  // Each row is prefixed with filter type 0 (none).
  const raw = new Uint8Array((w + 1) * h);
  for (let y = 0; y < h; y++) raw.set(pixels.subarray(y * w, (y + 1) * w), y * (w + 1) + 1);
  const plte = new Uint8Array(palette.length * 3);
  palette.forEach((hex, i) => plte.set([0, 2, 4].map((k) => parseInt(hex.slice(k, k + 2), 16)), i * 3));
  return assemblePng(w, h, 3, raw, plte);
}
