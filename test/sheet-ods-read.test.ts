/**
 * The ODS reader of the spreadsheet converter (issue 42, src/convert/sheet/read/ods/): values of
 * every type, repeated rows and columns (and the repeats LibreOffice pads a table with, which must
 * not make cells), merges, sizes in points, hidden tables, rows and columns, data styles as Excel
 * format codes, cell styles through their parents, print settings and header codes from master
 * pages, print ranges and header rows; encrypted and damaged packages; and two files LibreOffice
 * wrote (test/fixtures/sheet/README.md).
 */
import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { readOds } from '../src/convert/sheet/read/ods/index';
import { formatValue } from '../src/convert/sheet/number-format';
import { ConversionError } from '../src/convert/errors';
import { LimitExceeded } from '../src/lib/limits';
import type { Workbook } from '../src/convert/sheet/model';
import featuresUrl from './fixtures/sheet/lo__features.ods?url&inline';
import nativeUrl from './fixtures/sheet/lo__native.ods?url&inline';

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" ' +
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" ' +
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0" xmlns:loext="urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0" office:version="1.3"';

interface Parts {
  /** content.xml's automatic styles (ce1, co1, ro1, ta1, data styles). */
  automatic?: string;
  /** styles.xml's styles (Default and named cell styles, data styles). */
  styles?: string;
  /** styles.xml's automatic styles (page layouts, header text styles) and master pages. */
  layouts?: string;
  masters?: string;
  manifest?: string;
  mimetype?: string;
  /** Leave content.xml out of the package. */
  noContent?: boolean;
  /** Other parts of the package (pictures, embedded objects). */
  files?: Record<string, Uint8Array>;
}

const FACES = '<office:font-face-decls><style:font-face style:name="Arial1" svg:font-family="Arial"/><style:font-face style:name="Liberation Serif" svg:font-family="&apos;Liberation Serif&apos;"/></office:font-face-decls>';
const DEFAULT_STYLE = '<style:default-style style:family="table-cell"><style:text-properties style:font-name="Liberation Serif" fo:font-size="10pt" fo:country="RU"/></style:default-style>';

function contentXml(tables: string, automatic = ''): string {
  return `<office:document-content ${NS}>${FACES}<office:automatic-styles>${automatic}</office:automatic-styles><office:body><office:spreadsheet>${tables}</office:spreadsheet></office:body></office:document-content>`;
}

function ods(tables: string, p: Parts = {}): Uint8Array {
  const files: Record<string, Uint8Array> = {
    mimetype: strToU8(p.mimetype ?? 'application/vnd.oasis.opendocument.spreadsheet'),
    'META-INF/manifest.xml': strToU8(p.manifest ?? '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/></manifest:manifest>'),
    'styles.xml': strToU8(`<office:document-styles ${NS}>${FACES}<office:styles>${DEFAULT_STYLE}${p.styles ?? ''}</office:styles><office:automatic-styles>${p.layouts ?? ''}</office:automatic-styles><office:master-styles>${p.masters ?? ''}</office:master-styles></office:document-styles>`),
  };
  if (!p.noContent) files['content.xml'] = strToU8(contentXml(tables, p.automatic));
  return zipSync({ ...files, ...p.files });
}

const table = (body: string, attrs = 'table:name="S1"') => `<table:table ${attrs}>${body}</table:table>`;
const row = (cells: string, attrs = '') => `<table:table-row${attrs ? ' ' + attrs : ''}>${cells}</table:table-row>`;
const cellsOf = (wb: Workbook, sheet = 0) => [...wb.sheets[sheet]!.rows.values()].flat();
const printed = (wb: Workbook, r: number, c: number, sheet = 0) => {
  const cell = wb.sheets[sheet]!.rows.get(r)?.find((x) => x.col === c);
  return cell?.value ? formatValue(cell.value, wb.styles[cell.style]!.format, wb.date1904) : undefined;
};
const bytes = (dataUrl: string) => Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(',') + 1)), (c) => c.charCodeAt(0));

