/** Draws our own engine's placed lines onto a page device: their text's links and marks, pictures, shading, rules and filled rectangles. */
import type * as Mupdf from 'mupdf';
import type { Paragraph, PictureCrop } from '../model/index';
import type { PlacedLine } from './paragraph-stack';
import type { PlacedText } from './paragraph-lines';

type MupdfModule = typeof Mupdf;

/** What drawing a page's lines reports: links on it, and where paragraphs (headings, bookmarks) landed; `text` takes the text to write (page-text.ts). */
export interface DrawnMarks {
  text(t: PlacedText, x: number, baseline: number): void;
  link(rect: Mupdf.Rect, uri: string): void;
  paragraphAt(p: Paragraph, y: number): void;
}

/** Draws a picture into the unit square mapped by `ctm` (raster pictures as placeholders the finished PDF gets them for, metafiles as vectors). */
export type DrawPicture = (device: Mupdf.Device, data: Uint8Array, contentType: string, ctm: Mupdf.Matrix, crop?: PictureCrop) => void;

const rgb = (hex: string | undefined): Mupdf.Color => {
  if (!hex || !/^[0-9a-fA-F]{6}$/.test(hex)) return [0, 0, 0];
  const n = parseInt(hex, 16);
  return [(n >> 16) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
};

/**
 * Draws laid-out lines with their top-left at (`left`, `top`): paragraph shading and highlights under the text, the text
 * itself handed to `marks.text` (written into the content stream directly), underlines and
 * strike-throughs, and inline pictures. Links of one target on one line are one link.
 */
export function drawLines(mupdf: MupdfModule, device: Mupdf.Device, lines: PlacedLine[], areaLeft: number, top: number, drawPicture: DrawPicture, marks: DrawnMarks): void {
  const rects: { x0: number; y0: number; x1: number; y1: number; color?: string }[] = [];
  const fills: typeof rects = [];
  const shades: typeof rects = [];
  for (const { line, y, opens, x: dx } of lines) {
    const lineTop = top + y;
    const left = areaLeft + (dx ?? 0);
    const baseline = lineTop + line.baseline;
    if (opens) marks.paragraphAt(opens, lineTop);
    if (line.shade) shades.push({ x0: left, y0: lineTop, x1: left + line.shade.width, y1: lineTop + line.height, color: line.shade.color });
    let link: { uri: string; rect: Mupdf.Rect } | undefined;
    for (const t of line.texts) {
      const x = left + t.x;
      const look = t.look;
      if (look.highlight) fills.push({ x0: x, y0: lineTop, x1: x + t.span, y1: lineTop + line.height, color: look.highlight });
      if (link && link.uri !== look.link) {
        marks.link(link.rect, link.uri);
        link = undefined;
      }
      if (look.link) {
        if (link) link.rect[2] = x + t.width;
        else link = { uri: look.link, rect: [x, lineTop, x + t.width, lineTop + line.height] };
        if (t.span > t.width && t !== line.texts.at(-1)) link.rect[2] = x + t.span;
      }
      if (t.text.trim()) marks.text(t, x, baseline - look.rise);
      decorate(t, x, baseline, rects);
    }
    if (link) marks.link(link.rect, link.uri);
    for (const pic of line.pictures) drawPicture(device, pic.data, pic.contentType, [pic.width, 0, 0, pic.height, left + pic.x, baseline - pic.height], pic.crop);
  }
  fillRects(mupdf, device, shades);
  fillRects(mupdf, device, fills);
  fillRects(mupdf, device, rects);
}

export function fillRects(mupdf: MupdfModule, device: Mupdf.Device, rects: { x0: number; y0: number; x1: number; y1: number; color?: string }[]): void {
  for (const r of rects) {
    const path = new mupdf.Path();
    path.rect(r.x0, r.y0, r.x1, r.y1);
    device.fillPath(path, false, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, rgb(r.color), 1);
    path.destroy();
  }
}

/** Underline and strike-through of text, as thin filled rectangles in the text's colour. */
function decorate(t: PlacedText, x: number, baseline: number, rules: { x0: number; y0: number; x1: number; y1: number; color?: string }[]): void {
  const { look, size } = t;
  const thickness = Math.max(0.5, size * 0.05);
  const y = baseline - look.rise;
  if (look.underline) rules.push({ x0: x, y0: y + size * 0.1, x1: x + t.span, y1: y + size * 0.1 + thickness, color: look.color });
  if (look.strike) rules.push({ x0: x, y0: y - size * 0.3, x1: x + t.span, y1: y - size * 0.3 + thickness, color: look.color });
}

/** The separator rule above a page's footnotes. */
export function drawRule(mupdf: MupdfModule, device: Mupdf.Device, x: number, y: number, width: number, thickness: number): void {
  const path = new mupdf.Path();
  path.rect(x, y, x + width, y + thickness);
  device.fillPath(path, false, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, [0, 0, 0], 1);
  path.destroy();
}
