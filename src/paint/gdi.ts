import { substituteFamily } from '../fonts/catalog';
import type { Rgb } from '../codecs/dib';
import type { ClipArea, Matrix, Painter, Stroke } from './painter';
import { n2 } from './svg-painter';

export type { Matrix } from './painter';
export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
/** m applied first, then n. */
export const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5],
];

export interface Pen { kind: 'pen'; style: number; width: number; color: string }
export interface Brush { kind: 'brush'; style: number; color: string }
export interface Font { kind: 'font'; height: number; escapement: number; weight: number; italic: boolean; underline: boolean; strike: boolean; charset: number; face: string }
export type GdiObject = Pen | Brush | Font | { kind: 'other' };

export const colorRef = (v: number) => `#${[v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff].map((c) => c.toString(16).padStart(2, '0')).join('')}`;

const BLACK_PEN: Pen = { kind: 'pen', style: 0, width: 0, color: '#000000' };
const WHITE_BRUSH: Brush = { kind: 'brush', style: 0, color: '#ffffff' };
const DEFAULT_FONT: Font = { kind: 'font', height: 0, escapement: 0, weight: 400, italic: false, underline: false, strike: false, charset: 0, face: 'Arial' };

/** EMF stock objects (index | 0x80000000); WMF has none. */
export function stockObject(i: number): GdiObject | undefined {
  const grays = ['#ffffff', '#c0c0c0', '#808080', '#404040', '#000000'];
  if (i <= 4) return { kind: 'brush', style: 0, color: grays[i]! };
  if (i === 5) return { kind: 'brush', style: 1, color: '#000000' };
  if (i === 6) return { kind: 'pen', style: 0, width: 0, color: '#ffffff' };
  if (i === 7) return BLACK_PEN;
  if (i === 8) return { kind: 'pen', style: 5, width: 0, color: '#000000' };
  if (i === 10 || i === 11 || i === 16) return { ...DEFAULT_FONT, face: 'Courier New' };
  if (i >= 12 && i <= 17) return DEFAULT_FONT;
  return undefined;
}

export interface DcState {
  pen: Pen;
  brush: Brush;
  font: Font;
  textColor: string;
  bkColor: string;
  bkMode: number;
  textAlign: number;
  polyFill: number;
  cp: [number, number];
  /** Clip areas in output coordinates (device space, as GDI keeps them): their intersection. */
  clip: readonly ClipArea[];
  world: Matrix;
  mapMode: number;
  winOrg: [number, number];
  winExt: [number, number];
  vpOrg: [number, number];
  vpExt: [number, number];
}

/**
 * The device context both players share: state, save/restore, object selection, path brackets,
 * and what it draws, handed to a painter. Coordinates handed in are logical; `mapping` gives the
 * format's page→output map.
 */
export class Gdi {
  s: DcState = {
    pen: BLACK_PEN, brush: WHITE_BRUSH, font: DEFAULT_FONT, textColor: '#000000', bkColor: '#ffffff', bkMode: 2, textAlign: 0, polyFill: 1,
    cp: [0, 0], clip: [], world: IDENTITY, mapMode: 1, winOrg: [0, 0], winExt: [1, 1], vpOrg: [0, 0], vpExt: [1, 1],
  };
  private stack: DcState[] = [];
  /** Outputs drawn so far. */
  drawn = 0;
  /** The path bracket being recorded (output coordinates), when inside BEGINPATH..ENDPATH. */
  path: string | undefined;
  private lastPath = '';
  private m: Matrix = IDENTITY;
  private dirty = true;

  constructor(
    private readonly painter: Painter,
    private readonly mapping: (s: DcState) => Matrix,
    /** A zero-width pen's width in output units (one device pixel). */
    private readonly hairline: number,
  ) {}

  private sentClip: readonly ClipArea[] = [];

  /** Tells the painter about a clip changed since the last output. */
  private syncClip(): void {
    if (this.s.clip !== this.sentClip) this.painter.clip((this.sentClip = this.s.clip));
  }

  /** INTERSECTCLIPRECT (logical). */
  intersectClip(l: number, t: number, r: number, b: number): void {
    this.s.clip = [...this.s.clip, { d: this.rect(l, t, r, b) }];
  }

