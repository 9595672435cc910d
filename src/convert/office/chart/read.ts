/**
 * DrawingML charts (c:chartSpace parts: word/charts/chartN.xml, xl/charts/, ppt/charts/) read from the
 * values cached in the part (c:numCache, c:strCache): the spreadsheet behind a chart is embedded as a
 * workbook, but every chart also carries the last values it showed, which is all a static rendering
 * needs. Drawn by draw.ts.
 */
import { attr, child, children, descendant, descendants, elements, parseXml, textOf, type XmlElement } from '../../../codecs/xml';
import type { Chart, ChartKind } from '../model';

/** Office's default accent colours: what an unstyled series gets, in order. */
export const PALETTE = ['4472C4', 'ED7D31', 'A5A5A5', 'FFC000', '5B9BD5', '70AD47'];

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

/** Points a series holds at most (Excel's 1,048,576 rows): an idx past it would make a sparse array of billions. */
const POINT_INDEX_MAX = 1_048_576;

/** c:pt values of a cache, placed by their idx (missing points stay undefined). */
function cached(ref: XmlElement | undefined): string[] {
  const cache = descendant(ref, 'numCache') ?? descendant(ref, 'strCache') ?? descendant(ref, 'lvl');
  const out: string[] = [];
  const put = (pt: XmlElement) => {
    const idx = Math.floor(Number(attr(pt, 'idx') ?? out.length));
    if (idx >= 0 && idx < POINT_INDEX_MAX) out[idx] = textOf(child(pt, 'v'));
  };
  for (const pt of children(cache, 'pt')) put(pt);
  for (const pt of children(descendant(ref, 'numLit') ?? descendant(ref, 'strLit'), 'pt')) put(pt);
  return out;
}

const richText = (el: XmlElement | undefined) =>
  descendants(el, 'p').map((p) => descendants(p, 't').map(textOf).join('')).join(' ').trim();

/**
 * Bytes of chart XML read at most: its tree takes about ten times its size (a 1,000,000-point
 * chart's 40 MB of XML held 458 MB), and the points it can draw fit in far less.
 */
export const CHART_XML_MAX = 4_000_000;

/** A scatter chart's value axes' fixed bounds: the one at the bottom (or top) is x, the other y. */
function axisBounds(plot: XmlElement | undefined): Pick<Chart, 'xAxis' | 'yAxis'> {
  const out: Pick<Chart, 'xAxis' | 'yAxis'> = {};
  for (const ax of children(plot, 'valAx')) {
    const scaling = child(ax, 'scaling');
    const bound = (name: string) => {
      const v = Number(attr(child(scaling, name), 'val'));
      return attr(child(scaling, name), 'val') !== undefined && Number.isFinite(v) ? { [name]: v } : {};
    };
    const unit = Number(attr(child(ax, 'majorUnit'), 'val'));
    const bounds = { ...bound('min'), ...bound('max'), ...(unit > 0 && Number.isFinite(unit) ? { step: unit } : {}) };
    const pos = attr(child(ax, 'axPos'), 'val');
    if (Object.keys(bounds).length) out[pos === 'b' || pos === 't' ? 'xAxis' : 'yAxis'] = bounds;
  }
  return out;
}

/** Reads the chart part; undefined when it holds no chart type we draw, or is too large to read. */
export function readChart(xml: Uint8Array | string, palette: string[] = PALETTE): Chart | undefined {
  if (xml.length > CHART_XML_MAX) return undefined;
  const chart = descendant(parseXml(xml), 'chart');
  const plot = child(chart, 'plotArea');
  const types = elements(plot).filter((e) => KINDS[e.name]);
  if (!types.length) return undefined;
  const first = types[0]!;
  const data: Chart = {
    kind: KINDS[first.name]!,
    horizontal: attr(child(first, 'barDir'), 'val') === 'bar',
    grouping: (attr(child(first, 'grouping'), 'val') as Chart['grouping']) ?? 'clustered',
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
      const numbers = (values: string[]) => Array.from(values, (v) => (v === undefined || v === '' || !Number.isFinite(+v) ? undefined : +v));
      const marker = child(ser, 'marker');
      const scatter = data.kind === 'scatter';
      const xs = scatter ? cached(child(ser, 'xVal')) : [];
      const markerSize = Number(attr(child(marker, 'size'), 'val') ?? 5);
      data.series.push({
        name: cached(child(ser, 'tx'))[0] ?? textOf(descendant(child(ser, 'tx'), 'v')) ?? '',
        color: solidFill(child(ser, 'spPr'), palette) ?? solidFill(child(marker, 'spPr'), palette),
        values: numbers(raw),
        pointColors,
        // Numbers only: a scatter series whose x values are text is plotted by position, as Excel plots it.
        ...(xs.length && xs.every((v) => v === undefined || (v !== '' && Number.isFinite(+v))) ? { xValues: numbers(xs) } : {}),
        ...(scatter && child(child(child(ser, 'spPr'), 'ln'), 'noFill') ? { noLine: true } : {}),
        ...(scatter && attr(child(marker, 'symbol'), 'val') !== 'none' && attr(child(first, 'scatterStyle'), 'val') !== 'line' ? { marker: markerSize >= 2 && markerSize <= 72 ? markerSize : 5 } : {}),
      });
    }
  }
  if (data.kind === 'scatter') Object.assign(data, axisBounds(plot));
  const title = child(chart, 'title');
  if (title) data.title = richText(descendant(title, 'rich')) || (data.series.length === 1 ? data.series[0]!.name : 'Chart Title');
  else if (attr(child(chart, 'autoTitleDeleted'), 'val') === undefined && data.series.length === 1) data.title = data.series[0]!.name;
  if (!data.title) delete data.title;
  const legend = child(chart, 'legend');
  if (legend) data.legend = (attr(child(legend, 'legendPos'), 'val') as Chart['legend']) ?? 'r';
  const n = Math.max(data.categories.length, ...data.series.map((s) => s.values.length));
  for (let i = 0; i < n; i++) data.categories[i] ??= String(i + 1);
  return data;
}

