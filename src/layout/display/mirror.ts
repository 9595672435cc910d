/**
 * Display items turned over left to right, for pages laid out right to left (a
 * right-to-left spreadsheet prints column A at the right): geometry turned over an axis. Boxes and
 * lines land mirrored; a text is a run of glyphs that still reads left to right, so it keeps its
 * width and its start moves to the mirrored end; a picture's box mirrors, not the picture.
 */
import type { DisplayItem } from '../../contracts/display';

/** Items turned over the vertical line where x + x' = `axis` (twice the line's x). */
export function mirrorX(items: DisplayItem[], axis: number): DisplayItem[] {
  return items.map((item): DisplayItem => {
    switch (item.kind) {
      case 'fill':
        return { ...item, x0: axis - item.x1, x1: axis - item.x0 };
      case 'shape':
        return { ...item, points: item.points.map(([x, y]) => [axis - x, y]) };
      case 'text':
        // A turned text runs along its angle: its start mirrors, it does not turn back.
        return { ...item, x: item.angle ? axis - item.x : axis - item.x - item.text.width };
      case 'picture': {
        const [a, b, c, d, e, f] = item.at;
        // The picture's box mirrored, the picture itself not flipped.
        return { ...item, at: [a, b, c, d, axis - e - a - c, f] };
      }
      case 'clip':
        return { ...item, rect: [axis - item.rect[2], item.rect[1], axis - item.rect[0], item.rect[3]], items: mirrorX(item.items, axis) };
      case 'link':
        return { ...item, rect: [axis - item.rect[2], item.rect[1], axis - item.rect[0], item.rect[3]] };
    }
  });
}
