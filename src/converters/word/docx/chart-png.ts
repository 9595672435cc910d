/**
 * A tiny rasteriser for chart shapes (filled polygons and stroked polylines) into a palette PNG.
 *
 * Why: MuPDF's wasm build cannot draw SVG, and the DOCX reader runs before (and without) MuPDF, so
 * charts are turned into pixels here. Charts are flat colours, so a palette image deflates to a few
 * kilobytes. No anti-aliasing: at 144 dpi the stair-steps of pie edges are barely visible, and a
 * palette image could not hold the blended colours anyway.
 */
import { zlibSync } from 'fflate';
import type { Shape } from './chart';

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

const CRC = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  let c = 0xffffffff;
  for (let i = 4; i < 8 + data.length; i++) c = CRC[(c ^ out[i]!) & 0xff]! ^ (c >>> 8);
  dv.setUint32(8 + data.length, (c ^ 0xffffffff) >>> 0);
  return out;
}

/** Draws the shapes (text ignored) on white and encodes a palette PNG. */
export function rasterPng(shapes: Shape[], width: number, height: number): Uint8Array {
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
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, w);
  dv.setUint32(4, h);
  ihdr.set([8, 3, 0, 0, 0], 8);
  const plte = new Uint8Array(palette.length * 3);
  palette.forEach((hex, i) => plte.set([0, 2, 4].map((k) => parseInt(hex.slice(k, k + 2), 16)), i * 3));
  const parts = [new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('PLTE', plte), chunk('IDAT', zlibSync(raw, { level: 6 })), chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}
