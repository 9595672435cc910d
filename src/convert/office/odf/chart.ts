/**
 * An embedded OpenDocument chart (an object's content.xml holding office:chart > chart:chart) as
 * the Office parts' chart model (office/model.ts Chart), which a sheet's drawings and a slide draw as
 * they do an OOXML chart. The values are the chart's own table:table (its local data, which LibreOffice
 * always writes: the first column the categories, a header row the series' names, one column per
 * series, or one row per series where the plot area's style says chart:series-source="rows");
 * the series' colours are their styles' fills (lines: their strokes), pie slices' their data
 * points'.
 */
import { attr, child, children, type XmlElement } from '../../../codecs/xml';
import type { Chart, ChartKind } from '../model';
import { PALETTE } from '../chart/read';
import { hexColor, paragraphText, StyleSources } from './styles';

const KINDS: Record<string, ChartKind> = {
  bar: 'bar', line: 'line', area: 'area', circle: 'pie', ring: 'doughnut', scatter: 'scatter', bubble: 'scatter', radar: 'line', 'filled-radar': 'area', stock: 'line',
};
const LEGEND: Record<string, NonNullable<Chart['legend']>> = { start: 'l', end: 'r', top: 't', bottom: 'b', 'top-end': 'tr' };
/** Points and series one chart keeps (Excel's own limits are 32,000 points and 255 series). */
const POINTS_MAX = 32_000;
const SERIES_MAX = 255;

/** chart:class="chart:bar" → "bar". */
const className = (value: string | undefined) => value?.replace(/^[^:]*:/, '');

/** The rows of a local table as cells' text and numbers (repeats expanded within the limits). */
function tableRows(table: XmlElement | undefined): { text: string; value?: number }[][] {
  const rows: { text: string; value?: number }[][] = [];
  const walk = (el: XmlElement) => {
    for (const c of el.children) {
      if (typeof c === 'string') continue;
      if (c.name === 'table-row') {
        const row: { text: string; value?: number }[] = [];
        for (const cell of c.children) {
          if (typeof cell === 'string' || (cell.name !== 'table-cell' && cell.name !== 'covered-table-cell')) continue;
          const repeat = Math.min(Math.max(1, Number(attr(cell, 'number-columns-repeated') ?? 1) || 1), SERIES_MAX + 1 - row.length);
          const n = Number(attr(cell, 'value'));
          const text = children(cell, 'p').map((p) => paragraphText(p, 1000)).join(' ');
          const number = attr(cell, 'value') !== undefined && attr(cell, 'value-type') !== 'string' && Number.isFinite(n) ? n : undefined;
          for (let k = 0; k < repeat; k++) row.push(number === undefined ? { text } : { text, value: number });
        }
        const repeat = Math.min(Math.max(1, Number(attr(c, 'number-rows-repeated') ?? 1) || 1), POINTS_MAX + 1 - rows.length);
        for (let k = 0; k < repeat; k++) rows.push(row);
      } else if (rows.length <= POINTS_MAX) walk(c);
    }
  };
  if (table) walk(table);
  return rows;
}

/** An object's content.xml as a chart; undefined when it holds no chart of a kind we draw. */
/** A scatter chart's axes' fixed bounds and steps (chart:axis chart:dimension x and y, their chart properties). */
function axisBounds(plot: XmlElement, chartProps: (name: string | undefined) => Record<string, string>): Pick<Chart, 'xAxis' | 'yAxis'> {
  const out: Pick<Chart, 'xAxis' | 'yAxis'> = {};
  for (const axis of children(plot, 'axis')) {
    const props = chartProps(attr(axis, 'style-name'));
    const num = (name: string) => (props[name] !== undefined && Number.isFinite(Number(props[name])) ? Number(props[name]) : undefined);
    const [min, max, step] = [num('minimum'), num('maximum'), num('interval-major')];
    const bounds = { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}), ...(step && step > 0 ? { step } : {}) };
    const dimension = attr(axis, 'dimension');
    if (Object.keys(bounds).length && (dimension === 'x' || dimension === 'y')) out[dimension === 'x' ? 'xAxis' : 'yAxis'] = bounds;
  }
  return out;
}

