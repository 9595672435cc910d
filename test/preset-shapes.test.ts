/**
 * Every DrawingML preset (ECMA-376's 187 ST_ShapeType names) drawn by presetShape: each has an
 * outline inside its box (callouts' leaders and tips reaching out), and the figures' geometry is
 * checked where it is easy to get wrong: holes, heads, adjustments moving points, leader lines
 * being strokes, shaded parts, and how the parts are painted (slides and Word).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Mupdf from 'mupdf';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { joinChunks } from '../src/lib/bytes';
import { readDeck } from '../src/convert/slides/index';
import { renderDeckChunks } from '../src/convert/slides/render';
import { presetShape } from '../src/convert/office/drawingml/shapes';
import { paintSteps, shadedColor } from '../src/convert/office/shape-outline';
import { shapeContent } from '../src/convert/word/layout/shape-content';
import type { FreeformPath, Shape } from '../src/convert/office/model';
import type { Adjust } from '../src/convert/office/preset-parts';
import { pptx } from './pptx-fixtures';

const ALL = `accentBorderCallout1 accentBorderCallout2 accentBorderCallout3 accentCallout1 accentCallout2 accentCallout3 actionButtonBackPrevious actionButtonBeginning actionButtonBlank actionButtonDocument actionButtonEnd actionButtonForwardNext actionButtonHelp actionButtonHome actionButtonInformation actionButtonMovie actionButtonReturn actionButtonSound arc bentArrow bentConnector2 bentConnector3 bentConnector4 bentConnector5 bentUpArrow bevel blockArc borderCallout1 borderCallout2 borderCallout3 bracePair bracketPair callout1 callout2 callout3 can chartPlus chartStar chartX chevron chord circularArrow cloud cloudCallout corner cornerTabs cube curvedConnector2 curvedConnector3 curvedConnector4 curvedConnector5 curvedDownArrow curvedLeftArrow curvedRightArrow curvedUpArrow decagon diagStripe diamond dodecagon donut doubleWave downArrow downArrowCallout ellipse ellipseRibbon ellipseRibbon2 flowChartAlternateProcess flowChartCollate flowChartConnector flowChartDecision flowChartDelay flowChartDisplay flowChartDocument flowChartExtract flowChartInputOutput flowChartInternalStorage flowChartMagneticDisk flowChartMagneticDrum flowChartMagneticTape flowChartManualInput flowChartManualOperation flowChartMerge flowChartMultidocument flowChartOfflineStorage flowChartOffpageConnector flowChartOnlineStorage flowChartOr flowChartPredefinedProcess flowChartPreparation flowChartProcess flowChartPunchedCard flowChartPunchedTape flowChartSort flowChartSummingJunction flowChartTerminator foldedCorner frame funnel gear6 gear9 halfFrame heart heptagon hexagon homePlate horizontalScroll irregularSeal1 irregularSeal2 leftArrow leftArrowCallout leftBrace leftBracket leftCircularArrow leftRightArrow leftRightArrowCallout leftRightCircularArrow leftRightRibbon leftRightUpArrow leftUpArrow lightningBolt line lineInv mathDivide mathEqual mathMinus mathMultiply mathNotEqual mathPlus moon noSmoking nonIsoscelesTrapezoid notchedRightArrow octagon parallelogram pentagon pie pieWedge plaque plaqueTabs plus quadArrow quadArrowCallout rect ribbon ribbon2 rightArrow rightArrowCallout rightBrace rightBracket round1Rect round2DiagRect round2SameRect roundRect rtTriangle smileyFace snip1Rect snip2DiagRect snip2SameRect snipRoundRect squareTabs star10 star12 star16 star24 star32 star4 star5 star6 star7 star8 straightConnector1 stripedRightArrow sun swooshArrow teardrop trapezoid triangle upArrow upArrowCallout upDownArrow upDownArrowCallout uturnArrow verticalScroll wave wedgeEllipseCallout wedgeRectCallout wedgeRoundRectCallout`.split(' ');

/** The presets that reach out of their box: the line callouts' leaders, the wedge and cloud callouts' tips. */
const REACHING_OUT = new Set([...['callout', 'borderCallout', 'accentCallout', 'accentBorderCallout'].flatMap((k) => [1, 2, 3].map((n) => `${k}${n}`)), 'wedgeRectCallout', 'wedgeRoundRectCallout', 'wedgeEllipseCallout', 'cloudCallout']);

type Point = [number, number];
const path = (name: string, w = 120, h = 80, adj: Adjust = {}): FreeformPath => presetShape(name, w, h, adj)!.path!;

