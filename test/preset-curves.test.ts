/** The curved and multi-part DrawingML presets (office/preset-curves.ts): their outlines' shape, parts and adjustments. */
import { describe, expect, it } from 'vitest';
import { presetAdjust, presetCurves } from '../src/convert/office/preset-curves';
import { presetShape } from '../src/convert/office/drawingml/shapes';
import type { PathOp } from '../src/convert/office/model';

const points = (ops: PathOp[]) => ops.filter((op) => op[0] === 'M' || op[0] === 'L').map((op) => [Math.round(op[1] as number), Math.round(op[2] as number)]);

describe('preset curves', () => {
  it('a can is its body, its lid in a lighter shade over it, and its outline; the lid an eighth of the shorter side', () => {
    const can = presetCurves('can', 100, 200)!;
    expect(can.parts.map((p) => [p.fill, p.stroke, p.shade])).toEqual([[true, false, undefined], [true, false, 'lighten'], [false, true, undefined]]);
    expect(points(can.parts[0]!.ops)[0]).toEqual([0, 13]);
    // adj halves the lid.
    expect(points(presetCurves('can', 100, 200, { adj: 12_500 })!.parts[0]!.ops)[0]).toEqual([0, 6]);
  });

  it('a bent connector is an open line through its middle leg, moved by adj1', () => {
    const bent = presetCurves('bentConnector3', 200, 100, presetAdjust([{ name: 'adj1', fmla: 'val 25000' }]))!;
    expect(bent.parts[0]!.fill).toBe(false);
    expect(points(bent.parts[0]!.ops)).toEqual([[0, 0], [50, 0], [50, 100], [200, 100]]);
    expect(bent.parts[0]!.ops.at(-1)![0]).not.toBe('Z');
  });

  it('a rectangular callout reaches out to its tip below the box by default', () => {
    const callout = presetCurves('wedgeRectCallout', 120, 60)!;
    // adj1 -20833, adj2 62500: 25 pt left of the centre, 37.5 pt below it.
    expect(points(callout.parts[0]!.ops)).toContainEqual([35, 68]);
  });

  it('a donut and a frame fill one ring around their hole and stroke their two edges apart', () => {
    for (const name of ['donut', 'frame']) {
      const ring = presetCurves(name, 100, 100)!;
      expect(ring.parts.map((p) => [p.fill, p.stroke])).toEqual([[true, false], [false, true], [false, true]]);
      // One outline for the fill: it never lifts the pen.
      expect(ring.parts[0]!.ops.filter((op) => op[0] === 'M')).toHaveLength(1);
    }
  });

  it('draws the regular polygons, stars, pies and maths signs of the further presets', () => {
    expect(presetCurves('decagon', 100, 100)!.parts[0]!.ops.filter((op) => op[0] === 'L')).toHaveLength(9);
    expect(presetShape('star12', 100, 100)!.path!.parts[0]!.ops.filter((op) => op[0] === 'L')).toHaveLength(23);
    // A pie closes through its centre; an arc is filled as its pie but stroked along its curve only.
    expect(presetCurves('pie', 100, 100)!.parts[0]!.ops.some((op) => op[0] === 'L' && op[1] === 50 && op[2] === 50)).toBe(true);
    const [arcFill, arcCurve] = presetCurves('arc', 100, 100)!.parts;
    expect([arcFill!.fill, arcFill!.stroke, arcCurve!.fill, arcCurve!.stroke]).toEqual([true, false, false, true]);
    expect(arcFill!.ops.some((op) => op[0] === 'L' && op[1] === 50 && op[2] === 50)).toBe(true);
    expect(arcCurve!.ops.at(-1)![0]).toBe('C');
    expect(presetCurves('mathEqual', 100, 50)!.parts[0]!.ops.filter((op) => op[0] === 'M')).toHaveLength(2);
  });

  it('presetShape draws them as paths; an unknown preset is still not drawn', () => {
    expect(presetShape('flowChartTerminator', 100, 40)?.geometry).toBe('path');
    // A cube's front, darker side and lighter top, then its edges.
    expect(presetShape('cube', 100, 40)?.path?.parts.map((p) => p.shade ?? (p.fill ? 'fill' : 'stroke'))).toEqual(['fill', 'darkenLess', 'lightenLess', 'stroke']);
    expect(presetShape('noSuchShape', 100, 40)).toBeUndefined();
  });

  it('ignores adjustments that are not plain values', () => {
    expect(presetAdjust([{ name: 'adj1', fmla: 'val 1e999' }, { name: 'adj2', fmla: '*/ w 1 2' }, { name: 'adj', fmla: 'val 5000' }])).toEqual({ adj: 5000 });
  });
});
