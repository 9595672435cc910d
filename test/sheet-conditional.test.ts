/** Conditional formatting of XLSX sheets: the rules and dxfs read (read/xlsx/conditional.ts), evaluated per cell (conditional.ts) and drawn on the page (draw-page.ts). */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { FontBook } from '../src/layout/text/font-book';
import type { LineContext } from '../src/layout/blocks/paragraph-lines';
import { readWorkbook } from '../src/convert/sheet/index';
import { conditionalLooks } from '../src/convert/sheet/conditional';
import { sheetPageItems } from '../src/convert/sheet/draw-page';
import type { TextItem } from '../src/contracts/display';
import { xlsx } from './sheet-fixtures';

let ctx: LineContext;
beforeAll(async () => {
  const fonts = FontBook.shared(await loadMupdf(), bundledFonts);
  fonts.install();
  ctx = { fonts, fields: {} };
});

const n = (ref: string, v: number) => `<c r="${ref}"><v>${v}</v></c>`;
const rows = Array.from({ length: 10 }, (_, i) => {
  const r = i + 1;
  const extra = r <= 3 ? n(`B${r}`, [0, 10, 40][i]!) + n(`C${r}`, [0, 5, 10][i]!) + n(`D${r}`, [0, 10, 5][i]!) : '';
  const e = r <= 2 ? n(`E${r}`, r) : '';
  return `<row r="${r}">${n(`A${r}`, r)}${extra}${e}</row>`;
}).join('');
const rules =
  '<conditionalFormatting sqref="A1:A10"><cfRule type="cellIs" dxfId="0" priority="1" operator="greaterThan"><formula>8</formula></cfRule>' +
  '<cfRule type="top10" dxfId="1" priority="2" percent="1" rank="10"/></conditionalFormatting>' +
  '<conditionalFormatting sqref="B1:B3"><cfRule type="colorScale" priority="3"><colorScale><cfvo type="min"/><cfvo type="percentile" val="50"/><cfvo type="max"/><color rgb="FFF8696B"/><color rgb="FFFFEB84"/><color rgb="FF63BE7B"/></colorScale></cfRule></conditionalFormatting>' +
  '<conditionalFormatting sqref="C1:C3"><cfRule type="colorScale" priority="4"><colorScale><cfvo type="min"/><cfvo type="max"/><color rgb="FF000000"/><color rgb="FFFFFFFF"/></colorScale></cfRule></conditionalFormatting>' +
  '<conditionalFormatting sqref="D1:D3"><cfRule type="dataBar" priority="5"><dataBar><cfvo type="min"/><cfvo type="max"/><color rgb="FF638EC6"/></dataBar></cfRule></conditionalFormatting>' +
  '<conditionalFormatting sqref="E1:E2"><cfRule type="cellIs" priority="6" stopIfTrue="1" operator="equal"><formula>1</formula></cfRule>' +
  '<cfRule type="dataBar" priority="7"><dataBar showValue="0"><cfvo type="num" val="0"/><cfvo type="num" val="2"/><color theme="4"/></dataBar></cfRule></conditionalFormatting>';
const styles =
  '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><cellXfs count="1"><xf/></cellXfs>' +
  '<dxfs count="2"><dxf><font><color rgb="FF9C0006"/></font><fill><patternFill><bgColor rgb="FFFFC7CE"/></patternFill></fill></dxf>' +
  '<dxf><font><b/></font><fill><patternFill patternType="solid"><fgColor rgb="FF0000FF"/><bgColor rgb="FF00FF00"/></patternFill></fill><border><left style="thin"><color rgb="FF0000FF"/></left></border></dxf></dxfs>';
const book = () => readWorkbook(xlsx([`<sheetData>${rows}</sheetData>${rules}`], { styles }));

