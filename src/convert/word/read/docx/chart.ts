/**
 * DrawingML charts (word/charts/chartN.xml) drawn from the values cached in the part (c:numCache,
 * c:strCache): Word keeps the spreadsheet in an embedded workbook, but every chart also carries the
 * last values it showed, which is all a static rendering needs.
 *
 * The chart is first laid out as a list of shapes in points (chartShapes); chartSvg serialises them as
 * SVG. MuPDF's wasm build has no SVG support (its HTML engine shows "[image]"), so the DOCX reader
 * uses chartInlines instead: the shapes rasterised to a PNG (chart-png.ts) with the title and legend
 * as real paragraphs around it, so the chart's words stay text in the PDF.
 */
import type { Block, Inline, Paragraph, RunStyle } from '../../model/index';
import { attr, child, children, descendant, descendants, elements, parseXml, textOf, type XmlElement } from '../../../../codecs/xml';
import { rasterPng } from './chart-png';
import { labelledPlot, niceScale, shifted } from './chart-axis';

export type ChartKind = 'bar' | 'line' | 'pie' | 'doughnut' | 'area' | 'scatter';

export interface ChartSeries {
  name: string;
  color?: string;
  values: (number | undefined)[];
  /** Per-point colours (c:dPt), used by pies. */
  pointColors: (string | undefined)[];
}

export interface ChartData {
  kind: ChartKind;
  /** Bars run horizontally (c:barDir bar). */
  horizontal: boolean;
  grouping: 'clustered' | 'stacked' | 'percentStacked' | 'standard';
  categories: string[];
  series: ChartSeries[];
  title?: string;
  legend?: 'b' | 't' | 'l' | 'r' | 'tr';
  /** accent1..6 of the document theme: unstyled series take these in order. */
  palette: string[];
}

export type Shape =
  | { t: 'poly'; pts: [number, number][]; fill: string }
  | { t: 'line'; pts: [number, number][]; stroke: string; width: number }
  | { t: 'text'; x: number; y: number; text: string; size: number; anchor: 'start' | 'middle' | 'end'; fill: string };

/** Office's default accent colours: what an unstyled series gets, in order. */
const PALETTE = ['4472C4', 'ED7D31', 'A5A5A5', 'FFC000', '5B9BD5', '70AD47'];
const TEXT = '595959';
const GRID = 'D9D9D9';
const FONT = 'Carlito';

const KINDS: Record<string, ChartKind> = {
  barChart: 'bar', bar3DChart: 'bar', lineChart: 'line', line3DChart: 'line', pieChart: 'pie', pie3DChart: 'pie',
  ofPieChart: 'pie', doughnutChart: 'doughnut', areaChart: 'area', area3DChart: 'area', scatterChart: 'scatter',
  radarChart: 'line', stockChart: 'line', bubbleChart: 'scatter',
};

/** Linear stand-in for DrawingML's HSL lumMod/lumOff: close enough for the shades charts use. */
function colorOf(fill: XmlElement | undefined, palette: string[]): string | undefined {
  const c = fill && (child(fill, 'srgbClr') ?? child(fill, 'schemeClr'));
  if (!c) return undefined;
  let hex: string | undefined = c.name === 'srgbClr' ? attr(c, 'val') : undefined;
  if (c.name === 'schemeClr') {
    const v = attr(c, 'val') ?? '';
    const m = /^accent([1-6])$/.exec(v);
    hex = m ? palette[+m[1]! - 1] : /^(tx|dk)/.test(v) ? '000000' : 'FFFFFF';
  }
  if (!hex || !/^[0-9a-fA-F]{6}$/.test(hex)) return undefined;
  const mod = +(attr(child(c, 'lumMod'), 'val') ?? 100000) / 100000;
  const off = +(attr(child(c, 'lumOff'), 'val') ?? 0) / 100000;
  if (mod === 1 && off === 0) return hex.toUpperCase();
  return [0, 2, 4].map((i) => Math.round(Math.min(255, parseInt(hex!.slice(i, i + 2), 16) * mod + 255 * off)).toString(16).padStart(2, '0')).join('').toUpperCase();
}

