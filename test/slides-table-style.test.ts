/**
 * PPTX tables drawn in their table styles: PowerPoint's default (Medium Style 2 – Accent 1) when the
 * deck does not define the id it names, a style the deck's ppt/tableStyles.xml defines, the flags
 * that switch the header row, bands, first column and total row on, and the cell's own fill and
 * the run's own look over the style's. Read back from the printed PDF through mupdf.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Mupdf from 'mupdf';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { joinChunks } from '../src/lib/bytes';
import { readDeck } from '../src/convert/slides/index';
import { renderDeckChunks } from '../src/convert/slides/render';
import { pptx } from './pptx-fixtures';

let mupdf: typeof Mupdf;
beforeAll(async () => {
  mupdf = await loadMupdf();
});

const E = 12_700;
const MEDIUM_2_ACCENT_1 = '{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}';
const hex = (c: number[]) => c.map((v) => Math.round(v * 255).toString(16).padStart(2, '0')).join('').toUpperCase();
type Box = { x0: number; y0: number; x1: number; y1: number };

/** The first page's filled areas, stroked lines and characters (their colour and weight), in painting order. */
function printed(bytes: Uint8Array) {
  const doc = mupdf.Document.openDocument(joinChunks(renderDeckChunks(readDeck(bytes), mupdf, bundledFonts)), 'application/pdf');
  const page = doc.loadPage(0);
  const fills: (Box & { color: string })[] = [];
  const strokes: (Box & { color: string; width: number })[] = [];
  const glyphs: { char: string; color: string; bold: boolean; x: number; y: number }[] = [];
  const bounds = (path: Mupdf.Path, ctm: Mupdf.Matrix): Box => {
    const xs: number[] = [], ys: number[] = [];
    const put = (x: number, y: number) => (xs.push(ctm[0] * x + ctm[2] * y + ctm[4]), ys.push(ctm[1] * x + ctm[3] * y + ctm[5]));
    path.walk({ moveTo: put, lineTo: put, curveTo: (_a: number, _b: number, _c: number, _d: number, x: number, y: number) => put(x, y) });
    return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
  };
  page.run(new mupdf.Device({
    fillPath: (path: Mupdf.Path, _e: boolean, ctm: Mupdf.Matrix, _cs: Mupdf.ColorSpace, color: number[]) => void fills.push({ ...bounds(path, ctm), color: hex(color) }),
    strokePath: (path: Mupdf.Path, stroke: Mupdf.StrokeState, ctm: Mupdf.Matrix, _cs: Mupdf.ColorSpace, color: number[]) => void strokes.push({ ...bounds(path, ctm), color: hex(color), width: stroke.getLineWidth() * Math.hypot(ctm[0], ctm[1]) }),
    fillText: (text: Mupdf.Text, ctm: Mupdf.Matrix, _cs: Mupdf.ColorSpace, color: number[]) => text.walk({
      showGlyph: (font: Mupdf.Font, trm: Mupdf.Matrix, _g: number, unicode: number) => void glyphs.push({ char: String.fromCodePoint(unicode), color: hex(color), bold: font.isBold() || /bold/i.test(font.getName()), x: ctm[0] * trm[4] + ctm[2] * trm[5] + ctm[4], y: ctm[1] * trm[4] + ctm[3] * trm[5] + ctm[5] }),
    }),
  }), mupdf.Matrix.identity);
  page.destroy();
  doc.destroy();
  /** The colour painted last over a point (the cell's fill over the slide's background). */
  const fillAt = (x: number, y: number) => fills.filter((f) => f.x0 <= x && x <= f.x1 && f.y0 <= y && y <= f.y1).at(-1)?.color;
  /** The characters of `word` as printed (the first run of them). */
  const word = (text: string) => {
    const at = glyphs.map((g) => g.char).join('').indexOf(text);
    return at < 0 ? undefined : glyphs.slice(at, at + text.length);
  };
  return { fillAt, word, strokes };
}

