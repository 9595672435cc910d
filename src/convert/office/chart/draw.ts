/**
 * A chart laid out as marks in points (chartMarks: filled polygons, stroked polylines, text), and
 * those marks as an SVG document (chartSvg). MuPDF's wasm build has no SVG support (its HTML engine
 * shows "[image]"), so a converter rasterises the marks (png.ts) and keeps the words as its own text.
 */
import type { Chart, ChartMark } from '../model';
import { PALETTE, readChart } from './read';
import { niceScale } from './axis';
import { scatterPlot } from './scatter';

/** The colours and font of a chart's words and gridlines (Office's defaults). */
export const TEXT = '595959';
export const GRID = 'D9D9D9';
export const FONT = 'Carlito';

const isPie = (d: Chart) => d.kind === 'pie' || d.kind === 'doughnut';

/** Legend entries: a pie names its slices (categories), other charts their series. */
export function legendEntries(d: Chart): { name: string; color: string }[] {
  if (isPie(d)) return d.categories.map((name, i) => ({ name, color: d.series[0]?.pointColors[i] ?? defaultColor(d, i) }));
  return d.series.map((s, i) => ({ name: s.name, color: s.color ?? defaultColor(d, i) }));
}

/** Past the six accents Office repeats them darker. */
function defaultColor(d: Chart, i: number): string {
  const base = d.palette[i % 6] ?? PALETTE[i % 6]!;
  const mod = i < 6 ? 1 : 0.6;
  return [0, 2, 4].map((k) => Math.round(parseInt(base.slice(k, k + 2), 16) * mod).toString(16).padStart(2, '0')).join('').toUpperCase();
}

const fmt = (v: number) => String(Math.round(v * 1e6) / 1e6);

export interface MarkOptions {
  /** Leave out the title and legend (a converter writes them as text of its own, as Word's chartInlines does). */
  bare?: boolean;
}

/** Lays the chart out in a width × height box (points). */
export function chartMarks(d: Chart, width: number, height: number, opts: MarkOptions = {}): ChartMark[] {
  const out: ChartMark[] = [];
  const text = (x: number, y: number, s: string, size: number, anchor: 'start' | 'middle' | 'end' = 'middle') =>
    out.push({ t: 'text', x, y, text: s, size, anchor, fill: TEXT });
  let top = 6, bottom = height - 6, left = 6, right = width - 6;
  if (d.title && !opts.bare) {
    text(width / 2, 22, d.title, 14);
    top = 34;
  }
  const entries = legendEntries(d);
  if (d.legend && !opts.bare && entries.length) {
    if (d.legend === 'r' || d.legend === 'l' || d.legend === 'tr') {
      const w = Math.min(width / 3, 20 + longest(entries.map((e) => e.name)) * 5);
      const x0 = d.legend === 'l' ? left : right - w;
      let y = (top + bottom) / 2 - (entries.length * 14) / 2;
      for (const e of entries) {
        out.push(rect(x0, y - 6, 6, 6, e.color));
        text(x0 + 9, y, e.name, 9, 'start');
        y += 14;
      }
      if (d.legend === 'l') left += w; else right -= w;
    } else {
      const widths = entries.map((e) => 14 + e.name.length * 4.6);
      const rows: number[][] = [[]];
      let line = 0;
      widths.forEach((w, i) => {
        if (line + w > right - left && rows[rows.length - 1]!.length) { rows.push([]); line = 0; }
        rows[rows.length - 1]!.push(i);
        line += w;
      });
      let y = d.legend === 't' ? top + 10 : bottom - (rows.length - 1) * 12 - 2;
      for (const row of rows) {
        let x = (width - row.reduce((s, i) => s + widths[i]!, 0)) / 2;
        for (const i of row) {
          out.push(rect(x, y - 6, 5, 5, entries[i]!.color));
          text(x + 8, y, entries[i]!.name, 9, 'start');
          x += widths[i]!;
        }
        y += 12;
      }
      if (d.legend === 't') top += rows.length * 12 + 6; else bottom -= rows.length * 12 + 6;
    }
  }
  if (isPie(d)) pie(d, out, left, top, right, bottom);
  // A scatter chart with x values has two value axes (scatter.ts); without them it is plotted by position, as a line chart.
  else if (d.kind === 'scatter' && d.series.some((s) => s.xValues)) scatterPlot(d, out, text, { left, top, right, bottom }, (k) => defaultColor(d, k));
  else axes(d, out, text, left, top, right, bottom);
  return out;
}

function rect(x: number, y: number, w: number, h: number, fill: string): ChartMark {
  return { t: 'poly', pts: [[x, y], [x + w, y], [x + w, y + h], [x, y + h]], fill };
}

/** At most this many slices are drawn (neighbours merged past it): a slice is then half a degree. */
const PIE_SLICES = 720;

