/**
 * Rounded corners (`border-radius`) on boxes with a background colour, which MuPDF's layout draws
 * square (html-to-pdf). Each such box gets a background colour of its own that nothing else uses
 * (rgb(1, 2, k)) before layout; while the page is drawn into the PDF, the rectangle filled in that
 * colour is filled instead with a rounded rectangle in the box's own colour. Borders stay square.
 */
import type * as Mupdf from 'mupdf';
import type { ParentNode } from 'domhandler';
import { opaqueColors } from './css-colors';
import { addStyle } from './html-dom';
import { cssLength, parseColor } from './html-page-decor';
import type { ComputedStyles } from './html-styles';

export interface Rounded {
  /** The corner radius in points. */
  radius: number;
  color: [number, number, number];
}

const MAX_TAGGED = 250;

/** The boxes with a radius and a background colour, each given its marker colour; by marker number. */
export function tagRoundedBoxes(_root: ParentNode, styles: ComputedStyles): Map<number, Rounded> {
  const tagged = new Map<number, Rounded>();
  for (const [el, props] of styles) {
    const radius = cssLength(props.get('border-radius')?.split(/[\s/]+/)[0] ?? '', 0);
    // Translucent colours as they show over white, as the rest of the page gets them (css-colors.ts).
    const color = parseColor(opaqueColors(props.get('background-color') ?? props.get('background') ?? ''));
    if (!radius || radius <= 0 || !color || tagged.size >= MAX_TAGGED) continue;
    const k = tagged.size + 1;
    tagged.set(k, { radius, color });
    addStyle(el, `background-color:rgb(1, 2, ${k})`);
  }
  return tagged;
}

/** The marker number of a fill colour, or 0. */
function markerOf(colorspace: Mupdf.ColorSpace, color: ArrayLike<number>): number {
  if (colorspace.getNumberOfComponents() !== 3) return 0;
  const [r, g, b] = [color[0]!, color[1]!, color[2]!].map((c) => Math.round(c * 255));
  return r === 1 && g === 2 && b! >= 1 && b! <= MAX_TAGGED ? b! : 0;
}

/** A device that passes everything on to `target`, the marked rectangles filled rounded in their own colour. */
export function roundingDevice(mupdf: typeof Mupdf, target: Mupdf.Device, tagged: Map<number, Rounded>): Mupdf.Device {
  // Colours come to a JavaScript device as plain arrays; the device methods type them by length.
  const c = (color: number[]) => color as unknown as Mupdf.Color;
  return new mupdf.Device({
    fillPath(path, evenOdd, ctm, colorspace, color, alpha) {
      const rounded = tagged.get(markerOf(colorspace, color));
      if (!rounded) return target.fillPath(path, evenOdd, ctm, colorspace, c(color), alpha);
      target.fillPath(roundedRect(mupdf, boundsOf(path, ctm), rounded.radius * Math.hypot(ctm[0], ctm[1])), false, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, rounded.color, alpha);
    },
    strokePath: (path, stroke, ctm, colorspace, color, alpha) => target.strokePath(path, stroke, ctm, colorspace, c(color), alpha),
    clipPath: (path, evenOdd, ctm) => target.clipPath(path, evenOdd, ctm),
    clipStrokePath: (path, stroke, ctm) => target.clipStrokePath(path, stroke, ctm),
    fillText: (text, ctm, colorspace, color, alpha) => target.fillText(text, ctm, colorspace, c(color), alpha),
    strokeText: (text, stroke, ctm, colorspace, color, alpha) => target.strokeText(text, stroke, ctm, colorspace, c(color), alpha),
    clipText: (text, ctm) => target.clipText(text, ctm),
    clipStrokeText: (text, stroke, ctm) => target.clipStrokeText(text, stroke, ctm),
    ignoreText: (text, ctm) => target.ignoreText(text, ctm),
    fillShade: (shade, ctm, alpha) => target.fillShade(shade, ctm, alpha),
    fillImage: (image, ctm, alpha) => target.fillImage(image, ctm, alpha),
    fillImageMask: (image, ctm, colorspace, color, alpha) => target.fillImageMask(image, ctm, colorspace, c(color), alpha),
    clipImageMask: (image, ctm) => target.clipImageMask(image, ctm),
    popClip: () => target.popClip(),
    beginMask: (area, luminosity, colorspace, color) => target.beginMask(area, luminosity, colorspace, c(color)),
    endMask: () => target.endMask(),
    beginGroup: (area, colorspace, isolated, knockout, blendmode, alpha) => target.beginGroup(area, colorspace, isolated, knockout, blendmode, alpha),
    endGroup: () => target.endGroup(),
    beginTile: (area, view, xstep, ystep, ctm, id, docId) => target.beginTile(area, view, xstep, ystep, ctm, id, docId),
    endTile: () => target.endTile(),
    beginLayer: (name) => target.beginLayer(name),
    endLayer: () => target.endLayer(),
  });
}

/** The bounds of a path's points after `ctm`. */
function boundsOf(path: Mupdf.Path, ctm: Mupdf.Matrix): [number, number, number, number] {
  const box = [Infinity, Infinity, -Infinity, -Infinity] as [number, number, number, number];
  const add = (x: number, y: number) => {
    const [tx, ty] = [x * ctm[0] + y * ctm[2] + ctm[4], x * ctm[1] + y * ctm[3] + ctm[5]];
    [box[0], box[1], box[2], box[3]] = [Math.min(box[0], tx), Math.min(box[1], ty), Math.max(box[2], tx), Math.max(box[3], ty)];
  };
  path.walk({ moveTo: add, lineTo: add, curveTo: (x1, y1, x2, y2, x3, y3) => (add(x1, y1), add(x2, y2), add(x3, y3)), closePath: () => {} });
  return box;
}

function roundedRect(mupdf: typeof Mupdf, [x0, y0, x1, y1]: [number, number, number, number], radius: number): Mupdf.Path {
  const r = Math.max(0, Math.min(radius, (x1 - x0) / 2, (y1 - y0) / 2));
  const k = r * 0.4477152502; // 1 - 0.5523: where a quarter circle's Bézier handles sit
  const path = new mupdf.Path();
  path.moveTo(x0 + r, y0);
  path.lineTo(x1 - r, y0);
  path.curveTo(x1 - k, y0, x1, y0 + k, x1, y0 + r);
  path.lineTo(x1, y1 - r);
  path.curveTo(x1, y1 - k, x1 - k, y1, x1 - r, y1);
  path.lineTo(x0 + r, y1);
  path.curveTo(x0 + k, y1, x0, y1 - k, x0, y1 - r);
  path.lineTo(x0, y0 + r);
  path.curveTo(x0, y0 + k, x0 + k, y0, x0 + r, y0);
  path.closePath();
  return path;
}
