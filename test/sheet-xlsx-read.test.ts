/**
 * The XLSX reader of the spreadsheet converter (issue 42, src/convert/sheet/read/xlsx/): values as
 * the file caches them, styles resolved (theme colours with tints, borders, alignment), columns,
 * rows, merges, hidden sheets, print settings and the print area and titles of defined names, and
 * the bounds it keeps before it allocates.
 */
import { describe, expect, it } from 'vitest';
import { readXlsx } from '../src/convert/sheet/read/xlsx/index';
import { cellRef, rangeRef } from '../src/convert/sheet/read/xlsx/cells';
import { ConversionError } from '../src/convert/errors';
import { strToU8 } from 'fflate';
import { xlsx } from './sheet-fixtures';

const STYLES =
  '<numFmts><numFmt numFmtId="164" formatCode="# ##0,00\\ &quot;₽&quot;"/></numFmts>' +
  '<fonts><font><sz val="10"/><name val="Arial"/></font><font><b/><sz val="14"/><color theme="4" tint="-0.249977111117893"/><name val="Calibri"/></font></fonts>' +
  '<fills><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill><fill><patternFill patternType="solid"><fgColor rgb="FFFFFF00"/></patternFill></fill></fills>' +
  '<borders><border/><border><left style="thin"><color indexed="10"/></left><bottom style="double"/></border></borders>' +
  '<cellXfs><xf/><xf numFmtId="164" fontId="1" fillId="2" borderId="1"><alignment horizontal="center" vertical="top" wrapText="1" indent="2" textRotation="45"/></xf><xf numFmtId="14"/></cellXfs>';

