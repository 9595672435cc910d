/**
 * The spreadsheet converter end to end in the test runtime (src/convert/sheet/): a workbook's
 * visible sheets printed by their own settings: paper and orientation, pages cut by width and
 * height, title rows repeated, headers and footers with page numbers running on across sheets,
 * merged cells as one, text running into empty neighbours and cut at full ones, and the
 * refusals that say what to do.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Mupdf from 'mupdf';
import { strToU8, zipSync } from 'fflate';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { joinChunks } from '../src/lib/bytes';
import { readWorkbook } from '../src/convert/sheet/index';
import { renderWorkbookChunks, WorkbookPrint } from '../src/convert/sheet/render';
import { ConversionError } from '../src/convert/errors';
import { chartBook, xlsx } from './sheet-fixtures';
import { makePng } from './fixtures';

let mupdf: typeof Mupdf;
beforeAll(async () => {
  mupdf = await loadMupdf();
});

interface PageSeen {
  size: [number, number];
  text: string;
  /** Each word with its box, y down from the page's top. */
  words: { text: string; x0: number; y0: number; x1: number }[];
}

function print(bytes: Uint8Array, fileName = 'book.xlsx'): PageSeen[] {
  const pdf = joinChunks(renderWorkbookChunks(readWorkbook(bytes), mupdf, bundledFonts, { fileName, now: new Date(Date.UTC(2026, 11, 2, 9, 5, 0)) }));
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    return Array.from({ length: doc.countPages() }, (_, i) => {
      const page = doc.loadPage(i);
      const [x0, y0, x1, y1] = page.getBounds();
      const st = page.toStructuredText('preserve-whitespace');
      const words: PageSeen['words'] = [];
      st.walk({
        beginLine() {
          words.push({ text: '', x0: 0, y0: 0, x1: 0 });
        },
        onChar(c: string, _origin: Mupdf.Point, _font: Mupdf.Font, _size: number, quad: Mupdf.Quad) {
          const w = words.at(-1)!;
          if (!w.text) Object.assign(w, { x0: quad[0], y0: quad[1] });
          w.text += c;
          w.x1 = quad[2];
        },
      });
      const text = st.asText().replace(/[^\S\n]+/g, ' ');
      st.destroy();
      page.destroy();
      return { size: [Math.round(x1 - x0), Math.round(y1 - y0)], text, words: words.filter((w) => w.text.trim()) };
    });
  } finally {
    doc.destroy();
  }
}

const row = (r: number, cells: string) => `<row r="${r}">${cells}</row>`;
const num = (ref: string, v: number, s = 0) => `<c r="${ref}" s="${s}"><v>${v}</v></c>`;
const str = (ref: string, i: number, s = 0) => `<c r="${ref}" t="s" s="${s}"><v>${i}</v></c>`;
const inline = (ref: string, text: string, s = 0) => `<c r="${ref}" t="inlineStr" s="${s}"><is><t>${text}</t></is></c>`;

const STYLES = '<fonts><font><sz val="11"/><name val="Calibri"/></font></fonts><cellXfs><xf/><xf numFmtId="4"/><xf><alignment horizontal="center"/></xf></cellXfs>';

