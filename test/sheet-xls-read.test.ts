/**
 * The XLS reader of the spreadsheet converter (issue 42, src/convert/sheet/read/xls/): a BIFF8
 * workbook LibreOffice wrote (test/fixtures/sheet/README.md) read into the same model the XLSX
 * reader builds — cached values, styles, columns, rows, merges, hidden sheets, print settings and
 * print names, pictures — and, from record streams built here, the shared strings split across CONTINUE
 * records, Excel 95's BIFF5 in its code page, encryption refused, and hostile records bounded.
 */
import { describe, expect, it } from 'vitest';
import { zlibSync } from 'fflate';
import * as CFB from 'cfb';
import { readXls } from '../src/convert/sheet/read/xls/index';
import { rkNumber } from '../src/convert/sheet/read/xls/cells';
import { formulaRanges } from '../src/convert/sheet/read/xls/names';
import { defColWidth } from '../src/convert/sheet/read/xls/sheet';
import { MAX_COLS, MAX_ROWS } from '../src/convert/sheet/read/xlsx/cells';
import { PAPER } from '../src/convert/sheet/read/paper';
import { ConversionError } from '../src/convert/errors';
import workbookUrl from './fixtures/sheet/lo__workbook.xls?url&inline';
import pictureUrl from './fixtures/sheet/lo__picture.xls?url&inline';
import formattedUrl from './fixtures/sheet/lo__formatted.xls?url&inline';

function bytes(dataUrl: string): Uint8Array {
  return Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(',') + 1)), (c) => c.charCodeAt(0));
}

function problem(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return e instanceof ConversionError ? e.problem : `${(e as Error).name}: ${(e as Error).message}`;
  }
  return undefined;
}

// A BIFF record stream, written here the way Excel lays it out.
const u16 = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const u32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
const f64 = (n: number) => [...new Uint8Array(new Float64Array([n]).buffer)];
const latin1 = (s: string) => [...s].map((c) => c.charCodeAt(0));
const utf16 = (s: string) => [...s].flatMap((c) => u16(c.charCodeAt(0)));
const record = (type: number, data: number[]) => [...u16(type), ...u16(data.length), ...data];

const BOF8 = (dt: number) => record(0x0809, [...u16(0x0600), ...u16(dt), ...u16(0), ...u16(0), ...u32(0), ...u32(0)]);
const BOF5 = (dt: number) => record(0x0809, [...u16(0x0500), ...u16(dt), ...u16(0), ...u16(0)]);
const EOF = record(0x000a, []);

/** A workbook stream: globals (with a BOUNDSHEET per sheet, each pointing at its substream), then the sheets. */
function biffStream(globals: number[][], sheets: { name: string; records: number[][]; hidden?: boolean }[], biff: 5 | 8 = 8): Uint8Array {
  const bof = biff === 8 ? BOF8 : BOF5;
  const boundSheet = (offset: number, s: (typeof sheets)[number]) =>
    record(0x0085, [...u32(offset), s.hidden ? 1 : 0, 0, s.name.length, ...(biff === 8 ? [0] : []), ...latin1(s.name)]);
  const globalsLength = [bof(5), ...globals, ...sheets.map((s) => boundSheet(0, s)), EOF].flat().length;
  const bodies = sheets.map((s) => [bof(0x10), ...s.records, EOF].flat());
  let offset = globalsLength;
  const entries = sheets.map((s, i) => {
    const entry = boundSheet(offset, s);
    offset += bodies[i]!.length;
    return entry;
  });
  return Uint8Array.from([bof(5), ...globals, ...entries, EOF, ...bodies].flat());
}

function compoundFile(stream: Uint8Array, name = 'Workbook'): Uint8Array {
  const cfb = CFB.utils.cfb_new();
  CFB.utils.cfb_add(cfb, name, stream);
  return new Uint8Array(CFB.write(cfb, { type: 'array' }) as ArrayLike<number>);
}

const xls = (globals: number[][], sheets: { name: string; records: number[][]; hidden?: boolean }[]) => readXls(compoundFile(biffStream(globals, sheets)));

