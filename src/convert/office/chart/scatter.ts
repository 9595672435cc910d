/**
 * An XY scatter chart's plot: both axes are value axes (the chart's fixed bounds where it gives
 * them, else Office-like automatic ones through zero), each point placed by its x and y, the
 * series' line through them unless it has none, and a round marker on each point when the series
 * marks them. The horizontal gridlines are the y axis's, as Office draws a new scatter chart.
 */
import type { AxisBounds, Chart, ChartMark } from '../model';
import { niceScale } from './axis';

type Text = (x: number, y: number, s: string, size: number, anchor?: 'start' | 'middle' | 'end') => void;

const GRID = 'D9D9D9';
const AXIS = 'BFBFBF';
/** Sides of the polygon a round marker is drawn as. */
const MARKER_SIDES = 12;
const fmt = (v: number) => String(Math.round(v * 1e6) / 1e6);

/** The axis's scale: fixed ends kept, the rest automatic from the values (through zero). */
function scaleOf(values: number[], fixed: AxisBounds | undefined): { min: number; max: number; step: number } {
  const lo = Math.min(0, ...values), hi = Math.max(0, ...values);
  const auto = niceScale(fixed?.min ?? lo, fixed?.max ?? hi, fixed?.min !== undefined && fixed?.max !== undefined);
  const [min, max] = [fixed?.min ?? auto.min, fixed?.max ?? auto.max];
  if (!(max > min)) return auto;
  // A fixed step is kept unless it would draw more than 100 gridlines.
  const step = fixed?.step && (max - min) / fixed.step <= 100 ? fixed.step : niceScale(min, max, true).step;
  return { min, max, step };
}

const ticks = ({ min, max, step }: { min: number; max: number; step: number }) => {
  const out: number[] = [];
  for (let v = min, k = 0; v <= max + step / 2 && k < 200; v = min + ++k * step) out.push(v);
  return out;
};

function marker(x: number, y: number, size: number, fill: string): ChartMark {
  const r = size / 2;
  return { t: 'poly', pts: Array.from({ length: MARKER_SIDES }, (_, k): [number, number] => [x + r * Math.cos((2 * Math.PI * k) / MARKER_SIDES), y + r * Math.sin((2 * Math.PI * k) / MARKER_SIDES)]), fill };
}

/** Draws the scatter plot in the box; `colorOf` gives a series' colour. */
export function scatterPlot(d: Chart, out: ChartMark[], text: Text, box: { left: number; top: number; right: number; bottom: number }, colorOf: (k: number) => string): void {
  const points = d.series.map((s) => s.values.map((y, i): [number, number] | undefined => {
    const x = s.xValues ? s.xValues[i] : i + 1;
    return x === undefined || y === undefined ? undefined : [x, y];
  }));
  const all = points.flat().filter((p): p is [number, number] => !!p);
  if (!all.length) return;
  const xs = scaleOf(all.map((p) => p[0]), d.xAxis);
  const ys = scaleOf(all.map((p) => p[1]), d.yAxis);
  const yLabels = ticks(ys).map(fmt);
  const px0 = box.left + Math.max(...yLabels.map((l) => l.length)) * 5 + 6;
  const px1 = box.right - 4, py0 = box.top + 4, py1 = box.bottom - 16;
  const at = (x: number, y: number): [number, number] => [px0 + ((x - xs.min) / (xs.max - xs.min)) * (px1 - px0), py1 - ((y - ys.min) / (ys.max - ys.min)) * (py1 - py0)];
  for (const v of ticks(ys)) {
    const [, y] = at(xs.min, v);
    out.push({ t: 'line', pts: [[px0, y], [px1, y]], stroke: GRID, width: 0.75 });
    text(px0 - 4, y + 3, fmt(v), 9, 'end');
  }
  for (const v of ticks(xs)) text(at(v, ys.min)[0], py1 + 12, fmt(v), 9);
  // The axes cross at zero where it is in range, else at the low end.
  const [zx, zy] = at(Math.max(xs.min, Math.min(0, xs.max)), Math.max(ys.min, Math.min(0, ys.max)));
  out.push({ t: 'line', pts: [[px0, zy], [px1, zy]], stroke: AXIS, width: 0.75 }, { t: 'line', pts: [[zx, py0], [zx, py1]], stroke: AXIS, width: 0.75 });
  d.series.forEach((s, k) => {
    const placed = points[k]!.flatMap((p) => (p ? [at(...p)] : []));
    const color = s.color ?? colorOf(k);
    if (!s.noLine && placed.length > 1) out.push({ t: 'line', pts: placed, stroke: color, width: 2.25 });
    // Markers past a fixed bound are not drawn, as Office cuts them at the plot.
    if (s.marker) for (const [x, y] of placed) if (x >= px0 - 0.5 && x <= px1 + 0.5 && y >= py0 - 0.5 && y <= py1 + 0.5) out.push(marker(x, y, s.marker, color));
  });
}
