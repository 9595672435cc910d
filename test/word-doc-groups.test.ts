import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { readDoc } from '../src/convert/word/read/doc';
import { customGeometry, SEGMENTS, VERTICES } from '../src/convert/office/custom-geometry';
import { readOpt, type ShapeInfo } from '../src/convert/office/officeart';
import { renderWordDocument } from '../src/convert/word/layout/render';
import type { Paragraph, Shape } from '../src/convert/word/model/index';
import groupedShapesDocUrl from './fixtures/word/lo__grouped-shapes.doc?inline';

// OfficeArt groups in .doc files (a sponsor's logo of two dozen shapes was left out entirely) and
// custom geometry (type 0 shapes: the outline's vertices and segments).

const bytesOf = (dataUrl: string) => Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(',') + 1)), (c) => c.charCodeAt(0));

/** An IMsoArray: count, allocated count, element size, then the elements (16-bit values). */
function msoArray(elementSize: number, values: number[]): number[] {
  const perElement = (elementSize === 0xfff0 ? 4 : elementSize) / 2;
  const count = values.length / perElement;
  return [count, count, elementSize, ...values];
}
const le16 = (values: number[]) => values.flatMap((v) => [v & 0xff, (v >> 8) & 0xff]);
const le32 = (v: number) => [v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >>> 24) & 0xff];

describe('OfficeArt groups and custom geometry in .doc files', () => {
  it('a group is drawn as its members, each where it sits in the group; a polygon member keeps its outline', async () => {
    const model = readDoc(bytesOf(groupedShapesDocUrl));
    const shapes = (model.sections[0]!.blocks[0] as Paragraph).inlines.filter((i): i is Shape => i.kind === 'shape');
    expect(shapes.map((s) => [s.geometry, Math.round(s.width), Math.round(s.height), s.fill, Math.round(s.floating!.inGroup!.dx)])).toEqual([
      ['rect', 60, 60, '00A000', 0],
      ['path', 120, 60, '0000FF', 100],
    ]);
    // The triangle: from the bottom-left corner to the apex at the top middle to the bottom-right.
    const { path } = shapes[1]!;
    const points = path!.parts[0]!.ops.filter((op) => op[0] !== 'Z').map((op) => [Math.round((op[1] as number) / path!.width * 2) / 2, Math.round((op[2] as number) / path!.height * 2) / 2]);
    expect(points.slice(0, 3)).toEqual([[0, 1], [0.5, 0], [1, 1]]);

    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf');
    const pix = pdf.loadPage(0).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
    const samples = pix.getPixels(), stride = pix.getStride();
    const at = (x: number, y: number) => [0, 1, 2].map((i) => samples[y * stride + x * 3 + i]!);
    expect(at(130, 330)).toEqual([0, 160, 0]); // in the square (page x 100-160, y 300-360)
    expect(at(260, 350)).toEqual([0, 0, 255]); // in the triangle (x 200-320), near its base
    expect(at(210, 305)).toEqual([255, 255, 255]); // beside its apex: outside the outline
    pdf.destroy();
  });

  it('custom geometry: a path that starts with a line starts at its first vertex; curves, closes, ends and escapes', () => {
    const props = new Map([[0x0142, 100], [0x0143, 50]]); // geoRight, geoBottom
    // Vertices: a rectangle's corners, then a point to move to and a curve's three points.
    const vertices = le16(msoArray(0xfff0, [0, 0, 100, 0, 100, 50, 0, 50, 5, 5, 10, 10, 20, 20, 30, 10]));
    // lineTo ×4 (no moveTo first), close, end; moveTo, noFill escape, curveTo ×1, end.
    const segments = le16(msoArray(2, [0x0004, 0x6001, 0x8000, 0x4000, 0xaa00, 0x2001, 0x8000]));
    const path = customGeometry(props, new Map([[VERTICES, Uint8Array.from(vertices)], [SEGMENTS, Uint8Array.from(segments)]]))!;
    expect(path.width).toBe(100);
    expect(path.height).toBe(50);
    expect(path.parts).toEqual([
      { ops: [['M', 0, 0], ['L', 100, 0], ['L', 100, 50], ['L', 0, 50], ['Z']], fill: true, stroke: true },
      { ops: [['M', 5, 5], ['C', 10, 10, 20, 20, 30, 10]], fill: false, stroke: true },
    ]);
  });

  it("an array property's length written without its 6-byte header still has the header read first, and the properties after it in place", () => {
    // OfficeArtFOPT: pVertices (complex), then gtextUNICODE (complex); data follow in that order.
    const vertices = msoArray(0xfff0, [1, 2, 3, 4]); // two points: 8 bytes of elements
    const text = [...'Hi'].map((c) => c.charCodeAt(0)).concat(0);
    const table = [...le16([0x8000 | VERTICES]), ...le32(8), ...le16([0x8000 | 0x00c0]), ...le32(text.length * 2)];
    const opt = Uint8Array.from([...table, ...le16(vertices), ...le16(text)]);
    const info: ShapeInfo = { props: new Map(), order: 0 };
    readOpt(opt, { ver: 3, inst: 2, type: 0xf00b, start: 0, end: opt.length }, info);
    expect(Array.from(info.complex!.get(VERTICES)!)).toEqual(le16(vertices));
    expect(info.gtext?.text).toBe('Hi');
  });
});
