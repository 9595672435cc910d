/**
 * A sheet's shapes and text boxes (xdr:sp, xdr:cxnSp, xdr:grpSp) printed where their anchors put
 * them: filled and outlined in their colours, their text wrapped in their insets and aligned,
 * arrowheads on connectors, a group's members in the group's space, turned shapes turned with their
 * text, text cut at a box that clips it; and the DrawingML text-body reader they share.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Mupdf from 'mupdf';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { joinChunks } from '../src/lib/bytes';
import { parseXml } from '../src/codecs/xml';
import { readWorkbook } from '../src/convert/sheet/index';
import { renderWorkbookChunks } from '../src/convert/sheet/render';
import { readTextBody, TEXT_BODY_CHARS_MAX } from '../src/convert/office/drawingml/text-body';
import { framedShapes } from '../src/convert/office/drawingml/shape-tree';
import { rotateItems } from '../src/layout/display/rotate';
import { SHAPE_TEXT_MAX } from '../src/convert/sheet/read/xlsx/drawings';
import { xlsx } from './sheet-fixtures';

let mupdf: typeof Mupdf;
beforeAll(async () => {
  mupdf = await loadMupdf();
});

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const XDR = `xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" ${A} xmlns:r="${REL}"`;
const EMU = 12_700;
const THEME = { majorFont: 'Cambria', minorFont: 'Arial', colors: new Map([['accent1', '4472C4'], ['lt1', 'FFFFFF'], ['dk1', '000000']]) };

/** A shape anchored by its one-cell anchor at (x, y) points from A1's corner, w × h points. */
const at = (x: number, y: number, w: number, h: number, body: string) =>
  `<xdr:oneCellAnchor><xdr:from><xdr:col>0</xdr:col><xdr:colOff>${x * EMU}</xdr:colOff><xdr:row>0</xdr:row><xdr:rowOff>${y * EMU}</xdr:rowOff></xdr:from><xdr:ext cx="${w * EMU}" cy="${h * EMU}"/>${body}<xdr:clientData/></xdr:oneCellAnchor>`;
const xfrm = (x: number, y: number, w: number, h: number, rot = 0) => `<a:xfrm${rot ? ` rot="${rot * 60000}"` : ''}><a:off x="${x * EMU}" y="${y * EMU}"/><a:ext cx="${w * EMU}" cy="${h * EMU}"/></a:xfrm>`;
const solid = (c: string) => `<a:solidFill><a:srgbClr val="${c}"/></a:solidFill>`;
const sp = (geometry: string, w: number, h: number, fill: string, text = '', bodyPr = '<a:bodyPr/>', rot = 0) =>
  `<xdr:sp><xdr:nvSpPr><xdr:cNvPr id="2" name="s"/><xdr:cNvSpPr/></xdr:nvSpPr><xdr:spPr>${xfrm(500, 500, w, h, rot)}<a:prstGeom prst="${geometry}"><a:avLst/></a:prstGeom>${fill}</xdr:spPr>` +
  (text ? `<xdr:txBody>${bodyPr}<a:lstStyle/>${text}</xdr:txBody>` : '') + '</xdr:sp>';

/** A one-sheet workbook (1 in margins all round) whose drawing part is `anchors`. */
function book(anchors: string): Uint8Array {
  const rels = (id: string, type: string, target: string) => `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/></Relationships>`;
  return xlsx(['<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Report</t></is></c></row></sheetData><pageMargins left="1" right="1" top="1" bottom="1" header="0.3" footer="0.3"/><pageSetup paperSize="9"/><drawing r:id="rD"/>'], {
    styles: '<fonts><font><sz val="10"/><name val="Arial"/></font></fonts><cellXfs><xf/></cellXfs>',
    parts: {
      'xl/worksheets/_rels/sheet1.xml.rels': rels('rD', 'drawing', '../drawings/drawing1.xml'),
      'xl/drawings/drawing1.xml': `<xdr:wsDr ${XDR}>${anchors}</xdr:wsDr>`,
    },
  });
}