const solidFill = (spPr: XmlElement | undefined, palette: string[]) =>
  colorOf(child(spPr, 'solidFill') ?? child(child(spPr, 'ln'), 'solidFill'), palette);

/** The six accent colours of a theme part (a:clrScheme), when it has them all. */
export function themePalette(themeXml: Uint8Array | undefined): string[] | undefined {
  if (!themeXml) return undefined;
  const scheme = descendant(parseXml(themeXml), 'clrScheme');
  const accents = [1, 2, 3, 4, 5, 6].map((i) => attr(descendant(child(scheme, `accent${i}`), 'srgbClr'), 'val'));
  return accents.every((a) => a && /^[0-9a-fA-F]{6}$/.test(a)) ? accents.map((a) => a!.toUpperCase()) : undefined;
}

/** c:pt values of a cache, placed by their idx (missing points stay undefined). */
function cached(ref: XmlElement | undefined): string[] {
  const cache = descendant(ref, 'numCache') ?? descendant(ref, 'strCache') ?? descendant(ref, 'lvl');
  const out: string[] = [];
  for (const pt of children(cache, 'pt')) out[+(attr(pt, 'idx') ?? out.length)] = textOf(child(pt, 'v'));
  const lit = descendant(ref, 'numLit') ?? descendant(ref, 'strLit');
  for (const pt of children(lit, 'pt')) out[+(attr(pt, 'idx') ?? out.length)] = textOf(child(pt, 'v'));
  return out;
}

const richText = (el: XmlElement | undefined) =>
  descendants(el, 'p').map((p) => descendants(p, 't').map(textOf).join('')).join(' ').trim();

/** Reads the chart part; undefined when it holds no chart type we draw. */
export function readChart(xml: Uint8Array | string, palette: string[] = PALETTE): ChartData | undefined {
  const chart = descendant(parseXml(xml), 'chart');
  const plot = child(chart, 'plotArea');
  const types = elements(plot).filter((e) => KINDS[e.name]);
  if (!types.length) return undefined;
  const first = types[0]!;
  const data: ChartData = {
    kind: KINDS[first.name]!,
    horizontal: attr(child(first, 'barDir'), 'val') === 'bar',
    grouping: (attr(child(first, 'grouping'), 'val') as ChartData['grouping']) ?? 'clustered',
    categories: [],
    series: [],
    palette,
  };
  if (data.kind !== 'bar' && data.grouping === 'clustered') data.grouping = 'standard';
  for (const type of types) {
    for (const ser of children(type, 'ser')) {
      const cat = child(ser, 'cat') ?? child(ser, 'xVal');
      if (!data.categories.length && cat) data.categories = cached(cat);
      const raw = cached(child(ser, 'val') ?? child(ser, 'yVal'));
      const pointColors: (string | undefined)[] = [];
      for (const dPt of children(ser, 'dPt')) pointColors[+(attr(child(dPt, 'idx'), 'val') ?? 0)] = solidFill(child(dPt, 'spPr'), palette);
      data.series.push({
        name: cached(child(ser, 'tx'))[0] ?? textOf(descendant(child(ser, 'tx'), 'v')) ?? '',
        color: solidFill(child(ser, 'spPr'), palette),
        values: Array.from(raw, (v) => (v === undefined || v === '' || !Number.isFinite(+v) ? undefined : +v)),
        pointColors,
      });
    }
  }
  const title = child(chart, 'title');
  if (title) data.title = richText(descendant(title, 'rich')) || (data.series.length === 1 ? data.series[0]!.name : 'Chart Title');
  else if (attr(child(chart, 'autoTitleDeleted'), 'val') === undefined && data.series.length === 1) data.title = data.series[0]!.name;
  if (!data.title) delete data.title;
  const legend = child(chart, 'legend');
  if (legend) data.legend = (attr(child(legend, 'legendPos'), 'val') as ChartData['legend']) ?? 'r';
  const n = Math.max(data.categories.length, ...data.series.map((s) => s.values.length));
  for (let i = 0; i < n; i++) data.categories[i] ??= String(i + 1);
  return data;
}