/** The points the outline passes through (moves, lines' and curves' ends), of the parts that are filled, stroked, or all. */
function onCurve(f: FreeformPath, which?: 'fill' | 'stroke'): Point[] {
  const out: Point[] = [];
  for (const part of f.parts) if (!which || part[which]) for (const op of part.ops) if (op[0] === 'C') out.push([op[5], op[6]]); else if (op[0] !== 'Z') out.push([op[1], op[2]]);
  return out;
}

const near = (points: Point[], [x, y]: Point, within = 0.05) => points.some(([px, py]) => Math.abs(px - x) <= within && Math.abs(py - y) <= within);

/** The filled parts' subpaths (or all parts') as polygons (curves in 16 steps each). */
function polygons(f: FreeformPath, all = false): Point[][] {
  const out: Point[][] = [];
  let at: Point = [0, 0];
  for (const part of f.parts) {
    if (!part.fill && !all) continue;
    for (const op of part.ops) {
      if (op[0] === 'M') out.push([(at = [op[1], op[2]])]);
      else if (op[0] === 'L') out.at(-1)!.push((at = [op[1], op[2]]));
      else if (op[0] === 'C') {
        const [x0, y0] = at;
        for (let i = 1; i <= 16; i++) {
          const t = i / 16, u = 1 - t;
          out.at(-1)!.push([u ** 3 * x0 + 3 * u * u * t * op[1] + 3 * u * t * t * op[3] + t ** 3 * op[5], u ** 3 * y0 + 3 * u * u * t * op[2] + 3 * u * t * t * op[4] + t ** 3 * op[6]]);
        }
        at = [op[5], op[6]];
      }
    }
  }
  return out;
}

const sampled = (f: FreeformPath): Point[] => polygons(f, true).flat();

/** Whether (x, y) is filled: inside one of the filled subpaths by the non-zero rule (the slides' painter fills each on its own). */
function covered(f: FreeformPath, x: number, y: number): boolean {
  return polygons(f).some((poly) => {
    let winding = 0;
    for (let i = 0; i < poly.length; i++) {
      const [a, b] = [poly[i]!, poly[(i + 1) % poly.length]!];
      if (a[1] <= y && b[1] > y && (b[0] - a[0]) * (y - a[1]) - (x - a[0]) * (b[1] - a[1]) > 0) winding++;
      else if (a[1] > y && b[1] <= y && (b[0] - a[0]) * (y - a[1]) - (x - a[0]) * (b[1] - a[1]) < 0) winding--;
    }
    return winding !== 0;
  });
}

describe('every preset', () => {
  it('draws each of the 187 names, an outline of finite points inside its box (the callouts reaching out)', () => {
    expect(ALL).toHaveLength(187);
    for (const name of ALL) {
      const drawn = presetShape(name, 120, 80);
      expect(drawn, name).toBeDefined();
      if (drawn!.geometry !== 'path') continue;
      expect(onCurve(drawn!.path!).length, name).toBeGreaterThan(1);
      // The curves' own points (a heart's sides are curves between points in its middle).
      const points = sampled(drawn!.path!);
      expect(points.every(([x, y]) => Number.isFinite(x) && Number.isFinite(y)), name).toBe(true);
      const xs = points.map(([x]) => x), ys = points.map(([, y]) => y);
      // Within half a percent: the cloud's arcs, as the specification gives them, overshoot its box by a hair.
      const inside = Math.min(...xs) >= -0.6 && Math.max(...xs) <= 120.6 && Math.min(...ys) >= -0.4 && Math.max(...ys) <= 80.4;
      expect(inside, name).toBe(!REACHING_OUT.has(name));
      // Nothing collapses: the outline spans at least a tenth of the box each way (a minus sign is a fifth of its height).
      expect(Math.max(...xs) - Math.min(...xs), name).toBeGreaterThan(12);
      expect(Math.max(...ys) - Math.min(...ys), name).toBeGreaterThan(8);
    }
  });
});

describe('hostile adjustments', () => {
  it('keep every outline finite: adjustments far out of range either way, flat and tiny boxes', () => {
    const names = ['adj', 'adj1', 'adj2', 'adj3', 'adj4', 'adj5', 'adj6', 'adj7', 'adj8', 'hf', 'vf'];
    const sets: Adjust[] = [1e12, -1e12, 0, 50_000, 21_599_999].map((v) => Object.fromEntries(names.map((n) => [n, v])));
    const boxes: [number, number][] = [[100, 50], [100, 0], [0, 100], [1e-3, 1e-3], [1e6, 1]];
    const broken: string[] = [];
    for (const name of ALL) for (const adj of sets) for (const [w, h] of boxes) {
      const drawn = presetShape(name, w, h, adj);
      if (drawn?.geometry === 'path' && !drawn.path!.parts.every((p) => p.ops.every((op) => op.slice(1).every((v) => Number.isFinite(v))))) broken.push(`${name} ${w}×${h}`);
    }
    expect(broken).toEqual([]);
  });
});