function pie(whole: Chart, out: ChartMark[], left: number, top: number, right: number, bottom: number): void {
  const d = whole.categories.length > PIE_SLICES ? mergedSlices(whole) : whole;
  const s = d.series[0];
  if (!s) return;
  const values = s.values.map((v) => Math.max(0, v ?? 0));
  const total = values.reduce((a, b) => a + b, 0);
  if (!total) return;
  const r = Math.max(4, Math.min(right - left, bottom - top) / 2 - 4);
  const cx = (left + right) / 2, cy = (top + bottom) / 2;
  const inner = d.kind === 'doughnut' ? r * 0.5 : 0;
  // Office starts at 12 o'clock and goes clockwise.
  let a = -Math.PI / 2;
  values.forEach((v, i) => {
    if (!v) return;
    const b = a + (v / total) * 2 * Math.PI;
    const steps = Math.max(2, Math.ceil(((b - a) * r) / 3));
    const arc = (rad: number, from: number, to: number): [number, number][] =>
      Array.from({ length: steps + 1 }, (_, k) => {
        const t = from + ((to - from) * k) / steps;
        return [cx + rad * Math.cos(t), cy + rad * Math.sin(t)] as [number, number];
      });
    const pts = inner ? [...arc(r, a, b), ...arc(inner, b, a)] : [[cx, cy] as [number, number], ...arc(r, a, b)];
    out.push({ t: 'poly', pts, fill: s.pointColors[i] ?? defaultColor(d, i) });
    // The white edge Office draws between slices.
    out.push({ t: 'line', pts: [[cx + inner * Math.cos(a), cy + inner * Math.sin(a)], [cx + r * Math.cos(a), cy + r * Math.sin(a)]], stroke: 'FFFFFF', width: 1.5 });
    a = b;
  });
}

/** The longest of some strings (a loop: spreading a million into Math.max overflows the stack). */
function longest(strings: readonly string[]): number {
  let most = 0;
  for (const s of strings) most = Math.max(most, s.length);
  return most;
}

/**
 * A chart with more categories than its plot has room for (a point per half point of width) drawn
 * from buckets of neighbouring categories, each series showing the value of largest magnitude in
 * the bucket: what can be seen of a million points is their envelope, and a million marks would
 * cost more than the whole sheet.
 */
export function thinned(d: Chart, room: number): Chart {
  const n = d.categories.length;
  const buckets = Math.max(1, Math.floor(room));
  if (n <= buckets) return d;
  const per = Math.ceil(n / buckets);
  const count = Math.ceil(n / per);
  const pick = (values: readonly (number | undefined)[], b: number) => {
    let best: number | undefined;
    for (let i = b * per; i < Math.min(n, (b + 1) * per); i++) {
      const v = values[i];
      if (v !== undefined && (best === undefined || Math.abs(v) > Math.abs(best))) best = v;
    }
    return best;
  };
  return {
    ...d,
    categories: Array.from({ length: count }, (_, b) => d.categories[b * per]!),
    series: d.series.map((s) => ({ ...s, values: Array.from({ length: count }, (_, b) => pick(s.values, b)) })),
  };
}

/** A pie of too many slices as PIE_SLICES slices, each the sum of its neighbours, in the first one's colour. */
function mergedSlices(d: Chart): Chart {
  const s = d.series[0];
  if (!s) return d;
  const per = Math.ceil(d.categories.length / PIE_SLICES);
  const count = Math.ceil(d.categories.length / per);
  const sum = (b: number) => {
    let total = 0;
    for (let i = b * per; i < Math.min(s.values.length, (b + 1) * per); i++) total += Math.max(0, s.values[i] ?? 0);
    return total;
  };
  const colors = Array.from({ length: count }, (_, b) => s.pointColors[b * per] ?? defaultColor(d, b * per));
  return { ...d, categories: Array.from({ length: count }, (_, b) => d.categories[b * per]!), series: [{ ...s, values: Array.from({ length: count }, (_, b) => sum(b)), pointColors: colors }] };
}

