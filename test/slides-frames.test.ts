/**
 * What slides print from graphic frames and inherited styles: a SmartArt diagram as its saved
 * drawing (its text in the box dsp:txXfrm gives), an embedded object as its preview picture (the
 * mc:Fallback p:pic, an EMF drawn as vectors and text), cropped pictures, and a layout's partial
 * title style merged over the master's (colour and capitals kept).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Mupdf from 'mupdf';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { joinChunks } from '../src/lib/bytes';
import { readDeck } from '../src/convert/slides/index';
import { renderDeckChunks } from '../src/convert/slides/render';
import { pptx } from './pptx-fixtures';
import { makePng } from './fixtures';
import { emf } from './metafile-fixtures';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';

let mupdf: typeof Mupdf;
beforeAll(async () => {
  mupdf = await loadMupdf();
});

const EMU = 12_700;
const hex = (c: number[]) => c.map((v) => Math.round(v * 255).toString(16).padStart(2, '0')).join('').toUpperCase();
const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const xfrm = (x: number, y: number, w: number, h: number, tag = 'a:xfrm') => `<${tag}><a:off x="${x * EMU}" y="${y * EMU}"/><a:ext cx="${w * EMU}" cy="${h * EMU}"/></${tag}>`;

interface Printed {
  fills: { color: string; x: number; y: number }[];
  images: { x: number; y: number; width: number; height: number; pixels: number }[];
  textColors: string[];
  lines: { text: string; x: number; y: number; w: number; h: number }[];
}

function printed(deck: Uint8Array): Printed {
  const doc = mupdf.Document.openDocument(joinChunks(renderDeckChunks(readDeck(deck), mupdf, bundledFonts)), 'application/pdf');
  const page = doc.loadPage(0);
  const out: Printed = { fills: [], images: [], lines: [], textColors: [] };
  page.run(new mupdf.Device({
    fillPath: (path: Mupdf.Path, _e: boolean, ctm: Mupdf.Matrix, _cs: Mupdf.ColorSpace, color: number[]) => {
      const xs: number[] = [], ys: number[] = [];
      const put = (x: number, y: number) => (xs.push(ctm[0] * x + ctm[2] * y + ctm[4]), ys.push(ctm[1] * x + ctm[3] * y + ctm[5]));
      path.walk({ moveTo: put, lineTo: put, curveTo: (_a: number, _b: number, _c: number, _d: number, x: number, y: number) => put(x, y) });
      out.fills.push({ color: hex(color), x: Math.min(...xs), y: Math.min(...ys) });
    },
    fillImage: (image: Mupdf.Image, ctm: Mupdf.Matrix) => out.images.push({ x: ctm[4], y: ctm[5], width: ctm[0], height: ctm[3], pixels: image.getWidth() }),
    fillText: (_text: Mupdf.Text, _ctm: Mupdf.Matrix, _cs: Mupdf.ColorSpace, color: number[]) => out.textColors.push(hex(color)),
  }), mupdf.Matrix.identity);
  const json = JSON.parse(page.toStructuredText('preserve-whitespace').asJSON()) as { blocks: { lines?: { text: string; bbox: { x: number; y: number; w: number; h: number } }[] }[] };
  out.lines = json.blocks.flatMap((b) => b.lines ?? []).map((l) => ({ text: l.text, ...l.bbox }));
  page.destroy();
  doc.destroy();
  return out;
}

describe('slides: frames and inherited styles', () => {
  it('prints a SmartArt diagram as the drawing PowerPoint saved of it, placed from the frame, its text in its own text box', () => {
    const frame = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="5" name="Diagram"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>${xfrm(50, 100, 400, 200, 'p:xfrm')}<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" r:dm="rDm" r:lo="rLo" r:qs="rQs" r:cs="rCs"/></a:graphicData></a:graphic></p:graphicFrame>`;
    const data = `<dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" ${A}><dgm:ptLst/><dgm:extLst><a:ext uri="http://schemas.microsoft.com/office/drawing/2008/diagram"><dsp:dataModelExt xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" relId="rDd" minVer="x"/></a:ext></dgm:extLst></dgm:dataModel>`;
    const shape = `<dsp:sp modelId="{1}"><dsp:nvSpPr><dsp:cNvPr id="0" name=""/><dsp:cNvSpPr/></dsp:nvSpPr><dsp:spPr>${xfrm(100, 50, 200, 100)}<a:prstGeom prst="roundRect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="00B050"/></a:solidFill></dsp:spPr><dsp:txBody><a:bodyPr lIns="0" tIns="0" rIns="0" bIns="0" anchor="t"/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="1800"/><a:t>Step one</a:t></a:r></a:p></dsp:txBody>${xfrm(120, 160, 160, 30, 'dsp:txXfrm')}</dsp:sp>`;
    const drawing = `<dsp:drawing xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" ${A}><dsp:spTree><dsp:nvGrpSpPr><dsp:cNvPr id="0" name=""/><dsp:cNvGrpSpPr/></dsp:nvGrpSpPr><dsp:grpSpPr/>${shape}</dsp:spTree></dsp:drawing>`;
    const deck = pptx([{ body: frame, rels: [['rDm', 'diagramData', '../diagrams/data1.xml'], ['rDd', 'diagramDrawing', '../diagrams/drawing1.xml']], parts: { 'ppt/diagrams/data1.xml': data, 'ppt/diagrams/drawing1.xml': drawing } }]);
    const page = printed(deck);
    const green = page.fills.find((f) => f.color === '00B050')!;
    expect([Math.round(green.x), Math.round(green.y)]).toEqual([150, 150]);
    const text = page.lines.find((l) => l.text === 'Step one')!;
    // In the text box (170, 260 on the slide), not the shape's top-left corner.
    expect(Math.round(text.x)).toBe(170);
    expect(text.y).toBeGreaterThan(258);
    expect(text.y).toBeLessThan(266);
  });

  it('prints an embedded object as its preview picture: the fallback p:pic, an EMF drawn as its rectangle and text', () => {
    const ole = (pic: string) => `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="6" name="Object"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>${xfrm(100, 100, 200, 100, 'p:xfrm')}<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/presentationml/2006/ole"><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice xmlns:v="urn:schemas-microsoft-com:vml" Requires="v"><p:oleObj spid="_x0000_s1026" name="Chart" r:id="rOle" imgW="1" imgH="1" progId="Excel.Chart.8"><p:embed/></p:oleObj></mc:Choice><mc:Fallback><p:oleObj name="Chart" r:id="rOle" imgW="1" imgH="1" progId="Excel.Chart.8"><p:embed/>${pic}</p:oleObj></mc:Fallback></mc:AlternateContent></a:graphicData></a:graphic></p:graphicFrame>`;
    const pic = `<p:pic><p:nvPicPr><p:cNvPr id="0" name=""/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rImg"/><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr>${xfrm(100, 100, 200, 100)}</p:spPr></p:pic>`;
    const page = printed(pptx([{ body: ole(pic), rels: [['rImg', 'image', '../media/image1.emf']], parts: { 'ppt/media/image1.emf': emf() } }]));
    // The EMF's red rectangle (10, 20 of its 200 × 100 frame) and its text, stretched over the frame.
    const red = page.fills.find((f) => f.color === 'FF0000')!;
    expect([Math.round(red.x), Math.round(red.y)]).toEqual([110, 120]);
    expect(page.lines.map((l) => l.text)).toContain('Hi');
  });

  it('crops a picture as a:srcRect says', () => {
    const pic = `<p:pic><p:nvPicPr><p:cNvPr id="4" name="Photo"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rImg"/><a:srcRect l="50000"/><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr>${xfrm(100, 100, 200, 100)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`;
    const page = printed(pptx([{ body: pic, rels: [['rImg', 'image', '../media/image1.png']], parts: { 'ppt/media/image1.png': makePng(4, 2) } }]));
    // The right half over the whole box: the picture drawn twice as wide, starting 200 pt left of the box, clipped to the box.
    expect(page.images).toHaveLength(1);
    expect([Math.round(page.images[0]!.x), Math.round(page.images[0]!.width)]).toEqual([-100, 400]);
  });

  it('prints a video or sound as its poster frame (the p:pic its media hangs on), the media itself not read', () => {
    const media = `<p:pic><p:nvPicPr><p:cNvPr id="5" name="clip.mp4"><a:hlinkClick r:id="" action="ppaction://media"/></p:cNvPr><p:cNvPicPr><a:picLocks noChangeAspect="1"/></p:cNvPicPr><p:nvPr><a:videoFile r:link="rVid"/><p:extLst><p:ext uri="{DAA4B4D4-6D71-4841-9C94-3DE7FCFB9230}"><p14:media xmlns:p14="http://schemas.microsoft.com/office/powerpoint/2010/main" r:embed="rMedia"/></p:ext></p:extLst></p:nvPr></p:nvPicPr>` +
      `<p:blipFill><a:blip r:embed="rImg"/><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr>${xfrm(100, 50, 320, 180)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`;
    const page = printed(pptx([{ body: media, rels: [['rImg', 'image', '../media/image1.png'], ['rVid', 'video', '../media/media1.mp4'], ['rMedia', 'media', '../media/media1.mp4']], parts: { 'ppt/media/image1.png': makePng(4, 2), 'ppt/media/media1.mp4': new Uint8Array(64).fill(7) } }]));
    expect(page.images).toHaveLength(1);
    expect([100, 50, 320].map((v, k) => Math.round([page.images[0]!.x, page.images[0]!.y, page.images[0]!.width][k]!) - v)).toEqual([0, 0, 0]);
  });

  it('draws a gradient whose stops are see-through at their mean opacity, not opaque', () => {
    const stop = (pos: number, alpha: number) => `<a:gs pos="${pos}"><a:srgbClr val="FFFFFF"><a:alpha val="${alpha}"/></a:srgbClr></a:gs>`;
    const glow = `<p:sp><p:nvSpPr><p:cNvPr id="4" name="Glow"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr>${xfrm(0, 0, 720, 405)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:gradFill><a:gsLst>${stop(0, 90_000)}${stop(100_000, 20_000)}</a:gsLst><a:path path="circle"/></a:gradFill></p:spPr></p:sp>`;
    const [slide] = readDeck(pptx([{ body: glow }])).slides;
    expect(slide!.shapes[0]!.shape.gradient?.radial).toBe(true);
    expect(slide!.shapes[0]!.shape.fillOpacity).toBeCloseTo(0.55, 5);
  });

  it('fills a rectangle with its picture fill, and sets vertical text turned in its box', () => {
    const filled = `<p:sp><p:nvSpPr><p:cNvPr id="4" name="Photo placeholder"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr>${xfrm(20, 20, 100, 50)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:blipFill><a:blip r:embed="rImg"/><a:stretch><a:fillRect/></a:stretch></a:blipFill></p:spPr></p:sp>`;
    const turned = (vert: string, text: string) => `<p:sp><p:nvSpPr><p:cNvPr id="5" name="Side"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr>${xfrm(300, 50, 60, 300)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr vert="${vert}" lIns="0" tIns="0" rIns="0" bIns="0"/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="2000"/><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;
    const page = printed(pptx([{ body: filled + turned('vert', 'Reads down') + turned('vert270', 'Reads up'), rels: [['rImg', 'image', '../media/image1.png']], parts: { 'ppt/media/image1.png': makePng(4, 2) } }]));
    expect(page.images.map((i) => [Math.round(i.x), Math.round(i.width)])).toEqual([[20, 100]]);
    const down = page.lines.find((l) => l.text === 'Reads down')!;
    const up = page.lines.find((l) => l.text === 'Reads up')!;
    // Upright lines in their 60 × 300 box (from 50 to 350 down the page): turned clockwise the line starts at the box's top, turned back at its foot.
    for (const line of [down, up]) expect(line.h).toBeGreaterThan(line.w * 2);
    expect(down.y).toBeCloseTo(50, -0.5);
    expect(up.y + up.h).toBeCloseTo(350, -0.5);
    expect([down.x, up.x].every((x) => x >= 299 && x <= 361)).toBe(true);
  });

  it('draws a see-through fill (a:alpha) in a graphics state of its own, the opaque ones as before', async () => {
    const box50 = (x: number, alpha: string) => `<p:sp><p:nvSpPr><p:cNvPr id="3" name="Box"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr>${xfrm(x, 100, 100, 100)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="4472C4">${alpha}</a:srgbClr></a:solidFill></p:spPr></p:sp>`;
    const pdf = joinChunks(renderDeckChunks(readDeck(pptx([{ body: box50(100, '<a:alpha val="40000"/>') + box50(300, '') }])), mupdf, bundledFonts));
    const doc = mupdf.Document.openDocument(pdf, 'application/pdf') as Mupdf.PDFDocument;
    const states = doc.findPage(0).get('Resources').get('ExtGState');
    expect(states.get('GA40').get('ca').asNumber()).toBeCloseTo(0.4, 5);
    const alphas: number[] = [];
    const page = doc.loadPage(0);
    page.run(new mupdf.Device({ fillPath: (_p: Mupdf.Path, _e: boolean, _m: Mupdf.Matrix, _c: Mupdf.ColorSpace, color: number[], alpha: number) => hex(color) === '4472C4' && alphas.push(Math.round(alpha * 100) / 100) }), mupdf.Matrix.identity);
    page.destroy();
    doc.destroy();
    expect(alphas.sort()).toEqual([0.4, 1]);
  });

  it('keeps a run\'s web hyperlink as a link over its text; slide jumps are not links', () => {
    const linked = (id: string, text: string, y: number) => `<p:sp><p:nvSpPr><p:cNvPr id="3" name="T"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr>${xfrm(50, y, 400, 40)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="2000"><a:hlinkClick r:id="${id}"/></a:rPr><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;
    const deck = pptx([{ body: linked('rWeb', 'Our site', 50) + linked('rJump', 'Next slide', 150), rels: [['rWeb', 'hyperlink', 'https://example.com/talk'], ['rJump', 'slide', 'slide2.xml']] }]);
    const doc = mupdf.Document.openDocument(joinChunks(renderDeckChunks(readDeck(deck), mupdf, bundledFonts)), 'application/pdf');
    const page = doc.loadPage(0);
    const links = page.getLinks().map((l) => ({ uri: l.getURI(), y: Math.round(l.getBounds()[1]) }));
    page.destroy();
    doc.destroy();
    expect(links).toHaveLength(1);
    expect(links[0]!.uri).toBe('https://example.com/talk');
    expect(links[0]!.y).toBeGreaterThanOrEqual(50);
    expect(links[0]!.y).toBeLessThan(90);
  });

  it('paints a linear gradient fill as an axial shading along its angle, through its stops', () => {
    const grad = `<p:sp><p:nvSpPr><p:cNvPr id="3" name="G"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr>${xfrm(100, 100, 200, 100)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:gradFill><a:gsLst><a:gs pos="0"><a:srgbClr val="FF0000"/></a:gs><a:gs pos="50000"><a:srgbClr val="00FF00"/></a:gs><a:gs pos="100000"><a:srgbClr val="0000FF"/></a:gs></a:gsLst><a:lin ang="0" scaled="1"/></a:gradFill></p:spPr></p:sp>`;
    const pdf = joinChunks(renderDeckChunks(readDeck(pptx([{ body: grad }])), mupdf, bundledFonts));
    const doc = mupdf.Document.openDocument(pdf, 'application/pdf') as Mupdf.PDFDocument;
    const shading = doc.findPage(0).get('Resources').get('Shading').get('SH0');
    expect(shading.get('ShadingType').asNumber()).toBe(2);
    // Left to right across the box (x 100 to 300 pt, in the page's 1/100 pt units), at the box's middle height.
    const coords = [0, 1, 2, 3].map((i) => Math.round(shading.get('Coords').get(i).asNumber() / 100));
    expect(coords).toEqual([100, 255, 300, 255]);
    expect(shading.get('Function').get('Functions').length).toBe(2);
    // Drawn: the left end red, the middle green, the right end blue.
    const pixmap = doc.loadPage(0).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false, true);
    const at = (x: number, y: number) => Array.from(pixmap.getPixels().subarray((y * pixmap.getWidth() + x) * 3, (y * pixmap.getWidth() + x) * 3 + 3));
    expect(at(102, 150)[0]).toBeGreaterThan(200);
    expect(at(200, 150)[1]).toBeGreaterThan(200);
    expect(at(298, 150)[2]).toBeGreaterThan(200);
    pixmap.destroy();
    doc.destroy();
  });

  it('draws a filled shape\'s outer shadow under it, moved by its distance and direction, in its colour; a hidden one (a14:hiddenEffects) not', () => {
    const shadowed = (effects: string) => `<p:sp><p:nvSpPr><p:cNvPr id="3" name="S"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr>${xfrm(100, 100, 100, 50)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="4472C4"/></a:solidFill>${effects}</p:spPr></p:sp>`;
    // 5 pt at 45°: 3.54 pt right and down.
    const shown = printed(pptx([{ body: shadowed('<a:effectLst><a:outerShdw dist="63500" dir="2700000"><a:srgbClr val="808080"/></a:outerShdw></a:effectLst>') }]));
    const order = shown.fills.map((f) => f.color).filter((c) => c === '808080' || c === '4472C4');
    expect(order).toEqual(['808080', '4472C4']);
    const grey = shown.fills.find((f) => f.color === '808080')!;
    expect([grey.x, grey.y].map((v) => Math.round(v * 10) / 10)).toEqual([103.5, 103.5]);
    const hidden = printed(pptx([{ body: shadowed('<a:extLst><a:ext uri="{AF507438-7753-43E0-B8FC-AC1667EBCBE1}"><a14:hiddenEffects xmlns:a14="http://schemas.microsoft.com/office/drawing/2010/main"><a:effectLst><a:outerShdw dist="63500" dir="2700000"><a:srgbClr val="808080"/></a:outerShdw></a:effectLst></a14:hiddenEffects></a:ext></a:extLst>') }]));
    expect(hidden.fills.some((f) => f.color === '808080')).toBe(false);
  });

  it('leaves out a picture whose data is damaged past its header, the slide still printed', () => {
    const png = makePng(64, 64);
    // The compressed pixels cut short: MuPDF reads the header and fails only when it draws.
    const idat = png.findIndex((_, i) => png[i] === 0x49 && png[i + 1] === 0x44 && png[i + 2] === 0x41 && png[i + 3] === 0x54);
    const damaged = png.slice();
    for (let i = idat + 8; i < idat + 24 && i < damaged.length; i++) damaged[i] = 0xff;
    const pic = `<p:pic><p:nvPicPr><p:cNvPr id="4" name="Photo"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rImg"/><a:srcRect l="10000"/><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr>${xfrm(100, 100, 200, 100)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`;
    const title = `<p:sp><p:nvSpPr><p:cNvPr id="5" name="T"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr>${xfrm(50, 20, 400, 40)}</p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="2000"/><a:t>Still here</a:t></a:r></a:p></p:txBody></p:sp>`;
    const page = printed(pptx([{ body: pic + title, rels: [['rImg', 'image', '../media/image1.png']], parts: { 'ppt/media/image1.png': damaged } }]));
    expect(page.lines.map((l) => l.text)).toContain('Still here');
  });

  it('refuses a slide of more XML elements than a part may hold, saying so, before its tree is built', () => {
    const many = '<a:p/>'.repeat(300_001);
    const body = `<p:sp><p:nvSpPr><p:cNvPr id="3" name="T"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${many}</p:txBody></p:sp>`;
    expect(() => readDeck(pptx([{ body }]))).toThrow(/The file's part ppt\/slides\/slide1\.xml holds more than 300,000 XML elements/);
  });

  it('strokes a preset dash (a:prstDash) as its pattern in line widths', () => {
    const dashed = `<p:cxnSp><p:nvCxnSpPr><p:cNvPr id="3" name="L"/><p:cNvCxnSpPr/><p:nvPr/></p:nvCxnSpPr><p:spPr>${xfrm(100, 100, 300, 0)}<a:prstGeom prst="line"><a:avLst/></a:prstGeom><a:ln w="25400"><a:solidFill><a:srgbClr val="000000"/></a:solidFill><a:prstDash val="dash"/></a:ln></p:spPr></p:cxnSp>`;
    const doc = mupdf.Document.openDocument(joinChunks(renderDeckChunks(readDeck(pptx([{ body: dashed }])), mupdf, bundledFonts)), 'application/pdf');
    const page = doc.loadPage(0);
    const dashes: number[][] = [];
    // In page points: the dashes are in the user space the matrix scales.
    page.run(new mupdf.Device({ strokePath: (_p: Mupdf.Path, stroke: Mupdf.StrokeState, ctm: Mupdf.Matrix) => dashes.push((stroke.getDashes() ?? []).map((d) => d * Math.hypot(ctm[0], ctm[1]))) }), mupdf.Matrix.identity);
    page.destroy();
    doc.destroy();
    // dash: 4 widths on, 3 off, of a 2 pt line.
    expect(dashes.map((d) => d.map((v) => Math.round(v * 100) / 100))).toEqual([[8, 6]]);
  });

  it('sets a tab in the text at the paragraph\'s tab stop (a:tabLst), a right stop ending the text there', () => {
    const tabbed = `<p:sp><p:nvSpPr><p:cNvPr id="3" name="T"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr>${xfrm(50, 50, 500, 100)}</p:spPr><p:txBody><a:bodyPr lIns="0" tIns="0" rIns="0" bIns="0"/><a:lstStyle/><a:p><a:pPr><a:tabLst><a:tab pos="${200 * EMU}" algn="l"/><a:tab pos="${400 * EMU}" algn="r"/></a:tabLst></a:pPr><a:r><a:rPr lang="en-US" sz="2000"/><a:t>Name\tLeft\tRight</a:t></a:r></a:p></p:txBody></p:sp>`;
    const doc = mupdf.Document.openDocument(joinChunks(renderDeckChunks(readDeck(pptx([{ body: tabbed }])), mupdf, bundledFonts)), 'application/pdf');
    const page = doc.loadPage(0);
    const words = JSON.parse(page.toStructuredText('preserve-whitespace').asJSON()) as { blocks: { lines?: { text: string; bbox: { x: number; w: number } }[] }[] };
    page.destroy();
    doc.destroy();
    const lines = words.blocks.flatMap((b) => b.lines ?? []);
    const at = (text: string) => lines.find((l) => l.text.trim() === text)?.bbox;
    expect(at('Left')!.x).toBeCloseTo(250, -0.5);
    expect(at('Right')!.x + at('Right')!.w).toBeCloseTo(450, -0.5);
  });

  it('names a run\'s East Asian face (a:ea) for its Japanese text, its Latin face for the rest', () => {
    const run = (text: string) => `<a:r><a:rPr lang="ja-JP" sz="2000"><a:latin typeface="Calibri"/><a:ea typeface="MS Mincho"/></a:rPr><a:t>${text}</a:t></a:r>`;
    const body = `<p:sp><p:nvSpPr><p:cNvPr id="3" name="T"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr>${xfrm(50, 50, 500, 100)}</p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p>${run('日本語のテキスト')}${run(' and English')}</a:p></p:txBody></p:sp>`;
    const [slide] = readDeck(pptx([{ body }])).slides;
    expect(slide!.shapes[0]!.shape.blocks![0]!.runs.map((r) => r.font)).toEqual(['MS Mincho', 'Calibri']);
  });

  it('draws a picture as opaque as its a:alphaModFix says', () => {
    const pic = (amt: string) => `<p:pic><p:nvPicPr><p:cNvPr id="4" name="Photo"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rImg">${amt}</a:blip><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr>${xfrm(100, 100, 200, 100)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`;
    const alphas = (amt: string) => {
      const doc = mupdf.Document.openDocument(joinChunks(renderDeckChunks(readDeck(pptx([{ body: pic(amt), rels: [['rImg', 'image', '../media/image1.png']], parts: { 'ppt/media/image1.png': makePng(4, 2) } }])), mupdf, bundledFonts)), 'application/pdf');
      const page = doc.loadPage(0);
      const seen: number[] = [];
      page.run(new mupdf.Device({ fillImage: (_i: Mupdf.Image, _m: Mupdf.Matrix, alpha: number) => seen.push(Math.round(alpha * 100) / 100) }), mupdf.Matrix.identity);
      page.destroy();
      doc.destroy();
      return seen;
    };
    expect(alphas('<a:alphaModFix amt="50000"/>')).toEqual([0.5]);
    expect(alphas('')).toEqual([1]);
  });

  it('sets text in the columns a:bodyPr numCol asks for, the second begun where the first is full', () => {
    const paras = Array.from({ length: 8 }, (_, i) => `<a:p><a:r><a:rPr lang="en-US" sz="2000"/><a:t>Item ${i + 1}</a:t></a:r></a:p>`).join('');
    const body = `<p:sp><p:nvSpPr><p:cNvPr id="3" name="T"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr>${xfrm(50, 50, 400, 100)}</p:spPr><p:txBody><a:bodyPr numCol="2" spcCol="${20 * EMU}" lIns="0" tIns="0" rIns="0" bIns="0"/><a:lstStyle/>${paras}</p:txBody></p:sp>`;
    const lines = printed(pptx([{ body }])).lines;
    const at = (text: string) => lines.find((l) => l.text === text)!;
    // Four 24 pt lines fill the 100 pt column; the fifth starts the second column, 190 + 20 pt to the right, at the top.
    expect(Math.round(at('Item 4').x)).toBe(50);
    expect(Math.round(at('Item 5').x)).toBe(260);
    expect(at('Item 5').y).toBeCloseTo(at('Item 1').y, 0);
  });

  it('paints a path gradient as a radial shading out from the middle of the shape', () => {
    const grad = `<p:sp><p:nvSpPr><p:cNvPr id="3" name="G"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr>${xfrm(100, 100, 200, 100)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:gradFill><a:gsLst><a:gs pos="0"><a:srgbClr val="FFFFFF"/></a:gs><a:gs pos="100000"><a:srgbClr val="0000FF"/></a:gs></a:gsLst><a:path path="circle"><a:fillToRect l="50000" t="50000" r="50000" b="50000"/></a:path></a:gradFill></p:spPr></p:sp>`;
    const doc = mupdf.Document.openDocument(joinChunks(renderDeckChunks(readDeck(pptx([{ body: grad }])), mupdf, bundledFonts)), 'application/pdf') as Mupdf.PDFDocument;
    const shading = doc.findPage(0).get('Resources').get('Shading').get('SH0');
    expect(shading.get('ShadingType').asNumber()).toBe(3);
    // Centred on the box (200, 150 pt; PDF y 255), reaching its corners (half the diagonal, 112 pt).
    const coords = [0, 1, 2, 3, 4, 5].map((i) => Math.round(shading.get('Coords').get(i).asNumber() / 100));
    expect(coords).toEqual([200, 255, 0, 200, 255, 112]);
    doc.destroy();
  });

  it('draws a picture in greys where its a:blip says a:grayscl', () => {
    const pic = `<p:pic><p:nvPicPr><p:cNvPr id="4" name="Photo"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rImg"><a:grayscl/></a:blip><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr>${xfrm(100, 100, 200, 100)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`;
    const doc = mupdf.Document.openDocument(joinChunks(renderDeckChunks(readDeck(pptx([{ body: pic, rels: [['rImg', 'image', '../media/image1.png']], parts: { 'ppt/media/image1.png': makePng(4, 2, [255, 0, 0]) } }])), mupdf, bundledFonts)), 'application/pdf');
    const pixmap = doc.loadPage(0).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false, true);
    const at = (x: number, y: number) => Array.from(pixmap.getPixels().subarray((y * pixmap.getWidth() + x) * 3, (y * pixmap.getWidth() + x) * 3 + 3));
    const [r, g, b] = at(200, 150);
    // Red in greys: the three the same, neither white nor the red.
    expect(Math.max(r!, g!, b!) - Math.min(r!, g!, b!)).toBeLessThanOrEqual(2);
    expect(r).toBeLessThan(200);
    pixmap.destroy();
    doc.destroy();
  });

  it('merges a layout\'s partial title style over the master\'s: the size from the layout, the master\'s colour and capitals kept', () => {
    const deck = pptx([{ body: `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title 1"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle><a:lvl1pPr><a:defRPr sz="2400"/></a:lvl1pPr></a:lstStyle><a:p><a:r><a:rPr lang="en-US"/><a:t>Quiet title</a:t></a:r></a:p></p:txBody></p:sp>` }]);
    // The master's title style: orange capitals.
    const withMaster = masterTitleLevel(deck, '<a:lvl1pPr algn="ctr"><a:defRPr sz="4000" cap="all"><a:solidFill><a:srgbClr val="CC6600"/></a:solidFill></a:defRPr></a:lvl1pPr>');
    const page = printed(withMaster);
    expect(page.lines.map((l) => l.text)).toEqual(['QUIET TITLE']);
    expect(page.textColors).toEqual(['CC6600']);
  });
});

/** The deck with the master's title level replaced by `level`. */
function masterTitleLevel(deck: Uint8Array, level: string): Uint8Array {
  const files = unzipSync(deck);
  const master = 'ppt/slideMasters/slideMaster1.xml';
  files[master] = strToU8(strFromU8(files[master]!).replace(/<p:titleStyle>.*<\/p:titleStyle>/, `<p:titleStyle>${level}</p:titleStyle>`));
  return zipSync(files);
}