describe('callouts', () => {
  it('draw the leader as a stroke through its points (adj1… as y, x in 100,000ths), the box filled, outlined only with a border', () => {
    const callout = path('callout2');
    expect(callout.parts.map((p) => [p.fill, p.stroke])).toEqual([[true, false], [false, true]]);
    expect(onCurve(callout, 'stroke').map(([x, y]) => [Math.round(x), Math.round(y)])).toEqual([[-10, 15], [-20, 15], [-56, 90]]);
    expect(path('borderCallout2').parts[0]!.stroke).toBe(true);
    // adj5, adj6 move the leader's end.
    expect(near(onCurve(path('callout2', 120, 80, { adj5: 50_000, adj6: 150_000 }), 'stroke'), [180, 40])).toBe(true);
    // A point between the leader and the box is not filled.
    expect(covered(callout, -15, 50)).toBe(false);
  });

  it('draw the accent bar as a vertical stroke across the box at the leader\'s start', () => {
    const accent = path('accentBorderCallout1');
    expect(accent.parts.map((p) => [p.fill, p.stroke])).toEqual([[true, true], [false, true], [false, true]]);
    expect(onCurve({ ...accent, parts: [accent.parts[1]!] }).map(([x, y]) => [Math.round(x), y])).toEqual([[-10, 0], [-10, 80]]);
  });

  it('put a cloud callout\'s smallest bubble on its tip, and close the cloud where it began', () => {
    const cloud = path('cloudCallout');
    // adj1 -20833, adj2 62500: 25 pt left of the centre and 50 pt below it; the bubble's radius is 600/21,600 of the shorter side.
    expect(covered(cloud, 35, 91.8)).toBe(true);
    expect(covered(cloud, 35, 92.8)).toBe(false);
    const outline = onCurve({ ...cloud, parts: [cloud.parts[0]!] });
    const [first, last] = [outline[0]!, outline.at(-1)!];
    expect(Math.hypot(first[0] - last[0], first[1] - last[1])).toBeLessThan(1);
    expect(cloud.parts.at(-1)!.fill).toBe(false);
  });
});

describe('arrows', () => {
  it('bentArrow\'s head: its tip at the right edge, adj2 of the shorter side down', () => {
    const tip = (adj: Adjust) => onCurve(path('bentArrow', 120, 80, adj)).find(([x]) => x === 120)!;
    expect(tip({})).toEqual([120, 20]);
    expect(tip({ adj2: 40_000 })).toEqual([120, 32]);
  });

  it('uturnArrow\'s head points down to adj5 of the height', () => {
    expect(near(onCurve(path('uturnArrow')), [100, 60])).toBe(true);
    expect(near(onCurve(path('uturnArrow', 120, 80, { adj5: 90_000 })), [100, 72])).toBe(true);
  });

  it('circularArrow\'s tip lies on the band\'s middle circle, the head\'s angle past its end', () => {
    // 100 × 100: the middle radius 37.5; the end 340.96° and the head 19.04° put the tip at 0°.
    expect(near(onCurve(path('circularArrow', 100, 100)), [87.5, 50], 0.01)).toBe(true);
    // The end at 90° less: the tip at 270°, the top.
    expect(near(onCurve(path('circularArrow', 100, 100, { adj3: 20_457_681 - 5_400_000 })), [50, 12.5], 0.01)).toBe(true);
    // The band's inside is empty: the centre is not filled.
    expect(covered(path('circularArrow', 100, 100), 50, 50)).toBe(false);
  });

  it('curved arrows paint their back a darker shade, under the outline', () => {
    for (const name of ['curvedRightArrow', 'curvedLeftArrow', 'curvedUpArrow', 'curvedDownArrow']) {
      expect(path(name).parts.map((p) => p.shade ?? (p.fill ? 'fill' : 'stroke')), name).toEqual(['fill', 'darkenLess', 'stroke']);
    }
  });

  it('arrow callouts: the box as wide as adj4, the arrow out of it to the edge', () => {
    expect(near(onCurve(path('rightArrowCallout')), [120 * 0.64977, 0])).toBe(true);
    expect(near(onCurve(path('rightArrowCallout', 120, 80, { adj4: 50_000 })), [60, 0])).toBe(true);
    expect(near(onCurve(path('leftArrowCallout')), [0, 40])).toBe(true);
    expect(near(onCurve(path('downArrowCallout')), [60, 80])).toBe(true);
    expect(near(onCurve(path('upArrowCallout')), [60, 0])).toBe(true);
  });
});