  /** A clip given in output coordinates (a region's rectangles, the path bracket): 5 replaces (RGN_COPY), 1 intersects (RGN_AND). */
  setClip(d: string | undefined, mode: number): void {
    if (mode === 5) this.s.clip = d ? [{ d }] : [];
    else if (mode === 1 && d) this.s.clip = [...this.s.clip, { d }];
  }

  /** SELECTCLIPPATH: the path bracket becomes (or narrows) the clip. */
  clipToPath(mode: number): void {
    const d = this.path ?? this.lastPath;
    this.path = undefined;
    this.lastPath = '';
    if (d) this.setClip(d, mode);
  }

  changed(): void {
    this.dirty = true;
  }

  matrix(): Matrix {
    if (this.dirty) {
      this.m = multiply(this.s.world, this.mapping(this.s));
      this.dirty = false;
    }
    return this.m;
  }

  pt(x: number, y: number): string {
    const m = this.matrix();
    return `${n2(m[0] * x + m[2] * y + m[4])} ${n2(m[1] * x + m[3] * y + m[5])}`;
  }

  private scale(): number {
    const m = this.matrix();
    return Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
  }

  save(): void {
    if (this.stack.length < 1000) this.stack.push({ ...this.s });
  }

  restore(n: number): void {
    // n < 0: relative to the top; n > 0: an absolute level (WMF uses -1 mostly).
    const idx = n < 0 ? this.stack.length + n : n - 1;
    if (idx < 0 || idx >= this.stack.length) return;
    this.s = this.stack[idx]!;
    this.stack.length = idx;
    this.dirty = true;
  }

  select(o: GdiObject | undefined): void {
    if (!o) return;
    if (o.kind === 'pen') this.s.pen = o;
    else if (o.kind === 'brush') this.s.brush = o;
    else if (o.kind === 'font') this.s.font = o;
  }

  /** Draws path data (output coordinates) with the current pen and/or brush, or adds it to the open path. */
  shape(d: string, fill: boolean, stroke: boolean): void {
    if (!d) return;
    if (this.path !== undefined) {
      this.path += d;
      return;
    }
    this.emit(d, fill, stroke);
  }

  private emit(d: string, fill: boolean, stroke: boolean): void {
    const { pen, brush } = this.s;
    const f = fill && brush.style !== 1 ? { color: brush.color, evenOdd: this.s.polyFill === 1 } : undefined;
    let st: Stroke | undefined;
    if (stroke && (pen.style & 0xf) !== 5) {
      const w = pen.width > 0 ? pen.width * this.scale() : this.hairline;
      const dash = [[], [3, 1], [1, 1], [3, 1, 1, 1], [3, 1, 1, 1, 1, 1]][pen.style & 0xf] ?? [];
      const join = (pen.style >> 12) & 0xf;
      const cap = (pen.style >> 8) & 0xf;
      st = {
        color: pen.color,
        width: Math.max(w, this.hairline * 0.5),
        dash: dash.map((v) => v * Math.max(w, this.hairline) * 2),
        join: join === 1 ? 'bevel' : join === 2 ? 'miter' : 'round',
        cap: cap === 1 ? 'square' : cap === 2 ? 'butt' : 'round',
      };
    }
    if (!f && !st) return;
    this.syncClip();
    this.painter.path(d, f, st);
    this.drawn++;
  }

  beginPath(): void {
    this.path = '';
  }

  endPath(): void {
    if (this.path !== undefined) this.lastPath = this.path;
    this.path = undefined;
  }

  closeFigure(): void {
    if (this.path !== undefined) this.path += 'Z';
  }

  drawPath(fill: boolean, stroke: boolean): void {
    const d = this.path ?? this.lastPath;
    this.path = undefined;
    this.lastPath = '';
    this.emit(d, fill, stroke);
  }