describe('spreadsheets → PDF', () => {
  it('prints each visible sheet on its paper, the cells as formatted, hidden sheets left out', () => {
    const first = `<sheetData>${row(1, str('A1', 0) + str('B1', 1))}${row(2, inline('A2', 'Груша') + num('B2', 1234.5, 1))}</sheetData><pageSetup paperSize="9" orientation="landscape"/>`;
    const hidden = `<sheetData>${row(1, inline('A1', 'secret sheet'))}</sheetData>`;
    const third = `<sheetData>${row(3, inline('C3', 'third sheet'))}</sheetData><pageSetup paperSize="1"/>`;
    const pages = print(xlsx([first, hidden, third], { styles: STYLES, strings: '<si><t>Name</t></si><si><t>Price</t></si>', hidden: [1] }));
    expect(pages.map((p) => p.size)).toEqual([[842, 595], [612, 792]]);
    expect(pages[0]!.text).toContain('Name');
    expect(pages[0]!.text).toContain('Груша');
    expect(pages[0]!.text).toContain('1,234.50');
    expect(pages.map((p) => p.text).join('')).not.toContain('secret sheet');
    expect(pages[1]!.text).toContain('third sheet');
    // Printing starts at A1: C3 sits two default rows below the top margin and two columns right of the left one.
    const third3 = pages[1]!.words.find((w) => w.text.startsWith('third'))!;
    expect(third3.y0).toBeGreaterThan(54 + 30);
    expect(third3.y0).toBeLessThan(54 + 45);
    expect(third3.x0).toBeGreaterThan(50.4 + 2 * 48);
  });

  it('cuts a long sheet into pages, repeats the title rows, and numbers pages in headers and footers', () => {
    const rows = [row(1, inline('A1', 'Heading row'))];
    for (let r = 2; r <= 120; r++) rows.push(row(r, inline('A' + r, `item ${r}`) + num('B' + r, r)));
    const sheet = `<sheetData>${rows.join('')}</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/><pageSetup paperSize="9"/>` +
      '<headerFooter><oddHeader>&amp;L&amp;A&amp;RPrinted &amp;D</oddHeader><oddFooter>&amp;CPage &amp;P of &amp;N</oddFooter></headerFooter>';
    const pages = print(xlsx([sheet], { styles: STYLES, names: '<definedName name="_xlnm.Print_Titles" localSheetId="0">S1!$1:$1</definedName>' }));
    // A4's 733.9 pt between the margins hold 48 rows of 15 pt, less the repeated heading: 120 rows on 3 pages.
    expect(pages.length).toBe(3);
    pages.forEach((p, i) => {
      expect(p.text).toContain('Heading row');
      expect(p.text).toContain(`Page ${i + 1} of 3`);
      expect(p.text).toContain('S1');
      expect(p.text).toContain('Printed 12/02/2026');
    });
    expect(pages[0]!.text).toContain('item 2\n');
    expect(pages[1]!.text).not.toContain('item 2\n');
    // The footer sits at the foot of the page, the header at the top.
    const footer = pages[0]!.words.find((w) => w.text.startsWith('Page'))!;
    expect(footer.y0).toBeGreaterThan(842 - 21.6 - 20);
    const header = pages[0]!.words.find((w) => w.text === 'S1')!;
    expect(header.y0).toBeLessThan(21.6 + 10);
  });

  it('prints column letters above and row numbers left of the cells when the sheet asks, in the room LibreOffice gives them', () => {
    const rows: string[] = [];
    for (let r = 1; r <= 60; r++) rows.push(row(r, inline('A' + r, `a${r}`) + inline('C' + r, `c${r}`)));
    // 725 pt between the margins: 48 rows of 15 pt, 47 once the column letters take 12.8 pt.
    const margins = '<pageMargins left="0.7" right="0.7" top="0.8125" bottom="0.8125" header="0.3" footer="0.3"/><pageSetup paperSize="9"/>';
    const plain = print(xlsx([`<sheetData>${rows.join('')}</sheetData>${margins}`], { styles: STYLES }));
    const headed = print(xlsx([`<sheetData>${rows.join('')}</sheetData><printOptions headings="1"/>${margins}`], { styles: STYLES }));
    const at = (page: PageSeen, text: string) => page.words.find((w) => w.text === text)!;
    // The cells move right by 1 cm and down by 12.8 pt; the strips take that room from every page.
    expect(at(headed[0]!, 'a1').x0 - at(plain[0]!, 'a1').x0).toBeCloseTo(72 / 2.54, 1);
    expect(at(headed[0]!, 'a1').y0 - at(plain[0]!, 'a1').y0).toBeCloseTo(12.8, 1);
    expect(plain.length).toBe(2);
    expect(headed.length).toBe(2);
    const firstOnTwo = (page: PageSeen) => Number(page.words.find((w) => /^a\d+$/.test(w.text))!.text.slice(1));
    expect(firstOnTwo(plain[1]!)).toBe(49);
    expect(firstOnTwo(headed[1]!)).toBe(48);
    for (const page of headed) {
      // Letters centred over their columns (A at 50.4 + 28.35 + 24 pt, C two columns on), above the first row.
      const [a, b, c] = ['A', 'B', 'C'].map((l) => at(page, l));
      expect(Math.abs((a!.x0 + a!.x1) / 2 - (50.4 + 72 / 2.54 + 24))).toBeLessThan(1.5);
      expect(Math.abs((c!.x0 + c!.x1) / 2 - (a!.x0 + a!.x1) / 2 - 96)).toBeLessThan(1.5);
      expect(b!.y0).toBeLessThan(58.5 + 12.8);
      // Each row's number in the left strip, level with the row.
      const n = firstOnTwo(page);
      const number = at(page, String(n));
      expect(number.x1).toBeLessThan(50.4 + 72 / 2.54);
      expect(Math.abs(number.y0 - at(page, `a${n}`).y0)).toBeLessThan(3);
    }
    expect(at(headed[1]!, 'D')).toBeUndefined();
  });

  it('prints a right-to-left sheet from the right margin: column A at the right, its row numbers right of it, the header not turned', () => {
    const body = `<sheetView rightToLeft="1" workbookViewId="0"/>`;
    const sheet = `<sheetViews>${body}</sheetViews><sheetData>${row(1, inline('A1', 'first') + inline('C1', 'third'))}</sheetData><printOptions headings="1"/>` +
      '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/><pageSetup paperSize="9"/><headerFooter><oddHeader>&amp;LLeft side</oddHeader></headerFooter>';
    const [page] = print(xlsx([sheet], { styles: STYLES }));
    const at = (text: string) => page!.words.find((w) => w.text === text)!;
    const right = 595.28 - 50.4;
    const near = (x: number, want: number) => expect(Math.abs(x - want)).toBeLessThan(1.5);
    // The row numbers' 1 cm strip at the right margin, then A (48 pt) to its left, then B, then C.
    expect(at('1').x0).toBeGreaterThan(right - 72 / 2.54);
    near(at('first').x0, right - 72 / 2.54 - 48 + 1.5);
    near(at('third').x0, right - 72 / 2.54 - 3 * 48 + 1.5);
    expect(at('C').x1).toBeLessThan(at('A').x0);
    expect(page!.words.find((w) => w.text.startsWith('Left'))!.x0).toBeLessThan(60);
  });

  it('carries a right-to-left label that runs toward column A over a page break onto the page before, as LibreOffice prints it', () => {
    const label = 'Carried label running toward column A over the page break';
    const sheet = `<sheetViews><sheetView rightToLeft="1" workbookViewId="0"/></sheetViews><sheetData>${row(1, num('A1', 1) + inline('H1', label))}</sheetData>` +
      '<pageSetup paperSize="9"/><colBreaks count="1" manualBreakCount="1"><brk id="6" max="1048575" man="1"/></colBreaks>';
    const pages = print(xlsx([sheet], { styles: STYLES }));
    expect(pages.length).toBe(2);
    // H is on the second page; its words run on toward G and over the break into the first page's F, E, D...
    const first = pages[0]!.words.filter((w) => !/^\d+$/.test(w.text)).map((w) => w.text).join(' ');
    expect(first).toContain('over the page break');
    expect(first).not.toContain('Carried');
    expect(pages[1]!.text).toContain('Carried label');
    // With nothing else on it, the first page still prints: the label reaches it.
    const alone = print(xlsx([sheet.replace(num('A1', 1), '')], { styles: STYLES }));
    expect(alone.length).toBe(2);
    expect(alone[0]!.text).toContain('over the page break');
  });

  it('scales the header and footer bands with the sheet, as LibreOffice prints Excel\'s margins', () => {
    const rows: string[] = [];
    for (let r = 1; r <= 200; r++) rows.push(row(r, inline('A' + r, `line ${r}`)));
    const sheet = (setup: string) => `<sheetData>${rows.join('')}</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>${setup}` +
      '<headerFooter><oddHeader>&amp;LTop</oddHeader><oddFooter>&amp;CPage &amp;P</oddFooter></headerFooter>';
    const pages = print(xlsx([sheet('<pageSetup paperSize="9"/>'), sheet('<pageSetup paperSize="9" scale="50"/>')], { styles: STYLES }));
    // At 100%: 733.9 pt for cells, 48 rows a page, 5 pages. At 50% the page runs from the header
    // margin to the footer margin (798.7 pt = 1597.4 pt of sheet) less the two 32.4 pt bands:
    // 102 rows a page, 2 pages (3 if the bands kept their full height).
    expect(pages.length).toBe(5 + 2);
    const first = (p: PageSeen) => p.words.find((w) => w.text.startsWith('line'))!;
    expect(first(pages[0]!).y0).toBeGreaterThanOrEqual(54);
    expect(first(pages[0]!).y0).toBeLessThan(54 + 15);
    // The cells of the 50% sheet start 0.3 in + 0.45 in × 50% from the top: 37.8 pt.
    expect(first(pages[5]!).y0).toBeGreaterThanOrEqual(37.8);
    expect(first(pages[5]!).y0).toBeLessThan(37.8 + 7.5);
    expect(pages[5]!.text).toContain('line 102\n');
    expect(pages[5]!.text).not.toContain('line 103\n');
    // The header is drawn at the sheet's scale too.
    const top = (p: PageSeen) => p.words.find((w) => w.text === 'Top')!;
    const width = (w: PageSeen['words'][number]) => w.x1 - w.x0;
    expect(width(top(pages[5]!)) / width(top(pages[0]!))).toBeCloseTo(0.5, 1);
  });

  it('fits a wide sheet to one page wide at the largest zoom that fits', () => {
    const column = (c: number) => (c < 26 ? '' : 'A') + String.fromCharCode(65 + (c % 26));
    const cells = Array.from({ length: 30 }, (_, c) => inline(column(c) + '1', `c${c}`)).join('');
    const wide = `<sheetPr><pageSetUpPr fitToPage="1"/></sheetPr><sheetData>${row(1, cells)}</sheetData><pageSetup paperSize="9" fitToWidth="1" fitToHeight="0"/>`;
    const pages = print(xlsx([wide], { styles: STYLES }));
    expect(pages.length).toBe(1);
    expect(pages[0]!.text).toContain('c29');
    // Without fit to page, 30 default columns need three pages across.
    expect(print(xlsx([wide.replace('<pageSetUpPr fitToPage="1"/>', '')], { styles: STYLES })).length).toBe(3);
  });

  it('prints a merged range as one cell and runs text into empty neighbours, cut at a full one', () => {
    const sheet =
      `<sheetData>${row(1, inline('A1', 'Centred over three', 2))}${row(2, inline('A2', 'A long label that runs on') + inline('D2', 'stop'))}${row(3, inline('A3', 'A long label cut short by its neighbour') + inline('B3', 'B'))}</sheetData>` +
      '<mergeCells count="1"><mergeCell ref="A1:C1"/></mergeCells><pageSetup paperSize="9"/>';
    const [page] = print(xlsx([sheet], { styles: STYLES }));
    const words = page!.words;
    // Centred over A1:C1 (three 48.3 pt columns from the 50.4 pt margin): the middle of the text near x = 123.
    const merged = words.find((w) => w.text.startsWith('Centred'))!;
    expect((merged.x0 + merged.x1) / 2).toBeCloseTo(50.4 + (3 * 48.3) / 2, -1);
    expect(page!.text).toContain('A long label that runs on');
    // Cut at column B: only what fits in A's 48 pt prints.
    const cut = words.find((w) => w.text.startsWith('A long label cut'))?.text ?? words.find((w) => w.text.startsWith('A long'))!.text;
    expect(page!.text).not.toContain('A long label cut short by its neighbour');
    expect(cut.length).toBeLessThan('A long label cut short by its neighbour'.length);
  });

  it('draws a picture that runs over a page break on both pages, each cut to the page\'s cells; one sized by its extent widens the print', () => {
    const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    const XDR = `xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${REL}"`;
    const corner = (c: number, r: number) => `<xdr:col>${c}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${r}</xdr:row><xdr:rowOff>0</xdr:rowOff>`;
    const pic = '<xdr:pic><xdr:blipFill><a:blip r:embed="rP"/></xdr:blipFill></xdr:pic>';
    const book = (anchor: string) => xlsx([`<sheetFormatPr defaultRowHeight="15"/><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Report</t></is></c></row></sheetData><pageSetup paperSize="9"/><drawing r:id="rD"/>`], {
      styles: '<fonts><font><sz val="11"/><name val="Calibri"/></font></fonts><cellXfs><xf/></cellXfs>',
      parts: {
        'xl/worksheets/_rels/sheet1.xml.rels': `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rD" Type="${REL}/drawing" Target="../drawings/drawing1.xml"/></Relationships>`,
        'xl/drawings/drawing1.xml': `<xdr:wsDr ${XDR}>${anchor}</xdr:wsDr>`,
        'xl/drawings/_rels/drawing1.xml.rels': `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rP" Type="${REL}/image" Target="../media/image1.png"/></Relationships>`,
        'xl/media/image1.png': makePng(4, 4, [0, 128, 255]),
      },
    });
    const seen = (bytes: Uint8Array) => {
      const doc = mupdf.Document.openDocument(joinChunks(renderWorkbookChunks(readWorkbook(bytes), mupdf, bundledFonts)), 'application/pdf');
      const pages = Array.from({ length: doc.countPages() }, (_, i) => {
        const images: Mupdf.Matrix[] = [];
        const clips: Mupdf.Rect[] = [];
        const device = new mupdf.Device({
          fillImage: (_image: Mupdf.Image, ctm: Mupdf.Matrix) => void images.push(ctm),
          clipPath: (path: Mupdf.Path, _evenOdd: boolean, ctm: Mupdf.Matrix) => {
            // In page space: the clip may be written in a scaled space (paint/page-graphics.ts writes hundredths of a point).
            const ys: number[] = [];
            const y = (px: number, py: number) => ctm[1] * px + ctm[3] * py + ctm[5];
            path.walk({ moveTo: (px: number, py: number) => void ys.push(y(px, py)), lineTo: (px: number, py: number) => void ys.push(y(px, py)) });
            clips.push([0, Math.min(...ys), 0, Math.max(...ys)]);
          },
        });
        doc.loadPage(i).run(device, mupdf.Matrix.identity);
        return { images, clips };
      });
      doc.destroy();
      return pages;
    };
    // A4, 0.75 in margins: 48 rows of 15 pt a page. A40:C60 runs from row 39 on page 1 to row 59 on page 2.
    const split = seen(book(`<xdr:twoCellAnchor><xdr:from>${corner(0, 39)}</xdr:from><xdr:to>${corner(2, 59)}</xdr:to>${pic}</xdr:twoCellAnchor>`));
    expect(split).toHaveLength(2);
    expect(split.map((p) => p.images.length)).toEqual([1, 1]);
    // Page 1 from row 39's top (54 + 39 × 15); page 2 starts 9 rows above its first (row 48), cut at the cells' top.
    expect(split[0]!.images[0]![5]).toBeCloseTo(54 + 39 * 15, 0);
    expect(split[1]!.images[0]![5]).toBeCloseTo(54 - 9 * 15, 0);
    expect(split[1]!.clips.some((r) => Math.abs(r[1] - 54) < 0.5)).toBe(true);
    // A one-cell anchor 700 pt wide from A1 reaches past the page's 494 pt: the print widens to the column it ends in, on 2 pages across.
    const wide = seen(book(`<xdr:oneCellAnchor><xdr:from>${corner(0, 0)}</xdr:from><xdr:ext cx="${700 * 12700}" cy="${100 * 12700}"/>${pic}</xdr:oneCellAnchor>`));
    expect(wide.map((p) => p.images.length)).toEqual([1, 1]);
  });

  it('draws a picture and a chart at their cell anchors, the chart\'s title and labels as text', () => {
    const book = chartBook(makePng(4, 4, [0, 128, 255]));
    const pdf = joinChunks(renderWorkbookChunks(readWorkbook(book), mupdf, bundledFonts));
    const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
    const page = doc.loadPage(0);
    const images: Mupdf.Matrix[] = [];
    const colors: string[] = [];
    const device = new mupdf.Device({
      fillImage: (_image: Mupdf.Image, ctm: Mupdf.Matrix) => void images.push(ctm),
      fillPath: (_path: Mupdf.Path, _evenOdd: boolean, _ctm: Mupdf.Matrix, _cs: Mupdf.ColorSpace, color: number[]) => void colors.push(color.map((c) => Math.round(c * 255).toString(16).padStart(2, '0')).join('').toUpperCase()),
    });
    page.run(device, mupdf.Matrix.identity);
    const text = page.toStructuredText('preserve-whitespace').asText();
    page.destroy();
    doc.destroy();
    // The picture over B3:C6 (from 50.4 + 48.3 pt across, 54 + 2·15 pt down, two columns wide); the chart's bars are vector shapes in the theme's first accent.
    const picture = images.find((m) => Math.abs(m[0] - 2 * 48.3) < 3)!;
    expect(picture[4]).toBeCloseTo(50.4 + 48.3, 0);
    expect(picture[5]).toBeCloseTo(54 + 30, 0);
    expect(images.length).toBe(1);
    expect(colors.filter((c) => c === '4472C4').length).toBeGreaterThanOrEqual(2);
    expect(text).toContain('Sales by month');
    expect(text).toContain('January');
    expect(text).toContain('Report');
  });

  it('widens the print to a long label in the last column, and prints the rest of it on the next page across', () => {
    const label = 'A label far longer than its column, running on over the columns past the last one with a value, and on';
    const cells = Array.from({ length: 9 }, (_, c) => inline(String.fromCharCode(65 + c) + '1', `v${c}`)).join('') + inline('J1', label);
    const pages = print(xlsx([`<sheetData>${row(1, cells)}</sheetData><pageSetup paperSize="9"/>`], { styles: STYLES }));
    // Ten columns of 48.3 pt fill A4's 494.5 pt; the label's run-on columns make a second page across.
    expect(pages.length).toBe(2);
    const first = pages[0]!.words.find((w) => w.text.startsWith('A label'))!;
    const rest = pages[1]!.words[0]!;
    expect(first.x1).toBeLessThanOrEqual(595.28 - 50.4 + 1);
    expect(rest.x0).toBeLessThan(50.4 + 5);
    expect((first.text + rest.text).replace(/\s+/g, ' ')).toContain('over the columns past');
  });

  it('lets a label in a band\'s last column run into the room the page leaves after a column break, as LibreOffice prints it', () => {
    const label = 'Middle label running on over the next columns';
    const pages = print(xlsx([`<sheetData>${row(1, inline('C1', label))}${row(2, inline('F2', 'G'))}</sheetData><pageSetup paperSize="9"/><colBreaks count="1" manualBreakCount="1"><brk id="3" max="1048575" man="1"/></colBreaks>`], { styles: STYLES }));
    expect(pages.length).toBe(2);
    // C is the last column of the first page: the whole label prints there, past C into the empty room to the right margin.
    const first = pages[0]!.words.filter((w) => w.y0 < 100).map((w) => w.text).join(' ');
    expect(first.replace(/\s+/g, ' ')).toContain(label);
  });

  it('writes a slice of a long print, its pages numbered as in the whole', () => {
    const rows = Array.from({ length: 48 * 5 }, (_, i) => row(i + 1, num('A' + (i + 1), i + 1)));
    const book = xlsx([`<sheetData>${rows.join('')}</sheetData><pageSetup paperSize="9"/><headerFooter><oddFooter>&amp;CPage &amp;P of &amp;N</oddFooter></headerFooter>`], { styles: STYLES });
    const print = new WorkbookPrint(readWorkbook(book), mupdf, bundledFonts);
    expect(print.pages).toBe(5);
    const doc = mupdf.Document.openDocument(joinChunks(print.write([2, 4])), 'application/pdf');
    const texts = Array.from({ length: doc.countPages() }, (_, i) => doc.loadPage(i).toStructuredText('preserve-whitespace').asText());
    doc.destroy();
    expect(texts).toHaveLength(2);
    expect(texts[0]).toContain('Page 3 of 5');
    expect(texts[1]).toContain('Page 4 of 5');
    expect(texts[0]).toMatch(/\b97\b/);
  });

  it('turns a rotated cell\'s text: upward at 90°, reading from the cell\'s foot', () => {
    const styles = '<fonts><font><sz val="11"/><name val="Calibri"/></font></fonts><cellXfs><xf/><xf><alignment textRotation="90"/></xf></cellXfs>';
    const sheet = `<sheetData><row r="1" ht="90" customHeight="1">${inline('A1', 'Upward', 1)}${inline('B1', 'Level')}</row></sheetData><pageSetup paperSize="9"/>`;
    const pdf = joinChunks(renderWorkbookChunks(readWorkbook(xlsx([sheet], { styles })), mupdf, bundledFonts));
    const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
    const page = doc.loadPage(0);
    const lines: { dir: Mupdf.Point; bbox: Mupdf.Rect; text: string }[] = [];
    page.toStructuredText('preserve-whitespace').walk({
      beginLine: (bbox: Mupdf.Rect, _wmode: number, dir: Mupdf.Point) => void lines.push({ dir, bbox, text: '' }),
      onChar: (c: string) => void (lines.at(-1)!.text += c),
    });
    page.destroy();
    doc.destroy();
    const up = lines.find((l) => l.text.includes('Upward'))!;
    const level = lines.find((l) => l.text.includes('Level'))!;
    expect(up.dir[0]).toBeCloseTo(0, 2);
    expect(up.dir[1]).toBeCloseTo(-1, 2);
    expect(level.dir).toEqual([1, 0]);
    // Within A1 (50.4 to 98.7 pt across, 54 to 144 pt down), taller than wide, its foot near the row's foot.
    const [x0, y0, x1, y1] = up.bbox;
    expect(x0).toBeGreaterThan(50.4);
    expect(x1).toBeLessThan(50.4 + 48.3);
    expect(y1 - y0).toBeGreaterThan(x1 - x0);
    expect(y1).toBeGreaterThan(144 - 6);
    expect(y1).toBeLessThanOrEqual(144);
  });

  it('refuses what it does not print with what to do: an encrypted workbook, an XLSB, something else', () => {
    const encrypted = new Uint8Array(4096);
    encrypted.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const name = 'EncryptedPackage';
    for (let i = 0; i < name.length; i++) encrypted[1024 + i * 2] = name.charCodeAt(i);
    expect(() => readWorkbook(encrypted)).toThrow(expect.objectContaining({ problem: 'password', message: expect.stringMatching(/remove the password/) }));
    const xlsb = zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'xl/workbook.bin': new Uint8Array(8) });
    expect(() => readWorkbook(xlsb)).toThrow(/\.xlsb.*save it as \.xlsx/);
    expect(() => readWorkbook(strToU8('{\\rtf1 hello}'))).toThrow(ConversionError);
    expect(() => readWorkbook(strToU8('{\\rtf1 hello}'))).toThrow(/RTF/);
  });
});