describe('the XLS reader on a workbook LibreOffice saved as Excel 97-2003', () => {
  const wb = readXls(bytes(workbookUrl));
  const [values, print, rtl] = wb.sheets;

  it('reads the visible worksheets in order (the hidden one is left out) and every cached value', () => {
    expect(wb.sheets.map((s) => s.name)).toEqual(['Values', 'Print', 'RTL']);
    expect(wb.date1904).toBe(false);
    expect(wb.defaultFont).toEqual({ name: 'Arial', size: 10 });
    expect(values!.rows.get(0)!.map((c) => c.value)).toEqual([
      { kind: 'text', value: 'Name' },
      { kind: 'number', value: 42.5 },
      { kind: 'bool', value: true },
      { kind: 'error', value: '#DIV/0!' }, // =1/0
      { kind: 'number', value: 85 }, // =B1*2
      { kind: 'text', value: 'abcd' }, // ="ab"&"cd": the STRING record after the FORMULA
      { kind: 'bool', value: true }, // =B1>1
      { kind: 'text', value: '' }, // =""
    ]);
    expect(values!.rows.get(1)!.map((c) => c.value?.value)).toEqual([-1234.5, 45292, 'text', 0.1, 123456789]);
    expect(values!.rows.get(3)!.map((c) => c.value?.value)).toEqual(['hidden row']);
    // The merge's covered cells keep their style: their fill and borders print.
    expect(values!.rows.get(5)!.map((c) => [c.col, c.value, wb.styles[c.style]!.fill])).toEqual([[0, undefined, 'FFFF00'], [1, undefined, 'FFFF00'], [2, undefined, 'FFFF00']]);
    expect(values!.used).toEqual({ top: 0, left: 0, bottom: 5, right: 7 });
    expect(rtl!.rows.get(0)![0]!.value).toEqual({ kind: 'text', value: 'שלום' });
  });

  it('resolves each cell XF: number formats, fonts (index 4 skipped), fills, borders and alignment', () => {
    const styleAt = (row: number, col: number) => wb.styles[values!.rows.get(row)!.find((c) => c.col === col)!.style]!;
    expect(styleAt(0, 1)).toEqual({ format: 'General', font: { name: 'Arial', size: 10 }, borders: {} });
    expect(styleAt(0, 0)).toEqual({
      format: 'General',
      font: { name: 'Times New Roman', size: 14, bold: true, italic: true, underline: true, color: 'C00000' },
      fill: 'FFFF00',
      borders: { left: { style: 'thin', color: 'FF0000' }, right: { style: 'medium', color: '000000' }, top: { style: 'dashed', color: '0000FF' }, bottom: { style: 'double', color: '000000' } },
    });
    expect(styleAt(1, 0).format).toBe('#,##0.00;[RED]\\-#,##0.00;"zero"');
    expect(styleAt(1, 1).format).toBe('dd\\.mm\\.yyyy');
    expect(styleAt(2, 0)).toMatchObject({ horizontal: 'center', vertical: 'top', wrap: true });
    expect(styleAt(2, 1)).toMatchObject({ horizontal: 'left', indent: 2 });
    expect(styleAt(2, 2)).toMatchObject({ vertical: 'center', rotation: 45, shrink: true });
    // 135° in the file: 45° clockwise, as the XLSX reader gives textRotation="135".
    expect(styleAt(2, 3)).toMatchObject({ horizontal: 'right', rotation: -45, fill: '99CCFF', font: { name: 'Courier New', size: 9, strike: true, color: '0070C0' }, borders: { bottom: { style: 'thick', color: '000000' } } });
    expect(styleAt(2, 6).horizontal).toBe('justify');
  });

  it('reads column widths in characters, hidden columns and rows, row heights, merges and the view', () => {
    expect(values!.colWidths.get(0)).toBeCloseTo(20.71, 1);
    expect(values!.colWidths.get(7)).toBeCloseTo(4.5, 1);
    expect(values!.colWidths.get(1)).toBeCloseTo(8.68, 2);
    // BIFF's grid ends at column IV: LibreOffice's COLINFO that runs on to 256 stops there.
    expect(Math.max(...values!.colWidths.keys())).toBe(255);
    expect([...values!.hiddenCols]).toEqual([2]);
    expect([...values!.hiddenRows]).toEqual([3]);
    expect([...values!.rowHeights]).toEqual([[1, 30]]);
    expect(values!.defaultRowHeight).toBe(12.75);
    expect(values!.baseColWidth).toBe(8);
    // LibreOffice writes centre-across-selection as a merge.
    expect(values!.merges).toEqual([{ top: 2, bottom: 2, left: 4, right: 5 }, { top: 4, bottom: 5, left: 0, right: 2 }]);
    expect(rtl!.rightToLeft).toBe(true);
    expect(values!.rightToLeft).toBeUndefined();
  });

  it('reads the style of a formatted column (COLINFO) and row (ROW with fGhostDirty) for the cells they do not write', () => {
    const s = readXls(bytes(formattedUrl)).sheets[0]!;
    const styles = readXls(bytes(formattedUrl)).styles;
    expect([...s.colStyles!.keys()]).toEqual([2]);
    expect(styles[s.colStyles!.get(2)!]!.fill).toBe('FFFF00');
    expect(styles[s.colStyles!.get(2)!]!.borders.bottom?.style).toBe('double');
    expect([...s.rowStyles!.keys()]).toEqual([4]);
    expect(styles[s.rowStyles!.get(4)!]!.fill).toBe('99CCFF');
    expect(s.rows.has(4)).toBe(false);
  });

  it('gives DEFCOLWIDTH the padding LibreOffice adds for the default font: 10 characters at Arial 10 are 11.06 wide', () => {
    // 10 × 256 + 271 (40960 / (200 − 15) + 50.5), in 256ths of a character: testEXCEL_95's columns print 61 pt wide, not 59.
    expect(defColWidth(10, 10)).toBeCloseTo((10 * 256 + 271) / 256, 6);
    expect(defColWidth(8, 12)).toBeCloseTo((8 * 256 + Math.floor(40960 / 225 + 50.5)) / 256, 6);
    const s = xls([], [{ name: 'S', records: [record(0x0055, [...u16(8)])] }]).sheets[0]!;
    expect(s.defaultColWidth).toBeCloseTo(defColWidth(8, 10), 6);
  });

  it('reads the page setup, margins, options, breaks, header and footer, and the print area and titles', () => {
    const p = print!.print;
    expect(p).toMatchObject({ orientation: 'landscape', paper: PAPER[9], scale: 100, fitTo: { width: 1, height: 0 }, pageOrder: 'overThenDown' });
    expect(p).toMatchObject({ centerHorizontally: true, centerVertically: true, gridLines: true, headings: true });
    const inches = { left: 0.5, right: 0.4, top: 1.2, bottom: 0.9, header: 0.3, footer: 0.25 };
    for (const [side, v] of Object.entries(inches)) expect(p.margins[side as keyof typeof inches]).toBeCloseTo(v * 72, 6);
    expect(p.rowBreaks).toEqual([10, 20]);
    expect(p.colBreaks).toEqual([3]);
    expect(p.header).toEqual({ odd: '&LLeft&CPage &P of &N&RRight' });
    expect(p.footer).toEqual({ odd: '&C&A' });
    expect(p.printArea).toEqual([{ top: 0, left: 0, bottom: 29, right: 5 }]);
    expect(p.titleRows).toEqual({ first: 0, last: 1 });
    expect(p.titleCols).toEqual({ first: 0, last: 0 });
    expect(values!.print).toMatchObject({ orientation: 'portrait', scale: 100, pageOrder: 'downThenOver', rowBreaks: [], colBreaks: [] });
    expect(values!.print.fitTo).toBeUndefined();
    expect(values!.print.printArea).toBeUndefined();
  });
});