describe('conditional formatting', () => {
  it('keeps a data bar whose end is a formula it does not read (a defined name over a table column) as the range\'s own end, its value hidden as asked', () => {
    const bar = '<conditionalFormatting sqref="A1:A4"><cfRule type="dataBar" priority="1"><dataBar showValue="0"><cfvo type="num" val="0"/><cfvo type="num" val="TotalMonthlyIncome"/><color theme="4"/></dataBar></cfRule></conditionalFormatting>';
    const wb = readWorkbook(xlsx([`<sheetData>${rows}</sheetData>${bar}`], { styles }));
    const [rule] = wb.sheets[0]!.conditional!;
    expect(rule!.condition).toMatchObject({ type: 'dataBar', min: { type: 'num', value: 0 }, max: { type: 'max' }, showValue: false });
    const looks = conditionalLooks(wb, wb.sheets[0]!);
    // A4 (4) is the range's highest: the longest bar (90%), its number not printed.
    expect(looks.get('3:0')).toEqual({ dataBar: { from: 0, to: 0.9, color: '4472C4' }, hideValue: true });
  });

  it('reads the rules with their ranges, priorities and dxfs (a solid dxf fill is its bgColor)', () => {
    const wb = book();
    const cf = wb.sheets[0]!.conditional!;
    expect(cf.map((r) => r.condition.type)).toEqual(['cellIs', 'top10', 'colorScale', 'colorScale', 'dataBar', 'cellIs', 'dataBar']);
    expect(cf[0]).toEqual({ ranges: [{ top: 0, left: 0, bottom: 9, right: 0 }], priority: 1, stopIfTrue: false, dxf: 0, condition: { type: 'cellIs', operator: 'greaterThan', operands: [{ kind: 'number', value: 8 }] } });
    expect(cf[1]!.condition).toEqual({ type: 'top10', rank: 10, bottom: false, percent: true });
    expect(cf[5]!.stopIfTrue).toBe(true);
    expect(cf[6]!.condition).toMatchObject({ type: 'dataBar', color: '4472C4', showValue: false });
    expect(wb.dxfs).toEqual([
      { color: '9C0006', fill: 'FFC7CE' },
      { bold: true, fill: '00FF00', borders: { left: { style: 'thin', color: '0000FF' } } },
    ]);
  });

  it('evaluates each cell: priority order, earlier properties standing, top 10%, colour scales, data bars, stopIfTrue', () => {
    const wb = book();
    const looks = conditionalLooks(wb, wb.sheets[0]!);
    // A9 > 8 only; A10 also the top 10% (one of ten values): the first rule's fill stands, the second adds bold and a border.
    expect(looks.get('8:0')).toEqual({ color: '9C0006', fill: 'FFC7CE' });
    expect(looks.get('9:0')).toEqual({ color: '9C0006', fill: 'FFC7CE', bold: true, borders: { left: { style: 'thin', color: '0000FF' } } });
    expect(looks.has('7:0')).toBe(false);
    // Three colours: the 50th percentile (10) takes the middle colour; 40 the top one.
    expect(looks.get('1:1')!.fill).toBe('FFEB84');
    expect(looks.get('2:1')!.fill).toBe('63BE7B');
    expect(looks.get('0:1')!.fill).toBe('F8696B');
    // Two colours: halfway between black and white.
    expect(looks.get('1:2')!.fill).toBe('808080');
    // Data bars: 10% to 90% of the cell (Excel 2007's lengths) by the value between min and max.
    expect(looks.get('2:3')!.dataBar).toEqual({ from: 0, to: 0.5, color: '638EC6' });
    expect(looks.get('1:3')!.dataBar!.to).toBeCloseTo(0.9);
    expect(looks.get('0:3')!.dataBar!.to).toBeCloseTo(0.1);
    // E1 = 1 stops at the first rule (which sets nothing): no bar; E2 gets a full bar and hides its value.
    expect(looks.get('0:4')).toEqual({});
    expect(looks.get('1:4')).toEqual({ dataBar: { from: 0, to: 0.9, color: '4472C4' }, hideValue: true });
  });

  it('draws the conditional fill, font colour and data bar boxes on the page', () => {
    const wb = book();
    const sheet = wb.sheets[0]!;
    const at = { x: 50, y: 60, zoom: 1, range: { top: 0, left: 0, bottom: 9, right: 4 }, colWidths: [50, 50, 50, 50, 50], rowHeights: Array(10).fill(15) };
    const items = sheetPageItems(wb, sheet, { cols: [0, 4], rows: [0, 9] }, at, ctx);
    expect(items).toContainEqual({ kind: 'fill', x0: 50, y0: 195, x1: 100, y1: 210, color: 'FFC7CE' });
    expect(items).toContainEqual({ kind: 'fill', x0: 50, y0: 180, x1: 100, y1: 195, color: 'FFC7CE' });
    expect(items.some((i) => i.kind === 'fill' && i.y0 === 165 && i.x0 === 50)).toBe(false);
    // D3's bar: from the left padding, half the room, 2 px short of the row's top and foot.
    const bar = items.find((i) => i.kind === 'fill' && i.color === '638EC6' && i.y0 === 91.5);
    expect(bar).toMatchObject({ x0: 201.5, y1: 103.5 });
    expect((bar as { x1: number }).x1).toBeCloseTo(201.5 + 47 * 0.5, 5);
    // The dxf's font colour on A10's text; E2's value hidden by its bar.
    const texts = items.filter((i): i is TextItem => i.kind === 'text');
    expect(texts.find((t) => t.text.text === '10' && t.x < 100)!.text.color).toBe('9C0006');
    expect(texts.some((t) => t.text.text === '2' && t.x > 250)).toBe(false);
    expect(texts.some((t) => t.text.text === '1' && t.x > 250)).toBe(true);
  });
});