function axes(whole: Chart, out: ChartMark[], text: (x: number, y: number, s: string, size: number, anchor?: 'start' | 'middle' | 'end') => void, left: number, top: number, right: number, bottom: number): void {
  const d = thinned(whole, 2 * Math.max(right - left, bottom - top));
  const n = d.categories.length;
  if (!n || !d.series.length) return;
  const stacked = d.grouping === 'stacked' || d.grouping === 'percentStacked';
  const percent = d.grouping === 'percentStacked';
  const totals = d.categories.map((_, i) => d.series.reduce((a, s) => a + Math.abs(s.values[i] ?? 0), 0) || 1);
  const value = (s: number, i: number) => (percent ? ((d.series[s]!.values[i] ?? 0) / totals[i]!) * 100 : d.series[s]!.values[i] ?? 0);
  let lo = 0, hi = 0;
  for (let i = 0; i < n; i++) {
    let pos = 0, neg = 0;
    d.series.forEach((_, s) => {
      const v = value(s, i);
      if (stacked) { if (v >= 0) pos += v; else neg += v; } else { pos = Math.max(pos, v); neg = Math.min(neg, v); }
    });
    hi = Math.max(hi, pos); lo = Math.min(lo, neg);
  }
  const scale = niceScale(lo, percent ? Math.min(hi, 100) : hi, percent);
  const horizontal = d.kind === 'bar' && d.horizontal;
  const labels: string[] = [];
  for (let v = scale.min; v <= scale.max + scale.step / 2; v += scale.step) labels.push(fmt(v) + (percent ? '%' : ''));
  const labelW = longest(labels) * 5 + 6;
  const catW = longest(d.categories) * 5 + 8;
  // Plot box: value labels on the left (columns) or below (bars); category labels on the other axis.
  const px0 = left + (horizontal ? Math.min(catW, (right - left) / 3) : labelW);
  const py1 = bottom - 16;
  const px1 = right - 4, py0 = top + 4;
  const toV = (v: number) => (v - scale.min) / (scale.max - scale.min);
  const valueAt = (v: number) => (horizontal ? px0 + toV(v) * (px1 - px0) : py1 - toV(v) * (py1 - py0));
  labels.forEach((l, k) => {
    const p = valueAt(scale.min + k * scale.step);
    if (horizontal) {
      out.push({ t: 'line', pts: [[p, py0], [p, py1]], stroke: GRID, width: 0.75 });
      text(p, py1 + 12, l, 9);
    } else {
      out.push({ t: 'line', pts: [[px0, p], [px1, p]], stroke: GRID, width: 0.75 });
      text(px0 - 4, p + 3, l, 9, 'end');
    }
  });
  const band = ((horizontal ? py1 - py0 : px1 - px0) / n);
  const catAt = (i: number) => (horizontal ? py0 + band * (i + 0.5) : px0 + band * (i + 0.5));
  // Labels closer than 6 pt are skipped at an even interval, as Office's automatic interval does.
  const every = Math.max(1, Math.ceil(6 / band));
  d.categories.forEach((c, i) => {
    if (!(i % every)) (horizontal ? text(px0 - 4, catAt(i) + 3, c, 9, 'end') : text(catAt(i), py1 + 12, c, 9));
  });
  const zero = valueAt(Math.max(scale.min, Math.min(0, scale.max)));
  if (d.kind === 'bar') {
    // Office's default gap width is 150% of a bar: a cluster fills band / (1 + 1.5 / bars).
    const bars = stacked ? 1 : d.series.length;
    const barW = band / (bars + 1.5);
    for (let i = 0; i < n; i++) {
      let pos = 0, neg = 0;
      d.series.forEach((s, k) => {
        const v = value(k, i);
        if (!s.values.length || s.values[i] === undefined) return;
        let a = 0, b = v;
        if (stacked) { if (v >= 0) { a = pos; pos += v; b = pos; } else { a = neg; neg += v; b = neg; } }
        const from = stacked ? valueAt(a) : zero, to = valueAt(b);
        const off = catAt(i) - band / 2 + barW * 0.75 + (stacked ? 0 : k * barW);
        const color = s.color ?? defaultColor(d, k);
        out.push(horizontal ? rect(Math.min(from, to), off, Math.abs(to - from), barW, color) : rect(off, Math.min(from, to), barW, Math.abs(to - from), color));
      });
    }
  } else {
    const acc = d.categories.map(() => 0);
    d.series.forEach((s, k) => {
      const pts: [number, number][] = [];
      for (let i = 0; i < n; i++) {
        if (s.values[i] === undefined) continue;
        const base = stacked ? acc[i]! : 0;
        acc[i] = base + value(k, i);
        pts.push([catAt(i), valueAt(stacked ? acc[i]! : value(k, i))]);
      }
      if (pts.length) out.push({ t: 'line', pts, stroke: s.color ?? defaultColor(d, k), width: 2.25 });
    });
  }
  out.push({ t: 'line', pts: horizontal ? [[zero, py0], [zero, py1]] : [[px0, zero], [px1, zero]], stroke: 'BFBFBF', width: 0.75 });
}

const xmlEsc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const num = (n: number) => String(Math.round(n * 100) / 100);

/** The chart as an SVG document sized width × height points. */
export function chartSvg(xml: Uint8Array | string, width: number, height: number, palette?: string[]): string {
  const d = readChart(xml, palette);
  const body = (d ? chartMarks(d, width, height) : []).map((s) => {
    if (s.t === 'poly') return `<path d="M${s.pts.map((p) => `${num(p[0])},${num(p[1])}`).join('L')}Z" fill="#${s.fill}"/>`;
    if (s.t === 'line') return `<polyline points="${s.pts.map((p) => `${num(p[0])},${num(p[1])}`).join(' ')}" fill="none" stroke="#${s.stroke}" stroke-width="${num(s.width)}"/>`;
    return `<text x="${num(s.x)}" y="${num(s.y)}" font-family="${FONT}" font-size="${num(s.size)}" text-anchor="${s.anchor}" fill="#${s.fill}">${xmlEsc(s.text)}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}pt" height="${num(height)}pt" viewBox="0 0 ${num(width)} ${num(height)}">` +
    `<rect width="${num(width)}" height="${num(height)}" fill="#FFFFFF" stroke="#${GRID}" stroke-width="0.75"/>${body.join('')}</svg>`;
}