  /** Path data for a point list (logical). */
  poly(points: [number, number][], close: boolean, continueFromCp = false): string {
    if (!points.length) return '';
    let d = continueFromCp && !this.path ? `M${this.pt(...this.s.cp)}` : '';
    points.forEach((p, i) => (d += `${i === 0 && !continueFromCp ? 'M' : 'L'}${this.pt(p[0], p[1])}`));
    return close ? d + 'Z' : d;
  }

  /** Path data for Bézier points (logical): the first is the start unless continuing from the current position. */
  bezier(points: [number, number][], fromCp: boolean): string {
    const P = (i: number) => this.pt(...(points[i] ?? this.s.cp));
    let d = fromCp ? (this.path ? '' : `M${this.pt(...this.s.cp)}`) : points.length ? `M${P(0)}` : '';
    for (let i = fromCp ? 0 : 1; i + 2 < points.length; i += 3) d += `C${P(i)} ${P(i + 1)} ${P(i + 2)}`;
    return d;
  }

  rect(l: number, t: number, r: number, b: number): string {
    return this.poly([[l, t], [r, t], [r, b], [l, b]], true);
  }

  /** An ellipse (or round-rect corner set) as Béziers. */
  ellipse(l: number, t: number, r: number, b: number): string {
    const cx = (l + r) / 2, cy = (t + b) / 2, rx = (r - l) / 2, ry = (b - t) / 2, k = 0.5523;
    return this.bezier([[cx + rx, cy], [cx + rx, cy + ry * k], [cx + rx * k, cy + ry], [cx, cy + ry], [cx - rx * k, cy + ry], [cx - rx, cy + ry * k], [cx - rx, cy],
      [cx - rx, cy - ry * k], [cx - rx * k, cy - ry], [cx, cy - ry], [cx + rx * k, cy - ry], [cx + rx, cy - ry * k], [cx + rx, cy]], false) + 'Z';
  }

  roundRect(l: number, t: number, r: number, b: number, w: number, h: number): string {
    if (l > r) [l, r] = [r, l];
    if (t > b) [t, b] = [b, t];
    const rx = Math.min(Math.abs(w) / 2, (r - l) / 2), ry = Math.min(Math.abs(h) / 2, (b - t) / 2), k = 0.4477;
    if (rx <= 0 || ry <= 0) return this.rect(l, t, r, b);
    return `M${this.pt(l + rx, t)}L${this.pt(r - rx, t)}C${this.pt(r - rx * k, t)} ${this.pt(r, t + ry * k)} ${this.pt(r, t + ry)}L${this.pt(r, b - ry)}` +
      `C${this.pt(r, b - ry * k)} ${this.pt(r - rx * k, b)} ${this.pt(r - rx, b)}L${this.pt(l + rx, b)}C${this.pt(l + rx * k, b)} ${this.pt(l, b - ry * k)} ${this.pt(l, b - ry)}` +
      `L${this.pt(l, t + ry)}C${this.pt(l, t + ry * k)} ${this.pt(l + rx * k, t)} ${this.pt(l + rx, t)}Z`;
  }

  /** ARC (0), CHORD (1) or PIE (2): counter-clockwise from the start radial to the end radial. */
  arc(kind: 0 | 1 | 2, l: number, t: number, r: number, b: number, sx: number, sy: number, ex: number, ey: number): string {
    const cx = (l + r) / 2, cy = (t + b) / 2, rx = Math.abs(r - l) / 2 || 1, ry = Math.abs(b - t) / 2 || 1;
    const a0 = Math.atan2(-(sy - cy) / ry, (sx - cx) / rx);
    let sweep = Math.atan2(-(ey - cy) / ry, (ex - cx) / rx) - a0;
    while (sweep <= 0) sweep += 2 * Math.PI;
    const n = Math.max(2, Math.ceil(sweep / (Math.PI / 36)));
    const pts: [number, number][] = [];
    for (let i = 0; i <= n; i++) {
      const a = a0 + (sweep * i) / n;
      pts.push([cx + rx * Math.cos(a), cy - ry * Math.sin(a)]);
    }
    if (kind === 2) pts.unshift([cx, cy]);
    return this.poly(pts, kind !== 0);
  }

