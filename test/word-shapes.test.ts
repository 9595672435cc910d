import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { readDocx } from '../src/convert/word/read/docx';
import { makePng } from './fixtures';
import { readDoc } from '../src/convert/word/read/doc';
import floatingShapesDocUrl from './fixtures/word/lo__floating-shapes.doc?inline';
import { renderWordDocument } from '../src/convert/word/layout/render';
import type { Block, Inline, Paragraph, RunStyle, Shape, WordDocument } from '../src/convert/word/model/index';

const style: RunStyle = { font: 'Calibri', size: 11 };
const page = { width: 612, height: 792, marginTop: 72, marginRight: 72, marginBottom: 72, marginLeft: 72, header: 36, footer: 36 };
const doc = (paragraphs: Paragraph[]): WordDocument => ({
  sections: [{ page, headers: {}, footers: {}, blocks: paragraphs }],
  notes: new Map(),
  defaultFont: 'Calibri',
  defaultSize: 11,
});

/** A page (the first by default) at 72 dpi (1 px = 1 pt), RGB, and its text lines. */
async function render(model: WordDocument, index = 0) {
  const mupdf = await loadMupdf();
  const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf');
  try {
    const p = pdf.loadPage(index);
    const pix = p.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
    const samples = pix.getPixels().slice(), stride = pix.getStride();
    pix.destroy();
    const json = JSON.parse(p.toStructuredText('preserve-whitespace').asJSON()) as { blocks: { lines?: { text: string; bbox: { x: number; y: number } }[] }[] };
    p.destroy();
    const lines = json.blocks.flatMap((b) => b.lines ?? []);
    const at = (x: number, y: number) => [0, 1, 2].map((i) => samples[y * stride + x * 3 + i]!);
    return { at, lines };
  } finally {
    pdf.destroy();
  }
}