const isPie = (d: ChartData) => d.kind === 'pie' || d.kind === 'doughnut';

/** Legend entries: a pie names its slices (categories), other charts their series. */
export function legendEntries(d: ChartData): { name: string; color: string }[] {
  if (isPie(d)) return d.categories.map((name, i) => ({ name, color: d.series[0]?.pointColors[i] ?? defaultColor(d, i) }));
  return d.series.map((s, i) => ({ name: s.name, color: s.color ?? defaultColor(d, i) }));
}

/** Past the six accents Office repeats them darker. */
function defaultColor(d: ChartData, i: number): string {
  const base = d.palette[i % 6] ?? PALETTE[i % 6]!;
  const mod = i < 6 ? 1 : 0.6;
  return [0, 2, 4].map((k) => Math.round(parseInt(base.slice(k, k + 2), 16) * mod).toString(16).padStart(2, '0')).join('').toUpperCase();
}

const fmt = (v: number) => String(Math.round(v * 1e6) / 1e6);

export interface ShapeOptions {
  /** Leave out the title and legend (drawn as paragraphs by chartInlines). */
  bare?: boolean;
}

/** Lays the chart out in a width × height box (points). */
export function chartShapes(d: ChartData, width: number, height: number, opts: ShapeOptions = {}): Shape[] {
  const out: Shape[] = [];
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
      const w = Math.min(width / 3, 20 + Math.max(...entries.map((e) => e.name.length)) * 5);
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
  else axes(d, out, text, left, top, right, bottom);
  return out;
}

function rect(x: number, y: number, w: number, h: number, fill: string): Shape {
  return { t: 'poly', pts: [[x, y], [x + w, y], [x + w, y + h], [x, y + h]], fill };
}