/** A 3 × 4 table at (100, 100), columns 100 pt, rows 30 pt; cell r,c says "rRcC" unless `cells` gives its a:tc. */
function table(tblPr: string, cells: Record<string, string> = {}): string {
  const tc = (r: number, c: number) => cells[`${r},${c}`] ?? `<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="1200"/><a:t>r${r}c${c}</a:t></a:r></a:p></a:txBody><a:tcPr/></a:tc>`;
  const rows = [0, 1, 2, 3].map((r) => `<a:tr h="${30 * E}">${[0, 1, 2].map((c) => tc(r, c)).join('')}</a:tr>`).join('');
  return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="${100 * E}" y="${100 * E}"/><a:ext cx="${300 * E}" cy="${120 * E}"/></p:xfrm>` +
    `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl>${tblPr}<a:tblGrid>${'<a:gridCol w="1270000"/>'.repeat(3)}</a:tblGrid>${rows}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
}
const tblPr = (flags: string, id?: string) => `<a:tblPr ${flags}>${id ? `<a:tableStyleId>${id}</a:tableStyleId>` : ''}</a:tblPr>`;
/** The centre of cell r,c. */
const centre = (r: number, c: number): [number, number] => [150 + 100 * c, 115 + 30 * r];

/** A deck whose ppt/tableStyles.xml holds `styles` (a:tblStyle elements). */
const withStyles = (body: string, styles: string) => pptx([{ body }], undefined, undefined, {
  rels: [['rTS', 'tableStyles', 'tableStyles.xml']],
  parts: { 'ppt/tableStyles.xml': `<a:tblStyleLst xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" def="${MEDIUM_2_ACCENT_1}">${styles}</a:tblStyleLst>` },
});