describe('the ODS reader', () => {
  it('reads values of every type, and text from paragraphs, spans, spaces, tabs and line breaks', () => {
    const cells =
      '<table:table-cell office:value-type="float" office:value="42.5"/><table:table-cell office:value-type="percentage" office:value="0.25"/>' +
      '<table:table-cell office:value-type="currency" office:currency="RUB" office:value="-7"/><table:table-cell office:value-type="date" office:date-value="2024-03-01T12:00:00"/>' +
      '<table:table-cell office:value-type="time" office:time-value="PT36H30M00S"/><table:table-cell office:value-type="boolean" office:boolean-value="true"/>' +
      '<table:table-cell office:value-type="string"><text:p>a<text:s text:c="3"/>b<text:tab/>c</text:p><text:p><text:span>sp</text:span>an<text:line-break/>end</text:p></table:table-cell>' +
      '<table:table-cell office:value-type="string" office:string-value="" calcext:value-type="error"><text:p>#DIV/0!</text:p></table:table-cell>';
    const more =
      '<table:table-cell office:value-type="string" office:string-value="txt"><text:p>Total: txt</text:p></table:table-cell>' +
      '<table:table-cell table:formula="of:=&quot;&quot;"><text:p/></table:table-cell>' +
      '<table:table-cell table:formula="of:=1=1" office:value-type="float" office:value="1"><text:p>TRUE</text:p></table:table-cell>' +
      '<table:table-cell office:value-type="date" office:date-value="1900-01-01"/><table:table-cell/>';
    const wb = readOds(ods(table(row(cells) + row(more))));
    const values = cellsOf(wb).map((c) => c.value);
    expect(values).toEqual([
      { kind: 'number', value: 42.5 }, { kind: 'number', value: 0.25 }, { kind: 'number', value: -7 }, { kind: 'number', value: 45352.5 },
      { kind: 'number', value: 1.5208333333333333 }, { kind: 'bool', value: true }, { kind: 'text', value: 'a   b\tc\nspan\nend' }, { kind: 'error', value: '#DIV/0!' },
      { kind: 'text', value: 'txt' }, { kind: 'text', value: '' }, { kind: 'bool', value: true },
      // 1 January 1900 is Excel's serial 1 (its 29 February 1900 counted in after it).
      { kind: 'number', value: 1 },
    ]);
    expect(wb.date1904).toBe(false);
  });

  it("cuts a cell's text at Excel's 32,767 characters before building more (text:s c=\"1000\" 100 times over)", () => {
    const spaces = '<text:s text:c="1000"/>'.repeat(100);
    const wb = readOds(ods(table(row(`<table:table-cell office:value-type="string"><text:p>${spaces}</text:p><text:p>more</text:p></table:table-cell>`))));
    const value = cellsOf(wb)[0]!.value as { value: string };
    expect(value.value.length).toBe(32_767);
  });

  it('counts dates from 1904 where table:null-date says so', () => {
    const calc = '<table:calculation-settings><table:null-date table:date-value="1904-01-01"/></table:calculation-settings>';
    const wb = readOds(ods(calc + table(row('<table:table-cell office:value-type="date" office:date-value="1904-01-03"/>'))));
    expect(wb.date1904).toBe(true);
    expect(cellsOf(wb)[0]!.value).toEqual({ kind: 'number', value: 2 });
  });

  it('repeats cells and rows, and keeps only cells with a value or a style of their own', () => {
    const automatic = '<style:style style:name="ce1" style:family="table-cell" style:parent-style-name="Default"><style:table-cell-properties fo:background-color="#ffff00"/></style:style>';
    const body =
      row('<table:table-cell office:value-type="float" office:value="1" table:number-columns-repeated="3"/><table:table-cell/><table:table-cell table:style-name="ce1" table:number-columns-repeated="2"/><table:table-cell table:number-columns-repeated="16378"/>', 'table:number-rows-repeated="2"') +
      row('<table:table-cell table:number-columns-repeated="16384"/>', 'table:number-rows-repeated="5"') +
      row('<table:table-cell/><table:table-cell office:value-type="string"><text:p>x</text:p></table:table-cell>');
    const s = readOds(ods(table(body), { automatic })).sheets[0]!;
    expect([...s.rows.keys()]).toEqual([0, 1, 7]);
    expect(s.rows.get(1)!.map((c) => [c.col, c.value?.kind, c.style > 0])).toEqual([[0, 'number', false], [1, 'number', false], [2, 'number', false], [4, undefined, true], [5, undefined, true]]);
    expect(s.rows.get(7)!.map((c) => c.col)).toEqual([1]);
    expect(s.used).toEqual({ top: 0, left: 0, bottom: 7, right: 5 });
  });

  it('pads to the grid as LibreOffice does without making cells, and refuses a sheet of more cells than it prints before making them', () => {
    const automatic = '<style:style style:name="ce1" style:family="table-cell"><style:table-cell-properties fo:border="0.74pt solid #000000"/></style:style>';
    // A styled empty cell to the grid's right edge is the row's formatting; an empty styled row to its foot, the columns'.
    const padded =
      row('<table:table-cell office:value-type="float" office:value="1"/><table:table-cell table:style-name="ce1" table:number-columns-repeated="16383"/>') +
      row('<table:table-cell table:style-name="ce1" table:number-columns-repeated="3"/><table:table-cell table:number-columns-repeated="16381"/>', 'table:number-rows-repeated="1048575"') +
      row('<table:table-cell office:value-type="float" office:value="2"/>', 'table:number-rows-repeated="1000000"');
    const started = Date.now();
    const s = readOds(ods(table(padded), { automatic })).sheets[0]!;
    expect(cellsOf({ sheets: [s] } as Workbook).map((c) => [c.row, c.col])).toEqual([[0, 0]]);
    expect(Date.now() - started).toBeLessThan(2000);
    const hostile = row('<table:table-cell office:value-type="float" office:value="1" table:number-columns-repeated="16000"/>', 'table:number-rows-repeated="1000000"');
    const t0 = Date.now();
    expect(() => readOds(ods(table(hostile)))).toThrow(LimitExceeded);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('reads merges, leaves covered cells their styles but not their values, and skips hidden tables', () => {
    const automatic =
      '<style:style style:name="ta1" style:family="table"><style:table-properties table:display="true" style:writing-mode="rl-tb"/></style:style>' +
      '<style:style style:name="ta2" style:family="table"><style:table-properties table:display="false"/></style:style>' +
      '<style:style style:name="ce1" style:family="table-cell"><style:table-cell-properties fo:border-right="0.74pt solid #000000"/></style:style>';
    const merged =
      row('<table:table-cell office:value-type="string" table:number-columns-spanned="3" table:number-rows-spanned="2"><text:p>M</text:p></table:table-cell><table:covered-table-cell office:value-type="string"><text:p>hidden</text:p></table:covered-table-cell><table:covered-table-cell table:style-name="ce1"/>') +
      row('<table:covered-table-cell table:number-columns-repeated="2"/><table:covered-table-cell table:style-name="ce1"/>');
    const wb = readOds(ods(table(merged, 'table:name="First" table:style-name="ta1"') + table(row('<table:table-cell/>'), 'table:name="Hidden" table:style-name="ta2"') + table('', 'table:name="Empty"'), { automatic }));
    expect(wb.sheets.map((s) => s.name)).toEqual(['First', 'Empty']);
    const s = wb.sheets[0]!;
    expect(s.merges).toEqual([{ top: 0, left: 0, bottom: 1, right: 2 }]);
    expect(cellsOf(wb).map((c) => [c.row, c.col, c.value?.kind])).toEqual([[0, 0, 'text'], [0, 2, undefined], [1, 2, undefined]]);
    expect(wb.styles[cellsOf(wb)[1]!.style]!.borders).toEqual({ right: { style: 'thin', color: '000000' } });
    expect(s.rightToLeft).toBe(true);
    expect(wb.sheets[1]!.rows.size).toBe(0);
  });

  it('gives column widths in points, the most common width and height as the defaults, and hidden columns and rows', () => {
    const automatic =
      '<style:style style:name="co1" style:family="table-column"><style:table-column-properties style:column-width="2.54cm"/></style:style>' +
      '<style:style style:name="co2" style:family="table-column"><style:table-column-properties style:column-width="0.5in" fo:break-before="page"/></style:style>' +
      '<style:style style:name="co3" style:family="table-column"><style:table-column-properties style:column-width="64pt"/></style:style>' +
      '<style:style style:name="ro1" style:family="table-row"><style:table-row-properties style:row-height="30pt" style:use-optimal-row-height="false"/></style:style>' +
      '<style:style style:name="ro2" style:family="table-row"><style:table-row-properties style:row-height="0.178in" fo:break-before="page"/></style:style>' +
      '<style:style style:name="ro3" style:family="table-row"><style:table-row-properties style:row-height="12.8pt"/></style:style>';
    const columns =
      '<table:table-column table:style-name="co1"/><table:table-column table:style-name="co2" table:number-columns-repeated="2"/>' +
      '<table:table-column table:style-name="co3" table:visibility="collapse"/><table:table-column table:style-name="co3" table:number-columns-repeated="16380"/>';
    const rows = row('<table:table-cell office:value-type="float" office:value="1" table:number-columns-repeated="5"/>', 'table:style-name="ro1"') +
      row('<table:table-cell/>', 'table:style-name="ro3" table:visibility="collapse"') + row('<table:table-cell/>', 'table:style-name="ro2"') +
      row('<table:table-cell office:value-type="float" office:value="1"/>', 'table:style-name="ro3"') + row('<table:table-cell/>', 'table:style-name="ro3" table:number-rows-repeated="1048572"');
    const s = readOds(ods(table(columns + rows), { automatic })).sheets[0]!;
    expect(s.widthsInPoints).toBe(true);
    expect([...s.colWidths]).toEqual([[0, 72], [1, 36], [2, 36]]);
    expect(s.defaultColWidth).toBe(64);
    expect([...s.hiddenCols]).toEqual([3]);
    expect(s.defaultRowHeight).toBe(12.8);
    expect([...s.rowHeights]).toEqual([[0, 30], [2, 12.816]]);
    expect([...s.hiddenRows]).toEqual([1]);
    expect(s.print.colBreaks).toEqual([1, 2]);
    expect(s.print.rowBreaks).toEqual([2]);
  });

  it('translates data styles into Excel codes the shared formatter prints', () => {
    const dataStyles =
      '<number:number-style style:name="N1"><number:number number:decimal-places="2" number:min-decimal-places="2" number:min-integer-digits="1" number:grouping="true"/></number:number-style>' +
      '<number:currency-style style:name="N2"><number:number number:decimal-places="2" number:min-decimal-places="2" number:min-integer-digits="1" number:grouping="true"/><number:text> </number:text><number:currency-symbol number:language="ru" number:country="RU">₽</number:currency-symbol></number:currency-style>' +
      '<number:percentage-style style:name="N3"><number:number number:decimal-places="1" number:min-decimal-places="1" number:min-integer-digits="1"/><number:text>%</number:text></number:percentage-style>' +
      '<number:date-style style:name="N4"><number:day number:style="long"/><number:text>.</number:text><number:month number:style="long"/><number:text>.</number:text><number:year number:style="long"/><number:text> </number:text><number:hours/><number:text>:</number:text><number:minutes number:style="long"/></number:date-style>' +
      '<number:number-style style:name="N5P0" style:volatile="true"><number:number number:decimal-places="0" number:min-integer-digits="1" number:grouping="true"/></number:number-style>' +
      '<number:number-style style:name="N5"><style:text-properties fo:color="#ff0000"/><number:text>-</number:text><number:number number:decimal-places="0" number:min-integer-digits="1" number:grouping="true"/><style:map style:condition="value()&gt;=0" style:apply-style-name="N5P0"/></number:number-style>' +
      '<number:time-style style:name="N6" number:truncate-on-overflow="false"><number:hours/><number:text>:</number:text><number:minutes number:style="long"/><number:text>:</number:text><number:seconds number:style="long"/></number:time-style>' +
      '<number:currency-style style:name="N7"><number:currency-symbol/><number:number number:decimal-places="0" number:min-integer-digits="1"/></number:currency-style>' +
      '<number:number-style style:name="N8"><number:number number:min-integer-digits="1"/></number:number-style>' +
      '<number:boolean-style style:name="N9"><number:boolean/></number:boolean-style>' +
      '<number:text-style style:name="N10"><number:text>Total: </number:text><number:text-content/></number:text-style>' +
      '<number:number-style style:name="N11"><number:scientific-number number:decimal-places="2" number:min-integer-digits="1" number:min-exponent-digits="2"/></number:number-style>' +
      '<number:number-style style:name="N12"><number:fraction number:min-integer-digits="0" number:min-numerator-digits="1" number:min-denominator-digits="1"/></number:number-style>' +
      '<number:date-style style:name="N13"><number:day-of-week number:style="long"/><number:text>, </number:text><number:month number:textual="true"/><number:text> </number:text><number:day/></number:date-style>';
    const styleOf = (i: number) => `<style:style style:name="ce${i}" style:family="table-cell" style:parent-style-name="Default" style:data-style-name="N${i}"/>`;
    const cases: [number, number | string, string, string][] = [
      [1, 1234567.891, '#,##0.00', '1,234,567.89'], [2, 1234.5, '#,##0.00 "₽"', '1,234.50 ₽'], [3, 0.256, '0.0%', '25.6%'],
      [4, 45352.75, 'dd.mm.yyyy h:mm', '01.03.2024 18:00'], [5, -1234, '#,##0;[Red]-#,##0', '-1,234'], [6, 1.5, '[h]:mm:ss', '36:00:00'],
      [7, 5, '"₽"0', '₽5'], [8, 0.5, 'General', '0.5'], [9, 0, '"TRUE";"TRUE";"FALSE"', 'FALSE'], [10, 'txt', '"Total:" @', 'Total: txt'],
      [11, 12345.678, '0.00E+00', '1.23E+04'], [12, 2.25, '# ?/?', '2 1/4'], [13, 45352, 'dddd, mmm d', 'Friday, Mar 1'],
    ];
    const cells = cases.map(([i, v]) => (typeof v === 'number' ? `<table:table-cell table:style-name="ce${i}" office:value-type="float" office:value="${v}"/>` : `<table:table-cell table:style-name="ce${i}" office:value-type="string"><text:p>${v}</text:p></table:table-cell>`)).join('');
    const wb = readOds(ods(table(row(cells)), { styles: dataStyles, automatic: cases.map(([i]) => styleOf(i)).join('') }));
    cases.forEach(([, , code, text], col) => {
      const cell = wb.sheets[0]!.rows.get(0)![col]!;
      expect(wb.styles[cell.style]!.format).toBe(code);
      expect(formatValue(cell.value!, code).text).toBe(text);
    });
    expect(printed(wb, 0, 4)).toEqual({ text: '-1,234', color: 'FF0000' });
  });

  it('resolves cell styles through their parents: fonts, fills, borders and alignment; style 0 is the default', () => {
    const styles =
      '<style:style style:name="Default" style:family="table-cell"><style:text-properties style:font-name="Arial1" fo:font-size="11pt"/></style:style>' +
      '<style:style style:name="Heading" style:family="table-cell" style:parent-style-name="Default"><style:table-cell-properties fo:border="0.06pt solid #000000"/><style:text-properties fo:font-weight="bold" fo:font-size="14pt" fo:color="#c00000"/></style:style>';
    const automatic =
      '<style:style style:name="ce1" style:family="table-cell" style:parent-style-name="Heading"><style:table-cell-properties fo:background-color="#ffff00" fo:border-left="1.76pt solid #ff0000" fo:border-bottom="1.76pt double-thin #000000" fo:wrap-option="wrap" style:vertical-align="top" style:text-align-source="fix"/><style:paragraph-properties fo:text-align="center"/><style:text-properties fo:font-style="italic" style:text-underline-style="solid" style:text-line-through-style="solid"/></style:style>' +
      '<style:style style:name="ce2" style:family="table-cell" style:parent-style-name="Default"><style:table-cell-properties fo:border-top="2.49pt solid #0000ff" fo:border-right="0.74pt dotted #000000" fo:border-bottom="0.74pt fine-dashed #000000" style:rotation-angle="45" style:shrink-to-fit="true" style:vertical-align="middle" style:text-align-source="fix"/><style:paragraph-properties fo:text-align="end"/></style:style>' +
      '<style:style style:name="ce3" style:family="table-cell" style:parent-style-name="Default"><style:table-cell-properties style:text-align-source="fix" style:rotation-angle="315"/><style:paragraph-properties fo:text-align="start" fo:margin-left="0.3819in"/><style:text-properties style:font-name="Nowhere" fo:font-family="Courier New"/></style:style>' +
      '<style:style style:name="ce4" style:family="table-cell" style:parent-style-name="Default"><style:table-cell-properties style:text-align-source="value-type"/><style:paragraph-properties fo:text-align="center"/></style:style>';
    const cells = [1, 2, 3, 4].map((i) => `<table:table-cell table:style-name="ce${i}" office:value-type="float" office:value="${i}"/>`).join('') + '<table:table-cell office:value-type="float" office:value="5"/>';
    const wb = readOds(ods(table(row(cells)), { styles, automatic }));
    expect(wb.defaultFont).toEqual({ name: 'Arial', size: 11 });
    expect(wb.styles[0]).toEqual({ format: 'General', font: { name: 'Arial', size: 11 }, borders: {} });
    const [a, b, c, d, plain] = wb.sheets[0]!.rows.get(0)!.map((cell) => wb.styles[cell.style]!);
    expect(plain).toBe(wb.styles[0]);
    expect(a).toEqual({
      format: 'General', font: { name: 'Arial', size: 14, bold: true, italic: true, underline: true, strike: true, color: 'C00000' }, fill: 'FFFF00',
      borders: { left: { style: 'medium', color: 'FF0000' }, right: { style: 'hair', color: '000000' }, top: { style: 'hair', color: '000000' }, bottom: { style: 'double', color: '000000' } },
      horizontal: 'center', vertical: 'top', wrap: true,
    });
    expect(b).toMatchObject({ horizontal: 'right', vertical: 'center', rotation: 45, shrink: true, borders: { top: { style: 'thick', color: '0000FF' }, right: { style: 'dotted' }, bottom: { style: 'dashed' } } });
    // Three spaces of Arial 11 a level, as LibreOffice imports an Excel indent: 0.3819 in is three levels.
    expect(c).toMatchObject({ horizontal: 'left', indent: 3, rotation: -45, font: { name: 'Courier New' } });
    expect(d!.horizontal).toBeUndefined();
  });

  const LAYOUT =
    '<style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="29.7cm" fo:page-height="21.001cm" style:print-orientation="landscape" fo:margin-top="0.4in" fo:margin-bottom="0.35in" fo:margin-left="0.5in" fo:margin-right="0.6in" ' +
    'style:print-page-order="ltr" style:scale-to="85%" style:table-centering="both" style:print="grid headers zero-values"/>' +
    '<style:header-style><style:header-footer-properties fo:min-height="0.8in" fo:margin-bottom="0.6in"/></style:header-style><style:footer-style><style:header-footer-properties svg:height="0.75in"/></style:footer-style></style:page-layout>' +
    '<style:page-layout style:name="pm2"><style:page-layout-properties fo:page-width="8.5in" fo:page-height="11in" style:scale-to-X="1" style:print-page-order="ttb"/></style:page-layout>' +
    '<style:style style:name="MT1" style:family="text"><style:text-properties style:font-name="Arial1" fo:font-weight="bold" fo:font-size="14pt"/></style:style>' +
    '<style:style style:name="MT2" style:family="text"><style:text-properties fo:font-style="italic" style:text-underline-style="solid" fo:color="#ff0000"/></style:style>';
  const MASTERS =
    '<style:master-page style:name="Report" style:page-layout-name="pm1">' +
    '<style:header><style:region-left><text:p><text:span text:style-name="MT1">Left &amp; more</text:span></text:p></style:region-left><style:region-center><text:p><text:sheet-name>???</text:sheet-name></text:p></style:region-center>' +
    '<style:region-right><text:p>Page <text:page-number>1</text:page-number> of <text:page-count>9</text:page-count></text:p></style:region-right></style:header>' +
    '<style:header-left style:display="false"/><style:header-first><text:p>First <text:span text:style-name="MT1">2024</text:span></text:p></style:header-first>' +
        // A space between two elements is written <text:s/>, as LibreOffice writes it (the parser drops whitespace between elements).
    '<style:footer><text:p><text:date>01/01/2024</text:date><text:s/><text:time>10:00</text:time></text:p><text:p><text:file-name text:display="name-and-extension">f.ods</text:file-name><text:s/><text:span text:style-name="MT2">x</text:span>y</text:p></style:footer>' +
    '<style:footer-left><style:region-right><text:p><text:title>T</text:title></text:p></style:region-right></style:footer-left></style:master-page>' +
    '<style:master-page style:name="Plain" style:page-layout-name="pm2"><style:header style:display="false"><text:p>hidden</text:p></style:header></style:master-page>';
  const TABLE_STYLES =
    '<style:style style:name="ta1" style:family="table" style:master-page-name="Report"/><style:style style:name="ta2" style:family="table" style:master-page-name="Plain"/>';

  it('reads print settings from the master page: paper, orientation, margins as Excel means them, scale or fit, order, centring, grid and headings', () => {
    const wb = readOds(ods(table(row('<table:table-cell/>'), 'table:name="R" table:style-name="ta1"') + table(row('<table:table-cell/>'), 'table:name="P" table:style-name="ta2"'), { layouts: LAYOUT, masters: MASTERS, automatic: TABLE_STYLES }));
    const [report, plain] = wb.sheets.map((s) => s.print);
    expect(report).toMatchObject({ orientation: 'landscape', paper: { width: 595.28, height: 841.89 }, scale: 85, pageOrder: 'overThenDown', centerHorizontally: true, centerVertically: true, gridLines: true, headings: true });
    expect(report!.fitTo).toBeUndefined();
    // LibreOffice's margin runs to the header, whose height holds the gap below it: Excel's top margin is their sum, its header margin the page margin.
    expect(report!.margins).toEqual({ left: 36, right: 43.2, top: 86.4, bottom: 79.2, header: 28.8, footer: 25.2 });
    expect(plain).toMatchObject({ orientation: 'portrait', paper: { width: 612, height: 792 }, scale: 100, fitTo: { width: 1, height: 0 }, pageOrder: 'downThenOver' });
    expect(plain!.margins).toMatchObject({ top: 56.693, header: 21.6 });
    expect(plain!.header).toBeUndefined();
  });

  it('writes headers and footers as Excel header codes: regions, fields, fonts of spans, first and even pages', () => {
    const wb = readOds(ods(table(row('<table:table-cell/>'), 'table:name="R" table:style-name="ta1"'), { layouts: LAYOUT, masters: MASTERS, automatic: TABLE_STYLES }));
    const { header, footer } = wb.sheets[0]!.print;
    expect(header).toEqual({ odd: '&L&14&"Arial,Bold"Left && more&C&A&RPage &P of &N', first: '&CFirst &14&"Arial,Bold"2024' });
    expect(footer).toEqual({ odd: '&C&D &T\n&F &"-,Italic"&U&KFF0000x&"-,Regular"&U&K000000y', even: '&R&F' });
  });

  it('reads print ranges and header rows and columns', () => {
    const body =
      '<table:table-header-columns><table:table-column/></table:table-header-columns><table:table-column table:number-columns-repeated="3"/>' +
      row('<table:table-cell/>') +
      '<table:table-header-rows>' + row('<table:table-cell office:value-type="string"><text:p>Title</text:p></table:table-cell>', 'table:number-rows-repeated="2"') + '</table:table-header-rows>' +
      '<table:table-row-group>' + row('<table:table-cell office:value-type="float" office:value="1"/>') + '<table:table-row-group>' + row('<table:table-cell office:value-type="float" office:value="2"/>') + '</table:table-row-group></table:table-row-group>';
    const s = readOds(ods(table(body, `table:name="My.Sheet" table:print-ranges="'My.Sheet'.A1:'My.Sheet'.D20 $'My.Sheet'.$F$2:.$G$5"`))).sheets[0]!;
    expect(s.print.printArea).toEqual([{ top: 0, left: 0, bottom: 19, right: 3 }, { top: 1, left: 5, bottom: 4, right: 6 }]);
    expect(s.print.titleRows).toEqual({ first: 1, last: 2 });
    expect(s.print.titleCols).toEqual({ first: 0, last: 0 });
    expect([...s.rows.keys()]).toEqual([1, 2, 3, 4]);
  });

  it('refuses encrypted packages as password-protected, and tells damaged ones and other documents apart', () => {
    const manifest = '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"><manifest:encryption-data manifest:checksum-type="SHA1/1K"/></manifest:file-entry></manifest:manifest>';
    const problem = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof ConversionError ? e.problem : String(e);
      }
      return undefined;
    };
    expect(problem(() => readOds(ods(table(''), { manifest })))).toBe('password');
    expect(() => readOds(ods(table(''), { manifest }))).toThrow(/password-protected/);
    expect(problem(() => readOds(ods(table(''), { noContent: true })))).toBe('corrupt');
    expect(problem(() => readOds(strToU8('PK\u0003\u0004 not really a zip')))).toBe('corrupt');
    expect(problem(() => readOds(ods(table(''), { mimetype: 'application/vnd.oasis.opendocument.text' })))).toBe('not_word');
  });

  it('reads a flat OpenDocument spreadsheet (.fods): styles and tables in one document', () => {
    const fods =
      `<office:document ${NS}><office:styles>${DEFAULT_STYLE}<number:number-style style:name="N1"><number:number number:decimal-places="1" number:min-integer-digits="1"/></number:number-style></office:styles>` +
      '<office:automatic-styles><style:style style:name="ce1" style:family="table-cell" style:data-style-name="N1"/></office:automatic-styles>' +
      `<office:body><office:spreadsheet>${table(row('<table:table-cell table:style-name="ce1" office:value-type="float" office:value="2.25"/>'), 'table:name="Flat"')}</office:spreadsheet></office:body></office:document>`;
    const wb = readOds(strToU8(fods));
    expect(wb.sheets[0]!.name).toBe('Flat');
    expect(wb.defaultFont).toEqual({ name: 'Liberation Serif', size: 10 });
    expect(printed(wb, 0, 0)).toEqual({ text: '2.3' });
  });

  it('reads a workbook LibreOffice saved from an XLSX as that XLSX prints', () => {
    const wb = readOds(bytes(featuresUrl));
    expect(wb.sheets.map((s) => s.name)).toEqual(['Values', 'Print', 'RTL']);
    const texts = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((c) => printed(wb, 0, c)?.text);
    expect(texts).toEqual(['1,234.50', '1,234.50 ₽', '25.6%', '16.07.2023', '-5', '18:00', '1.23E+04', '2 1/4', '36:00:00']);
    expect(printed(wb, 0, 4)!.color).toBe('FF0000');
    expect([1, 2, 3, 4].map((c) => cellsOf(wb).find((x) => x.row === 1 && x.col === c)!.value)).toEqual([{ kind: 'text', value: 'two\nlines' }, { kind: 'bool', value: true }, { kind: 'error', value: '#DIV/0!' }, { kind: 'text', value: 'Text!' }]);
    const values = wb.sheets[0]!;
    const style = (r: number, c: number) => wb.styles[values.rows.get(r)!.find((x) => x.col === c)!.style]!;
    expect(style(2, 0)).toMatchObject({ font: { name: 'Times New Roman', size: 14, bold: true, italic: true, underline: true, color: 'C00000' }, fill: 'FFFF00', horizontal: 'center', vertical: 'top', wrap: true });
    expect(style(2, 0).borders).toEqual({ left: { style: 'thin', color: 'FF0000' }, right: { style: 'medium', color: '000000' }, top: { style: 'dashed', color: '0000FF' }, bottom: { style: 'double', color: '000000' } });
    expect(style(2, 1)).toMatchObject({ font: { name: 'Courier New', size: 9, strike: true, color: '0070C0' }, horizontal: 'left', indent: 2, borders: { bottom: { style: 'thick' } } });
    expect(style(2, 2)).toMatchObject({ horizontal: 'right', vertical: 'center', rotation: 45, shrink: true, borders: { left: { style: 'hair' }, right: { style: 'dotted' } } });
    expect(values.merges).toEqual([{ top: 4, left: 0, bottom: 5, right: 2 }]);
    expect(values.colWidths.get(0)).toBeCloseTo(111, 0);
    expect([...values.hiddenCols]).toEqual([3]);
    expect([...values.hiddenRows]).toEqual([7]);
    expect(values.rowHeights.get(2)).toBeCloseTo(30, 1);
    const p = wb.sheets[1]!.print;
    expect(p).toMatchObject({ orientation: 'landscape', paper: { width: 595.28, height: 841.89 }, fitTo: { width: 1, height: 0 }, pageOrder: 'overThenDown', centerHorizontally: true, centerVertically: true, gridLines: true, headings: true });
    expect(p.margins).toEqual({ left: 36, right: 43.2, top: 86.4, bottom: 79.2, header: 28.8, footer: 25.2 });
    expect(p.printArea).toEqual([{ top: 0, left: 0, bottom: 39, right: 5 }]);
    expect([p.titleRows, p.titleCols, p.rowBreaks, p.colBreaks]).toEqual([{ first: 0, last: 1 }, { first: 0, last: 0 }, [20], [3]]);
    expect(p.header!.odd).toMatch(/^&L&14&"Arial,Bold"Left && more&C.*&A&R.*Page &P of &N$/);
    expect(p.footer!.odd).toMatch(/^&L.*&D &T&C.*&F$/);
    expect(wb.sheets[2]!.rightToLeft).toBe(true);
  });

  it('reads a file LibreOffice wrote itself: its default font, default page style and header and footer, undeclared columns at its default width', () => {
    const wb = readOds(bytes(nativeUrl));
    const s = wb.sheets[0]!;
    expect(wb.defaultFont).toEqual({ name: 'Liberation Sans', size: 10 });
    expect([printed(wb, 1, 0)?.text, printed(wb, 1, 1)?.text, printed(wb, 2, 2)?.text]).toEqual(['Apples', '12.5', '2024-03-02']);
    expect(s.defaultColWidth).toBe(64);
    expect(s.colWidths.get(0)).toBeCloseTo(39.6, 1);
    expect(s.print).toMatchObject({ paper: { width: 595.28, height: 841.89 }, header: { odd: '&C&A' }, footer: { odd: '&CPage &P' } });
    expect(s.print.margins.top).toBeCloseTo(56.693 + 21.26, 1);
  });

  it('reads pictures anchored in cells (offsets into the anchor cell, the end cell and its offsets) and to the page (placed on the cells they cover)', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const frame = (attrs: string, href: string) => `<draw:frame ${attrs}><draw:image xlink:href="${href}" draw:mime-type="image/png"><text:p/></draw:image></draw:frame>`;
    const body =
      '<table:shapes>' + frame('svg:width="1in" svg:height="0.5in" svg:x="90pt" svg:y="20pt"', 'Pictures/b.png') + '</table:shapes>' +
      '<table:table-column table:style-name="co1" table:number-columns-repeated="2"/><table:table-column table:style-name="co2" table:number-columns-repeated="16382"/>' +
      row('<table:table-cell/>', 'table:style-name="ro1"') +
      row('<table:table-cell table:number-columns-repeated="2"/><table:table-cell>' + frame('table:end-cell-address="S1.E9" table:end-x="0.25in" table:end-y="5pt" svg:width="3in" svg:height="2in" svg:x="0.5in" svg:y="13pt"', 'Pictures/a.png') + frame('svg:width="36pt" svg:height="18pt" svg:x="2pt" svg:y="3pt"', 'Pictures/missing.png') + '</table:table-cell>', 'table:style-name="ro1"') +
      row('<table:table-cell/>', 'table:style-name="ro1" table:number-rows-repeated="1048574"');
    const automatic =
      '<style:style style:name="co1" style:family="table-column"><style:table-column-properties style:column-width="50pt"/></style:style>' +
      '<style:style style:name="co2" style:family="table-column"><style:table-column-properties style:column-width="72pt"/></style:style>' +
      '<style:style style:name="ro1" style:family="table-row"><style:table-row-properties style:row-height="15pt"/></style:style>';
    const s = readOds(ods(table(body), { automatic, files: { 'Pictures/a.png': png, 'Pictures/b.png': png } })).sheets[0]!;
    expect(s.drawings).toHaveLength(2);
    // table:shapes come first in the table; (90pt, 20pt) lies 40pt into column B and 5pt into row 2; its far corner (162pt, 56pt) in column C and row 4.
    expect(s.drawings![0]).toMatchObject({ from: { col: 1, colOffset: 40, row: 1, rowOffset: 5 }, to: { col: 2, colOffset: 62, row: 3, rowOffset: 11 }, content: { kind: 'picture', contentType: 'image/png' } });
    expect(s.drawings![1]).toMatchObject({ from: { col: 2, colOffset: 36, row: 1, rowOffset: 13 }, to: { col: 4, colOffset: 18, row: 8, rowOffset: 5 } });
    expect([...(s.drawings![1]!.content as { data: Uint8Array }).data]).toEqual([...png]);
  });

  it("reads an embedded chart from its object's own table: kind, series by columns or by rows, names, categories, colours, title and legend", () => {
    const chartXml = (cls: string, plotStyle: string, series: string, local: string, extra = '') =>
      strToU8(
        `<office:document-content ${NS}><office:automatic-styles>` +
          `<style:style style:name="ch3" style:family="chart"><style:chart-properties ${plotStyle}/></style:style>` +
          '<style:style style:name="ch7" style:family="chart"><style:graphic-properties draw:fill-color="#4f81bd" svg:stroke-color="#156082"/></style:style>' +
          '<style:style style:name="ch8" style:family="chart"><style:graphic-properties draw:fill-color="#c0504d"/></style:style>' +
          '<style:style style:name="ch9" style:family="chart"><style:graphic-properties draw:fill-color="#ccedb1"/></style:style>' +
          `</office:automatic-styles><office:body><office:chart><chart:chart chart:class="chart:${cls}">${extra}<chart:plot-area chart:style-name="ch3">${series}</chart:plot-area>` +
          `<table:table table:name="local-table">${local}</table:table></chart:chart></office:chart></office:body></office:document-content>`,
      );
    const c = (v: string | number) => (typeof v === 'number' ? `<table:table-cell office:value-type="float" office:value="${v}"><text:p>${v}</text:p></table:table-cell>` : `<table:table-cell office:value-type="string"><text:p>${v}</text:p></table:table-cell>`);
    const r = (...cells: (string | number)[]) => `<table:table-row>${cells.map(c).join('')}</table:table-row>`;
    const byRows = chartXml(
      'bar',
      'chart:series-source="rows"',
      '<chart:series chart:style-name="ch7" chart:class="chart:bar"/><chart:series chart:style-name="ch8" chart:class="chart:bar"/>',
      `<table:table-header-rows>${r('', '1', '2', '3')}</table:table-header-rows><table:table-rows>${r('soap', 1, 2, 3)}${r('shampoo', 1, 2, 6)}</table:table-rows>`,
      '<chart:title><text:p>Sales</text:p></chart:title><chart:legend chart:legend-position="bottom"/>',
    );
    const byColumns = chartXml(
      'line',
      'chart:stacked="true"',
      '<chart:series chart:style-name="ch7" chart:class="chart:line"><chart:data-point chart:repeated="1"/><chart:data-point chart:style-name="ch9"/></chart:series>',
      `<table:table-header-rows>${r('', 'col-3')}</table:table-header-rows><table:table-rows>${r('Jan', 3)}${r('Feb', 6)}</table:table-rows>`,
    );
    const frame = (name: string, end: string) =>
      `<draw:frame table:end-cell-address="S1.${end}" table:end-x="0pt" table:end-y="0pt" svg:x="0pt" svg:y="0pt" svg:width="100pt" svg:height="80pt"><draw:object xlink:href="./${name}"><loext:p/></draw:object><draw:image xlink:href="./ObjectReplacements/${name}"/></draw:frame>`;
    const svm = strToU8('VCLMTF not a picture');
    const body = row(`<table:table-cell>${frame('Object 1', 'F10')}</table:table-cell><table:table-cell>${frame('Object 2', 'H12')}</table:table-cell><table:table-cell>${frame('Object 3', 'J12')}</table:table-cell>`);
    const files = { 'Object 1/content.xml': byRows, 'Object 2/content.xml': byColumns, 'ObjectReplacements/Object 1': svm, 'ObjectReplacements/Object 3': svm };
    const s = readOds(ods(table(body), { files })).sheets[0]!;
    // Object 3 has no chart and its replacement is no PNG or JPEG: it prints nothing.
    expect(s.drawings!.map((d) => d.content.kind)).toEqual(['chart', 'chart']);
    const [bar, line] = s.drawings!.map((d) => (d.content as { chart: import('../src/convert/office/model').Chart }).chart);
    expect(bar).toMatchObject({ kind: 'bar', horizontal: false, grouping: 'clustered', categories: ['1', '2', '3'], title: 'Sales', legend: 'b' });
    expect(bar!.series).toEqual([
      { name: 'soap', color: '4F81BD', values: [1, 2, 3], pointColors: [] },
      { name: 'shampoo', color: 'C0504D', values: [1, 2, 6], pointColors: [] },
    ]);
    expect(line).toMatchObject({ kind: 'line', grouping: 'stacked', categories: ['Jan', 'Feb'] });
    expect(line!.series).toEqual([{ name: 'col-3', color: '156082', values: [3, 6], pointColors: [undefined, 'CCEDB1'] }]);
    expect(line!.title).toBeUndefined();
    expect(s.drawings![0]).toMatchObject({ from: { col: 0, row: 0 }, to: { col: 5, row: 9 } });
  });

  it('reads conditional formats: conditions with the styles they apply as differential styles, colour scales, data bars and icon sets', () => {
    const styles =
      '<style:style style:name="Good" style:display-name="Good" style:family="table-cell" style:parent-style-name="Default"><style:table-cell-properties fo:background-color="#ffeb9c" fo:border="0.74pt solid #000000"/><style:text-properties fo:color="#9c6500" fo:font-weight="bold"/></style:style>';
    const cf =
      '<calcext:conditional-formats>' +
      '<calcext:conditional-format calcext:target-range-address="S1.B3:S1.B23 S1.D3:S1.D4"><calcext:condition calcext:apply-style-name="Good" calcext:value="&lt;[.$G$5]" calcext:base-cell-address="S1.B3"/>' +
      '<calcext:condition calcext:apply-style-name="Good" calcext:value="between(1;5)" calcext:base-cell-address="S1.B3"/><calcext:condition calcext:apply-style-name="Good" calcext:value="formula-is([.$H4])" calcext:base-cell-address="S1.B4"/>' +
      '<calcext:condition calcext:apply-style-name="Good" calcext:value="formula-is(MOD(ROW();2)=1)" calcext:base-cell-address="S1.B3"/><calcext:condition calcext:apply-style-name="Default" calcext:value="&gt;=9" calcext:base-cell-address="S1.B3"/></calcext:conditional-format>' +
      '<calcext:conditional-format calcext:target-range-address="S1.C1:S1.C9"><calcext:condition calcext:apply-style-name="Good" calcext:value="top-percent(20)"/><calcext:condition calcext:apply-style-name="Good" calcext:value="below-equal-average"/><calcext:condition calcext:apply-style-name="Good" calcext:value="contains-text(&quot;Grain&quot;)"/><calcext:condition calcext:apply-style-name="Good" calcext:value="duplicate"/></calcext:conditional-format>' +
      '<calcext:conditional-format calcext:target-range-address="S1.E1:S1.E9"><calcext:color-scale><calcext:color-scale-entry calcext:value="0" calcext:type="minimum" calcext:color="#ffef9c"/><calcext:color-scale-entry calcext:value="50" calcext:type="percentile" calcext:color="#ffff00"/><calcext:color-scale-entry calcext:value="0" calcext:type="maximum" calcext:color="#ff7128"/></calcext:color-scale></calcext:conditional-format>' +
      '<calcext:conditional-format calcext:target-range-address="S1.F1:S1.F9"><calcext:data-bar calcext:show-value="false" calcext:min-length="10" calcext:max-length="90" calcext:positive-color="#63c384"><calcext:formatting-entry calcext:value="0" calcext:type="minimum"/><calcext:formatting-entry calcext:value="80" calcext:type="percentile"/></calcext:data-bar></calcext:conditional-format>' +
      '<calcext:conditional-format calcext:target-range-address="S1.G1:S1.G9"><calcext:icon-set calcext:icon-set-type="3Arrows"><calcext:formatting-entry calcext:show-value="false" calcext:value="0" calcext:type="percent"/><calcext:formatting-entry calcext:value="0" calcext:type="number"/><calcext:formatting-entry calcext:value="5" calcext:type="number"/></calcext:icon-set></calcext:conditional-format>' +
      '</calcext:conditional-formats>';
    const wb = readOds(ods(table(row('<table:table-cell office:value-type="float" office:value="1"/>') + cf), { styles }));
    expect(wb.dxfs).toEqual([{ fill: 'FFEB9C', color: '9C6500', bold: true, borders: { left: { style: 'thin', color: '000000' }, right: { style: 'thin', color: '000000' }, top: { style: 'thin', color: '000000' }, bottom: { style: 'thin', color: '000000' } } }]);
    const rules = wb.sheets[0]!.conditional!;
    expect(rules[0]).toEqual({ ranges: [{ top: 2, left: 1, bottom: 22, right: 1 }, { top: 2, left: 3, bottom: 3, right: 3 }], priority: 1, stopIfTrue: false, dxf: 0, condition: { type: 'cellIs', operator: 'lessThan', operands: [{ kind: 'ref', row: 4, col: 6, absRow: true, absCol: true }] } });
    expect(rules.slice(1).map((r) => r.condition)).toEqual([
      { type: 'cellIs', operator: 'between', operands: [{ kind: 'number', value: 1 }, { kind: 'number', value: 5 }] },
      // Counted from B4 in the file, from the range's corner B3 in the model.
      { type: 'expression', operand: { kind: 'ref', row: 2, col: 7, absRow: false, absCol: true } },
      { type: 'top10', rank: 20, bottom: false, percent: true },
      { type: 'aboveAverage', below: true, equal: true, stdDev: 0 },
      { type: 'containsText', text: 'Grain' },
      { type: 'duplicateValues' },
      { type: 'colorScale', stops: [{ type: 'min' }, { type: 'percentile', value: 50 }, { type: 'max' }], colors: ['FFEF9C', 'FFFF00', 'FF7128'] },
      { type: 'dataBar', min: { type: 'min' }, max: { type: 'percentile', value: 80 }, color: '63C384', showValue: false, gradient: true, minLength: 10, maxLength: 90 },
      { type: 'iconSet', set: '3Arrows', stops: [{ type: 'percent', value: 0 }, { type: 'num', value: 0 }, { type: 'num', value: 5 }], showValue: false, reverse: false },
    ]);
  });
});
