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
import type { DisplayItem, FilledBox, PictureItem, ShapeItem } from '../src/contracts/display';
import { makePng } from './fixtures';
import { assemblePng } from '../src/codecs/png';

let mupdf: typeof Mupdf;
beforeAll(async () => {
  mupdf = await loadMupdf();
});

const hex = (color: number[]) => color.map((c) => Math.round(c * 255).toString(16).padStart(2, '0')).join('').toUpperCase();

/** A 200 × 100 pt page painted from `items` with boxes and shapes given to PageGraphics; what a device then sees, in order. */
function painted(items: DisplayItem[], pictures = false): { op: string; color?: string; bounds?: number[] }[] {
  const out = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(out, 'pdf', '');
  const graphics = new PageGraphics();
  const device = writer.beginPage([0, 0, 200, 100]);
  const drawPicture = (d: Mupdf.Device, data: Uint8Array, _type: string, ctm: Mupdf.Matrix) => d.fillImage(new mupdf.Image(data), ctm, 1);
  const under = { fill: (b: FilledBox) => graphics.fill(0, 100, b), shape: (s: ShapeItem) => graphics.shape(0, 100, s) };
  const withPictures = { ...under, takes: (p: PictureItem) => graphics.takes(p), picture: (p: PictureItem) => graphics.picture(0, 100, p), clip: (r: [number, number, number, number]) => graphics.clip(0, 100, r), unclip: () => graphics.unclip(0) };
  paintDisplay(mupdf, device, items, drawPicture, { text: () => {}, link: () => {}, under: pictures ? withPictures : under });
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
      fillImage: (_image: Mupdf.Image, ctm: Mupdf.Matrix) => void seen.push({ op: 'image', bounds: [...ctm].map((n) => Math.round(n * 10) / 10 + 0) }),
      clipPath: (path: Mupdf.Path, _eo: boolean, ctm: Mupdf.Matrix) => void seen.push({ op: 'clip', bounds: path.getBounds(stroke, ctm).map((n) => Math.round(n) + 0) }),
      popClip: () => void seen.push({ op: 'pop' }),
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

  it('writes an opaque PNG (clipped) as its own data before the device, and leaves one with alpha to the device', () => {
    const rgb = makePng(3, 2, [0, 128, 255]);
    const seen = painted([
      { kind: 'clip', rect: [20, 10, 60, 40], items: [{ kind: 'picture', data: rgb, contentType: 'image/png', at: [80, 0, 0, 50, 10, 5] }] },
      { kind: 'fill', x0: 0, y0: 90, x1: 10, y1: 100, color: '00FF00' },
    ], true);
    // All of it under the device's content: the clip, the picture over 80 × 50 pt from (10, 5) top-down, the box after.
    expect(seen.map((s) => s.op)).toEqual(['clip', 'image', 'pop', 'fill']);
    expect(seen[0]!.bounds).toEqual([20, 10, 60, 40]);
    expect(seen[1]!.bounds).toEqual([80, 0, 0, 50, 10, 5]);
    const graphics = new PageGraphics();
    const opaque = { kind: 'picture' as const, data: rgb, contentType: 'image/png', at: [1, 0, 0, 1, 0, 0] as Mupdf.Matrix };
    expect(graphics.takes(opaque)).toBe(true);
    // A 1 × 1 RGBA PNG (filter byte, then the four samples): its alpha needs a soft mask, which MuPDF makes.
    expect(graphics.takes({ ...opaque, data: assemblePng(1, 1, 6, new Uint8Array([0, 10, 20, 30, 128])) })).toBe(false);
    expect(graphics.takes({ ...opaque, data: new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), contentType: 'image/jpeg' })).toBe(false);
    // A header that claims 100000 × 100000 pixels over a few bytes of data is not passed on into the PDF.
    const lying = makePng(1, 1);
    new DataView(lying.buffer, lying.byteOffset).setUint32(16, 100_000);
    new DataView(lying.buffer, lying.byteOffset).setUint32(20, 100_000);
    expect(graphics.takes({ ...opaque, data: lying })).toBe(false);
    expect(graphics.takes({ ...opaque, crop: { left: 0.1, top: 0, right: 0, bottom: 0 } })).toBe(false);
  });
});