interface Seen {
  fills: { color: string; bounds: Mupdf.Rect }[];
  strokes: { color: string; bounds: Mupdf.Rect }[];
  clips: Mupdf.Rect[];
  /** Each line of text with its box. */
  lines: { text: string; bbox: { x: number; y: number; w: number; h: number } }[];
}

const hex = (c: number[]) => c.map((v) => Math.round(v * 255).toString(16).padStart(2, '0')).join('').toUpperCase();

function bounds(path: Mupdf.Path, ctm: Mupdf.Matrix): Mupdf.Rect {
  const xs: number[] = [], ys: number[] = [];
  const put = (x: number, y: number) => (xs.push(ctm[0] * x + ctm[2] * y + ctm[4]), ys.push(ctm[1] * x + ctm[3] * y + ctm[5]));
  path.walk({ moveTo: put, lineTo: put, curveTo: (_a: number, _b: number, _c: number, _d: number, x: number, y: number) => put(x, y) });
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

function seen(bytes: Uint8Array): Seen {
  const pdf = joinChunks(renderWorkbookChunks(readWorkbook(bytes), mupdf, bundledFonts));
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  const page = doc.loadPage(0);
  const out: Seen = { fills: [], strokes: [], clips: [], lines: [] };
  page.run(
    new mupdf.Device({
      fillPath: (path: Mupdf.Path, _e: boolean, ctm: Mupdf.Matrix, _cs: Mupdf.ColorSpace, color: number[]) => void out.fills.push({ color: hex(color), bounds: bounds(path, ctm) }),
      strokePath: (path: Mupdf.Path, _s: Mupdf.StrokeState, ctm: Mupdf.Matrix, _cs: Mupdf.ColorSpace, color: number[]) => void out.strokes.push({ color: hex(color), bounds: bounds(path, ctm) }),
      clipPath: (path: Mupdf.Path, _e: boolean, ctm: Mupdf.Matrix) => void out.clips.push(bounds(path, ctm)),
    }),
    mupdf.Matrix.identity,
  );
  const json = JSON.parse(page.toStructuredText('preserve-whitespace').asJSON()) as { blocks: { lines?: Seen['lines'] }[] };
  out.lines = json.blocks.flatMap((b) => b.lines ?? []).map((l) => ({ text: l.text, bbox: l.bbox }));
  page.destroy();
  doc.destroy();
  return out;
}

const near = (a: number, b: number, within = 1) => Math.abs(a - b) <= within;

describe('sheet shapes → PDF', () => {
  it('prints a text box filled and outlined, its text wrapped inside the insets and aligned per paragraph', () => {
    const text = '<a:p><a:r><a:rPr sz="1000"/><a:t>Source: national statistics office, survey of households in the year</a:t></a:r></a:p>' +
      `<a:p><a:pPr algn="r"/><a:r><a:rPr sz="1400" b="1">${solid('0000FF')}</a:rPr><a:t>Bold blue</a:t></a:r></a:p>`;
    const box = sp('rect', 200, 80, `${solid('FFFF00')}<a:ln w="${EMU}">${solid('FF0000')}</a:ln>`, text);
    const page = seen(book(at(100, 50, 200, 80, box)));
    // The box from the margin (72 pt) plus its offset, 200 × 80 pt.
    const fill = page.fills.find((f) => f.color === 'FFFF00')!;
    expect(fill.bounds.map(Math.round)).toEqual([172, 122, 372, 202]);
    expect(page.strokes.some((s) => s.color === 'FF0000' && near(s.bounds[0], 172) && near(s.bounds[3], 202))).toBe(true);
    // Wrapped to the 185.6 pt inside the insets: the sentence on two lines from 7.2 pt in, the right-aligned line ending 7.2 pt short of the right side.
    const lines = page.lines.filter((l) => l.bbox.x > 150);
    expect(lines.length).toBe(3);
    expect(near(lines[0]!.bbox.x, 172 + 7.2, 1.5)).toBe(true);
    expect(lines[0]!.bbox.y).toBeGreaterThan(122);
    expect(lines[0]!.bbox.x + lines[0]!.bbox.w).toBeLessThan(372 - 7.2 + 0.5);
    expect(lines[2]!.text).toBe('Bold blue');
    expect(near(lines[2]!.bbox.x + lines[2]!.bbox.w, 372 - 7.2, 1.5)).toBe(true);
  });

  it('fills a shape from its style in the theme\'s colours and centres its text; draws a connector with its arrowhead', () => {
    const style = '<xdr:style><a:lnRef idx="2"><a:schemeClr val="accent1"><a:shade val="50000"/></a:schemeClr></a:lnRef><a:fillRef idx="1"><a:schemeClr val="accent1"/></a:fillRef><a:effectRef idx="0"><a:schemeClr val="accent1"/></a:effectRef><a:fontRef idx="minor"><a:schemeClr val="lt1"/></a:fontRef></xdr:style>';
    const oval = sp('ellipse', 144, 72, '', '<a:p><a:pPr algn="ctr"/><a:r><a:rPr sz="1100"/><a:t>Oval</a:t></a:r></a:p>', '<a:bodyPr anchor="ctr"/>').replace('</xdr:spPr>', `</xdr:spPr>${style}`);
    const arrow = `<xdr:cxnSp><xdr:nvCxnSpPr><xdr:cNvPr id="4" name="c"/><xdr:cNvCxnSpPr/></xdr:nvCxnSpPr><xdr:spPr>${xfrm(0, 0, 144, 36)}<a:prstGeom prst="straightConnector1"><a:avLst/></a:prstGeom><a:ln w="${2 * EMU}">${solid('00AA00')}<a:tailEnd type="triangle"/></a:ln></xdr:spPr></xdr:cxnSp>`;
    const page = seen(book(at(0, 0, 144, 72, oval) + at(200, 0, 144, 36, arrow)));
    const ellipse = page.fills.find((f) => f.color === '4472C4')!;
    expect(ellipse.bounds.map(Math.round)).toEqual([72, 72, 216, 144]);
    const label = page.lines.find((l) => l.text === 'Oval')!;
    expect(near(label.bbox.x + label.bbox.w / 2, 144, 1)).toBe(true);
    expect(near(label.bbox.y + label.bbox.h / 2, 108, 2)).toBe(true);
    // The line from the box's top-left to its bottom-right corner, its arrowhead filled at the end.
    expect(page.strokes.some((s) => s.color === '00AA00' && near(s.bounds[0], 272) && near(s.bounds[3], 108))).toBe(true);
    const head = page.fills.find((f) => f.color === '00AA00')!;
    expect(near(head.bounds[2], 416, 0.5) && head.bounds[1] < 108 && head.bounds[3] > 108).toBe(true);
  });

  it('places a group\'s members in the group\'s space, stretched over its anchor', () => {
    const member = (x: number, y: number, w: number, h: number, c: string) =>
      `<xdr:sp><xdr:nvSpPr><xdr:cNvPr id="7" name="m"/><xdr:cNvSpPr/></xdr:nvSpPr><xdr:spPr>${xfrm(x, y, w, h)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>${solid(c)}</xdr:spPr></xdr:sp>`;
    // Child space 0..200 × 0..100 over a group of 100 × 50 pt: everything at half size.
    const group = `<xdr:grpSp><xdr:nvGrpSpPr><xdr:cNvPr id="6" name="g"/><xdr:cNvGrpSpPr/></xdr:nvGrpSpPr><xdr:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${100 * EMU}" cy="${50 * EMU}"/><a:chOff x="0" y="0"/><a:chExt cx="${200 * EMU}" cy="${100 * EMU}"/></a:xfrm></xdr:grpSpPr>` +
      member(0, 0, 100, 100, '00FFFF') + member(100, 50, 100, 50, 'FF8800') + '</xdr:grpSp>';
    const page = seen(book(at(0, 0, 100, 50, group)));
    expect(page.fills.find((f) => f.color === '00FFFF')!.bounds.map(Math.round)).toEqual([72, 72, 122, 122]);
    expect(page.fills.find((f) => f.color === 'FF8800')!.bounds.map(Math.round)).toEqual([122, 97, 172, 122]);
  });

  it('turns a rotated shape and its text with it', () => {
    const turned = sp('rect', 200, 40, solid('800080'), '<a:p><a:r><a:rPr sz="1200"/><a:t>Turned</a:t></a:r></a:p>', '<a:bodyPr anchor="ctr"/>', 90);
    const page = seen(book(at(100, 100, 200, 40, turned)));
    // 200 × 40 about its centre (272, 192): 40 wide and 200 tall.
    expect(page.fills.find((f) => f.color === '800080')!.bounds.map(Math.round)).toEqual([252, 92, 292, 292]);
    // Set left in its box and centred across it, then turned: it runs down from 7.2 pt below the turned box's top, on the centre line.
    const line = page.lines.find((l) => l.text === 'Turned')!;
    expect(line.bbox.h).toBeGreaterThan(2 * line.bbox.w);
    expect(near(line.bbox.y, 92 + 7.2, 1.5)).toBe(true);
    expect(near(line.bbox.x + line.bbox.w / 2, 272, 1.5)).toBe(true);
  });

  it('leaves off the print a shape whose "print object" is unticked', () => {
    const box = (c: string) => sp('rect', 50, 50, solid(c));
    const page = seen(book(at(0, 0, 50, 50, box('112233')) + at(100, 0, 50, 50, box('445566')).replace('<xdr:clientData/>', '<xdr:clientData fPrintsWithSheet="0"/>')));
    expect(page.fills.map((f) => f.color)).toContain('112233');
    expect(page.fills.map((f) => f.color)).not.toContain('445566');
  });

  it('cuts text at a box that clips it, and lets it run on below one that does not', () => {
    const many = Array.from({ length: 12 }, (_, i) => `<a:p><a:r><a:t>Line ${i + 1}</a:t></a:r></a:p>`).join('');
    const clipped = seen(book(at(0, 0, 100, 40, sp('rect', 100, 40, solid('EEEEEE'), many, '<a:bodyPr vertOverflow="clip"/>'))));
    expect(clipped.clips.some((r) => near(r[1], 72) && near(r[3], 112))).toBe(true);
    const open = seen(book(at(0, 0, 100, 40, sp('rect', 100, 40, solid('EEEEEE'), many))));
    expect(open.clips.some((r) => near(r[1], 72) && near(r[3], 112))).toBe(false);
    expect(open.lines.some((l) => l.text === 'Line 12' && l.bbox.y > 112)).toBe(true);
  });
});

describe('DrawingML text bodies and shape trees', () => {
  const body = (xml: string) => parseXml(`<xdr:txBody xmlns:xdr="x" ${A}>${xml}</xdr:txBody>`);
  const defaults = { font: 'Arial', size: 11, color: '000000' };

  it('resolves each run over the list style and the holder\'s defaults, theme fonts by name', () => {
    const paragraphs = readTextBody(
      body('<a:bodyPr/><a:lstStyle><a:lvl1pPr algn="ctr"><a:defRPr sz="1200" i="1"/></a:lvl1pPr></a:lstStyle>' +
        '<a:p><a:r><a:rPr b="1"><a:latin typeface="+mj-lt"/></a:rPr><a:t>One</a:t></a:r><a:br/><a:r><a:rPr sz="900" i="0"><a:solidFill><a:schemeClr val="accent1"/></a:solidFill></a:rPr><a:t>two</a:t></a:r></a:p>' +
        '<a:p><a:pPr algn="r"/><a:endParaRPr sz="2000"/></a:p>'),
      THEME,
      defaults,
    );
    expect(paragraphs).toHaveLength(2);
    expect(paragraphs[0]!.align).toBe('center');
    expect(paragraphs[0]!.runs).toEqual([
      { text: 'One', font: 'Cambria', size: 12, bold: true, italic: true, color: '000000' },
      { text: '\n', font: 'Arial', size: 12, italic: true, color: '000000' },
      { text: 'two', font: 'Arial', size: 9, italic: false, color: '4472C4' },
    ]);
    expect(paragraphs[1]).toMatchObject({ align: 'right', runs: [], size: 20 });
  });

  it('keeps at most TEXT_BODY_CHARS_MAX characters of a body', () => {
    const long = 'x'.repeat(20_000);
    const paragraphs = readTextBody(body(`<a:p><a:r><a:t>${long}</a:t></a:r></a:p><a:p><a:r><a:t>${long}</a:t></a:r></a:p><a:p><a:r><a:t>more</a:t></a:r></a:p>`), THEME, defaults);
    expect(paragraphs.reduce((n, p) => n + p.runs.reduce((m, r) => m + r.text.length, 0), 0)).toBe(TEXT_BODY_CHARS_MAX);
  });

  it('follows groups only so deep, and keeps no more members than asked', () => {
    const leaf = `<xdr:sp><xdr:spPr>${xfrm(0, 0, 10, 10)}<a:prstGeom prst="rect"/>${solid('FF0000')}</xdr:spPr></xdr:sp>`;
    const grp = (inner: string) => `<xdr:grpSp><xdr:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${10 * EMU}" cy="${10 * EMU}"/><a:chOff x="0" y="0"/><a:chExt cx="${10 * EMU}" cy="${10 * EMU}"/></a:xfrm></xdr:grpSpPr>${inner}</xdr:grpSp>`;
    let deep = leaf;
    for (let i = 0; i < 200; i++) deep = grp(deep);
    const ctx = { theme: THEME, textSize: 11, picture: () => undefined, most: 5, text: { left: 1000 } };
    const root = (xml: string) => parseXml(`<r xmlns:xdr="x" ${A}>${xml}</r>`).children[0] as never;
    expect(framedShapes(root(deep), ctx)).toBeUndefined();
    const wide = framedShapes(root(grp(leaf.repeat(50))), ctx)!;
    expect(wide.shapes).toHaveLength(5);
    expect(wide.shapes[0]!.box).toEqual({ x: 0, y: 0, width: 10, height: 10 });
  });

  it('keeps the text of a drawing part\'s shapes within SHAPE_TEXT_MAX characters, all shapes together', () => {
    const long = `<a:p><a:r><a:t>${'y'.repeat(30_000)}</a:t></a:r></a:p>`;
    const anchors = Array.from({ length: 12 }, (_, i) => at(i, i, 50, 20, sp('rect', 50, 20, solid('EEEEEE'), long, '<a:bodyPr vertOverflow="clip"/>'))).join('');
    const [sheet] = readWorkbook(book(anchors)).sheets;
    const kept = sheet!.drawings!.flatMap((d) => (d.content.kind === 'shapes' ? d.content.shapes : [])).reduce((n, s) => n + (s.shape.blocks ?? []).reduce((m, p) => m + p.runs.reduce((k, r) => k + r.text.length, 0), 0), 0);
    expect(kept).toBe(SHAPE_TEXT_MAX);
  });

  it('turns display items about a point: boxes become polygons, texts run at the angle', () => {
    const turned = rotateItems([{ kind: 'fill', x0: 0, y0: 0, x1: 20, y1: 10, color: 'FF0000' }], 90, 10, 5);
    expect(turned[0]!.kind).toBe('shape');
    const points = (turned[0] as { points: [number, number][] }).points.map(([x, y]) => [Math.round(x), Math.round(y)]);
    expect(points).toEqual([[15, -5], [15, 15], [5, 15], [5, -5]]);
  });
});