  /** Text at a logical point; `dx` are logical advances per character. */
  text(x: number, y: number, str: string, dx?: number[], clipRect?: [number, number, number, number]): void {
    if (!str || this.path !== undefined) return;
    const { font, textAlign } = this.s;
    const m = this.matrix();
    const sy = Math.hypot(m[2], m[3]) || 1, sx = Math.hypot(m[0], m[1]) || 1;
    const useCp = (textAlign & 1) !== 0;
    if (useCp) [x, y] = this.s.cp;
    const ox = m[0] * x + m[2] * y + m[4], oy = m[1] * x + m[3] * y + m[5];
    const em = (font.height < 0 ? -font.height : font.height > 0 ? font.height / 1.15 : 12) * sy;
    const flipped = m[0] * m[3] - m[1] * m[2] < 0;
    const angle = (Math.atan2(m[1], m[0]) * 180) / Math.PI - (font.escapement / 10) * (flipped ? -1 : 1) * (m[3] < 0 ? -1 : 1);
    const v = textAlign & 0x18;
    const base = v === 0x18 ? 0 : v === 8 ? -0.21 * em : 0.9 * em;
    const h = textAlign & 6;
    const anchor = h === 6 ? 'middle' : h === 2 ? 'end' : 'start';
    const advances = dx && dx.length >= str.length ? dx.slice(0, str.length).map((a) => a * sx) : undefined;
    const advance = advances ? advances.reduce((a, b) => a + b, 0) : str.length * em * 0.5;
    if (useCp) this.s.cp = [this.s.cp[0] + advance / sx, this.s.cp[1]];
    const clip = clipRect && clipRect[2] > clipRect[0] && clipRect[3] > clipRect[1] ? this.rect(...clipRect) : undefined;
    this.syncClip();
    this.painter.text({
      text: str, x: ox, y: oy, angle, base, em, family: substituteFamily(font.face), bold: font.weight >= 600, italic: font.italic,
      underline: font.underline, strike: font.strike, anchor, color: this.s.textColor, advances, clip,
    });
    this.drawn++;
  }

  private mask: { img: Rgb; at: string } | undefined;

  /**
   * A blit with its raster operation: an icon's AND mask (SRCAND) followed by its colour image
   * (SRCINVERT / SRCPAINT) on the same rectangle becomes one image whose alpha is the mask.
   */
  blit(img: Rgb, x: number, y: number, w: number, h: number, rop: number): void {
    const at = `${x} ${y} ${w} ${h}`;
    const mask = this.mask;
    this.mask = undefined;
    if (rop === 0x008800c6) {
      if (mask) this.image(mask.img, x, y, w, h);
      this.mask = { img, at };
      return;
    }
    if (mask && mask.at === at && (rop === 0x00660046 || rop === 0x00ee0086) && mask.img.width === img.width && mask.img.height === img.height) {
      const alpha = new Uint8Array(img.width * img.height);
      for (let i = 0; i < alpha.length; i++) alpha[i] = mask.img.rgb[i * 3]! > 127 ? 0 : 255;
      img = { ...img, alpha };
    } else if (mask) this.image(mask.img, x, y, w, h);
    this.image(img, x, y, w, h);
  }

  /** A bitmap stretched over a logical rectangle. */
  image(img: Rgb, x: number, y: number, w: number, h: number): void {
    if (this.path !== undefined) return;
    const m = this.matrix();
    this.syncClip();
    this.painter.image(img, [m[0] * w, m[1] * w, m[2] * h, m[3] * h, m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]);
    this.drawn++;
  }

  /** A solid rectangle (logical) in a given colour, whatever the pen (pattern blits, opaque text boxes). */
  fillRect(l: number, t: number, r: number, b: number, color: string): void {
    if (this.path !== undefined) return;
    this.syncClip();
    this.painter.path(this.rect(l, t, r, b), { color, evenOdd: false }, undefined);
    this.drawn++;
  }

  /** Draws what is still pending (an icon mask without its image). */
  finish(): void {
    const pending = this.mask;
    this.mask = undefined;
    if (pending) {
      const [mx, my, mw, mh] = pending.at.split(' ').map(Number) as [number, number, number, number];
      this.image(pending.img, mx, my, mw, mh);
    }
  }
}
