import { describe, expect, it } from 'vitest';
import { balanceOf, download, markerPdf, newAccount, runOp, uploadOk, type TestAccount } from './helpers';
import { expectProblem, unzip, zipMarkers } from './fixtures';

async function splitOf(acct: TestAccount, pages: number, tag: string, name: string, params: Record<string, unknown>) {
  const up = await uploadOk(acct, await markerPdf(pages, tag), name);
  const rec = await runOp(acct, 'split', { file_id: up.file_id, ...params });
  expect(rec.status).toBe('done');
  return { rec, zip: await download(rec) };
}

describe('split', () => {
  it('every-page (the default): one PDF per page named page-<n>.pdf, as a ZIP named <base>_service.zip', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const { rec, zip } = await splitOf(acct, 3, 'E', 'scan.pdf', {});
    expect(rec.operation_type).toBe('split_pdf');
    expect(rec.filename).toBe('scan_service.zip');
    expect(rec.content_type).toBe('application/zip');
    expect(rec.size).toBe(zip.length);
    expect(rec.charge).toBe('1.25');
    expect(await zipMarkers(zip)).toEqual({
      'page-1.pdf': ['MARK-E-1'],
      'page-2.pdf': ['MARK-E-2'],
      'page-3.pdf': ['MARK-E-3'],
    });
    expect(await balanceOf(acct)).toBe('8.75');
  });

  it('every-page given explicitly gives the same members', async () => {
    const acct = await newAccount();
    const { zip } = await splitOf(acct, 2, 'F', 'two.pdf', { mode: 'every-page' });
    expect(unzip(zip).names).toEqual(['page-1.pdf', 'page-2.pdf']);
  });

  it('ranges: one PDF per range named pages-<a>-<b>.pdf with exactly those pages', async () => {
    const acct = await newAccount();
    const { rec, zip } = await splitOf(acct, 6, 'R', 'book.pdf', {
      mode: 'ranges',
      ranges: [
        [2, 4],
        [6, 6],
        [1, 2],
      ],
    });
    expect(rec.filename).toBe('book_service.zip');
    const members = await zipMarkers(zip);
    expect(Object.keys(members)).toEqual(['pages-2-4.pdf', 'pages-6-6.pdf', 'pages-1-2.pdf']);
    expect(members['pages-2-4.pdf']).toEqual(['MARK-R-2', 'MARK-R-3', 'MARK-R-4']);
    expect(members['pages-6-6.pdf']).toEqual(['MARK-R-6']);
    expect(members['pages-1-2.pdf']).toEqual(['MARK-R-1', 'MARK-R-2']);
  });

  it('half of 4 pages: 2 + 2', async () => {
    const acct = await newAccount();
    const { zip } = await splitOf(acct, 4, 'H', 'four.pdf', { mode: 'half' });
    expect(await zipMarkers(zip)).toEqual({
      'part-1.pdf': ['MARK-H-1', 'MARK-H-2'],
      'part-2.pdf': ['MARK-H-3', 'MARK-H-4'],
    });
  });

  it('half of 5 pages: the first part takes the middle page, all pages kept in order', async () => {
    const acct = await newAccount();
    const { zip } = await splitOf(acct, 5, 'K', 'five.pdf', { mode: 'half' });
    const members = await zipMarkers(zip);
    expect(members).toEqual({
      'part-1.pdf': ['MARK-K-1', 'MARK-K-2', 'MARK-K-3'],
      'part-2.pdf': ['MARK-K-4', 'MARK-K-5'],
    });
    expect([...members['part-1.pdf']!, ...members['part-2.pdf']!]).toEqual(['MARK-K-1', 'MARK-K-2', 'MARK-K-3', 'MARK-K-4', 'MARK-K-5']);
  });

  it('refuses bad parameters with 422 and charges nothing', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, await markerPdf(3, 'V'), 'three.pdf');
    const split = (body: Record<string, unknown>) => acct.json('/v1/pdf/split', { file_id: up.file_id, ...body });

    const missing = await expectProblem(await split({ mode: 'ranges' }), 422, 'validation_error');
    expect(missing.errors).toEqual([{ path: 'ranges', message: 'ranges is required when mode is "ranges"' }]);

    const past = await expectProblem(await split({ mode: 'ranges', ranges: [[1, 2], [2, 4]] }), 422, 'validation_error');
    expect(past.errors).toEqual([{ path: 'ranges[1]', message: 'page 4 does not exist: the document has 3 pages' }]);

    const backwards = await expectProblem(await split({ mode: 'ranges', ranges: [[3, 1]] }), 422, 'validation_error');
    expect(backwards.errors).toEqual([{ path: 'ranges[0]', message: 'range [3, 1] ends before it starts' }]);

    const unknown = await expectProblem(await split({ mode: 'thirds' }), 422, 'validation_error');
    expect(unknown.errors![0]!.path).toBe('mode');

    await expectProblem(await split({ mode: 'ranges', ranges: [] }), 422, 'validation_error');
    await expectProblem(await split({ mode: 'ranges', ranges: [[0, 1]] }), 422, 'validation_error');
    await expectProblem(await split({ mode: 'ranges', ranges: [[1, 2, 3]] }), 422, 'validation_error');
    await expectProblem(await split({ mode: 'ranges', ranges: '1-2' }), 422, 'validation_error');
    expect(await balanceOf(acct)).toBe('5.00');
  });

  it('refuses to halve a one-page document with 422', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'O'), 'one.pdf');
    const problem = await expectProblem(await acct.json('/v1/pdf/split', { file_id: up.file_id, mode: 'half' }), 422, 'validation_error');
    expect(problem.errors).toEqual([{ path: 'mode', message: 'a 1-page document cannot be split in half' }]);
    expect(await balanceOf(acct)).toBe('5.00');
  });
});