describe('the XLSX reader', () => {
  it('reads cached values: shared, inline and formula strings, numbers, booleans, errors; a formula without a value is empty', () => {
    const sheet = '<sheetData><row r="1"><c r="A1" t="s"><v>1</v></c><c r="B1"><v>42.5</v></c><c r="C1" t="b"><v>1</v></c><c r="D1" t="e"><v>#DIV/0!</v></c></row>' +
      '<row r="3"><c r="A3" t="inlineStr"><is><r><t>rich </t></r><r><t>text</t></r></is></c><c r="B3" t="str"><f>A1&amp;"!"</f><v>second!</v></c><c r="C3"><f>1/0</f></c><c r="E3" s="2"/></row></sheetData>';
    const wb = readXlsx(xlsx([sheet], { strings: '<si><t>first</t></si><si><t>second</t></si>', styles: STYLES }));
    const s = wb.sheets[0]!;
    expect(s.rows.get(0)!.map((c) => c.value)).toEqual([{ kind: 'text', value: 'second' }, { kind: 'number', value: 42.5 }, { kind: 'bool', value: true }, { kind: 'error', value: '#DIV/0!' }]);
    const row3 = s.rows.get(2)!;
    expect(row3.map((c) => [c.col, c.value])).toEqual([[0, { kind: 'text', value: 'rich text' }], [1, { kind: 'text', value: 'second!' }], [4, undefined]]);
    expect(row3.at(-1)!.style).toBe(2);
    expect(s.used).toEqual({ top: 0, left: 0, bottom: 2, right: 4 });
  });

  it('resolves styles: formats by id and code, fonts with theme colours and tints, solid fills, borders, alignment', () => {
    const wb = readXlsx(xlsx(['<sheetData/>'], { styles: STYLES }));
    expect(wb.defaultFont).toEqual({ name: 'Arial', size: 10 });
    const [plain, styled, date] = wb.styles;
    expect(plain).toEqual({ format: 'General', font: { name: 'Arial', size: 10 }, borders: {} });
    expect(date!.format).toBe('mm-dd-yy');
    expect(styled!.format).toBe('# ##0,00\\ "₽"');
    // accent1 4472C4 darkened by a quarter, as Excel shows it.
    expect(styled!.font).toEqual({ name: 'Calibri', size: 14, bold: true, color: '2F5597' });
    expect(styled!.fill).toBe('FFFF00');
    expect(styled!.borders).toEqual({ left: { style: 'thin', color: 'FF0000' }, bottom: { style: 'double' } });
    expect(styled).toMatchObject({ horizontal: 'center', vertical: 'top', wrap: true, indent: 2, rotation: 45 });
  });

  it('reads columns, rows, merges and the view; skips hidden sheets', () => {
    const sheet = '<sheetViews><sheetView rightToLeft="1"/></sheetViews><sheetFormatPr defaultRowHeight="12.75" baseColWidth="10"/>' +
      '<cols><col min="1" max="2" width="20.5" customWidth="1"/><col min="4" max="4" width="9" hidden="1"/></cols>' +
      '<sheetData><row r="2" ht="30" customHeight="1"><c r="A2"><v>1</v></c></row><row r="5" hidden="1"><c r="A5"><v>2</v></c></row></sheetData>' +
      '<mergeCells count="1"><mergeCell ref="A2:C3"/></mergeCells>';
    const wb = readXlsx(xlsx(['<sheetData/>', sheet], { hidden: [0] }));
    expect(wb.sheets.map((s) => s.name)).toEqual(['S2']);
    const s = wb.sheets[0]!;
    expect([...s.colWidths]).toEqual([[0, 20.5], [1, 20.5], [3, 9]]);
    expect([...s.hiddenCols]).toEqual([3]);
    expect(s.defaultColWidth).toBeUndefined();
    expect(s.baseColWidth).toBe(10);
    expect(s.defaultRowHeight).toBe(12.75);
    expect([...s.rowHeights]).toEqual([[1, 30]]);
    expect([...s.hiddenRows]).toEqual([4]);
    expect(s.merges).toEqual([{ top: 1, left: 0, bottom: 2, right: 2 }]);
    expect(s.rightToLeft).toBe(true);
  });

  it('reads the styles of formatted columns and rows, which their unwritten cells take', () => {
    const styles = '<fonts><font><sz val="11"/><name val="Calibri"/></font></fonts><fills><fill/><fill/><fill><patternFill patternType="solid"><fgColor rgb="FFFFFF00"/></patternFill></fill></fills><cellXfs><xf/><xf fillId="2"/></cellXfs>';
    const sheet = '<cols><col min="2" max="3" style="1"/><col min="5" max="5" width="9"/></cols>' +
      '<sheetData><row r="1"><c r="A1"><v>1</v></c></row><row r="4" s="1" customFormat="1"/><row r="6" s="1"/><row r="7" customFormat="1"><c r="A7" s="1"/></row></sheetData>';
    const s = readXlsx(xlsx([sheet], { styles })).sheets[0]!;
    expect([...s.colStyles!]).toEqual([[1, 1], [2, 1]]);
    // Row 7 is formatted with the default style: it wins over the columns'. Row 6 is not formatted (no customFormat).
    expect([...s.rowStyles!]).toEqual([[3, 1], [6, 0]]);
  });

  it('reads print settings, breaks, headers and footers, and the print area and titles from defined names', () => {
    const sheet = '<sheetPr><pageSetUpPr fitToPage="1"/></sheetPr><sheetData/><printOptions horizontalCentered="1" gridLines="1"/>' +
      '<pageMargins left="0.25" right="0.25" top="1" bottom="1" header="0.5" footer="0.5"/><pageSetup paperSize="9" scale="85" fitToHeight="0" orientation="landscape" pageOrder="overThenDown"/>' +
      '<headerFooter differentFirst="1"><oddHeader>&amp;C&amp;"Arial,Bold"&amp;A</oddHeader><oddFooter>&amp;RPage &amp;P of &amp;N</oddFooter><firstFooter>&amp;Lfirst</firstFooter></headerFooter>' +
      '<rowBreaks count="2"><brk id="40" max="16383" man="1"/><brk id="20" max="16383" man="1"/></rowBreaks><colBreaks count="1"><brk id="5" max="1048575" man="1"/></colBreaks>';
    const names = '<definedName name="_xlnm.Print_Area" localSheetId="0">\'S1\'!$A$1:$H$60,S1!$J$1:$K$5</definedName><definedName name="_xlnm.Print_Titles" localSheetId="0">S1!$A:$B,S1!$1:$2</definedName>';
    const p = readXlsx(xlsx([sheet], { names })).sheets[0]!.print;
    expect(p).toMatchObject({ orientation: 'landscape', paper: { width: 595.28, height: 841.89 }, scale: 85, fitTo: { width: 1, height: 0 }, pageOrder: 'overThenDown', centerHorizontally: true, gridLines: true });
    expect(p.margins).toEqual({ left: 18, right: 18, top: 72, bottom: 72, header: 36, footer: 36 });
    expect(p.rowBreaks).toEqual([20, 40]);
    expect(p.colBreaks).toEqual([5]);
    expect(p.header).toEqual({ odd: '&C&"Arial,Bold"&A' });
    expect(p.footer).toEqual({ odd: '&RPage &P of &N', first: '&Lfirst' });
    expect(p.printArea).toEqual([{ top: 0, left: 0, bottom: 59, right: 7 }, { top: 0, left: 9, bottom: 4, right: 10 }]);
    expect(p.titleRows).toEqual({ first: 0, last: 1 });
    expect(p.titleCols).toEqual({ first: 0, last: 1 });
  });

  it('a sheet without page setup prints on A4 (LibreOffice\'s default paper) in portrait at 100% with Excel\'s default margins', () => {
    const p = readXlsx(xlsx(['<sheetData/>'])).sheets[0]!.print;
    expect(p).toMatchObject({ orientation: 'portrait', paper: { width: 595.28, height: 841.89 }, scale: 100, pageOrder: 'downThenOver', rowBreaks: [], colBreaks: [] });
    expect(p.fitTo).toBeUndefined();
    const expected = { left: 50.4, right: 50.4, top: 54, bottom: 54, header: 21.6, footer: 21.6 };
    for (const [side, points] of Object.entries(expected)) expect(p.margins[side as keyof typeof expected]).toBeCloseTo(points, 6);
  });

  it('keeps to Excel\'s grid: references past it are dropped, and what is not a workbook says so', () => {
    expect(cellRef('XFD1048576')).toEqual({ row: 1_048_575, col: 16_383 });
    expect(cellRef('XFE1')).toBeUndefined();
    expect(cellRef('A1048577')).toBeUndefined();
    expect(rangeRef('C3:A1')).toEqual({ top: 0, left: 0, bottom: 2, right: 2 });
    const wb = readXlsx(xlsx(['<sheetData><row r="99999999"><c r="A99999999"><v>1</v></c></row><row r="2"><c r="ZZZZ2"><v>1</v></c><c r="B2"><v>7</v></c></row></sheetData>']));
    expect([...wb.sheets[0]!.rows.keys()]).toEqual([1]);
    expect(wb.sheets[0]!.rows.get(1)!.map((c) => c.col)).toEqual([1]);
    expect(() => readXlsx(strToU8('not a zip'))).toThrow(ConversionError);
    expect(() => readXlsx(strToU8('not a zip'))).toThrow(/zip package \(XLSX\)/);
  });

  it('reads a large sheet part as it inflates, row runs cut between rows, its settings from around the rows', () => {
    const rows: string[] = [];
    for (let r = 1; r <= 60_000; r++) rows.push(`<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>row ${r} &amp; more</t></is></c><c r="B${r}"><v>${r / 4}</v></c></row>`);
    const sheet = `<cols><col min="1" max="1" width="30" customWidth="1"/></cols><sheetData>${rows.join('')}</sheetData><mergeCells count="1"><mergeCell ref="C1:D2"/></mergeCells><pageSetup paperSize="9" orientation="landscape"/>`;
    const bytes = xlsx([sheet]);
    const s = readXlsx(bytes).sheets[0]!;
    expect(s.rows.size).toBe(60_000);
    expect(s.rows.get(0)).toEqual([{ row: 0, col: 0, value: { kind: 'text', value: 'row 1 & more' }, style: 0 }, { row: 0, col: 1, value: { kind: 'number', value: 0.25 }, style: 0 }]);
    expect(s.rows.get(59_999)![0]!.value).toEqual({ kind: 'text', value: 'row 60000 & more' });
    expect(s.colWidths.get(0)).toBe(30);
    expect(s.merges).toEqual([{ top: 0, left: 2, bottom: 1, right: 3 }]);
    expect(s.print.orientation).toBe('landscape');
  });

  it('prints a pattern fill as its foreground mixed over its background by the pattern\'s cover, as LibreOffice does', () => {
    const styles = '<fills><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>' +
      '<fill><patternFill patternType="mediumGray"><fgColor rgb="FF000000"/><bgColor rgb="FFFFFFFF"/></patternFill></fill><fill><patternFill patternType="lightGray"><fgColor rgb="FFFF0000"/></patternFill></fill></fills>' +
      '<fonts><font><sz val="11"/><name val="Calibri"/></font></fonts><cellXfs><xf/><xf fillId="2"/><xf fillId="3"/><xf fillId="1"/></cellXfs>';
    const wb = readXlsx(xlsx(['<sheetData/>'], { styles }));
    expect(wb.styles.map((st) => st.fill)).toEqual([undefined, '808080', 'FFBFBF', 'DFDFDF']);
  });

  it('a sheet or the shared strings whose zip data inflates past its declared size is a damaged workbook, not a blank print', () => {
    const rows = Array.from({ length: 300 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${i}</v></c></row>`).join('');
    for (const part of ['xl/worksheets/sheet1.xml', 'xl/sharedStrings.xml']) {
      const lying = declaredSize(xlsx([`<sheetData>${rows}</sheetData>`], { strings: '<si><t>one</t></si>'.repeat(200) }), part, 40);
      let err: unknown;
      try {
        readXlsx(lying);
      } catch (e) {
        err = e;
      }
      expect(err, part).toBeInstanceOf(ConversionError);
      expect((err as ConversionError).problem).toBe('corrupt');
      expect((err as Error).message).toContain(part);
    }
  });
});

/** The archive with `name`'s uncompressed size rewritten to `size` in its local header and the central directory. */
function declaredSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  const named = (at: number, length: number) => new TextDecoder().decode(out.subarray(at, at + length)) === name;
  for (let p = 0; p + 46 <= out.length; p++) {
    const sig = view.getUint32(p, true);
    if (sig === 0x04034b50 && named(p + 30, view.getUint16(p + 26, true))) view.setUint32(p + 22, size, true);
    if (sig === 0x02014b50 && named(p + 46, view.getUint16(p + 28, true))) view.setUint32(p + 24, size, true);
  }
  return out;
}
