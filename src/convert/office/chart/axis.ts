/** A chart's value axis: its scale (as Excel's default), and moving marks along it (draw.ts). */
import type { ChartMark } from '../model';

/**
 * The value axis as Excel scales it by default: the data's range with 5% of headroom beyond each
 * end that is not zero (none with `exact`: a 100% stacked chart ends at 100), then a round step
 * (1, 2 or 5 × 10^n) giving at most ten intervals, the ends rounded out to it. Data up to 5 gets an
 * axis 0-6 in steps of 1, as Word and LibreOffice draw it.
 */
export function niceScale(lo: number, hi: number, exact = false): { min: number; max: number; step: number } {
  if (hi <= lo) hi = lo + 1;
  const room = exact ? 0 : (hi - lo) * 0.05;
  const top = hi > 0 ? hi + room : hi;
  const bottom = lo < 0 ? lo - room : lo;
  const raw = (top - bottom) / 10;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = ([1, 2, 5, 10].find((m) => m * mag >= raw - 1e-12) ?? 10) * mag;
  return { min: Math.floor(bottom / step + 1e-9) * step, max: Math.ceil(top / step - 1e-9) * step, step };
}

/** A mark moved `dx` points to the right. */
export function shifted(s: ChartMark, dx: number): ChartMark {
  return s.t === 'text' ? { ...s, x: s.x + dx } : { ...s, pts: s.pts.map(([x, y]): [number, number] => [x + dx, y]) };
}
