import { describe, expect, it } from 'vitest';
import { balanceOf, download, inspect, markerPdf, newAccount, runOp, uploadOk } from './helpers';
import { expectProblem } from './fixtures';

describe('delete-pages', () => {
  it('removes exactly the listed pages and keeps the others in order', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(5, 'D'), 'contract.pdf');
    const rec = await runOp(acct, 'delete-pages', { file_id: up.file_id, pages: [4, 2] });
    expect(rec.status).toBe('done');
    expect(rec.operation_type).toBe('delete_pages');
    expect(rec.filename).toBe('contract_service.pdf');
    expect(rec.content_type).toBe('application/pdf');
    expect(rec.charge).toBe('1.25');
    const out = await inspect(await download(rec));
    expect(out.markers).toEqual(['MARK-D-1', 'MARK-D-3', 'MARK-D-5']);
    expect(await balanceOf(acct)).toBe('8.75');
  });

  it('tolerates a page listed twice and keeps page sizes and rotations', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(3, 'E', { rotate: [0, 0, 90], size: [300, 400] }), 'e.pdf');
    const rec = await runOp(acct, 'delete-pages', { file_id: up.file_id, pages: [1, 1] });
    const out = await inspect(await download(rec));
    expect(out.markers).toEqual(['MARK-E-2', 'MARK-E-3']);
    expect(out.rotations).toEqual([0, 90]);
    expect(out.sizes).toEqual([
      [300, 400],
      [400, 300],
    ]);
  });

  it('drops what only the deleted pages used: the result is smaller', async () => {
    const acct = await newAccount();
    const input = await markerPdf(40, 'S');
    const up = await uploadOk(acct, input, 'big.pdf');
    const rec = await runOp(acct, 'delete-pages', { file_id: up.file_id, pages: Array.from({ length: 39 }, (_, i) => i + 2) });
    const bytes = await download(rec);
    expect((await inspect(bytes)).markers).toEqual(['MARK-S-1']);
    expect(bytes.length).toBeLessThan(input.length);
  });

  it('refuses deleting every page with 422, even with duplicates in the list', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, await markerPdf(3, 'A'), 'three.pdf');
    const all = await expectProblem(await acct.json('/v1/pdf/delete-pages', { file_id: up.file_id, pages: [3, 1, 2] }), 422, 'validation_error');
    expect(all.errors).toEqual([{ path: 'pages', message: 'deleting all 3 pages would leave an empty document: keep at least one page' }]);
    await expectProblem(await acct.json('/v1/pdf/delete-pages', { file_id: up.file_id, pages: [1, 2, 3, 3] }), 422, 'validation_error');
    expect(await balanceOf(acct)).toBe('5.00');
  });

  it('refuses page 0, a page past the end, an empty or missing list with 422', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, await markerPdf(3, 'B'), 'three.pdf');
    const del = (body: Record<string, unknown>) => acct.json('/v1/pdf/delete-pages', { file_id: up.file_id, ...body });
    const zero = await expectProblem(await del({ pages: [0] }), 422, 'validation_error');
    expect(zero.errors).toEqual([{ path: 'pages[0]', message: 'page numbers start at 1' }]);
    const past = await expectProblem(await del({ pages: [1, 4] }), 422, 'validation_error');
    expect(past.errors).toEqual([{ path: 'pages[1]', message: 'page 4 does not exist: the document has 3 pages' }]);
    const empty = await expectProblem(await del({ pages: [] }), 422, 'validation_error');
    expect(empty.errors).toEqual([{ path: 'pages', message: 'list at least one page' }]);
    const missing = await expectProblem(await del({}), 422, 'validation_error');
    expect(missing.errors).toEqual([{ path: 'pages', message: 'pages is required' }]);
    await expectProblem(await del({ pages: [1.5] }), 422, 'validation_error');
    await expectProblem(await del({ pages: 'all' }), 422, 'validation_error');
    expect(await balanceOf(acct)).toBe('5.00');
  });
});
