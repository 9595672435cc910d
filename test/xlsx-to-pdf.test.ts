/**
 * xlsx-to-pdf through the service (upload, the office Worker's queue consumer, R2): XLSX, XLS and
 * ODS workbooks printed with their text and pages, the price of one 10 MB unit, and the workbooks
 * it refuses failing with what to do, refunded.
 */
import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { pageTexts } from './pdf-pages';
import { balanceOf, download, newAccount, runOp, uploadOk } from './helpers';
import { chartBook, xlsx } from './sheet-fixtures';
import { makePng } from './fixtures';
import workbookUrl from './fixtures/sheet/lo__workbook.xls?url&inline';
import featuresUrl from './fixtures/sheet/lo__features.ods?url&inline';

const fixture = (dataUrl: string) => Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(',') + 1)), (c) => c.charCodeAt(0));

const pdfTexts = (bytes: Uint8Array) => pageTexts(bytes);

const prices = xlsx(
  [
    '<cols><col min="2" max="2" width="20" customWidth="1"/></cols><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c><c r="B1" t="inlineStr"><is><t>Price</t></is></c></row>' +
      '<row r="2"><c r="A2" t="inlineStr"><is><t>Груша</t></is></c><c r="B2" s="1"><v>1234.5</v></c></row></sheetData><pageSetup paperSize="9" orientation="landscape"/>' +
      '<headerFooter><oddFooter>&amp;CPage &amp;P of &amp;N</oddFooter></headerFooter>',
  ],
  { styles: '<numFmts><numFmt numFmtId="164" formatCode="[$-419]#,##0.00\\ &quot;₽&quot;"/></numFmts><fonts><font><sz val="11"/><name val="Calibri"/></font></fonts><cellXfs><xf/><xf numFmtId="164"/></cellXfs>' },
);

describe('xlsx-to-pdf', () => {
  it('XLSX → PDF: the sheet on its paper, values as formatted in the locale the format names, the footer numbered; one 10 MB unit charged', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, prices, 'prices.xlsx');
    const rec = await runOp(acct, 'xlsx-to-pdf', { file_id: up.file_id });
    expect(rec.status).toBe('done');
    expect(rec.operation_type).toBe('xlsx_to_pdf');
    expect(rec.filename).toBe('prices_service.pdf');
    expect(rec.charge).toBe('1.25');
    expect(await balanceOf(acct)).toBe('98.75');
    const pages = await pdfTexts(await download(rec));
    expect(pages.map((p) => p.size)).toEqual([[842, 595]]);
    expect(pages[0]!.text).toContain('Груша');
    expect(pages[0]!.text).toContain('1 234,50 ₽');
    expect(pages[0]!.text).toContain('Page 1 of 1');
  });

  it('a chart prints its title and labels in the chart font the Worker loads for it', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, chartBook(makePng(4, 4, [0, 128, 255])), 'chart.xlsx');
    const rec = await runOp(acct, 'xlsx-to-pdf', { file_id: up.file_id });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    const [page] = await pdfTexts(await download(rec));
    expect(page!.text).toContain('Sales by month');
    expect(page!.text).toContain('January');
    expect(page!.text).toContain('Report');
  });

  it('XLS (Excel 97-2003) and ODS → PDF', async () => {
    const acct = await newAccount();
    for (const [bytes, name] of [[fixture(workbookUrl), 'book.xls'], [fixture(featuresUrl), 'book.ods']] as const) {
      const up = await uploadOk(acct, bytes, name);
      const rec = await runOp(acct, 'xlsx-to-pdf', { file_id: up.file_id });
      expect(rec.status, `${name}: ${rec.error_message}`).toBe('done');
      const pages = await pdfTexts(await download(rec));
      expect(pages.length).toBeGreaterThan(0);
      expect(pages.some((p) => p.text.trim().length > 0)).toBe(true);
    }
  });

  it('prints a workbook of more pages than one step writes over several steps, joined in order', async () => {
    const acct = await newAccount();
    const rows: string[] = [];
    // 48 rows of 15 pt fill an A4 page: 401 pages, two steps of 400 and 1.
    for (let r = 1; r <= 48 * 401; r++) rows.push(`<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>line ${r}</t></is></c></row>`);
    const book = xlsx([`<sheetData>${rows.join('')}</sheetData><pageSetup paperSize="9"/><headerFooter><oddFooter>&amp;CPage &amp;P of &amp;N</oddFooter></headerFooter>`]);
    const up = await uploadOk(acct, book, 'long.xlsx');
    const rec = await runOp(acct, 'xlsx-to-pdf', { file_id: up.file_id });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    const pages = await pdfTexts(await download(rec));
    expect(pages).toHaveLength(401);
    expect(pages[0]!.text).toContain('line 1\n');
    expect(pages[399]!.text).toContain('Page 400 of 401');
    expect(pages[400]!.text).toContain('Page 401 of 401');
    expect(pages[400]!.text).toContain(`line ${48 * 401}`);
  }, 120_000);

  it('an XLSB fails with what to do, refunded', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const xlsb = zipSync({ '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'), 'xl/workbook.bin': new Uint8Array(64), 'xl/worksheets/sheet1.bin': new Uint8Array(64) });
    const up = await uploadOk(acct, xlsb, 'binary.xlsb');
    const rec = await runOp(acct, 'xlsx-to-pdf', { file_id: up.file_id });
    expect(rec.status).toBe('failed');
    expect(rec.refunded).toBe(true);
    expect(rec.error_message).toMatch(/Excel binary workbook \(\.xlsb\).*save it as \.xlsx/);
    expect(await balanceOf(acct)).toBe('10.00');
  });
});