describe('Word shapes', () => {
  it('draws a page-relative floating rectangle with its text inside, and an inline line', async () => {
    const box: Shape = {
      kind: 'shape', geometry: 'rect', width: 200, height: 100, fill: 'FF0000', clipsText: true,
      floating: { x: 300, y: 400, relativeX: 'page', relativeY: 'page', wrap: 'behind' },
      blocks: [{ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: 'Inside the box', style: { ...style, color: 'FFFFFF' } }] }],
      textInsets: { left: 10, top: 10, right: 10, bottom: 10 },
    };
    const rule: Shape = { kind: 'shape', geometry: 'line', width: 300, height: 0, line: { color: '0000FF', width: 3 } };
    const model = doc([
      { kind: 'paragraph', props: {}, inlines: [box, { kind: 'text', text: 'Body text', style }] },
      { kind: 'paragraph', props: {}, inlines: [rule] },
    ]);
    const { at, lines } = await render(model);
    // The rectangle covers (300,400)-(500,500).
    expect(at(310, 490)).toEqual([255, 0, 0]);
    expect(at(490, 410)).toEqual([255, 0, 0]);
    expect(at(290, 450)).toEqual([255, 255, 255]);
    expect(at(510, 450)).toEqual([255, 255, 255]);
    // The inline rule: blue somewhere in the second line, within the column.
    let blue = 0;
    for (let y = 80; y < 130; y++) for (let x = 72; x < 372; x++) if (at(x, y).join() === '0,0,255') blue++;
    expect(blue).toBeGreaterThan(300);
    const inside = lines.find((l) => l.text.includes('Inside the box'));
    expect(inside).toBeDefined();
    expect(inside!.bbox.x).toBeGreaterThan(305);
    expect(inside!.bbox.x).toBeLessThan(320);
    expect(inside!.bbox.y).toBeGreaterThan(405);
    expect(inside!.bbox.y).toBeLessThan(430);
    expect(lines.find((l) => l.text.includes('Body text'))!.bbox.y).toBeLessThan(100);
  });

  it('a shape in the header is drawn on every page, and a body shape only on its own page', async () => {
    // Only pages that show a shape go through the device that draws shapes: the header's counts.
    const headerBox: Shape = { kind: 'shape', geometry: 'rect', width: 100, height: 20, fill: 'FF0000', floating: { x: 400, y: 20, relativeX: 'page', relativeY: 'page', wrap: 'inFront' } };
    const bodyBox: Shape = { kind: 'shape', geometry: 'rect', width: 100, height: 50, fill: '00FF00', floating: { x: 100, y: 600, relativeX: 'page', relativeY: 'page', wrap: 'inFront' } };
    const text = (t: string, props: Paragraph['props'] = {}): Paragraph => ({ kind: 'paragraph', props, inlines: [{ kind: 'text', text: t, style }] });
    const model: WordDocument = {
      sections: [{
        page, footers: {},
        headers: { default: [{ kind: 'paragraph', props: {}, inlines: [headerBox, { kind: 'text', text: 'Header', style }] }] },
        blocks: [text('Page one'), { kind: 'paragraph', props: { pageBreakBefore: true }, inlines: [bodyBox, { kind: 'text', text: 'Page two', style }] }, text('Page three', { pageBreakBefore: true })],
      }],
      notes: new Map(), defaultFont: 'Calibri', defaultSize: 11,
    };
    for (const index of [0, 1, 2]) {
      const { at, lines } = await render(model, index);
      expect(lines.some((l) => l.text.includes(['Page one', 'Page two', 'Page three'][index]!))).toBe(true);
      expect(at(450, 30)).toEqual([255, 0, 0]);
      expect(at(150, 625)).toEqual(index === 1 ? [0, 255, 0] : [255, 255, 255]);
    }
  });

  it('reads a wps:wsp rectangle with a theme fill into a floating shape', () => {
    const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"';
    const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    const drawing =
      `<w:drawing><wp:anchor behindDoc="1" relativeHeight="5"><wp:positionH relativeFrom="page"><wp:posOffset>127000</wp:posOffset></wp:positionH>` +
      `<wp:positionV relativeFrom="margin"><wp:posOffset>254000</wp:posOffset></wp:positionV><wp:extent cx="2540000" cy="1270000"/><wp:wrapNone/>` +
      `<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr><a:prstGeom prst="rect"/>` +
      `<a:solidFill><a:schemeClr val="accent1"><a:lumMod val="50000"/></a:schemeClr></a:solidFill><a:ln w="25400"><a:solidFill><a:srgbClr val="00FF00"/></a:solidFill></a:ln></wps:spPr>` +
      `<wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing>`;
    const theme = `<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:themeElements><a:clrScheme><a:accent1><a:srgbClr val="4472C4"/></a:accent1></a:clrScheme></a:themeElements></a:theme>`;
    const bytes = zipSync({
      '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
      '_rels/.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`),
      'word/document.xml': strToU8(`<w:document ${W}><w:body><w:p><w:r>${drawing}</w:r></w:p></w:body></w:document>`),
      'word/theme/theme1.xml': strToU8(theme),
      'word/_rels/document.xml.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rT" Type="${REL}/theme" Target="theme/theme1.xml"/></Relationships>`),
    });
    const model = readDocx(bytes);
    const para = model.sections[0]!.blocks[0] as Paragraph;
    const shape = para.inlines.find((i): i is Shape => i.kind === 'shape');
    expect(shape).toBeDefined();
    expect(shape!.geometry).toBe('rect');
    expect(shape!.width).toBeCloseTo(200);
    expect(shape!.height).toBeCloseTo(100);
    // accent1 4472C4 at half its lightness.
    expect(shape!.fill).toBe('203864');
    expect(shape!.line).toEqual({ color: '00FF00', width: 2 });
    expect(shape!.floating).toMatchObject({ x: 10, y: 20, relativeX: 'page', relativeY: 'margin', wrap: 'behind' });
    expect(shape!.z).toBe(5);
  });

  it('keeps a text box whose only paragraph shows nothing but its border', () => {
    const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"';
    const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    const box = (paragraph: string) =>
      `<w:r><w:drawing><wp:anchor relativeHeight="2"><wp:positionH relativeFrom="page"><wp:posOffset>725170</wp:posOffset></wp:positionH><wp:positionV relativeFrom="page"><wp:posOffset>727075</wp:posOffset></wp:positionV>` +
      `<wp:extent cx="6315710" cy="1084580"/><wp:wrapNone/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr><a:prstGeom prst="rect"/><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill></wps:spPr>` +
      `<wps:txbx><w:txbxContent>${paragraph}</w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`;
    const ruled = '<w:p><w:pPr><w:pBdr><w:bottom w:val="double" w:sz="9" w:space="9" w:color="C00000"/></w:pBdr></w:pPr><w:r><w:t xml:space="preserve"> </w:t></w:r></w:p>';
    const bytes = zipSync({
      '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
      '_rels/.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`),
      'word/document.xml': strToU8(`<w:document ${W}><w:body><w:p>${box(ruled)}${box('<w:p><w:r><w:t xml:space="preserve"> </w:t></w:r></w:p>')}</w:p></w:body></w:document>`),
    });
    const shapes = (readDocx(bytes).sections[0]!.blocks[0] as Paragraph).inlines.filter((i): i is Shape => i.kind === 'shape');
    expect(shapes).toHaveLength(2);
    // The rule's paragraph is kept to be drawn; a box of blank paragraphs has no text to lay out.
    expect((shapes[0]!.blocks?.[0] as Paragraph | undefined)?.props.borders?.bottom).toMatchObject({ style: 'double', color: 'C00000' });
    expect(shapes[1]!.blocks).toBeUndefined();
  });

  it('a floating VML group places each member where it sits in the group; a text box that text does not wrap around is drawn where it floats', async () => {
    // GASU.docx's diagrams: groups of rectangles, lines and label text boxes (no fill, no frame) with
    // their coordinates in the group's coordorigin/coordsize. The labels in the text flow pushed every
    // figure down (141 pages against LibreOffice's 132; 136 now).
    const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:w10="urn:schemas-microsoft-com:office:word"';
    const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    const label = (text: string, at: string) =>
      `<v:shape style="position:absolute;${at}" type="#_x0000_t202" filled="false" stroked="false"><v:textbox inset="0,0,0,0"><w:txbxContent><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:txbxContent></v:textbox><w10:wrap type="none"/></v:shape>`;
    const group =
      `<w:pict><v:group style="position:absolute;margin-left:100pt;margin-top:200pt;width:200pt;height:100pt;mso-position-horizontal-relative:page;mso-position-vertical-relative:page" coordorigin="1000,500" coordsize="2000,1000">` +
      `<v:rect style="position:absolute;left:1000;top:500;width:1000;height:500" fillcolor="#ff0000" stroked="false"/>` +
      label('GroupLabel', 'left:2000;top:1000;width:1000;height:200') +
      `<v:line from="1000,1500" to="3000,1500" strokecolor="#0000ff" strokeweight="2pt"/>` +
      `</v:group></w:pict>`;
    // Centred on the page as a whole: its members keep their places in it.
    const centred =
      `<w:pict><v:group style="position:absolute;margin-left:0;margin-top:600pt;width:100pt;height:50pt;mso-position-horizontal:center;mso-position-horizontal-relative:page;mso-position-vertical-relative:page" coordsize="100,50">` +
      `<v:rect style="position:absolute;left:50;top:0;width:50;height:50" fillcolor="#00ff00" stroked="false"/></v:group></w:pict>`;
    const loose = `<w:pict>${label('LooseLabel', 'margin-left:300pt;margin-top:500pt;width:150pt;height:30pt;mso-position-horizontal-relative:page;mso-position-vertical-relative:page')}</w:pict>`;
    const bytes = zipSync({
      '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
      '_rels/.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`),
      'word/document.xml': strToU8(`<w:document ${W}><w:body><w:p><w:r>${group}${loose}${centred}<w:t>Body text</w:t></w:r></w:p></w:body></w:document>`),
    });
    const model = readDocx(bytes);
    const shapes = (model.sections[0]!.blocks[0] as Paragraph).inlines.filter((i): i is Shape => i.kind === 'shape');
    // A member is placed like its group, offset in it (inGroup).
    const placed = shapes.map((sh) => ({ geometry: sh.geometry, x: sh.floating!.x + (sh.floating!.inGroup?.dx ?? 0), y: sh.floating!.y + (sh.floating!.inGroup?.dy ?? 0), width: sh.width, height: sh.height, wrap: sh.floating!.wrap }));
    expect(placed).toEqual([
      { geometry: 'rect', x: 100, y: 200, width: 100, height: 50, wrap: 'inFront' },
      { geometry: 'rect', x: 200, y: 250, width: 100, height: 20, wrap: 'inFront' },
      { geometry: 'line', x: 100, y: 300, width: 200, height: 0, wrap: 'inFront' },
      { geometry: 'rect', x: 300, y: 500, width: 150, height: 30, wrap: 'inFront' },
      { geometry: 'rect', x: 50, y: 600, width: 50, height: 50, wrap: 'inFront' },
    ]);
    expect(shapes[1]!.fill).toBeUndefined();
    expect(shapes[1]!.line).toBeUndefined();

    const { at, lines } = await render(model);
    const line = (text: string) => lines.find((l) => l.text.includes(text))!.bbox;
    // The labels are drawn where they float, and the body text keeps its place at the top of the column.
    expect(line('GroupLabel').x).toBeCloseTo(200, 0);
    expect(line('GroupLabel').y).toBeGreaterThan(247);
    expect(line('GroupLabel').y).toBeLessThan(262);
    expect(line('LooseLabel').x).toBeCloseTo(300, 0);
    expect(line('Body text').y).toBeLessThan(90);
    expect(at(150, 225)).toEqual([255, 0, 0]);
    expect(at(250, 300)).toEqual([0, 0, 255]);
    // The centred group spans 256-356 on the 612 pt page: its green member is its right half.
    expect(at(330, 625)).toEqual([0, 255, 0]);
    expect(at(280, 625)).toEqual([255, 255, 255]);
  });

  it('an inline group (VML or DrawingML) is one shape in the line, its members drawn over its box', async () => {
    // GASU.docx's inline diagrams (v:group without position:absolute): their labels fell into the text flow.
    const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:wpg="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup"';
    const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    const vml =
      `<w:pict><v:group style="width:200pt;height:100pt" coordorigin="0,0" coordsize="2000,1000">` +
      `<v:rect style="position:absolute;left:1000;top:0;width:1000;height:500" fillcolor="#ff0000" stroked="false"/>` +
      `<v:shape style="position:absolute;left:0;top:600;width:2000;height:300" type="#_x0000_t202" filled="false" stroked="false"><v:textbox inset="0,0,0,0"><w:txbxContent><w:p><w:r><w:t>InsideGroup</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape>` +
      `</v:group></w:pict>`;
    const wsp = (x: number, y: number, color: string) =>
      `<wps:wsp><wps:spPr><a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="635000" cy="635000"/></a:xfrm><a:prstGeom prst="rect"/><a:solidFill><a:srgbClr val="${color}"/></a:solidFill></wps:spPr><wps:bodyPr/></wps:wsp>`;
    const drawingml =
      `<w:drawing><wp:inline><wp:extent cx="2540000" cy="1270000"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup"><wpg:wgp>` +
      `<wpg:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="2540000" cy="1270000"/><a:chOff x="0" y="0"/><a:chExt cx="2540000" cy="1270000"/></a:xfrm></wpg:grpSpPr>` +
      `${wsp(0, 0, '00FF00')}${wsp(1905000, 635000, '0000FF')}</wpg:wgp></a:graphicData></a:graphic></wp:inline></w:drawing>`;
    const bytes = zipSync({
      '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
      '_rels/.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`),
      'word/document.xml': strToU8(`<w:document ${W}><w:body><w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r>${vml}</w:r></w:p><w:p><w:r>${drawingml}</w:r></w:p></w:body></w:document>`),
    });
    const model = readDocx(bytes);
    const [first, second] = model.sections[0]!.blocks as Paragraph[];
    const groups = [first!, second!].map((p) => p.inlines.filter((i): i is Shape => i.kind === 'shape'));
    expect(groups.map((g) => g.length)).toEqual([1, 1]);
    expect(groups[0]![0]!.members!.map((m) => [m.floating!.inGroup!.dx, m.floating!.inGroup!.dy, m.width, m.height])).toEqual([[100, 0, 100, 50], [0, 60, 200, 30]]);
    expect(groups[1]![0]!.members!.map((m) => [m.fill, m.floating!.inGroup!.dx, m.floating!.inGroup!.dy])).toEqual([['00FF00', 0, 0], ['0000FF', 150, 50]]);

    const { at, lines } = await render(model);
    // The first group is centred in the 468 pt column: its box runs from x 206 to 406, from the top of the text.
    const label = lines.find((l) => l.text.includes('InsideGroup'))!.bbox;
    expect(label.x).toBeCloseTo(206, 0);
    expect(at(350, 95)).toEqual([255, 0, 0]);
    expect(at(250, 95)).toEqual([255, 255, 255]);
    // The second group sits below the first, from the left margin.
    const top = 72 + 100;
    expect(at(90, top + 20)).toEqual([0, 255, 0]);
    expect(at(72 + 170, top + 80)).toEqual([0, 0, 255]);
  });

  it('a .doc text frame and rectangle are drawn where they float, with their fill and outline, and take no room in the text', async () => {
    // LibreOffice draws this file's frame text at (300, 400) and the blue rectangle at (100, 600)-(220, 660).
    const dataUrl = floatingShapesDocUrl;
    const model = readDoc(Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(',') + 1)), (c) => c.charCodeAt(0)));
    const shapes = (model.sections[0]!.blocks[0] as Paragraph).inlines.filter((i): i is Shape => i.kind === 'shape');
    expect(shapes.map((s) => [s.geometry, Math.round(s.width), s.fill, s.line?.color, s.floating?.relativeX, s.floating?.relativeY])).toEqual([
      ['rect', 120, '0000FF', 'FF0000', 'page', 'page'],
      ['rect', 200, '729FCF', '3465A4', 'page', 'page'],
    ]);
    const { at, lines } = await render(model);
    const framed = lines.find((l) => l.text.includes('Framed words far below'))!;
    expect(framed.bbox.x).toBeCloseTo(300, 0);
    expect(framed.bbox.y).toBeGreaterThan(398);
    expect(framed.bbox.y).toBeLessThan(404);
    expect(at(150, 630)).toEqual([0, 0, 255]);
    expect(at(230, 630)).toEqual([255, 255, 255]);
    // The body starts at the top margin, and its second line follows the first.
    const one = lines.find((l) => l.text.includes('Body paragraph one'))!;
    const two = lines.find((l) => l.text.includes('Body paragraph two'))!;
    expect(one.bbox.y).toBeLessThan(76);
    expect(two.bbox.y - one.bbox.y).toBeLessThan(16);
  });

  it('floating shapes anchored in a paragraph with exact line spacing take no line of it, and sit at its top', async () => {
    const line = { rule: 'exact' as const, value: 30 };
    const marker = (y: number): Shape => ({ kind: 'shape', geometry: 'rect', width: 20, height: 10, fill: '00FF00', floating: { x: 400, y, relativeX: 'page', relativeY: 'paragraph', wrap: 'inFront' } });
    const paragraphs = (shapes: Shape[]): Paragraph[] => [
      { kind: 'paragraph', props: { line }, inlines: [{ kind: 'text', text: 'First', style }] },
      { kind: 'paragraph', props: { line }, inlines: [...shapes, { kind: 'text', text: 'Anchor', style }] },
      { kind: 'paragraph', props: { line }, inlines: [{ kind: 'text', text: 'After', style }] },
    ];
    const plain = await render(doc(paragraphs([])));
    const anchored = await render(doc(paragraphs([marker(0), marker(50)])));
    const y = (r: typeof plain, text: string) => r.lines.find((l) => l.text.includes(text))!.bbox.y;
    expect(y(anchored, 'Anchor')).toBeCloseTo(y(plain, 'Anchor'), 1);
    expect(y(anchored, 'After')).toBeCloseTo(y(plain, 'After'), 1);
    // The paragraph's top is the top margin plus one 30 pt line: the markers start there and 50 pt lower.
    expect(anchored.at(410, 103)).toEqual([0, 255, 0]);
    expect(anchored.at(410, 100)).toEqual([255, 255, 255]);
    expect(anchored.at(410, 153)).toEqual([0, 255, 0]);
    expect(anchored.at(410, 150)).toEqual([255, 255, 255]);
  });

  it('draws page borders from the page edge, or around the text with the header, on the pages they are for', async () => {
    const blue = { width: 2, style: 'single' as const, color: '0000FF', space: 20 };
    const text = (t: string, props: Paragraph['props'] = {}): Paragraph => ({ kind: 'paragraph', props, inlines: [{ kind: 'text', text: t, style }] });
    const model: WordDocument = {
      sections: [
        { page, headers: {}, footers: {}, blocks: [text('Edge')], pageBorders: { top: blue, left: blue, bottom: blue, right: blue, offsetFrom: 'page', display: 'allPages' } },
        {
          page, footers: {}, headers: { default: [text('Header')] }, blocks: [text('First'), text('Second', { pageBreakBefore: true })],
          pageBorders: { left: blue, top: { ...blue, style: 'double' }, offsetFrom: 'text', display: 'notFirstPage' },
        },
      ],
      notes: new Map(), defaultFont: 'Calibri', defaultSize: 11,
    };
    const column = (at: (x: number, y: number) => number[], x: number) => Array.from({ length: 792 }, (_, y) => y).filter((y) => at(x, y).join() === '0,0,255');
    const row = (at: (x: number, y: number) => number[], y: number) => Array.from({ length: 612 }, (_, x) => x).filter((x) => at(x, y).join() === '0,0,255');
    // From the page edge: 20 pt in, 2 pt wide, on all four sides.
    const edge = await render(model, 0);
    expect(row(edge.at, 400)).toEqual([20, 21, 590, 591]);
    expect(column(edge.at, 300)).toEqual([20, 21, 770, 771]);
    // Around the text: not on the section's first page; then the left side 20 pt left of the margin,
    // the top a double line (two 2 pt lines 2 pt apart) whose inner edge is 20 pt above the header (36 pt down).
    const first = await render(model, 1);
    expect(row(first.at, 400)).toEqual([]);
    const second = await render(model, 2);
    expect(row(second.at, 400)).toEqual([50, 51]);
    expect(column(second.at, 300)).toEqual([10, 11, 14, 15]);
  });

  it('floating pictures in headers, and in front of or behind the body text, take no room and are drawn where they float', async () => {
    const picture = (rgb: [number, number, number], floating: NonNullable<Shape['floating']>) =>
      ({ kind: 'image' as const, data: makePng(8, 8, rgb), contentType: 'image/png', width: 60, height: 40, floating });
    const text = (t: string, inlines: Paragraph['inlines'] = []): Paragraph => ({ kind: 'paragraph', props: {}, inlines: [...inlines, { kind: 'text', text: t, style }] });
    const logo = picture([255, 0, 0], { x: 0, y: 0, relativeX: 'margin', relativeY: 'paragraph', wrap: 'square', alignX: 'right' });
    const stamp = picture([0, 0, 255], { x: 300, y: 300, relativeX: 'page', relativeY: 'page', wrap: 'inFront' });
    const boxed = picture([0, 255, 0], { x: 0, y: 0, relativeX: 'column', relativeY: 'paragraph', wrap: 'topAndBottom' });
    const model: WordDocument = {
      sections: [{ page, footers: {}, headers: { default: [text('Header text', [logo])] }, blocks: [text('Body one', [stamp]), text('Body two'), text('Body three', [boxed]), text('Body four')] }],
      notes: new Map(), defaultFont: 'Calibri', defaultSize: 11,
    };
    const { at, lines } = await render(model);
    const y = (t: string) => lines.find((l) => l.text.includes(t))!.bbox.y;
    // The header's text stays at the header's top; the logo sits at the right margin beside it.
    expect(y('Header text')).toBeLessThan(40);
    expect(at(510, 55)).toEqual([255, 0, 0]);
    // The stamp in front of the text is at (300, 300) and moved nothing; the picture with top-and-bottom wrap still takes its room.
    expect(at(330, 320)).toEqual([0, 0, 255]);
    expect(y('Body two') - y('Body one')).toBeLessThan(16);
    expect(y('Body three') - y('Body two')).toBeGreaterThan(40);
  });

  it('a floating PNG goes into the PDF with its own compressed data (PNG predictor), as an inline one does, and draws where it floats', async () => {
    const stamp = { kind: 'image' as const, data: makePng(30, 20, [0, 0, 255]), contentType: 'image/png', width: 60, height: 40, floating: { x: 300, y: 300, relativeX: 'page' as const, relativeY: 'page' as const, wrap: 'inFront' as const } };
    const model = doc([{ kind: 'paragraph', props: {}, inlines: [stamp, { kind: 'text', text: 'Body', style }] }]);
    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf') as import('mupdf').PDFDocument;
    try {
      const images: { width: number; predictor: number }[] = [];
      pdf.findPage(0).get('Resources', 'XObject').forEach((ref) => {
        if (ref.get('Subtype').asName() === 'Image') images.push({ width: ref.get('Width').asNumber(), predictor: ref.get('DecodeParms', 'Predictor').asNumber() });
      });
      // Decoded by MuPDF, the picture would be deflated again without a predictor.
      expect(images).toEqual([{ width: 30, predictor: 15 }]);
    } finally {
      pdf.destroy();
    }
    const { at } = await render(model);
    expect(at(330, 320)).toEqual([0, 0, 255]);
    expect(at(290, 320)).toEqual([255, 255, 255]);
  });

  it('a text box that resizes to fit its text is drawn as tall as its text, whatever height it was saved with; one that keeps its size is not', async () => {
    const box = (x: number, clipsText: boolean): Shape => ({
      kind: 'shape', geometry: 'rect', width: 150, height: 100, fill: 'FF0000', clipsText,
      floating: { x, y: 300, relativeX: 'page', relativeY: 'page', wrap: 'inFront' },
      blocks: [{ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: 'One line', style }] }],
      textInsets: { left: 5, top: 5, right: 5, bottom: 5 },
    });
    const { at } = await render(doc([{ kind: 'paragraph', props: {}, inlines: [box(100, false), box(300, true), { kind: 'text', text: 'Body', style }] }]));
    // One line of 11 pt text and 10 pt of insets: the fitting box ends about 25 pt down, the other at 100.
    expect(at(110, 318)).toEqual([255, 0, 0]);
    expect(at(110, 340)).toEqual([255, 255, 255]);
    expect(at(310, 390)).toEqual([255, 0, 0]);
  });

  it('a shape placed from its paragraph near the foot of the page is moved up onto the page, not cut off', async () => {
    const box: Shape = { kind: 'shape', geometry: 'rect', width: 100, height: 150, fill: 'FF0000', floating: { x: 0, y: 20, relativeX: 'column', relativeY: 'paragraph', wrap: 'inFront' } };
    // 42 lines of filler: the anchor paragraph sits about 100 pt above the page's foot, the box 150 pt tall.
    const filler = Array.from({ length: 42 }, (_, i): Paragraph => ({ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: `Line ${i}`, style }] }));
    const { at } = await render(doc([...filler, { kind: 'paragraph', props: {}, inlines: [box, { kind: 'text', text: 'Anchor', style }] }]));
    expect(at(120, 788)).toEqual([255, 0, 0]); // down to the page's edge
    expect(at(120, 792 - 150 + 3)).toEqual([255, 0, 0]);
    expect(at(120, 792 - 150 - 5)).not.toEqual([255, 0, 0]);
  });

  it('a plain text box placed on the page (not from its paragraph) is drawn where it floats and takes no room', async () => {
    const box = (text: string, floating: Shape['floating']): Inline => ({ kind: 'textbox', width: 200, height: 40, floating, blocks: [{ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text, style }] }] });
    const { lines } = await render(doc([
      { kind: 'paragraph', props: {}, inlines: [box('Cover title', { x: 300, y: 400, relativeX: 'page', relativeY: 'page', wrap: 'square' }), { kind: 'text', text: 'First body line', style }] },
      { kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: 'Second body line', style }] },
    ]));
    const title = lines.find((l) => l.text.includes('Cover title'))!;
    expect(title.bbox.x).toBeCloseTo(300, 0);
    expect(title.bbox.y).toBeGreaterThan(398);
    expect(title.bbox.y).toBeLessThan(415);
    // The body starts at the top margin, its lines one after the other: the box took no room.
    const first = lines.find((l) => l.text.includes('First body line'))!;
    const second = lines.find((l) => l.text.includes('Second body line'))!;
    expect(first.bbox.y).toBeLessThan(80);
    expect(second.bbox.y - first.bbox.y).toBeLessThan(20);
  });

  it('stacks text boxes and pictures over drawn shapes, behind-text shapes first', async () => {
    const at300 = (fill: string, z: number, blocks?: Paragraph[], wrap: 'inFront' | 'behind' = 'inFront'): Shape =>
      ({ kind: 'shape', geometry: 'rect', width: 100, height: 100, fill, z, blocks, clipsText: true, floating: { x: 300, y: 300, relativeX: 'page', relativeY: 'page', wrap } });
    const label: Paragraph = { kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: 'Box', style }] };
    // Stacked later, the plain rectangle would cover the text box; it goes under it, and the behind-text one under both.
    const { at } = await render(doc([{ kind: 'paragraph', props: {}, inlines: [at300('FF0000', 1, [label]), at300('0000FF', 2), at300('00FF00', 3, undefined, 'behind'), { kind: 'text', text: 'Body', style }] }]));
    expect(at(390, 390)).toEqual([255, 0, 0]);
  });

  it('a shape anchored in a table cell with layoutInCell is placed from the cell, not the text column', async () => {
    const marker = (layoutInCell: boolean, fill: string): Shape =>
      ({ kind: 'shape', geometry: 'rect', width: 20, height: 20, fill, floating: { x: 10, y: 30, relativeX: 'column', relativeY: 'paragraph', wrap: 'inFront', layoutInCell } });
    const cell = (inlines: Paragraph['inlines']) => ({ blocks: [{ kind: 'paragraph' as const, props: {}, inlines }], gridSpan: 1, borders: {}, margins: { top: 0, right: 0, bottom: 0, left: 0 } });
    const table: Block = { kind: 'table', grid: [200, 200], rows: [{ cells: [cell([{ kind: 'text', text: 'Left', style }]), cell([marker(true, '00FF00'), marker(false, '0000FF'), { kind: 'text', text: 'Right', style }])] }] };
    const model = doc([{ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: 'Above', style }] }]);
    model.sections[0]!.blocks.push(table);
    const { at } = await render(model);
    const row = (y: number, rgb: string) => Array.from({ length: 612 }, (_, x) => x).filter((x) => at(x, y).join() === rgb);
    // The second cell starts 200 pt into the column (x = 272): the green one from there, the blue one from the column.
    const green = row(Math.round(72 + 14 + 40), '0,255,0');
    const blue = row(Math.round(72 + 14 + 40), '0,0,255');
    expect([green[0], green.at(-1)]).toEqual([282, 301]);
    expect([blue[0], blue.at(-1)]).toEqual([82, 101]);
  });
});
