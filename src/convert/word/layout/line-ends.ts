/** Arrowheads and other line ends of shapes' outlines (office/shape-outline.ts), drawn onto a MuPDF device. */
import type * as Mupdf from 'mupdf';
import type { LineEnd } from '../model/index';
import { lineEndOutline } from '../../office/shape-outline';

type MupdfModule = typeof Mupdf;
type Point = [number, number];

/** Draws an arrowhead (or diamond, oval) with its point at `tip`, the line coming from `from`. */
export function drawLineEnd(mupdf: MupdfModule, device: Mupdf.Device, end: LineEnd, tip: Point, from: Point, lineWidth: number, color: [number, number, number], ctm: Mupdf.Matrix): void {
  const path = new mupdf.Path();
  try {
    const how = lineEndOutline(path, end, tip, from, lineWidth);
    if (how === 'fill') device.fillPath(path, false, ctm, mupdf.ColorSpace.DeviceRGB, color, 1);
    else if (how === 'stroke') {
      // An open head: two strokes of the line's width.
      const stroke = new mupdf.StrokeState({ lineCap: 'Round', lineJoin: 'Miter', lineWidth, miterLimit: 10 });
      try {
        device.strokePath(path, stroke, ctm, mupdf.ColorSpace.DeviceRGB, color, 1);
      } finally {
        stroke.destroy();
      }
    }
  } finally {
    path.destroy();
  }
}
