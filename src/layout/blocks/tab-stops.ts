/** Tab stops: where the next tab goes from a position on the line (the line breaker and Word's HTML path both ask). */
import type { TabStop } from './model';

/** Office's default stops, every half inch. */
export const DEFAULT_TAB_STOP = 36;

/** The tab stop the next tab goes to from `x`: a custom stop, the hanging indent (after a list label), or the next default stop. */
export function nextStop(x: number, tabs: TabStop[], indentLeft: number, firstLine: number): TabStop {
  const stops = tabs.filter((t) => t.align !== 'clear' && t.pos > x + 0.5).sort((a, b) => a.pos - b.pos);
  // A hanging indent acts as a tab stop for the text after a list label.
  const hanging = firstLine < 0 && x < indentLeft - 0.5 ? indentLeft : undefined;
  const custom = stops[0];
  if (hanging !== undefined && (!custom || hanging < custom.pos)) return { pos: hanging, align: 'left' };
  if (custom) return custom;
  return { pos: (Math.floor(x / DEFAULT_TAB_STOP + 1e-6) + 1) * DEFAULT_TAB_STOP, align: 'left' };
}