describe('PPTX table styles', () => {
  it('draws PowerPoint\'s default style where the deck does not define it: an accent 1 header in white bold, banded rows, white lines', () => {
    const own = `<a:tc><a:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="en-US" sz="1200"/><a:t>own</a:t></a:r></a:p></a:txBody><a:tcPr><a:solidFill><a:srgbClr val="FFC000"/></a:solidFill></a:tcPr></a:tc>`;
    const plainHeader = `<a:tc><a:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="en-US" sz="1200" b="0"><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill></a:rPr><a:t>says</a:t></a:r></a:p></a:txBody><a:tcPr/></a:tc>`;
    const page = printed(pptx([{ body: table(tblPr('firstRow="1" bandRow="1"', MEDIUM_2_ACCENT_1), { '2,1': own, '0,2': plainHeader }) }]));
    expect([0, 1, 2].map((c) => page.fillAt(...centre(0, c)))).toEqual(['4472C4', '4472C4', '4472C4']);
    // Data rows alternate from the first after the header: band 1 (accent 1 at a 40 % tint), then the table's 20 % tint.
    expect([1, 2, 3].map((r) => page.fillAt(...centre(r, 0)))).toEqual(['CFD5EA', 'E9EBF5', 'CFD5EA']);
    // The cell's own fill over its band's.
    expect(page.fillAt(...centre(2, 1))).toBe('FFC000');
    const header = page.word('r0c0')!;
    expect(header.every((g) => g.color === 'FFFFFF' && g.bold)).toBe(true);
    const body = page.word('r1c0')!;
    expect(body.every((g) => g.color === '000000' && !g.bold)).toBe(true);
    // A run that gives its own colour and weight keeps them in the header.
    expect(page.word('says')!.every((g) => g.color === 'FF0000' && !g.bold)).toBe(true);
    // White lines between the cells; under the header a 3 pt one.
    const white = page.strokes.filter((s) => s.color === 'FFFFFF');
    expect(white.some((s) => Math.abs(s.y0 - 130) < 1 && Math.abs(s.y1 - 130) < 1 && s.width > 2.5)).toBe(true);
    expect(white.some((s) => Math.abs(s.x0 - 200) < 1 && Math.abs(s.x1 - 200) < 1 && s.y0 >= 159 && s.width < 1.5)).toBe(true);
  });

  it('switches parts on by the table\'s flags: without firstRow the first row is a band; without a style id nothing is filled', () => {
    const banded = printed(pptx([{ body: table(tblPr('bandRow="1"', MEDIUM_2_ACCENT_1)) }]));
    expect([0, 1, 2, 3].map((r) => banded.fillAt(...centre(r, 1)))).toEqual(['CFD5EA', 'E9EBF5', 'CFD5EA', 'E9EBF5']);
    expect(banded.word('r0c0')!.every((g) => g.color === '000000' && !g.bold)).toBe(true);
    const unbanded = printed(pptx([{ body: table(tblPr('firstRow="1"', MEDIUM_2_ACCENT_1)) }]));
    expect([1, 2, 3].map((r) => unbanded.fillAt(...centre(r, 1)))).toEqual(['E9EBF5', 'E9EBF5', 'E9EBF5']);
    // No style named: the slide's background shows through the cells.
    const plain = printed(pptx([{ body: table(tblPr('firstRow="1" bandRow="1"')) }]));
    expect(plain.fillAt(...centre(0, 0))).toBe('EEEEEE');
  });

  it('draws a style the deck defines: the whole table, first column, total row and header over one another; a fill reference in its colour', () => {
    const id = '{11111111-2222-3333-4444-555555555555}';
    const fill = (hexColor: string) => `<a:fill><a:solidFill><a:srgbClr val="${hexColor}"/></a:solidFill></a:fill>`;
    const style = `<a:tblStyle styleId="${id}" styleName="Test">` +
      `<a:wholeTbl><a:tcStyle><a:tcBdr><a:insideH><a:ln w="25400"><a:solidFill><a:srgbClr val="112233"/></a:solidFill></a:ln></a:insideH></a:tcBdr>${fill('DDDDDD')}</a:tcStyle></a:wholeTbl>` +
      `<a:band1H><a:tcStyle>${fill('00FF00')}</a:tcStyle></a:band1H>` +
      `<a:firstCol><a:tcTxStyle b="on"><a:srgbClr val="0000CC"/></a:tcTxStyle><a:tcStyle>${fill('00AA00')}</a:tcStyle></a:firstCol>` +
      `<a:lastRow><a:tcStyle>${fill('AA0000')}</a:tcStyle></a:lastRow>` +
      `<a:firstRow><a:tcStyle><a:fillRef idx="1"><a:schemeClr val="accent2"/></a:fillRef></a:tcStyle></a:firstRow></a:tblStyle>`;
    const page = printed(withStyles(table(tblPr('firstRow="1" firstCol="1" lastRow="1"', id)), style));
    // Header over first column, total row over first column; the rest the whole table's (bands off).
    expect([0, 1, 2, 3].map((r) => page.fillAt(...centre(r, 0)))).toEqual(['ED7D31', '00AA00', '00AA00', 'AA0000']);
    expect([0, 1, 2, 3].map((r) => page.fillAt(...centre(r, 2)))).toEqual(['ED7D31', 'DDDDDD', 'DDDDDD', 'AA0000']);
    expect(page.word('r1c0')!.every((g) => g.color === '0000CC' && g.bold)).toBe(true);
    expect(page.word('r1c1')!.every((g) => g.color === '000000' && !g.bold)).toBe(true);
    // The inside horizontal line between rows 1 and 2, 2 pt; none along the table's top edge.
    const rules = page.strokes.filter((s) => s.color === '112233');
    expect(rules.some((s) => Math.abs(s.y0 - 160) < 1 && Math.abs(s.width - 2) < 0.1)).toBe(true);
    expect(rules.some((s) => Math.abs(s.y0 - 100) < 1)).toBe(false);
  });

  it('takes the deck\'s own definition of a built-in id over the built-in', () => {
    const style = `<a:tblStyle styleId="${MEDIUM_2_ACCENT_1}"><a:firstRow><a:tcStyle><a:fill><a:solidFill><a:srgbClr val="123456"/></a:solidFill></a:fill></a:tcStyle></a:firstRow></a:tblStyle>`;
    const page = printed(withStyles(table(tblPr('firstRow="1" bandRow="1"', MEDIUM_2_ACCENT_1)), style));
    expect(page.fillAt(...centre(0, 0))).toBe('123456');
    expect(page.fillAt(...centre(1, 0))).toBe('EEEEEE');
  });
});
