/**
 * Display items turned about a point (a turned shape and its text: a sheet's or a slide's shape
 * rotated by its a:xfrm rot). Polygons and lines turn point by point, a filled box becomes the
 * polygon it turns into, a text turns about its start and runs at the angle, a picture's matrix
 * turns. A clip cannot turn with a rectangle, so its items are turned unclipped.
 */
import type { DisplayItem } from '../../contracts/display';

/** `items` turned `degrees` clockwise on the page (y down) about (cx, cy). */
export function rotateItems(items: DisplayItem[], degrees: number, cx: number, cy: number): DisplayItem[] {
  if (!degrees) return items;
  const t = (degrees * Math.PI) / 180, cos = Math.cos(t), sin = Math.sin(t);
  const turn = (x: number, y: number): [number, number] => [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos];
  const out: DisplayItem[] = [];
  for (const item of items) {
    switch (item.kind) {
      case 'fill':
        out.push({ kind: 'shape', points: [turn(item.x0, item.y0), turn(item.x1, item.y0), turn(item.x1, item.y1), turn(item.x0, item.y1)], fill: item.color ?? '000000' });
        break;
      case 'shape':
        out.push({ ...item, points: item.points.map(([x, y]) => turn(x, y)), ...(item.gradient ? { gradient: { ...item.gradient, angle: item.gradient.angle + degrees } } : {}) });
        break;
      case 'text': {
        const [x, baseline] = turn(item.x, item.baseline);
        // A text's angle is counter-clockwise; a clockwise turn on a y-down page takes it the other way.
        out.push({ ...item, x, baseline, angle: (item.angle ?? 0) - degrees });
        break;
      }
      case 'picture': {
        const [a, b, c, d, e, f] = item.at;
        const [e2, f2] = turn(e, f);
        out.push({ ...item, at: [a * cos - b * sin, a * sin + b * cos, c * cos - d * sin, c * sin + d * cos, e2, f2] });
        break;
      }
      case 'clip':
        out.push(...rotateItems(item.items, degrees, cx, cy));
        break;
      case 'link':
        out.push(item);
    }
  }
  return out;
}
