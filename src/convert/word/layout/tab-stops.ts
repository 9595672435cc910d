/** The gap that takes a tab's text to its stop, as HTML (inline-html.ts tracks x; layout/blocks/tab-stops.ts finds the stop). */
import type { TabStop } from '../model/index';
import type { FontBook } from '../../../layout/text/font-book';
import type { ResolvedRun } from '../rules/runs';
import { pt } from './css-units';

/** A horizontal gap of exactly `width` points, made of no-break spaces at a size that fits it. */
export function gap(width: number, run: ResolvedRun, fonts: FontBook, leader?: TabStop['leader']): string {
  if (width <= 0.5) return '';
  let dots = '';
  let rest = width;
  if (leader && leader !== 'none') {
    const ch = leader === 'dot' ? '.' : leader === 'hyphen' ? '-' : '_';
    const w = fonts.measure(ch, run.family, run.bold, run.italic, run.size);
    const n = Math.floor((rest - 0.5) / w);
    if (n > 0) {
      dots = `<span style="font-family:${run.family};font-size:${pt(run.size)}">${ch.repeat(n)}</span>`;
      rest -= n * w;
    }
  }
  // The leader ends at the text after it, as Word and LibreOffice draw it: what the whole dots leave over goes before them.
  const em = fonts.measure('\u00a0', run.family, false, false, 1) || 0.25;
  const count = Math.max(1, Math.ceil(rest / (em * run.size)));
  // Rounded down (pt() writes hundredths): a gap a hair too wide overflows a line that a right tab
  // at the margin fills exactly, and the text after it wraps.
  const size = Math.floor((rest / (em * count)) * 100) / 100;
  if (size < 0.1) return dots;
  return `<span style="font-family:${run.family};font-size:${pt(size)}">${'\u00a0'.repeat(count)}</span>${dots}`;
}