describe('figures with holes and folds', () => {
  it('noSmoking fills its ring and bar, not the two halves of the hole', () => {
    const sign = path('noSmoking', 100, 100);
    expect(covered(sign, 50, 50)).toBe(true); // the bar's middle
    expect(covered(sign, 96, 50)).toBe(true); // the ring
    expect(covered(sign, 70, 30)).toBe(false); // upper right of the bar
    expect(covered(sign, 30, 70)).toBe(false); // lower left
    expect(covered(sign, 2, 2)).toBe(false); // outside
  });

  it('ribbon2 is ribbon upside down; the folds a darker shade', () => {
    const [up, down] = [onCurve(path('ribbon')), onCurve(path('ribbon2'))];
    expect(down.map(([x, y]) => [x, Math.round((80 - y) * 1e6) / 1e6])).toEqual(up.map(([x, y]) => [x, Math.round(y * 1e6) / 1e6]));
    expect(path('ribbon').parts[1]!.shade).toBe('darkenLess');
  });

  it('a wave leaning right (adj2) starts its top edge at the left and its bottom edge further in', () => {
    const top = onCurve(path('wave', 120, 80, { adj2: 10_000 }))[0]!;
    expect(top).toEqual([0, 10]);
    expect(near(onCurve(path('wave', 120, 80, { adj2: 10_000 })), [24, 70])).toBe(true);
  });

  it('leftBrace points left at adj2 of the height; rightBrace is its mirror image', () => {
    expect(near(onCurve(path('leftBrace', 20, 100, { adj2: 30_000 })), [0, 30])).toBe(true);
    expect(near(onCurve(path('rightBrace', 20, 100, { adj2: 30_000 })), [20, 30])).toBe(true);
  });

  it('action buttons: the box, its icon darker, then their outlines', () => {
    const next = path('actionButtonForwardNext');
    expect(next.parts.map((p) => p.shade ?? (p.fill ? 'fill' : 'stroke'))).toEqual(['fill', 'darken', 'stroke']);
    // The triangle's tip 3/8 of the shorter side right of the centre.
    expect(near(onCurve({ ...next, parts: [next.parts[1]!] }), [90, 40])).toBe(true);
    expect(path('actionButtonInformation').parts.map((p) => p.shade)).toEqual([undefined, 'darken', 'lighten', undefined]);
  });
});

describe('adjusted polygons, rectangles and connectors', () => {
  it('polygon presets take their adjustments: an arrow\'s shaft and head, a chevron\'s point, a triangle\'s apex', () => {
    // rightArrow adj1 30 %: the shaft 24 pt thick; adj2 80 %: the head 64 pt long.
    expect(presetShape('rightArrow', 120, 80, { adj1: 30_000, adj2: 80_000 })!.path!.parts[0]!.ops.slice(0, 3)).toEqual([['M', 0, 28], ['L', 56, 28], ['L', 56, 0]]);
    expect(onCurve(path('chevron', 120, 80, { adj: 20_000 }))).toContainEqual([16, 40]);
    expect(onCurve(path('triangle', 120, 80, { adj: 0 }))).toContainEqual([0, 0]);
    // Without adjustments, the defaults: the head half the shorter side long.
    expect(onCurve(path('rightArrow'))).toContainEqual([80, 0]);
  });

  it('round1Rect rounds its top right corner only; a roundRect with its own radius is a path', () => {
    const one = path('round1Rect');
    expect(covered(one, 0.5, 0.5)).toBe(true);
    expect(covered(one, 119.5, 0.5)).toBe(false);
    expect(presetShape('roundRect', 120, 80)!.geometry).toBe('roundRect');
    const wide = presetShape('roundRect', 120, 80, { adj: 50_000 })!;
    expect(wide.geometry).toBe('path');
    // Corners of 40 pt: a point 10 pt in from a corner along the diagonal is outside.
    expect(covered(wide.path!, 10, 10)).toBe(false);
  });

  it('curved connectors pass through their legs: curvedConnector3 crosses adj1 of the width half way down', () => {
    expect(onCurve(path('curvedConnector3', 100, 60, { adj1: 30_000 }))).toContainEqual([30, 30]);
    expect(onCurve(path('bentConnector4', 100, 60, { adj1: 40_000, adj2: 25_000 }))).toEqual([[0, 0], [40, 0], [40, 15], [100, 15], [100, 60]]);
  });

  it('a funnel\'s mouth is open, the body below it filled', () => {
    const funnel = path('funnel', 100, 100);
    expect(covered(funnel, 50, 25)).toBe(false);
    expect(covered(funnel, 50, 70)).toBe(true);
  });
});

