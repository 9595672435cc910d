/**
 * The slide converter (src/convert/slides/): a page per visible slide at the slide size, the
 * master's background, a title placeholder placed and styled by the master, a filled rectangle
 * with its text; hidden slides skipped; a .ppt refused with what to do.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Mupdf from 'mupdf';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { joinChunks } from '../src/lib/bytes';
import { readDeck, ConversionError } from '../src/convert/slides/index';
import { renderDeckChunks } from '../src/convert/slides/render';
import { box, pptx, titleOnSlide } from './pptx-fixtures';
import { makePng } from './fixtures';
import { autoNumber } from '../src/convert/office/drawingml/bullets';
import * as fflate from 'fflate';

let mupdf: typeof Mupdf;
beforeAll(async () => {
  mupdf = await loadMupdf();
});

const hex = (c: number[]) => c.map((v) => Math.round(v * 255).toString(16).padStart(2, '0')).join('').toUpperCase();

function pages(bytes: Uint8Array): { size: number[]; fills: { color: string; x: number; y: number }[]; lines: { text: string; x: number; y: number; size: number }[] }[] {
  const doc = mupdf.Document.openDocument(joinChunks(renderDeckChunks(readDeck(bytes), mupdf, bundledFonts)), 'application/pdf');
  const out = Array.from({ length: doc.countPages() }, (_, i) => {
    const page = doc.loadPage(i);
    const fills: { color: string; x: number; y: number }[] = [];
    page.run(new mupdf.Device({
      fillPath: (path: Mupdf.Path, _e: boolean, ctm: Mupdf.Matrix, _cs: Mupdf.ColorSpace, color: number[]) => {
        const xs: number[] = [], ys: number[] = [];
        const put = (x: number, y: number) => (xs.push(ctm[0] * x + ctm[2] * y + ctm[4]), ys.push(ctm[1] * x + ctm[3] * y + ctm[5]));
        path.walk({ moveTo: put, lineTo: put, curveTo: (_a: number, _b: number, _c: number, _d: number, x: number, y: number) => put(x, y) });
        fills.push({ color: hex(color), x: Math.min(...xs), y: Math.min(...ys) });
      },
    }), mupdf.Matrix.identity);
    const json = JSON.parse(page.toStructuredText('preserve-whitespace').asJSON()) as { blocks: { lines?: { text: string; bbox: { x: number; y: number }; font: { size: number } }[] }[] };
    const lines = json.blocks.flatMap((b) => b.lines ?? []).map((l) => ({ text: l.text, x: l.bbox.x, y: l.bbox.y, size: l.font.size }));
    const bounds = page.getBounds();
    page.destroy();
    return { size: [bounds[2] - bounds[0], bounds[3] - bounds[1]].map(Math.round), fills, lines };
  });
  doc.destroy();
  return out;
}

describe('slides → PDF', () => {
  it('prints a page per visible slide at the slide size, on the master\'s background', () => {
    const deck = pptx([{ body: titleOnSlide('First') }, { body: titleOnSlide('Hidden'), hidden: true }, { body: titleOnSlide('Third') }]);
    const printed = pages(deck);
    expect(printed.map((p) => p.size)).toEqual([[720, 405], [720, 405]]);
    expect(printed.map((p) => p.lines.map((l) => l.text).join(' '))).toEqual(['First', 'Third']);
    const bg = printed[0]!.fills[0]!;
    expect([bg.color, Math.round(bg.x), Math.round(bg.y)]).toEqual(['EEEEEE', 0, 0]);
  });

  it('places a title placeholder where the master puts it, in the master\'s title style, and draws a rectangle with its text', () => {
    const [page] = pages(pptx([{ body: titleOnSlide('Quarterly results') + box(100, 150, 200, 100, '4472C4', 'Revenue') }]));
    const title = page!.lines.find((l) => l.text === 'Quarterly results')!;
    // The master's title box is 36…684 pt across and 20…100 pt down; its text is 40 pt, centred both ways.
    expect(title.size).toBeCloseTo(40, 0);
    expect(title.y).toBeGreaterThan(20);
    expect(title.y).toBeLessThan(60);
    // Centred in the 648 pt box: some 330 pt of 40 pt text starts near 195 pt, not at the box's left.
    expect(title.x).toBeGreaterThan(150);
    expect(title.x).toBeLessThan(250);
    const rect = page!.fills.find((f) => f.color === '4472C4')!;
    expect([Math.round(rect.x), Math.round(rect.y)]).toEqual([100, 150]);
    const label = page!.lines.find((l) => l.text === 'Revenue')!;
    expect(label.size).toBeCloseTo(20, 0);
    expect(label.x).toBeGreaterThan(100);
    // The master's own title text ("Master title") is a placeholder: not printed.
    expect(page!.lines.some((l) => l.text === 'Master title')).toBe(false);
  });

  it('stretches the layout\'s background picture over the slide, in place of the master\'s colour', () => {
    const deck = readDeck(pptx([{ body: titleOnSlide('Over a picture') }], undefined, makePng(4, 4, [200, 30, 30])));
    expect(deck.slides[0]!.backgroundPicture?.contentType).toBe('image/png');
    expect(deck.slides[0]!.background).toBeUndefined();
    const doc = mupdf.Document.openDocument(joinChunks(renderDeckChunks(deck, mupdf, bundledFonts)), 'application/pdf');
    const page = doc.loadPage(0);
    let image: number[] | undefined;
    page.run(new mupdf.Device({ fillImage: (_img: Mupdf.Image, ctm: Mupdf.Matrix) => void (image = [...ctm]) }), mupdf.Matrix.identity);
    page.destroy();
    doc.destroy();
    // Drawn over the whole 720 × 405 pt slide.
    expect(image!.map((v) => Math.round(v) + 0)).toEqual([720, 0, 0, 405, 0, 0]);
  });

  it('centres an unwrapped (wrap="none") centred line in its box, not in the endless line it is laid out on', () => {
    const shape = box(200, 100, 300, 60, 'FFFFFF', 'Centred').replace('<a:bodyPr/>', '<a:bodyPr wrap="none"/>').replace('<a:p><a:r>', '<a:p><a:pPr algn="ctr"/><a:r>');
    const [page] = pages(pptx([{ body: shape }]));
    const line = page!.lines.find((l) => l.text === 'Centred')!;
    // The box's middle is at 350 pt: the word (about 70 pt at 20 pt) starts some 35 pt left of it.
    expect(line.x).toBeGreaterThan(300);
    expect(line.x).toBeLessThan(330);
  });

  it('prints bullets and auto-numbers hanging at the margin less the indent, the text at the margin, numbers counting per level', () => {
    const p = (text: string, pPr: string) => `<a:p><a:pPr ${pPr}</a:pPr><a:r><a:rPr lang="en-US" sz="2000"/><a:t>${text}</a:t></a:r></a:p>`;
    const auto = 'marL="342900" indent="-342900"><a:buFont typeface="+mj-lt"/><a:buAutoNum type="arabicPeriod"/>';
    const dot = 'marL="685800" lvl="1" indent="-285750"><a:buFont typeface="Arial"/><a:buChar char="•"/>';
    const body = p('First', auto) + p('Inner', dot) + p('Second', auto) + '<a:p><a:pPr/><a:r><a:rPr lang="en-US" sz="2000"/><a:t>Plain</a:t></a:r></a:p>';
    const shape = box(100, 50, 500, 250, 'FFFFFF', 'x').replace(/<a:p>.*<\/a:p>/, body);
    const [page] = pages(pptx([{ body: shape }]));
    const at = (text: string) => page!.lines.find((l) => l.text.replace(/\s+/g, ' ').trim().endsWith(text))!;
    expect(at('First').text).toMatch(/^1\.\s+First$/);
    expect(at('Second').text).toMatch(/^2\.\s+Second$/);
    expect(at('Inner').text).toMatch(/^•\s+Inner$/);
    expect(at('Plain').text).toBe('Plain');
    // The box's text starts 7.2 pt in; the number hangs at the margin (27 pt) less the indent (27 pt): at the start.
    // (within a glyph's side bearing)
    expect(Math.abs(at('First').x - 107.2)).toBeLessThan(1.5);
    expect(Math.abs(at('Inner').x - (107.2 + 54 - 22.5))).toBeLessThan(1.5);
  });

  it('applies the text shrink the file saved (normAutofit fontScale), the placeholder\'s inherited body kept', () => {
    const shrunk = titleOnSlide('Shrunk title').replace('<a:bodyPr/>', '<a:bodyPr><a:normAutofit fontScale="50000"/></a:bodyPr>');
    const [page] = pages(pptx([{ body: shrunk }]));
    // The master's 40 pt title at half its size.
    expect(page!.lines.find((l) => l.text === 'Shrunk title')!.size).toBeCloseTo(20, 0);
  });

  it('spaces lines as PowerPoint does (1.2 em, line spacing above the text), space before and after added, the first paragraph\'s space before not applied', () => {
    const EMU = 12_700;
    const frame = (paras: string, autofit = '') => `<p:sp><p:nvSpPr><p:cNvPr id="3" name="T"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${50 * EMU}" y="${50 * EMU}"/><a:ext cx="${600 * EMU}" cy="${300 * EMU}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr lIns="0" tIns="0" rIns="0" bIns="0">${autofit}</a:bodyPr><a:lstStyle/>${paras}</p:txBody></p:sp>`;
    const para = (text: string, pPr = '') => `<a:p><a:pPr>${pPr}</a:pPr><a:r><a:rPr lang="en-US" sz="2000"><a:latin typeface="Arial"/></a:rPr><a:t>${text}</a:t></a:r></a:p>`;
    const slides = [
      frame(para('Plain1') + para('Plain2')),
      frame(para('Before1', '<a:spcBef><a:spcPts val="3000"/></a:spcBef><a:spcAft><a:spcPts val="1000"/></a:spcAft>') + para('Before2', '<a:spcBef><a:spcPct val="100000"/></a:spcBef>')),
      frame(para('Double1', '<a:lnSpc><a:spcPct val="200000"/></a:lnSpc>') + para('Double2', '<a:lnSpc><a:spcPct val="200000"/></a:lnSpc>')),
      frame(para('Exact1', '<a:lnSpc><a:spcPts val="4000"/></a:lnSpc>') + para('Exact2', '<a:lnSpc><a:spcPts val="4000"/></a:lnSpc>')),
      frame(para('Reduced1') + para('Reduced2'), '<a:normAutofit lnSpcReduction="20000"/>'),
    ];
    const ys = pages(pptx(slides.map((body) => ({ body })))).map((p) => p.lines.map((l) => l.y));
    const [plain, before, double, exact, reduced] = ys as [[number, number], [number, number], [number, number], [number, number], [number, number]];
    // LibreOffice 7.4 prints these (as PowerPoint spaces them): a 24 pt pitch for 20 pt text in any face;
    // 10 pt after plus 20 pt before (100 % of the text size) between; double spacing and 40 pt exact lines with the extra above the text.
    expect(plain[1] - plain[0]).toBeCloseTo(24, 1);
    expect(before[0]).toBeCloseTo(plain[0], 1);
    expect(before[1] - before[0]).toBeCloseTo(24 + 10 + 20, 1);
    expect(double[0] - plain[0]).toBeCloseTo(24, 1);
    expect(double[1] - double[0]).toBeCloseTo(48, 1);
    expect(exact[0] - plain[0]).toBeCloseTo(16, 1);
    expect(exact[1] - exact[0]).toBeCloseTo(40, 1);
    // The saved autofit's line spacing reduction: 100 % less 20 %.
    expect(reduced[1] - reduced[0]).toBeCloseTo(19.2, 0);
  });

  it('fills slide-number fields with the slide\'s number (hidden slides counted from firstSlideNum), not the text they saved', () => {
    const numbered = (label: string) => box(600, 350, 100, 40, 'FFFFFF', 'X').replace('<a:r><a:rPr lang="en-US" sz="2000"/><a:t>X</a:t></a:r>', `<a:r><a:rPr lang="en-US" sz="2000"/><a:t>${label} </a:t></a:r><a:fld id="{B6F15528-21DE-4FAA-801E-634DDDAF4B2B}" type="slidenum"><a:rPr lang="en-US" sz="2000"/><a:t>‹#›</a:t></a:fld>`);
    const deck = pptx([{ body: numbered('Slide') }, { body: numbered('Slide'), hidden: true }, { body: numbered('Slide') }]);
    const texts = (bytes: Uint8Array) => pages(bytes).map((p) => p.lines.map((l) => l.text).join(' ').trim());
    expect(texts(deck)).toEqual(['Slide 1', 'Slide 3']);
    const from = fflate.unzipSync(deck);
    from['ppt/presentation.xml'] = fflate.strToU8(fflate.strFromU8(from['ppt/presentation.xml']!).replace('<p:presentation ', '<p:presentation firstSlideNum="0" '));
    expect(texts(fflate.zipSync(from))).toEqual(['Slide 0', 'Slide 2']);
  });

  it('shrinks text that runs past its box where the file asks for shrinking but saved no scale (a bare a:normAutofit)', () => {
    const EMU = 12_700;
    const crowded = (autofit: string) => `<p:sp><p:nvSpPr><p:cNvPr id="3" name="T"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${50 * EMU}" y="${50 * EMU}"/><a:ext cx="${300 * EMU}" cy="${100 * EMU}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr lIns="0" tIns="0" rIns="0" bIns="0">${autofit}</a:bodyPr><a:lstStyle/>${Array.from({ length: 8 }, (_, i) => `<a:p><a:r><a:rPr lang="en-US" sz="2000"/><a:t>Line ${i + 1}</a:t></a:r></a:p>`).join('')}</p:txBody></p:sp>`;
    const [shrunk, saved] = pages(pptx([{ body: crowded('<a:normAutofit/>') }, { body: crowded('<a:normAutofit fontScale="90000"/>') }]));
    // Eight 20 pt lines (192 pt) in a 100 pt box: shrunk until the last line ends inside it.
    const last = shrunk!.lines.at(-1)!;
    expect(last.text).toBe('Line 8');
    expect(last.y + last.size).toBeLessThanOrEqual(150.5);
    expect(last.size).toBeLessThan(11);
    // A saved scale is what PowerPoint showed: applied as it is, the text left running past the box.
    expect(saved!.lines.at(-1)!.size).toBeCloseTo(18, 0);
  });

  it('draws a table: cells on their grid, their fills and their text inside the cell margins', () => {
    const E = 12_700;
    const ln = (side: string) => `<a:${side} w="${E}"><a:solidFill><a:srgbClr val="000000"/></a:solidFill></a:${side}>`;
    const tc = (text: string, fill = '') => `<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="1200"/><a:t>${text}</a:t></a:r></a:p></a:txBody><a:tcPr>${ln('lnL')}${ln('lnR')}${ln('lnT')}${ln('lnB')}${fill ? `<a:solidFill><a:srgbClr val="${fill}"/></a:solidFill>` : ''}</a:tcPr></a:tc>`;
    const table = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="${100 * E}" y="${100 * E}"/><a:ext cx="${300 * E}" cy="${60 * E}"/></p:xfrm>` +
      `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblGrid><a:gridCol w="${200 * E}"/><a:gridCol w="${100 * E}"/></a:tblGrid>` +
      `<a:tr h="${30 * E}">${tc('Region', 'FFC000')}${tc('Total')}</a:tr><a:tr h="${30 * E}">${tc('North')}${tc('42')}</a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
    const [page] = pages(pptx([{ body: table }]));
    const at = (text: string) => page!.lines.find((l) => l.text === text)!;
    // Second column at 100 + 200 pt, second row at 100 + 30 pt, text 7.2 pt in from the cell's side.
    expect(Math.round(at('Total').x - 300)).toBe(7);
    expect(at('North').y).toBeGreaterThan(130);
    expect(at('42').x).toBeGreaterThan(300);
    const header = page!.fills.find((f) => f.color === 'FFC000')!;
    expect([Math.round(header.x), Math.round(header.y)]).toEqual([100, 100]);
  });

  it('prints a slide whose table has 10,000 cells (more display items than a call takes arguments)', () => {
    const E = 12_700;
    const tc = `<a:tc><a:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="en-US" sz="400"/><a:t>${'a b c d e f g h i j k l m n o p q r s t u v w x y z '.repeat(4)}</a:t></a:r></a:p></a:txBody><a:tcPr/></a:tc>`;
    const table = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="T"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="0" y="0"/><a:ext cx="${720 * E}" cy="${405 * E}"/></p:xfrm>` +
      `<a:graphic><a:graphicData><a:tbl><a:tblGrid>${`<a:gridCol w="${7 * E}"/>`.repeat(100)}</a:tblGrid>${`<a:tr h="${4 * E}">${tc.repeat(100)}</a:tr>`.repeat(100)}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
    const deck = readDeck(pptx([{ body: table }]));
    // The slide keeps at most 2,000 shapes: the first 2,000 cells.
    expect(deck.slides[0]!.shapes).toHaveLength(2_000);
    const pdf = joinChunks(renderDeckChunks(deck, mupdf, bundledFonts));
    const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
    expect(doc.countPages()).toBe(1);
    doc.destroy();
  });

  it('draws a chart frame\'s chart in its box, its title and categories as text', () => {
    const E = 12_700;
    const C = 'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
    const chart = `<c:chartSpace ${C}><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Sales by month</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/>` +
      '<c:ser><c:idx val="0"/><c:tx><c:v>Sales</c:v></c:tx><c:spPr><a:solidFill><a:srgbClr val="70AD47"/></a:solidFill></c:spPr><c:cat><c:strRef><c:strCache><c:ptCount val="2"/><c:pt idx="0"><c:v>January</c:v></c:pt><c:pt idx="1"><c:v>February</c:v></c:pt></c:strCache></c:strRef></c:cat>' +
      '<c:val><c:numRef><c:numCache><c:ptCount val="2"/><c:pt idx="0"><c:v>3</c:v></c:pt><c:pt idx="1"><c:v>5</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>';
    const frame = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="5" name="Chart"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="${100 * E}" y="${50 * E}"/><a:ext cx="${400 * E}" cy="${300 * E}"/></p:xfrm>` +
      '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rC"/></a:graphicData></a:graphic></p:graphicFrame>';
    const [page] = pages(pptx([{ body: frame, rels: [['rC', 'chart', '../charts/chart1.xml']], parts: { 'ppt/charts/chart1.xml': chart } }]));
    const text = page!.lines.map((l) => l.text).join(' ');
    expect(text).toContain('Sales by month');
    expect(text).toContain('January');
    // Its bars in the series' colour, inside the frame.
    const bars = page!.fills.filter((f) => f.color === '70AD47');
    expect(bars.length).toBe(2);
    for (const bar of bars) expect(bar.x).toBeGreaterThan(100), expect(bar.x).toBeLessThan(500);
  });

  it('fills a gradient background with its stops\' average colour', () => {
    const bytes = pptx([{ body: titleOnSlide('Gradient') }]);
    expect(readDeck(bytes).slides[0]!.background).toBe('EEEEEE');
    // The master's solid grey swapped for a black-to-white gradient: printed mid grey.
    const { unzipSync, zipSync, strToU8, strFromU8 } = fflate;
    const files = unzipSync(bytes);
    files['ppt/slideMasters/slideMaster1.xml'] = strToU8(strFromU8(files['ppt/slideMasters/slideMaster1.xml']!).replace('<a:solidFill><a:srgbClr val="EEEEEE"/></a:solidFill>', '<a:gradFill><a:gsLst><a:gs pos="0"><a:srgbClr val="000000"/></a:gs><a:gs pos="100000"><a:srgbClr val="FFFFFF"/></a:gs></a:gsLst></a:gradFill>'));
    const graded = readDeck(zipSync(files));
    expect(graded.slides[0]!.background).toBe('808080');
  });

  it('names auto-numbers in their schemes', () => {
    expect([autoNumber('arabicPeriod', 3), autoNumber('alphaLcParenR', 28), autoNumber('romanUcPeriod', 14), autoNumber('arabicParenBoth', 2), autoNumber('unknown', 5)]).toEqual(['3.', 'ab)', 'XIV.', '(2)', '5.']);
  });

  it('refuses a PowerPoint 97-2003 file, saying to save it as .pptx', () => {
    const ppt = new Uint8Array(512);
    ppt.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(() => readDeck(ppt)).toThrow(ConversionError);
    expect(() => readDeck(ppt)).toThrow(/\.pptx/);
  });
});