export function readOdfChart(root: XmlElement): Chart | undefined {
  // office:body > office:chart > chart:chart (the parser keeps local names).
  const chartEl = child(child(child(root, 'body'), 'chart'), 'chart');
  if (!chartEl) return undefined;
  const kind = KINDS[className(attr(chartEl, 'class')) ?? ''];
  const plot = child(chartEl, 'plot-area');
  if (!kind || !plot) return undefined;
  const styles = new StyleSources();
  styles.add(root);
  const chartProps = (name: string | undefined) => styles.props('chart', name, 'chart-properties');
  const graphic = (name: string | undefined) => styles.props('chart', name, 'graphic-properties');
  const plotProps = chartProps(attr(plot, 'style-name'));
  const stacked = plotProps['stacked'] === 'true';
  const percent = plotProps['percentage'] === 'true';
  const data: Chart = {
    kind,
    horizontal: kind === 'bar' && plotProps['vertical'] === 'true',
    grouping: percent ? 'percentStacked' : stacked ? 'stacked' : kind === 'bar' ? 'clustered' : 'standard',
    categories: [],
    series: [],
    palette: PALETTE,
  };
  const seriesEls = children(plot, 'series').slice(0, SERIES_MAX);
  const rows = tableRows(child(chartEl, 'table'));
  // The header row names the series; the first column holds the categories.
  const [header = [], ...body] = rows;
  // Series with their own x values (a scatter's chart:domain) come in column pairs, x then y.
  const domains = kind === 'scatter' && seriesEls.length > 0 && seriesEls.every((s) => child(s, 'domain'));
  const byRows = plotProps['series-source'] === 'rows' || (!(domains && header.length - 1 >= 2 * seriesEls.length) && body.length === seriesEls.length && header.length - 1 !== seriesEls.length);
  const names = byRows ? body.map((r) => r[0]?.text ?? '') : header.slice(1).map((c) => c.text);
  const columns = byRows ? body.map((r) => r.slice(1)) : header.slice(1).map((_, i) => body.map((r) => r[i + 1] ?? { text: '' }));
  data.categories = byRows ? header.slice(1).map((c) => c.text) : body.map((r) => r[0]?.text ?? '');
  // A scatter chart's series each with its own x values take the table's columns in pairs; otherwise its first column is the x values of all, not a series.
  const paired = domains && columns.length >= 2 * seriesEls.length;
  const first = !paired && kind === 'scatter' && columns.length > seriesEls.length ? 1 : 0;
  if (first) data.categories = columns[0]!.map((c) => (c.value !== undefined ? String(c.value) : c.text));
  seriesEls.forEach((s, i) => {
    const [xAt, yAt] = paired ? [2 * i, 2 * i + 1] : [first ? 0 : -1, first + i];
    const cells = columns[yAt];
    if (!cells) return;
    const fill = graphic(attr(s, 'style-name'));
    const color = hexColor(kind === 'line' || kind === 'scatter' ? (fill['stroke-color'] ?? fill['fill-color']) : (fill['fill-color'] ?? fill['stroke-color']));
    const pointColors: (string | undefined)[] = [];
    let at = 0;
    for (const p of children(s, 'data-point')) {
      const repeat = Math.min(Math.max(1, Number(attr(p, 'repeated') ?? 1) || 1), POINTS_MAX - at);
      const pc = hexColor(graphic(attr(p, 'style-name'))['fill-color']);
      for (let k = 0; k < repeat; k++) pointColors[at + k] = pc;
      at += repeat;
      if (at >= POINTS_MAX) break;
    }
    // A scatter series: its x values the first column's numbers, its line and symbols as its style says.
    const xs = xAt >= 0 ? (columns[xAt] ?? []).slice(0, POINTS_MAX).map((c) => c.value) : [];
    const symbol = chartProps(attr(s, 'style-name'))['symbol-type'];
    data.series.push({
      name: names[yAt] ?? '',
      ...(color ? { color } : {}),
      values: cells.slice(0, POINTS_MAX).map((c) => c.value),
      pointColors: pointColors.some((c) => c) ? pointColors : [],
      ...(xs.some((x) => x !== undefined) ? { xValues: xs } : {}),
      ...(kind === 'scatter' && fill['stroke'] === 'none' ? { noLine: true } : {}),
      ...(kind === 'scatter' && symbol && symbol !== 'none' ? { marker: 5 } : {}),
    });
  });
  if (kind === 'scatter') Object.assign(data, axisBounds(plot, chartProps));
  const title = child(chartEl, 'title');
  if (title) {
    const text = children(title, 'p').map((p) => paragraphText(p, 1000)).join(' ').trim();
    if (text) data.title = text;
  }
  const legend = child(chartEl, 'legend');
  if (legend) data.legend = LEGEND[attr(legend, 'legend-position') ?? 'end'] ?? 'r';
  const n = Math.max(data.categories.length, ...data.series.map((s) => s.values.length));
  for (let i = 0; i < n; i++) data.categories[i] ||= String(i + 1);
  return data.series.length ? data : undefined;
}
