import { describe, expect, it } from 'vitest';
import { balanceOf, download, inspect, markerPdf, newAccount, runOp, uploadOk } from './helpers';
import { expectProblem } from './fixtures';

describe('extract-pages', () => {
  it('makes a new PDF of the listed pages in the listed order', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(4, 'X'), 'deck.pdf');
    const rec = await runOp(acct, 'extract-pages', { file_id: up.file_id, pages: [4, 1, 3] });
    expect(rec.status).toBe('done');
    expect(rec.operation_type).toBe('extract_pages');
    expect(rec.filename).toBe('deck_service.pdf');
    expect(rec.charge).toBe('1.25');
    const out = await inspect(await download(rec));
    expect(out.markers).toEqual(['MARK-X-4', 'MARK-X-1', 'MARK-X-3']);
    expect(await balanceOf(acct)).toBe('8.75');
  });

  it('extracts a single page with its size and rotation', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(3, 'Y', { size: [200, 250], rotate: [0, 180, 0] }), 'y.pdf');
    const rec = await runOp(acct, 'extract-pages', { file_id: up.file_id, pages: [2] });
    const out = await inspect(await download(rec));
    expect(out).toEqual({ markers: ['MARK-Y-2'], rotations: [180], sizes: [[200, 250]] });
  });

  it('refuses a page past the end, page 0 and an empty list with 422 and charges nothing', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, await markerPdf(4, 'Z'), 'four.pdf');
    const extract = (pages: unknown) => acct.json('/v1/pdf/extract-pages', { file_id: up.file_id, pages });
    const past = await expectProblem(await extract([2, 5, 9]), 422, 'validation_error');
    expect(past.errors).toEqual([
      { path: 'pages[1]', message: 'page 5 does not exist: the document has 4 pages' },
      { path: 'pages[2]', message: 'page 9 does not exist: the document has 4 pages' },
    ]);
    expect(past.detail).toBe('2 problems in the request body');
    await expectProblem(await extract([0]), 422, 'validation_error');
    await expectProblem(await extract([]), 422, 'validation_error');
    await expectProblem(await extract(['1']), 422, 'validation_error');
    expect(await balanceOf(acct)).toBe('5.00');
  });
});

describe('extract-pages page lists', () => {
  it('may repeat pages up to 10 per page of the document (or 1,000): 10,000 × page 1 is 422, nothing charged', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'E'), 'one.pdf');
    const res = await acct.json('/v1/pdf/extract-pages', { file_id: up.file_id, pages: Array(10_000).fill(1) });
    const body = await expectProblem(res, 422, 'validation_error');
    expect(JSON.stringify(body)).toMatch(/pages lists 10000 pages of a 1-page document; at most 1000 \(10 per page of the document, or 1,000\)/);
    expect(await balanceOf(acct)).toBe('5.00');
    const ok = await runOp(acct, 'extract-pages', { file_id: up.file_id, pages: Array(1000).fill(1) });
    expect(ok.status, ok.error_message ?? '').toBe('done');
  });
});
