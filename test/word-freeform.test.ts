import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { readDocx } from '../src/convert/word/read/docx';
import { renderWordDocument } from '../src/convert/word/layout/render';
import { drawingMlFreeform, presetFreeform, vmlFreeform, vmlPathParts } from '../src/convert/office/preset-geometry';
import { parseXml } from '../src/codecs/xml';
import type { Paragraph, PathPart, Shape, WordDocument } from '../src/convert/word/model/index';

const NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function docx(body: string): Uint8Array {
  return zipSync({
    '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    '_rels/.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`),
    'word/document.xml': strToU8(`<w:document ${NS}><w:body>${body}</w:body></w:document>`),
  });
}

/** A DrawingML shape anchored at (x, y) points on the page, w × h points, red, with this geometry. */
const drawingMl = (x: number, y: number, w: number, h: number, geometry: string) =>
  `<w:r><w:drawing><wp:anchor behindDoc="0" relativeHeight="3"><wp:positionH relativeFrom="page"><wp:posOffset>${x * 12700}</wp:posOffset></wp:positionH>` +
  `<wp:positionV relativeFrom="page"><wp:posOffset>${y * 12700}</wp:posOffset></wp:positionV><wp:extent cx="${w * 12700}" cy="${h * 12700}"/><wp:wrapNone/>` +
  `<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr>${geometry}` +
  `<a:solidFill><a:srgbClr val="FF0000"/></a:solidFill><a:ln><a:noFill/></a:ln></wps:spPr><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`;

describe('freeform shapes', () => {
  it('reads VML paths: lines, curves, relative moves, left-out numbers, nf/ns, parts; formulas and arcs are not read', () => {
    expect(vmlPathParts('m2333,1606l2333,1705,2432,1655,2333,1606xe')).toEqual([
      { ops: [['M', 2333, 1606], ['L', 2333, 1705], ['L', 2432, 1655], ['L', 2333, 1606], ['Z']], fill: true, stroke: true },
    ]);
    expect(vmlPathParts('m,l100, nf e m 0 50 r 10 10 c 1,2,3,4,5,6 v1,1,2,2,3,3 ns e')).toEqual([
      { ops: [['M', 0, 0], ['L', 100, 0]], fill: false, stroke: true },
      { ops: [['M', 0, 50], ['L', 10, 60], ['C', 1, 2, 3, 4, 5, 6], ['C', 6, 7, 7, 8, 8, 9]], fill: true, stroke: false },
    ]);
    expect(vmlPathParts('m@0,0l@1,100e')).toBeUndefined();
    expect(vmlPathParts('m0,0 ar0,0,100,100,0,0,0,0e')).toBeUndefined();
    // coordorigin moves the path into its coordsize box.
    expect(vmlFreeform('m100,100l300,100e', '200,100', '100,100')).toEqual({ width: 200, height: 100, parts: [{ ops: [['M', 0, 0], ['L', 200, 0]], fill: true, stroke: true }] });
  });

  it('reads DrawingML custom geometry: points in each path\'s own w × h, quadratic curves as cubics, arcs, fill="none"', () => {
    const custGeom = parseXml(
      `<a:custGeom ${NS}><a:pathLst><a:path w="100" h="50"><a:moveTo><a:pt x="0" y="50"/></a:moveTo><a:lnTo><a:pt x="50" y="0"/></a:lnTo>` +
        `<a:quadBezTo><a:pt x="100" y="0"/><a:pt x="100" y="50"/></a:quadBezTo><a:close/></a:path>` +
        `<a:path w="200" h="100" fill="none"><a:moveTo><a:pt x="200" y="50"/></a:moveTo><a:arcTo wR="100" hR="50" stAng="0" swAng="10800000"/></a:path></a:pathLst></a:custGeom>`,
    );
    const f = drawingMlFreeform(custGeom, 1, 1)!;
    expect(f.width).toBe(100);
    expect(f.height).toBe(50);
    expect(f.parts[0]!.ops[2]![0]).toBe('C');
    expect(f.parts[0]!.ops[2]!.slice(5)).toEqual([100, 50]);
    // The second path is scaled into the first one's space; its half-ellipse ends at the left edge.
    expect(f.parts[1]!.fill).toBe(false);
    const end = f.parts[1]!.ops.at(-1)!;
    expect(end[0]).toBe('C');
    expect(end[5]).toBeCloseTo(0);
    expect(end[6]).toBeCloseTo(25);
  });

  it('draws DrawingML presets, custom geometry and VML freeforms where they are, filled inside their outline only', async () => {
    const triangle = drawingMl(100, 100, 100, 100, '<a:prstGeom prst="triangle"/>');
    const arrow = drawingMl(300, 100, 200, 100, '<a:prstGeom prst="rightArrow"/>');
    const custom = drawingMl(100, 300, 100, 100, '<a:custGeom><a:pathLst><a:path w="10" h="10"><a:moveTo><a:pt x="0" y="0"/></a:moveTo><a:lnTo><a:pt x="10" y="0"/></a:lnTo><a:lnTo><a:pt x="0" y="10"/></a:lnTo><a:close/></a:path></a:pathLst></a:custGeom>');
    // VML: a triangle pointing down in a 1000 × 1000 space, and an open polyline with only a stroke.
    const vml =
      `<w:r><w:pict><v:shape style="position:absolute;margin-left:300pt;margin-top:300pt;width:100pt;height:100pt;mso-position-horizontal-relative:page;mso-position-vertical-relative:page" coordsize="1000,1000" path="m0,0l1000,0,500,1000xe" fillcolor="#0000ff" stroked="f"/></w:pict></w:r>` +
      `<w:r><w:pict><v:shape style="position:absolute;margin-left:100pt;margin-top:500pt;width:200pt;height:100pt;mso-position-horizontal-relative:page;mso-position-vertical-relative:page" coordsize="200,100" path="m0,0l200,0,200,100e" filled="f" strokecolor="#00ff00" strokeweight="4pt"/></w:pict></w:r>`;
    const model = readDocx(docx(`<w:p>${triangle}${arrow}${custom}${vml}</w:p>`));
    const shapes = (model.sections[0]!.blocks[0] as Paragraph).inlines.filter((i): i is Shape => i.kind === 'shape');
    expect(shapes.map((s) => s.geometry)).toEqual(['path', 'path', 'path', 'path', 'path']);

    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf');
    const pix = pdf.loadPage(0).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
    const samples = pix.getPixels(), stride = pix.getStride();
    const at = (x: number, y: number) => [0, 1, 2].map((i) => samples[y * stride + x * 3 + i]!);
    const [red, blue, green, white] = [[255, 0, 0], [0, 0, 255], [0, 255, 0], [255, 255, 255]];
    // Triangle (apex at the top middle): its base corners and centre red, the top corners white.
    expect(at(150, 190)).toEqual(red);
    expect(at(105, 195)).toEqual(red);
    expect(at(105, 105)).toEqual(white);
    expect(at(195, 105)).toEqual(white);
    // Right arrow: the shaft at the left middle, the tip at the right middle; above the shaft white.
    expect(at(305, 150)).toEqual(red);
    expect(at(495, 150)).toEqual(red);
    expect(at(305, 110)).toEqual(white);
    expect(at(420, 110)).toEqual(white);
    expect(at(455, 112)).toEqual(red); // the head, as tall as the box
    // Custom geometry: the top-left half of its box.
    expect(at(110, 310)).toEqual(red);
    expect(at(190, 390)).toEqual(white);
    // VML triangle pointing down, blue.
    expect(at(350, 305)).toEqual(blue);
    expect(at(350, 390)).toEqual(blue);
    expect(at(305, 390)).toEqual(white);
    // The open polyline: its top and right sides stroked green, nothing filled inside.
    expect(at(200, 500)).toEqual(green);
    expect(at(300, 550)).toEqual(green);
    expect(at(200, 560)).toEqual(white);
    pix.destroy();
    pdf.destroy();
  });

  it('lines carry their arrowheads at the end they are on: DrawingML tailEnd, VML endarrow from `from` to `to`', async () => {
    // A connector 200 pt long from (100,100) rightwards with a large triangle at its end (tailEnd), 2 pt wide.
    const connector =
      `<w:r><w:drawing><wp:anchor behindDoc="0" relativeHeight="3"><wp:positionH relativeFrom="page"><wp:posOffset>${100 * 12700}</wp:posOffset></wp:positionH>` +
      `<wp:positionV relativeFrom="page"><wp:posOffset>${100 * 12700}</wp:posOffset></wp:positionV><wp:extent cx="${200 * 12700}" cy="0"/><wp:wrapNone/>` +
      `<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr><a:prstGeom prst="straightConnector1"/>` +
      `<a:ln w="25400"><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill><a:tailEnd type="triangle" w="lg" len="lg"/></a:ln></wps:spPr><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`;
    // A VML line drawn from right to left: its end arrow points left, at x = 100.
    const vml = `<w:r><w:pict><v:line style="position:absolute;mso-position-horizontal-relative:page;mso-position-vertical-relative:page" from="300pt,300pt" to="100pt,300pt" strokecolor="#0000ff" strokeweight="2pt"><v:stroke endarrow="block" endarrowwidth="wide" endarrowlength="long"/></v:line></w:pict></w:r>`;
    const model = readDocx(docx(`<w:p>${connector}${vml}</w:p>`));
    const shapes = (model.sections[0]!.blocks[0] as Paragraph).inlines.filter((i): i is Shape => i.kind === 'shape');
    expect(shapes.map((s) => s.line?.end?.type)).toEqual(['triangle', 'triangle']);
    expect(shapes[1]!.flipH).toBe(true);
    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf');
    const pix = pdf.loadPage(0).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
    const samples = pix.getPixels(), stride = pix.getStride();
    const at = (x: number, y: number) => [0, 1, 2].map((i) => samples[y * stride + x * 3 + i]!);
    const [red, blue, white] = [[255, 0, 0], [0, 0, 255], [255, 255, 255]];
    // The head (5 × 2 pt wide, 10 pt long) stands out of the 2 pt line near its end only.
    expect(at(292, 102)).toEqual(red);
    expect(at(150, 103)).toEqual(white);
    expect(at(104, 103)).toEqual(white);
    expect(at(108, 302)).toEqual(blue);
    expect(at(296, 303)).toEqual(white);
    pix.destroy();
    pdf.destroy();
  });

  it('presets are polygons in the shape\'s own size (arrows keep their head as the shorter side says)', () => {
    const arrow = presetFreeform('rightArrow', 300, 100)!;
    const points = arrow.parts[0]!.ops.filter((o) => o[0] !== 'Z').map((o) => [o[1], o[2]]);
    expect(points).toContainEqual([300, 50]); // the tip
    expect(points).toContainEqual([250, 0]); // the head starts half the shorter side from the tip
    expect(presetFreeform('cloudCallout', 100, 100)).toBeUndefined();
  });

  it('a long outline is drawn as a form of our own operators, where the device would draw it: rotated, filled and stroked alike', async () => {
    // The same square twice, rotated 30°, filled blue with a 4 pt green outline: traced by 4 points
    // (drawn through MuPDF's device) and by 400 (written as a form, shape-content.ts).
    const side = (from: [number, number], to: [number, number], steps: number) =>
      Array.from({ length: steps }, (_, i) => `${Math.round(from[0] + ((to[0] - from[0]) * (i + 1)) / steps)},${Math.round(from[1] + ((to[1] - from[1]) * (i + 1)) / steps)}`);
    const corners: [number, number][] = [[0, 0], [1000, 0], [1000, 1000], [0, 1000], [0, 0]];
    const traced = (steps: number) => `m0,0l${corners.slice(1).flatMap((c, i) => side(corners[i]!, c, steps)).join(',')}xe`;
    const square = (left: number, path: string) =>
      `<w:r><w:pict><v:shape style="position:absolute;margin-left:${left}pt;margin-top:150pt;width:150pt;height:150pt;rotation:30;mso-position-horizontal-relative:page;mso-position-vertical-relative:page" coordsize="1000,1000" path="${path}" fillcolor="#0000ff" strokecolor="#00ff00" strokeweight="4pt"/></w:pict></w:r>`;
    const model = readDocx(docx(`<w:p>${square(100, traced(1))}${square(350, traced(100))}</w:p>`));
    const shapes = (model.sections[0]!.blocks[0] as Paragraph).inlines.filter((i): i is Shape => i.kind === 'shape');
    expect(shapes.map((s) => s.path!.parts[0]!.ops.length)).toEqual([6, 402]);
    expect(shapes.map((s) => s.rotation)).toEqual([30, 30]);

    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf') as InstanceType<typeof mupdf.PDFDocument>;
    // The long one is a form XObject in the page's resources, the short one drawn in the page's content.
    const xobjects = pdf.findPage(0).get('Resources').get('XObject');
    const kinds: string[] = [];
    xobjects.forEach((ref) => kinds.push(ref.get('Subtype').asName()));
    expect(kinds).toEqual(['Form']);
    const pix = pdf.loadPage(0).toPixmap(mupdf.Matrix.scale(2, 2), mupdf.ColorSpace.DeviceRGB, false);
    const samples = pix.getPixels(), stride = pix.getStride();
    const at = (x: number, y: number) => [0, 1, 2].map((i) => samples[y * stride + x * 3 + i]!);
    // Every pixel of the first square's surroundings as in the second's, 250 pt (500 px) to the right.
    let differ = 0, painted = 0;
    for (let y = 240; y < 660; y++)
      for (let x = 140; x < 560; x++) {
        const a = at(x, y), b = at(x + 500, y);
        if (a.some((v, i) => Math.abs(v - b[i]!) > 96)) differ++;
        if (a[2] === 255 && a[0] === 0) painted++;
      }
    expect(painted).toBeGreaterThan(60_000); // the blue inside: (150 pt - 4 pt)² at 2 px a point is about 85,000 px
    expect(differ).toBeLessThan(200); // anti-aliased edges only
    // Rotated: the box's top-left corner is outside the square, its centre and the middle of the top edge's rotated place inside.
    expect(at(2 * 102, 2 * 152)).toEqual([255, 255, 255]);
    expect(at(2 * 175, 2 * 225)).toEqual([0, 0, 255]);
    expect(at(2 * 425, 2 * 225)).toEqual([0, 0, 255]);
    pix.destroy();
    pdf.destroy();
  });

  it('a long outline drawn on every page (a header\'s) is one form, shared by the pages', async () => {
    const ops: PathPart['ops'] = [['M', 0, 0]];
    for (let i = 1; i <= 300; i++) ops.push(['L', i, (i * 37) % 100]);
    ops.push(['Z']);
    const logo: Shape = { kind: 'shape', geometry: 'path', path: { width: 300, height: 100, parts: [{ ops, fill: true, stroke: false }] }, width: 150, height: 50, fill: '0000FF', floating: { x: 0, y: 0, relativeX: 'column', relativeY: 'paragraph', wrap: 'inFront' } };
    const style = { font: 'Calibri', size: 11 };
    const page = { width: 612, height: 792, marginTop: 144, marginRight: 72, marginBottom: 72, marginLeft: 72, header: 36, footer: 36 };
    const header: Paragraph = { kind: 'paragraph', props: {}, inlines: [logo, { kind: 'text', text: 'Header', style }] };
    const body: Paragraph[] = [
      { kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: 'One', style }, { kind: 'break', type: 'page' }, { kind: 'text', text: 'Two', style }] },
    ];
    const model: WordDocument = { sections: [{ page, headers: { default: [header] }, footers: {}, blocks: body }], notes: new Map(), defaultFont: 'Calibri', defaultSize: 11 };
    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf') as InstanceType<typeof mupdf.PDFDocument>;
    expect(pdf.countPages()).toBe(2);
    const forms = [0, 1].map((i) => {
      const found: number[] = [];
      pdf.findPage(i).get('Resources').get('XObject').forEach((ref) => {
        if (ref.get('Subtype').asName() === 'Form') found.push(ref.asIndirect());
      });
      return found;
    });
    expect(forms[0]!.length).toBe(1);
    expect(forms[1]).toEqual(forms[0]);
    // Drawn on both: the logo's blue inside the header's box, 36 pt from the top.
    for (const i of [0, 1]) {
      const pix = pdf.loadPage(i).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
      const samples = pix.getPixels();
      let blue = 0;
      for (let y = 36; y < 86; y++) for (let x = 72; x < 222; x++) if (samples[(y * pix.getWidth() + x) * 3 + 2] === 255 && samples[(y * pix.getWidth() + x) * 3] === 0) blue++;
      expect(blue).toBeGreaterThan(500);
      pix.destroy();
    }
    pdf.destroy();
  });
});

