/** Cell borders as the boxes that draw them (src/convert/sheet/border-rules.ts): solid, double and patterned styles at Excel's widths. */
import { describe, expect, it } from 'vitest';
import { borderRule } from '../src/convert/sheet/border-rules';

describe('cell border rules', () => {
  it('draws a thin border as one rule a pixel wide, centred on the edge', () => {
    expect(borderRule({ style: 'thin', color: 'FF0000' }, true, 100, 10, 58, 1)).toEqual([{ kind: 'fill', x0: 10, y0: 99.625, x1: 58, y1: 100.375, color: 'FF0000' }]);
  });

  it('draws a double border as two rules with a gap between them', () => {
    const [a, b] = borderRule({ style: 'double' }, false, 50, 0, 15, 1);
    expect(a!.x1 - a!.x0).toBeCloseTo(0.75, 5);
    expect(b!.x0 - a!.x1).toBeCloseTo(0.75, 5);
    expect([a!.y0, a!.y1, b!.y0, b!.y1]).toEqual([0, 15, 0, 15]);
  });

  it('draws dotted and dashed borders as runs of short rules in their patterns, scaled with the page', () => {
    const dots = borderRule({ style: 'dotted' }, true, 0, 0, 15, 1);
    expect(dots).toHaveLength(10);
    expect(dots[1]!.x0).toBeCloseTo(1.5, 5);
    const dashes = borderRule({ style: 'dashed' }, true, 0, 0, 30, 0.5);
    expect(dashes[0]!.x1 - dashes[0]!.x0).toBeCloseTo(1.125, 5);
    expect(dashes[1]!.x0).toBeCloseTo(1.5, 5);
    // A page-wide dotted edge is bounded.
    expect(borderRule({ style: 'dotted' }, true, 0, 0, 100_000, 1).length).toBe(400);
  });
});