function pie(d: ChartData, out: Shape[], left: number, top: number, right: number, bottom: number): void {
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

function axes(d: ChartData, out: Shape[], text: (x: number, y: number, s: string, size: number, anchor?: 'start' | 'middle' | 'end') => void, left: number, top: number, right: number, bottom: number): void {
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
  const labelW = Math.max(...labels.map((l) => l.length)) * 5 + 6;
  const catW = Math.max(...d.categories.map((c) => c.length)) * 5 + 8;
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
  d.categories.forEach((c, i) => (horizontal ? text(px0 - 4, catAt(i) + 3, c, 9, 'end') : text(catAt(i), py1 + 12, c, 9)));
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
  const body = (d ? chartShapes(d, width, height) : []).map((s) => {
    if (s.t === 'poly') return `<path d="M${s.pts.map((p) => `${num(p[0])},${num(p[1])}`).join('L')}Z" fill="#${s.fill}"/>`;
    if (s.t === 'line') return `<polyline points="${s.pts.map((p) => `${num(p[0])},${num(p[1])}`).join(' ')}" fill="none" stroke="#${s.stroke}" stroke-width="${num(s.width)}"/>`;
    return `<text x="${num(s.x)}" y="${num(s.y)}" font-family="${FONT}" font-size="${num(s.size)}" text-anchor="${s.anchor}" fill="#${s.fill}">${xmlEsc(s.text)}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}pt" height="${num(height)}pt" viewBox="0 0 ${num(width)} ${num(height)}">` +
    `<rect width="${num(width)}" height="${num(height)}" fill="#FFFFFF" stroke="#${GRID}" stroke-width="0.75"/>${body.join('')}</svg>`;
}

const para = (inlines: Inline[], size: number): Paragraph => ({
  kind: 'paragraph',
  props: { align: 'center', spaceBefore: 0, spaceAfter: 0, line: { rule: 'auto', value: 1 }, markStyle: { font: FONT, size } },
  inlines,
});

/**
 * What the DOCX reader emits for a chart: a bordered one-cell table (the chart area) holding the title
 * and legend as text and the plot as a PNG.
 */
export function chartInlines(xml: Uint8Array | string, width: number, height: number, palette?: string[]): Inline[] {
  const d = readChart(xml, palette);
  if (!d || width <= 0 || height <= 0) return [];
  const style = (size: number, color = TEXT): RunStyle => ({ font: FONT, size, color });
  const blocks: Block[] = [];
  let plotH = height - 8;
  if (d.title) {
    blocks.push({ ...para([{ kind: 'text', text: d.title, style: style(14) }], 14), props: { ...para([], 14).props, spaceBefore: 6, spaceAfter: 4 } });
    plotH -= 28;
  }
  const legend: Inline[] = [];
  if (d.legend) {
    legendEntries(d).forEach((e, i) => {
      if (i) legend.push({ kind: 'text', text: '   ', style: style(9) });
      legend.push({ kind: 'text', text: '■ ', style: style(7, e.color) }, { kind: 'text', text: e.name, style: style(9) });
    });
    const lines = Math.ceil(legend.reduce((a, l) => a + (l.kind === 'text' ? l.text.length * 4.6 : 0), 0) / Math.max(1, width - 20));
    plotH -= lines * 11 + 6;
  }
  plotH = Math.max(20, plotH);
  const innerW = width - 8;
  const shapes = chartShapes(d, innerW, plotH, { bare: true });
  // The labels under the plot (categories of a column chart) become a paragraph of centred tabs, so
  // they stay words; the image stops just above them. Other axis labels are lost as text.
  const below = shapes.filter((s): s is Extract<Shape, { t: 'text' }> => s.t === 'text' && s.anchor === 'middle');
  const imageH = below.length ? plotH - 14 : plotH;
  // The labels left of the plot (a column chart's values, a bar chart's categories) go into a column
  // of their own beside the image, a paragraph each at its gridline, so they stay words too.
  const beside = shapes.filter((s): s is Extract<Shape, { t: 'text' }> => s.t === 'text' && s.anchor === 'end' && s.y <= imageH).sort((a, b) => a.y - b.y);
  const labelW = beside.length ? Math.min(innerW / 3, Math.max(...beside.map((t) => t.x)) + 2) : 0;
  const plot = shapes.filter((s) => s.t !== 'text').map((s) => (labelW ? shifted(s, -labelW) : s));
  const png = rasterPng(plot, innerW - labelW, imageH);
  const image = para([{ kind: 'image', data: png, contentType: 'image/png', width: innerW - labelW, height: imageH }], 9);
  if (beside.length) blocks.push(labelledPlot(beside, labelW, image, innerW - labelW, style(9)));
  else blocks.push(image);
  if (below.length) {
    const labels = para(below.flatMap((t): Inline[] => [{ kind: 'tab', style: style(9) }, { kind: 'text', text: t.text, style: style(9) }]), 9);
    labels.props = { ...labels.props, align: 'left', tabs: below.map((t) => ({ pos: t.x, align: 'center' as const })) };
    blocks.push(labels);
  }
  if (legend.length) blocks.push({ ...para(legend, 9), props: { ...para([], 9).props, spaceBefore: 2, spaceAfter: 4 } });
  const border = { width: 0.75, style: 'single' as const, color: GRID };
  return [{
    kind: 'textbox',
    width,
    height,
    blocks: [{
      kind: 'table',
      grid: [width],
      rows: [{ cells: [{ blocks, gridSpan: 1, borders: { top: border, bottom: border, left: border, right: border }, margins: { top: 0, right: 4, bottom: 0, left: 4 }, width }], height: { rule: 'exact', value: height } }],
    }],
  }];
}