describe('the XLS reader on record streams', () => {
  it('reads shared strings cut by CONTINUE records, the rest of a string restating its width', () => {
    const sst = record(0x00fc, [...u32(4), ...u32(4), ...u16(10), 0x00, ...latin1('abcd')]);
    // The string goes on in 16-bit characters; the next one starts fresh, with no flag byte.
    const more = record(0x003c, [0x01, ...utf16('Жfghij'), ...u16(3), 0x00, ...latin1('xyz'), ...u16(2), 0x08, ...u16(1), ...latin1('ok'), 0, 0]);
    // A rich string's runs go on across the boundary as plain bytes; then a 16-bit string cut back to 8 bits.
    const last = record(0x003c, [0, 0, ...u16(4), 0x01, ...utf16('€1')]);
    const tail = record(0x003c, [0x00, ...latin1('23')]);
    const cells = [0, 1, 2, 3].map((i) => record(0x00fd, [...u16(i), ...u16(0), ...u16(0), ...u32(i)]));
    const wb = xls([sst, more, last, tail], [{ name: 'S', records: cells }]);
    expect([...wb.sheets[0]!.rows.values()].map((r) => r[0]!.value?.value)).toEqual(['abcdЖfghij', 'xyz', 'ok', '€123']);
  });

  it('reads RK, MULRK, NUMBER, BOOLERR and formula results, and drops unstyled blanks', () => {
    const cells = [
      record(0x027e, [...u16(0), ...u16(0), ...u16(0), ...u32((1234 << 2) | 3)]), // 12.34
      record(0x00bd, [...u16(0), ...u16(1), ...u16(0), ...u32((-5 << 2) | 2), ...u16(0), ...u32((7 << 2) | 2), ...u16(2)]),
      record(0x0203, [...u16(1), ...u16(0), ...u16(0), ...f64(Math.PI)]),
      record(0x0205, [...u16(1), ...u16(1), ...u16(0), 0x2a, 1]),
      record(0x0006, [...u16(1), ...u16(2), ...u16(0), 1, 0, 0, 0, 0, 0, 0xff, 0xff, ...u16(0), ...u32(0), ...u16(0)]), // FALSE
      record(0x0006, [...u16(1), ...u16(3), ...u16(0), 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...u16(0), ...u32(0), ...u16(0)]), // a string result whose STRING never comes
      record(0x0201, [...u16(2), ...u16(0), ...u16(0)]),
    ];
    const s = xls([], [{ name: 'S', records: cells }]).sheets[0]!;
    expect(s.rows.get(0)!.map((c) => [c.col, c.value?.value])).toEqual([[0, 12.34], [1, -5], [2, 7]]);
    expect(s.rows.get(1)!.map((c) => c.value)).toEqual([{ kind: 'number', value: Math.PI }, { kind: 'error', value: '#N/A' }, { kind: 'bool', value: false }]);
    expect(s.rows.has(2)).toBe(false);
    expect(rkNumber(0x3ff00000)).toBe(1); // the top 30 bits of the double 1.0
    expect(rkNumber((100 << 2) | 3)).toBe(1);
  });

  it('reads an Excel 95 (BIFF5) workbook: 8-bit text in its CODEPAGE, BIFF5 fonts and XFs, its print area', () => {
    const font = record(0x0031, [...u16(240), ...u16(0x02), ...u16(0x7fff), ...u16(700), ...u16(0), 0, 0, 204, 0, 5, ...latin1('Arial')]);
    // A cell XF of 16 bytes: font 0, centred, wrapped and at the foot, a solid red fill (palette 10), a thin blue bottom line (12).
    const xf5 = (style: boolean, align = 0, fill = 0) => record(0x00e0, [...u16(0), ...u16(0), ...u16(style ? 0xfff5 : 0x0001), align, 0, ...u32(fill), ...u32(0)]);
    const cellXf = xf5(false, 0x2a, 10 | (65 << 7) | (1 << 16) | (1 << 22) | (12 << 25));
    const styleXfs = Array.from({ length: 15 }, () => xf5(true));
    // Print_Area: a tArea3d of BIFF5 (sheet part of 14 bytes, rows with their flags, 1-byte columns), A1:C10.
    const area = [0x3b, ...u16(0xffff), ...Array(8).fill(0), ...u16(0), ...u16(0), ...u16(0xc000), ...u16(0xc009), 0, 2];
    const name = record(0x0018, [...u16(0x0020), 0, 1, ...u16(area.length), ...u16(0), ...u16(1), 0, 0, 0, 0, 0x06, ...area]);
    const globals = [record(0x0042, u16(1251)), font, ...styleXfs, cellXf, xf5(false), name];
    const label = record(0x0204, [...u16(0), ...u16(0), ...u16(15), ...u16(6), 0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]);
    const header = record(0x0014, [4, ...latin1('&C&A')]);
    const sheetName = String.fromCharCode(0xcb, 0xe8, 0xf1, 0xf2); // Лист in cp1251
    const stream = biffStream(globals, [{ name: sheetName, records: [label, header] }], 5);
    const wb = readXls(compoundFile(stream, 'Book'));
    const s = wb.sheets[0]!;
    expect(s.name).toBe('Лист');
    expect(s.rows.get(0)![0]!.value).toEqual({ kind: 'text', value: 'Привет' });
    expect(wb.defaultFont).toEqual({ name: 'Arial', size: 12, bold: true, italic: true });
    expect(wb.styles[s.rows.get(0)![0]!.style]).toEqual({ format: 'General', font: wb.defaultFont, fill: 'FF0000', borders: { bottom: { style: 'thin', color: '0000FF' } }, horizontal: 'center', wrap: true });
    expect(s.print.header).toEqual({ odd: '&C&A' });
    expect(s.print.printArea).toEqual([{ top: 0, left: 0, bottom: 9, right: 2 }]);
  });

  it('reads first-page and even-page headers from HEADERFOOTER, and SETUP\'s undefined printer settings as the defaults', () => {
    const header = record(0x0014, [...u16(5), 0x00, ...latin1('&Codd')]);
    const futureHeader = [...u16(0x089c), ...u16(0), ...Array(8).fill(0), ...Array(16).fill(0)];
    const headerFooter = record(0x089c, [...futureHeader, ...u16(3), ...u16(4), ...u16(0), ...u16(5), ...u16(0), ...u16(4), 0, ...latin1('even'), ...u16(5), 1, ...utf16('first')]);
    // fNoPls: paper, scale and orientation undefined (a landscape bit and a scale of 50 are ignored); the header margin still counts.
    const setup = record(0x00a1, [...u16(8), ...u16(50), ...u16(1), ...u16(1), ...u16(1), ...u16(0x0004), ...u16(0), ...u16(0), ...f64(0.2), ...f64(0.5), ...u16(1)]);
    const p = xls([], [{ name: 'S', records: [setup, header, headerFooter] }]).sheets[0]!.print;
    expect(p.header).toEqual({ odd: '&Codd', even: 'even', first: 'first' });
    expect(p.footer).toBeUndefined();
    expect(p).toMatchObject({ orientation: 'portrait', paper: PAPER[9], scale: 100 });
    expect(p.margins).toMatchObject({ left: 54, right: 54, top: 72, bottom: 72, footer: 36 });
    expect(p.margins.header).toBeCloseTo(14.4, 6);
  });

  it('reads print names written as a tMemFunc over a union of areas; whole rows and columns span Excel\'s grid', () => {
    const area3d = (r1: number, r2: number, c1: number, c2: number) => [0x3b, ...u16(0), ...u16(r1), ...u16(r2), ...u16(c1 | 0xc000), ...u16(c2 | 0xc000)];
    const list = [...area3d(0, 0xffff, 0, 1), ...area3d(0, 1, 0, 0xff), 0x10];
    const titles = Uint8Array.from([0x29, ...u16(list.length), ...list]);
    expect(formulaRanges(titles, 8)).toEqual([{ top: 0, bottom: MAX_ROWS - 1, left: 0, right: 1 }, { top: 0, bottom: 1, left: 0, right: MAX_COLS - 1 }]);
    // A function (OFFSET(...)) is no list of ranges.
    expect(formulaRanges(Uint8Array.from([0x42, 3, ...u16(78)]), 8)).toBeUndefined();
  });

  it('refuses a workbook with FILEPASS (XOR obfuscation or RC4) as password-protected, saying what to do', () => {
    for (const type of [0, 1]) {
      const filePass = record(0x002f, [...u16(type), ...Array(52).fill(0)]);
      expect(problem(() => xls([filePass], [{ name: 'S', records: [] }]))).toBe('password');
    }
    expect(() => xls([record(0x002f, u16(1))], [])).toThrow(/remove the password/);
    const encrypted = CFB.utils.cfb_new();
    CFB.utils.cfb_add(encrypted, 'EncryptionInfo', new Uint8Array(64));
    CFB.utils.cfb_add(encrypted, 'EncryptedPackage', new Uint8Array(4096));
    expect(problem(() => readXls(new Uint8Array(CFB.write(encrypted, { type: 'array' }) as ArrayLike<number>)))).toBe('password');
  });

  it('says what is not a workbook, and that a damaged one is damaged', () => {
    const doc = CFB.utils.cfb_new();
    CFB.utils.cfb_add(doc, 'WordDocument', new Uint8Array(600));
    expect(problem(() => readXls(new Uint8Array(CFB.write(doc, { type: 'array' }) as ArrayLike<number>)))).toBe('unsupported');
    expect(problem(() => readXls(new TextEncoder().encode('just some text')))).toBe('unsupported');
    expect(problem(() => readXls(Uint8Array.from([0x09, 0x04, 6, 0, 0, 0, 0x10, 0, 0, 0])))).toBe('unsupported'); // Excel 4.0
    // A record longer than the stream, and a sheet said to start past its end.
    const stream = biffStream([], [{ name: 'S', records: [] }]);
    expect(problem(() => readXls(compoundFile(Uint8Array.from([...stream.subarray(0, 20), ...record(0x0031, []).slice(0, 2), 0xff, 0x00]))))).toBe('corrupt');
    const far = biffStream([], [{ name: 'S', records: [] }]);
    far.set(u32(1 << 20), 20 + 4); // the BOUNDSHEET's offset, right after the 20-byte BOF
    expect(problem(() => readXls(compoundFile(far)))).toBe('corrupt');
  });

  it('bounds hostile records: an SST claiming 2^31 strings, MULRK and MULBLANK running past the grid', () => {
    const sst = record(0x00fc, [...u32(0xffffffff), ...u32(0x80000000), ...u16(2), 0x00, ...latin1('hi')]);
    // 200 RKs from column 16,300 with a last column of 65,535: only the grid's 84 are kept.
    const entries = Array.from({ length: 200 }, (_, i) => [...u16(0), ...u32((i << 2) | 2)]).flat();
    const mulrk = record(0x00bd, [...u16(0), ...u16(16_300), ...entries, ...u16(0xffff)]);
    const mulblank = record(0x00be, [...u16(1), ...u16(0), ...u16(15), ...u16(15), ...u16(1)]);
    const label = record(0x00fd, [...u16(2), ...u16(0), ...u16(0), ...u32(0)]);
    const xfs = Array.from({ length: 16 }, (_, i) => record(0x00e0, [...u16(0), ...u16(0), ...u16(i < 15 ? 0xfff4 : 0), ...Array(14).fill(0)]));
    const styled = record(0x00e0, [...u16(0), ...u16(0), ...u16(0), 0x02, ...Array(13).fill(0)]); // XF 16: centred
    const wb = xls([...xfs, styled, sst], [{ name: 'S', records: [mulrk, mulblank, record(0x00be, [...u16(3), ...u16(0), ...u16(16), ...u16(16), ...u16(16), ...u16(1)]), label] }]);
    const s = wb.sheets[0]!;
    expect(s.rows.get(0)!.length).toBe(MAX_COLS - 16_300);
    expect(s.rows.get(0)!.at(-1)).toMatchObject({ col: MAX_COLS - 1, value: { kind: 'number', value: MAX_COLS - 1 - 16_300 } });
    expect(s.rows.has(1)).toBe(false); // blanks in the default XF are not kept
    // A MULBLANK whose last column says fewer than its data holds stops at the last column.
    expect(s.rows.get(3)!.map((c) => [c.col, wb.styles[c.style]!.horizontal])).toEqual([[0, 'center'], [1, 'center']]);
    expect(s.rows.get(2)![0]!.value).toEqual({ kind: 'text', value: 'hi' });
  });
});

