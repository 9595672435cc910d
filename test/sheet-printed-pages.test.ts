/**
 * Pages as LibreOffice 7.4 printed the same workbooks (src/convert/sheet/printed-pages.ts,
 * read/xlsx/row-pixels.ts): empty pages left out, and rows of a workbook Microsoft Office wrote
 * cut down to whole pixels.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Mupdf from 'mupdf';
import { strToU8 } from 'fflate';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { joinChunks } from '../src/lib/bytes';
import { readWorkbook } from '../src/convert/sheet/index';
import { renderWorkbookChunks } from '../src/convert/sheet/render';
import { toWholePixels } from '../src/convert/sheet/read/xlsx/row-pixels';
import { xlsx } from './sheet-fixtures';

let mupdf: typeof Mupdf;
beforeAll(async () => {
  mupdf = await loadMupdf();
});

const STYLES = '<fonts><font><sz val="11"/><name val="Calibri"/></font></fonts><fills><fill/><fill/><fill><patternFill patternType="solid"><fgColor rgb="FFFFFF00"/></patternFill></fill></fills>' +
  '<borders><border/><border><left style="thin"/><right style="thin"/><top style="thin"/><bottom style="thin"/></border></borders><cellXfs><xf/><xf borderId="1"/><xf fillId="2"/></cellXfs>';
const text = (ref: string, t: string) => `<c r="${ref}" t="inlineStr"><is><t>${t}</t></is></c>`;
const A4 = '<pageMargins left="0.5" right="0.5" top="0.5" bottom="0.5" header="0.3" footer="0.3"/><pageSetup paperSize="9"/>';

/** The text of each printed page. */
function pages(bytes: Uint8Array): string[] {
  const doc = mupdf.Document.openDocument(joinChunks(renderWorkbookChunks(readWorkbook(bytes), mupdf, bundledFonts)), 'application/pdf');
  return Array.from({ length: doc.countPages() }, (_, i) => doc.loadPage(i).toStructuredText('preserve-whitespace').asText().trim());
}

/** A1 and Z150 over 2 pages wide by 3 tall (Calibri 11, 15 pt rows), with `extra` cells in their rows. */
function corners(extra: Record<number, string> = {}, merges = ''): Uint8Array {
  const rows: Record<number, string> = { 1: text('A1', 'first'), 150: text('Z150', 'last') };
  for (const [r, cells] of Object.entries(extra)) rows[Number(r)] = (rows[Number(r)] ?? '') + cells;
  const data = Object.keys(rows).map(Number).sort((a, b) => a - b).map((r) => `<row r="${r}">${rows[r]}</row>`).join('');
  return xlsx([`<sheetFormatPr defaultRowHeight="15"/><sheetData>${data}</sheetData>${merges}${A4}`], { styles: STYLES });
}

describe('printed pages', () => {
  it('leaves out pages with nothing on them, as LibreOffice printed A1 and Z150 on 2 pages of 6', () => {
    const got = pages(corners());
    expect(got).toEqual(['first', 'last']);
  });

  it('prints a page for a bordered empty cell, not for a filled one', () => {
    expect(pages(corners({ 2: '<c r="Z2" s="1"/>' }))).toHaveLength(3);
    expect(pages(corners({ 2: '<c r="Z2" s="2"/>' }))).toHaveLength(2);
  });

  it('prints every page a bordered column or row crosses, not those of a filled one', () => {
    const bordered = (style: number) => xlsx([`<sheetFormatPr defaultRowHeight="15"/><cols><col min="26" max="26" style="${style}"/></cols><sheetData><row r="1">${text('A1', 'first')}</row><row r="150">${text('Z150', 'last')}</row></sheetData>${A4}`], { styles: STYLES });
    // Column Z is on the last band across: its three pages down print (the last holding Z150); of the others only A1's.
    expect(pages(bordered(1))).toHaveLength(4);
    expect(pages(bordered(2))).toHaveLength(2);
    const row = xlsx([`<sheetFormatPr defaultRowHeight="15"/><sheetData><row r="1">${text('A1', 'first')}</row><row r="60" s="1" customFormat="1"/><row r="150">${text('Z150', 'last')}</row></sheetData>${A4}`], { styles: STYLES });
    // Row 60, on the second band down, crosses the three bands across: 3 pages beside A1's and Z150's.
    expect(pages(row)).toHaveLength(5);
  });

  it('prints the page a long label runs into, and every page a merged cell with a value spans', () => {
    const long = pages(corners({ 3: text('J3', 'a long text that runs over several columns to the right of its cell') }));
    expect(long).toHaveLength(3);
    expect(long[1]).toContain('columns to the right');
    const merged = '<mergeCells><mergeCell ref="H60:M61"/></mergeCells>';
    expect(pages(corners({ 60: text('H60', 'x') }, merged))).toHaveLength(4);
    expect(pages(corners({}, merged))).toHaveLength(2);
  });

  it('a cell at the grid\'s last cell prints two pages, the 35.8 million empty ones between left out', () => {
    const book = xlsx([`<sheetData><row r="1">${text('A1', 'first cell')}</row><row r="1048576">${text('XFD1048576', 'last cell')}</row></sheetData>`], { styles: STYLES });
    expect(pages(book)).toEqual(['first cell', 'last cell']);
  });
});

describe('rows in whole pixels', () => {
  it('cuts heights down to 0.75 pt steps, as LibreOffice printed 14.4, 20, 13.3 and 9.7', () => {
    expect([14.4, 20, 13.3, 9.7, 15, 12.75].map(toWholePixels)).toEqual([14.25, 19.5, 12.75, 9, 15, 12.75]);
  });

  it('only for a workbook whose extended properties name Microsoft: 48 rows of 14.4 pt fit a Letter page then, 47 otherwise', () => {
    const rows = Array.from({ length: 200 }, (_, i) => `<row r="${i + 1}">${text(`A${i + 1}`, `R${i + 1}`)}</row>`).join('');
    const letter = '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/><pageSetup orientation="portrait"/>';
    const sheet = `<sheetFormatPr defaultRowHeight="14.4"/><sheetData>${rows}</sheetData>${letter}`;
    const app = (name: string) => ({ 'docProps/app.xml': strToU8(`<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>${name}</Application></Properties>`) });
    const firstPageRows = (bytes: Uint8Array) => pages(bytes)[0]!.split('\n').filter((l) => /^R\d+$/.test(l.trim())).length;
    expect(firstPageRows(xlsx([sheet], { styles: STYLES, parts: app('Microsoft Excel') }))).toBe(48);
    expect(firstPageRows(xlsx([sheet], { styles: STYLES, parts: app('SheetWriter') }))).toBe(47);
    expect(firstPageRows(xlsx([sheet], { styles: STYLES }))).toBe(47);
  });
});
