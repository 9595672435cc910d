/** Deskew (src/pdf/deskew.ts): the angle of a page's text lines found, and the page turned back level. */
import { describe, expect, it } from 'vitest';
import { rotated, skewAngle } from '../src/pdf/deskew';

/** A white grey page with dark "text lines" 4 px thick every 30 px, climbing to the right by `degrees`. */
function linedPage(w: number, h: number, degrees: number): Uint8Array {
  const px = new Uint8Array(w * h).fill(245);
  const t = Math.tan((degrees * Math.PI) / 180);
  for (let y = 0; y < h; y++) {
    for (let x = 40; x < w - 40; x++) {
      const level = y + x * t; // constant along a line that climbs to the right
      if (level % 30 < 4 && level > 60 && level < h - 60 && (x % 11) !== 0) px[y * w + x] = 20;
    }
  }
  return px;
}

describe('deskew', () => {
  it('finds the slope of the lines, either way, to a quarter degree', () => {
    for (const degrees of [2, -3.5, 1]) expect(Math.abs(skewAngle(linedPage(900, 1200, degrees), 900, 1200) - degrees)).toBeLessThanOrEqual(0.25);
  });

  it('a level page, or one without text, is left alone (0)', () => {
    expect(skewAngle(linedPage(900, 1200, 0), 900, 1200)).toBe(0);
    expect(skewAngle(new Uint8Array(900 * 1200).fill(250), 900, 1200)).toBe(0);
  });

  it('turning by minus the angle levels the lines; what turns in from outside is white', () => {
    const page = linedPage(900, 1200, 2.5);
    const level = rotated(page, 900, 1200, 1, -skewAngle(page, 900, 1200));
    expect(Math.abs(skewAngle(level, 900, 1200))).toBeLessThan(0.3);
    expect(level[0]).toBe(255);
  });
});