// OfficeArt records: a header of version and instance, type and length, then the data.
const oa = (ver: number, inst: number, type: number, data: number[]) => [...u16(ver | (inst << 4)), ...u16(type), ...u32(data.length), ...data];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3];
/** A drawing group (MSODRAWINGGROUP's data) whose BStore holds these BLIPs, each embedded in its FBSE. */
function drawingGroup(blips: number[][]): number[] {
  const fbse = (blip: number[]) => oa(2, 6, 0xf007, [6, 6, ...Array(16).fill(0), ...u16(0xff), ...u32(blip.length), ...u32(1), ...u32(0), 0, 0, 0, 0, ...blip]);
  return oa(0xf, 0, 0xf000, [...oa(0, 0, 0xf006, Array(16).fill(0)), ...oa(0xf, blips.length, 0xf001, blips.flatMap(fbse))]);
}
const pngBlip = (png: number[]) => oa(0, 0x6e0, 0xf01e, [...Array(16).fill(0xaa), 0xff, ...png]);
/** A client anchor: flags, then each corner's column, offset (1/1024), row and offset (1/256). */
const anchor = (colL: number, dxL: number, rwT: number, dyT: number, colR: number, dxR: number, rwB: number, dyB: number) =>
  oa(0, 0, 0xf010, [...u16(0), ...[colL, dxL, rwT, dyT, colR, dxR, rwB, dyB].flatMap(u16)]);