describe('painting', () => {
  it('shades as LibreOffice does: 40 % or 20 % towards black or white', () => {
    expect(['darken', 'darkenLess', 'lighten', 'lightenLess'].map((s) => shadedColor('4F81BD', s as 'darken'))).toEqual(['2F4D71', '3F6797', '95B3D7', '729ACA']);
    expect(shadedColor('4F81BD', undefined)).toBe('4F81BD');
  });

  it('paints a preset part by part (a bubble over the cloud\'s outline), other paths fills under strokes', () => {
    const shape = (f: FreeformPath): Shape => ({ kind: 'shape', geometry: 'path', path: f, width: 120, height: 80, fill: '4F81BD', line: { color: '000000', width: 1 } });
    expect(paintSteps(shape(path('cloudCallout'))).map((s) => (s.stroke ? 'S' : 'f')).join('')).toBe('fSfSfSfS');
    const drawn: FreeformPath = { width: 10, height: 10, parts: [{ ops: [['M', 0, 0], ['L', 5, 0], ['L', 0, 5], ['Z']], fill: true, stroke: true }, { ops: [['M', 5, 5], ['L', 9, 5], ['L', 5, 9], ['Z']], fill: true, stroke: true }] };
    expect(paintSteps(shape(drawn)).map((s) => (s.stroke ? 'S' : 'f')).join('')).toBe('fS');
  });

  it('Word\'s shape forms fill a cube\'s faces in their three shades before its edges', () => {
    const cube: Shape = { kind: 'shape', geometry: 'path', path: path('cube', 100, 100), width: 100, height: 100, fill: '4F81BD', line: { color: '000000', width: 1 } };
    const content = new TextDecoder().decode(shapeContent(cube, { x: 0, y: 0, width: 100, height: 100 })!.content);
    const colours = [...content.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) rg/g)].map((m) => m.slice(1, 4).map((v) => Math.round(+v * 255)));
    expect(colours).toEqual([[79, 129, 189], [63, 103, 151], [114, 154, 202]]);
    expect(content.indexOf(' S') === -1 ? content.lastIndexOf('S\n') : content.lastIndexOf(' S')).toBeGreaterThan(content.lastIndexOf('rg'));
  });
});

describe('presets on a slide', () => {
  let mupdf: typeof Mupdf;
  beforeAll(async () => {
    mupdf = await loadMupdf();
  });
  const EMU = 12_700;
  const sp = (prst: string, x: number, y: number, w: number, h: number, line: string) =>
    `<p:sp><p:nvSpPr><p:cNvPr id="3" name="S"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x * EMU}" y="${y * EMU}"/><a:ext cx="${w * EMU}" cy="${h * EMU}"/></a:xfrm><a:prstGeom prst="${prst}"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="4F81BD"/></a:solidFill>${line}</p:spPr></p:sp>`;

  it('prints a cube\'s faces in three shades and a callout\'s leader as a line, not a filled wedge', () => {
    const red = `<a:ln w="${2 * EMU}"><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></a:ln>`;
    const deck = pptx([{ body: sp('cube', 100, 100, 200, 100, '<a:ln><a:noFill/></a:ln>') + sp('borderCallout1', 450, 100, 200, 100, red) }]);
    const doc = mupdf.Document.openDocument(joinChunks(renderDeckChunks(readDeck(deck), mupdf, bundledFonts)), 'application/pdf');
    const pixmap = doc.loadPage(0).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false, true);
    const at = (x: number, y: number) => Array.from(pixmap.getPixels().subarray((y * pixmap.getWidth() + x) * 3, (y * pixmap.getWidth() + x) * 3 + 3));
    // Within a step of rounding of the colour's components.
    const like = (x: number, y: number, hex: string) => at(x, y).every((v, i) => Math.abs(v - parseInt(hex.slice(i * 2, i * 2 + 2), 16)) <= 2);
    try {
      // The cube's depth is a quarter of its height: the front, the side at the right, the top.
      expect([like(150, 170, '4F81BD'), like(290, 160, '3F6797'), like(200, 110, '729ACA')]).toEqual([true, true, true]);
      // The leader runs from (433, 119) to (373, 213): its middle red, a point beside it the slide's grey.
      const [r, g] = at(403, 166);
      expect(r! > 200 && g! < 100).toBe(true);
      expect(like(420, 200, 'EEEEEE')).toBe(true);
    } finally {
      pixmap.destroy();
      doc.destroy();
    }
  });
});

