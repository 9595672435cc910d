/**
 * An Office chart (the Office parts' chart model, office/chart/) laid out for any Office format:
 * a sheet's chart, a slide's chart frame. Drawn by the Office parts' chart layout
 * (office/chart/draw.ts): its bars, areas and lines as vector shapes, its title, labels and legend
 * as text laid out by layout's line breaker, so they stay words.
 */
import type { DisplayItem, FilledBox } from '../../contracts/display';
import type { Chart } from '../office/model';
import { chartMarks, FONT, GRID } from '../office/chart/draw';
import type { Family } from '../../fonts/catalog';
import { paragraphLines, type LineContext } from '../../layout/blocks/paragraph-lines';
import { displayLines } from '../../layout/display/draw-lines';

/** A chart in its box on white: its bars, areas and lines as vector shapes, its text as words, a light frame around it as Office draws the chart area. */
export function chartItems(chart: Chart, box: { x: number; y: number; width: number; height: number }, ctx: LineContext): DisplayItem[] {
  const marks = chartMarks(chart, box.width, box.height);
  const at = (pts: [number, number][]): [number, number][] => pts.map(([x, y]) => [box.x + x, box.y + y]);
  const items: DisplayItem[] = [{ kind: 'fill', x0: box.x, y0: box.y, x1: box.x + box.width, y1: box.y + box.height, color: 'FFFFFF' }];
  for (const mark of marks) {
    if (mark.t === 'poly') items.push({ kind: 'shape', points: at(mark.pts), fill: mark.fill });
    else if (mark.t === 'line') items.push({ kind: 'shape', points: at(mark.pts), stroke: { color: mark.stroke, width: mark.width } });
  }
  const family = FONT as Family;
  for (const mark of marks) {
    if (mark.t !== 'text' || !mark.text.trim()) continue;
    const face = { family, bold: false, italic: false, size: mark.size, kern: false };
    const [line] = paragraphLines({ kind: 'paragraph', props: { align: 'left', markFace: { family, size: mark.size } }, items: [{ kind: 'text', text: mark.text, style: { face, look: { rise: 0, color: mark.fill }, sizes: { family, size: mark.size } } }] }, 100_000, ctx);
    if (!line) continue;
    const width = line.texts.reduce((w, t) => Math.max(w, t.x + t.width), 0);
    const left = mark.anchor === 'middle' ? mark.x - width / 2 : mark.anchor === 'end' ? mark.x - width : mark.x;
    items.push(...displayLines([{ line, y: mark.y - line.baseline, x: left }], box.x, box.y, () => {}));
  }
  const rule = 0.75;
  const frame = (x0: number, y0: number, x1: number, y1: number): FilledBox => ({ kind: 'fill', x0, y0, x1, y1, color: GRID });
  items.push(frame(box.x, box.y, box.x + box.width, box.y + rule), frame(box.x, box.y + box.height - rule, box.x + box.width, box.y + box.height), frame(box.x, box.y, box.x + rule, box.y + box.height), frame(box.x + box.width - rule, box.y, box.x + box.width, box.y + box.height));
  return items;
}