const fsp = (spid: number, flags: number, type = 75) => oa(2, type, 0xf00a, [...u32(spid), ...u32(flags)]);
const pib = (n: number) => oa(3, 1, 0xf00b, [...u16(0x4104), ...u32(n)]);
const sp = (...children: number[][]) => oa(0xf, 0, 0xf004, children.flat());
const patriarch = sp(oa(1, 0, 0xf009, Array(16).fill(0)), fsp(1024, 0x05));
const clientData = oa(0, 0, 0xf011, []);
/** A sheet's drawing (OfficeArtDgContainer) of these shapes after the patriarch. */
const dg = (...shapes: number[][]) => oa(0xf, 0, 0xf002, [...oa(0, 1, 0xf008, [...u32(shapes.length + 1), ...u32(1024 + shapes.length)]), ...oa(0xf, 0, 0xf003, [...patriarch, ...shapes.flat()])]);
/** BIFF records of `bytes` cut in pieces of `at` (MSODRAWING), an OBJ record between pieces as Excel writes them. */
function msoDrawing(bytes: number[], at: number[]): number[][] {
  const out: number[][] = [];
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    out.push(record(0x00ec, bytes.slice(from, cut)));
    // ftCmo: a picture (ot 8), id 1, printed with the sheet (fPrint, as Excel writes 0x6011).
    if (cut < bytes.length) out.push(record(0x005d, [...u16(0x15), ...u16(18), ...u16(8), ...u16(1), ...u16(0x6011), ...Array(12).fill(0), ...u32(0)]));
    from = cut;
  }
  return out;
}
/** MSODRAWINGGROUP of `bytes`, the rest in CONTINUE records after its first `first` bytes. */
const msoDrawingGroup = (bytes: number[], first: number) => [record(0x00eb, bytes.slice(0, first)), record(0x003c, bytes.slice(first))];

