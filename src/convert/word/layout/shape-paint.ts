/**
 * Draws a Word shape's outline (rectangle, rounded rectangle, ellipse, line) filled and stroked in
 * a box on a MuPDF device, in page space. The outlines themselves are the Office parts'
 * (office/shape-outline.ts), shared with the other formats' shapes.
 */
import type * as Mupdf from 'mupdf';
import { drawLineEnd } from './line-ends';
import type { Shape } from '../model/index';
import { drawable, lineEnds, paintSteps, rotationAbout, shadedColor, stroked, tracedStep, type Box } from '../../office/shape-outline';

type MupdfModule = typeof Mupdf;

/** Word's default text box insets, points. */
export const DEFAULT_INSETS = { left: 7.2, top: 3.6, right: 7.2, bottom: 3.6 };

/** RRGGBB as MuPDF's RGB components (0..1). */
export const rgb = (hex: string): [number, number, number] => {
  const v = parseInt(hex, 16) || 0;
  return [((v >> 16) & 0xff) / 255, ((v >> 8) & 0xff) / 255, (v & 0xff) / 255];
};

/**
 * Fills and strokes the shape's outline over `box`. With `asContent` (shape-content.ts), the
 * outline is drawn as a form of PDF operators written here instead of through the device, whose
 * every point is a call into MuPDF and a number printed there (kwsymphony.doc's seating plan: 22,000
 * points, 30 ms); the arrowheads are drawn through the device either way.
 */
export function paintShape(mupdf: MupdfModule, device: Mupdf.Device, shape: Shape, box: Box, asContent?: (shape: Shape, box: Box) => Mupdf.Image | undefined): void {
  if (!drawable(shape, box)) return;
  const ctm = shape.rotation ? rotationAbout(box, shape.rotation) : mupdf.Matrix.identity;
  const form = asContent?.(shape, box);
  if (form) {
    try {
      // The form's own matrix undoes this unit square's placement: it is written in page space.
      device.fillImage(form, mupdf.Matrix.identity, 1);
    } finally {
      form.destroy();
    }
  } else paintOnDevice(mupdf, device, shape, box, ctm);
  if (stroked(shape) && (shape.line!.start || shape.line!.end)) {
    const line = shape.line!;
    const ends = lineEnds(shape, box);
    if (line.start && ends.start) drawLineEnd(mupdf, device, line.start, ...ends.start, line.width, rgb(line.color), ctm);
    if (line.end && ends.end) drawLineEnd(mupdf, device, line.end, ...ends.end, line.width, rgb(line.color), ctm);
  }
}

function paintOnDevice(mupdf: MupdfModule, device: Mupdf.Device, shape: Shape, box: Box, ctm: Mupdf.Matrix): void {
  for (const step of paintSteps(shape)) {
    const path = tracedStep(new mupdf.Path(), shape, box, step);
    const stroke = step.stroke ? new mupdf.StrokeState({ lineCap: 'Butt', lineJoin: 'Miter', lineWidth: shape.line!.width, miterLimit: 10 }) : undefined;
    try {
      if (stroke) device.strokePath(path, stroke, ctm, mupdf.ColorSpace.DeviceRGB, rgb(shape.line!.color), 1);
      else device.fillPath(path, false, ctm, mupdf.ColorSpace.DeviceRGB, rgb(shadedColor(shape.fill!, step.shade)), 1);
    } finally {
      stroke?.destroy();
      path.destroy();
    }
  }
}
