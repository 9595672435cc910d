/**
 * Boxes and shapes written as operators before the device's content (paint/page-graphics.ts):
 * where they land, in which colour, that a run of one colour is one fill, and that they stay under
 * what the device drew after them (a picture over a cell's fill).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Mupdf from 'mupdf';
import { loadMupdf } from '../src/pdf/mupdf';
import { joinChunks } from '../src/lib/bytes';
import { finishPdf } from '../src/pdf/finish';
import { paintDisplay } from '../src/paint/display-painter';
import { PageGraphics } from '../src/paint/page-graphics';
import type { DisplayItem } from '../src/contracts/display';
import { makePng } from './fixtures';

let mupdf: typeof Mupdf;
beforeAll(async () => {
  mupdf = await loadMupdf();
});

const hex = (color: number[]) => color.map((c) => Math.round(c * 255).toString(16).padStart(2, '0')).join('').toUpperCase();

/** A 200 × 100 pt page painted from `items` with boxes and shapes given to PageGraphics; what a device then sees, in order. */
function painted(items: DisplayItem[]): { op: string; color?: string; bounds?: number[] }[] {
  const out = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(out, 'pdf', '');
  const graphics = new PageGraphics();
  const device = writer.beginPage([0, 0, 200, 100]);
  const drawPicture = (d: Mupdf.Device, data: Uint8Array, _type: string, ctm: Mupdf.Matrix) => d.fillImage(new mupdf.Image(data), ctm, 1);
  paintDisplay(mupdf, device, items, drawPicture, { text: () => {}, link: () => {}, under: { fill: (b) => graphics.fill(0, 100, b), shape: (s) => graphics.shape(0, 100, s) } });
  writer.endPage();
  graphics.seal(0);
  writer.close();
  const pdf = joinChunks(finishPdf(mupdf, out, { write: (doc) => ({ fonts: new Set(), streams: graphics.writeInto(doc) }) }));
  const seen: { op: string; color?: string; bounds?: number[] }[] = [];
  const stroke = new mupdf.StrokeState({ lineCap: 'Butt', lineJoin: 'Miter', lineWidth: 0, miterLimit: 10 });
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  doc.loadPage(0).run(
    new mupdf.Device({
      fillPath: (path: Mupdf.Path, _eo: boolean, ctm: Mupdf.Matrix, _cs: Mupdf.ColorSpace, color: number[]) => void seen.push({ op: 'fill', color: hex(color), bounds: path.getBounds(stroke, ctm).map((n) => Math.round(n * 10) / 10 + 0) }),
      strokePath: (_path: Mupdf.Path, state: Mupdf.StrokeState, ctm: Mupdf.Matrix, _cs: Mupdf.ColorSpace, color: number[]) => void seen.push({ op: 'stroke', color: hex(color), bounds: [Math.round(state.getLineWidth() * ctm[0] * 100) / 100] }),
      fillImage: () => void seen.push({ op: 'image' }),
    }),
    mupdf.Matrix.identity,
  );
  doc.destroy();
  return seen;
}

describe('page graphics', () => {
  it('fills a run of boxes of one colour as one path where the display list put them, under a picture drawn after them', () => {
    const seen = painted([
      { kind: 'fill', x0: 10, y0: 20, x1: 110, y1: 60, color: 'FF0000' },
      { kind: 'fill', x0: 110, y0: 20, x1: 150, y1: 30, color: 'FF0000' },
      { kind: 'fill', x0: 0, y0: 0, x1: 5, y1: 5, color: '00FF00' },
      { kind: 'shape', points: [[0, 90], [200, 90]], stroke: { color: '0000FF', width: 0.5 } },
      { kind: 'picture', data: makePng(2, 2, [0, 0, 255]), contentType: 'image/png', at: [20, 0, 0, 20, 30, 30] },
      { kind: 'fill', x0: 40, y0: 40, x1: 45, y1: 45, color: 'FF0000' },
    ]);
    expect(seen.map((s) => s.op)).toEqual(['fill', 'fill', 'stroke', 'image', 'fill']);
    expect(seen[0]).toEqual({ op: 'fill', color: 'FF0000', bounds: [10, 20, 150, 60] });
    expect(seen[1]).toEqual({ op: 'fill', color: '00FF00', bounds: [0, 0, 5, 5] });
    expect(seen[2]).toEqual({ op: 'stroke', color: '0000FF', bounds: [0.5] });
    // After the picture, the device draws again: the last box is over the picture, as listed.
    // (MuPDF's bounds of a path take a hairline's width: half a point around it in page space.)
    seen[4]!.bounds!.forEach((n, i) => expect(Math.abs(n - [40, 40, 45, 45][i]!)).toBeLessThanOrEqual(0.5));
  });
});