describe('the XLS reader\'s pictures', () => {
  it('reads the picture of a workbook LibreOffice saved, anchored from the top-left corner of B3 to that of D7', () => {
    const [sheet] = readXls(bytes(pictureUrl)).sheets;
    expect(sheet!.drawings).toHaveLength(1);
    const d = sheet!.drawings![0]!;
    expect(d.content.kind).toBe('picture');
    if (d.content.kind !== 'picture') return;
    expect(d.content.contentType).toBe('image/png');
    expect([...d.content.data.subarray(0, 8)]).toEqual(PNG.slice(0, 8));
    expect(d.from).toEqual({ col: 1, colOffset: 0, row: 2, rowOffset: 0 });
    // LibreOffice writes the far corner as the end of C6; offsets are points, a column being its characters at 5.25 pt.
    const colPoints = sheet!.colWidths.get(2)! * 5.25;
    expect(d.to!.col + d.to!.colOffset / colPoints).toBeCloseTo(3, 1);
    expect(d.to!.row + d.to!.rowOffset / sheet!.defaultRowHeight).toBeCloseTo(6, 1);
  });

  it('reads a drawing cut across MSODRAWING records (OBJ between) and a group member\'s place in its group', () => {
    const store = drawingGroup([pngBlip(PNG), pngBlip([...PNG, 4])]);
    const picture = sp(fsp(1025, 0xa00), pib(2), anchor(1, 512, 2, 128, 3, 0, 6, 0), clientData);
    // A group over A1:E11 (4 default columns of 64 px = 48 pt, 10 rows of 12.75 pt), its member over its right half's top half.
    const group = oa(0xf, 0, 0xf003, [
      ...sp(oa(1, 0, 0xf009, [...u32(0), ...u32(0), ...u32(1000), ...u32(1000)]), fsp(1026, 0x201, 0), anchor(0, 0, 0, 0, 4, 0, 10, 0), clientData),
      ...sp(fsp(1027, 0xa02), pib(1), oa(0, 0, 0xf00f, [...u32(500), ...u32(0), ...u32(1000), ...u32(500)]), clientData),
    ]);
    const drawing = dg(picture, group);
    const wb = xls([...msoDrawingGroup(store, 40)], [{ name: 'S', records: msoDrawing(drawing, [30, 120]) }]);
    const drawings = wb.sheets[0]!.drawings!;
    expect(drawings.map((d) => [d.content.kind === 'picture' && d.content.data.length, d.from, d.to])).toEqual([
      // Half of B's 48 pt, half of row 3's 12.75 pt.
      [12, { col: 1, colOffset: 24, row: 2, rowOffset: 12.75 / 2 }, { col: 3, colOffset: 0, row: 6, rowOffset: 0 }],
      [11, { col: 2, colOffset: 0, row: 0, rowOffset: 0 }, { col: 4, colOffset: 0, row: 5, rowOffset: 0 }],
    ]);
  });

  it('bounds hostile drawings: at most 1,000 pictures a sheet, BLIP indices and lengths past the store', () => {
    const store = drawingGroup([pngBlip(PNG)]);
    // An FBSE whose BLIP claims 2^31 bytes, and a drawing of 1,500 pictures, some naming BLIPs the store has not.
    const lying = [...store.slice(0, -PNG.length - 17 - 8), ...u16(0x6e00), ...u16(0xf01e), ...u32(0x80000000)];
    const shape = (i: number) => sp(fsp(1025 + i, 0xa00), pib(i % 100 === 0 ? 7 : 1), anchor(i % 256, 0, i, 0, i % 256, 100, i + 1, 0), clientData);
    const many = dg(...Array.from({ length: 1500 }, (_, i) => shape(i)));
    const cuts = Array.from({ length: Math.floor(many.length / 8000) }, (_, i) => (i + 1) * 8000);
    const wb = xls([record(0x00eb, store)], [{ name: 'S', records: msoDrawing(many, cuts) }]);
    expect(wb.sheets[0]!.drawings).toHaveLength(1000);
    const short = xls([record(0x00eb, lying)], [{ name: 'S', records: msoDrawing(dg(shape(1)), []) }]);
    expect(short.sheets[0]!.drawings).toBeUndefined();
    expect(xls([record(0x00eb, store)], [{ name: 'S', records: msoDrawing(dg(shape(1)), []) }]).sheets[0]!.drawings).toHaveLength(1);
    // An EMF's header says 64 bytes: a deflate stream of 1 MB is inflated no further.
    const emfHeader = [...u32(64), ...Array(16).fill(0), ...Array(8).fill(0), ...u32(0), 0, 0xfe];
    const emf = oa(0, 0x3d4, 0xf01a, [...Array(16).fill(0), ...emfHeader.slice(0, 32), 0, 0xfe, ...zlibSync(new Uint8Array(1 << 20).fill(7))]);
    const metafile = xls([record(0x00eb, drawingGroup([emf]))], [{ name: 'S', records: msoDrawing(dg(shape(1)), []) }]).sheets[0]!.drawings![0]!.content;
    expect(metafile).toMatchObject({ kind: 'picture', contentType: 'image/x-emf' });
    expect(metafile.kind === 'picture' && metafile.data.length).toBe(64);
    // A drawing with no drawing group, or garbage for a drawing, has no pictures and does not stop the sheet.
    expect(xls([], [{ name: 'S', records: msoDrawing(dg(shape(1)), []) }]).sheets[0]!.drawings).toBeUndefined();
    expect(xls([record(0x00eb, store)], [{ name: 'S', records: [record(0x00ec, [1, 2, 3, 4, 5, 6, 7, 8, 9])] }]).sheets[0]!.drawings).toBeUndefined();
  });
});
