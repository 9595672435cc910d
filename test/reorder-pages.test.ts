import { describe, expect, it } from 'vitest';
import { balanceOf, download, inspect, markerPdf, newAccount, runOp, uploadOk } from './helpers';
import { expectProblem } from './fixtures';

describe('reorder-pages', () => {
  it('puts the listed pages first, then the rest in their original order', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(5, 'O'), 'slides.pdf');
    const rec = await runOp(acct, 'reorder-pages', { file_id: up.file_id, new_order: [4, 2] });
    expect(rec.status).toBe('done');
    expect(rec.operation_type).toBe('reorder_pages');
    expect(rec.filename).toBe('slides_service.pdf');
    expect(rec.charge).toBe('1.25');
    const out = await inspect(await download(rec));
    expect(out.markers).toEqual(['MARK-O-4', 'MARK-O-2', 'MARK-O-1', 'MARK-O-3', 'MARK-O-5']);
    expect(await balanceOf(acct)).toBe('8.75');
  });

  it('a full order is applied as given; every page is kept once', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(4, 'P', { rotate: [90, 0, 0, 0] }), 'p.pdf');
    const rec = await runOp(acct, 'reorder-pages', { file_id: up.file_id, new_order: [3, 4, 1, 2] });
    const out = await inspect(await download(rec));
    expect(out.markers).toEqual(['MARK-P-3', 'MARK-P-4', 'MARK-P-1', 'MARK-P-2']);
    expect(out.rotations).toEqual([0, 0, 90, 0]);
  });

  it('refuses duplicates and pages past the end with 422 and charges nothing', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, await markerPdf(3, 'Q'), 'q.pdf');
    const reorder = (new_order: unknown) => acct.json('/v1/pdf/reorder-pages', { file_id: up.file_id, new_order });
    const dup = await expectProblem(await reorder([2, 1, 2]), 422, 'validation_error');
    expect(dup.errors).toEqual([{ path: 'new_order[2]', message: 'page 2 is listed twice' }]);
    const past = await expectProblem(await reorder([3, 4]), 422, 'validation_error');
    expect(past.errors).toEqual([{ path: 'new_order[1]', message: 'page 4 does not exist: the document has 3 pages' }]);
    await expectProblem(await reorder([]), 422, 'validation_error');
    await expectProblem(await reorder([0, 1]), 422, 'validation_error');
    await expectProblem(await acct.json('/v1/pdf/reorder-pages', { file_id: up.file_id, pages: [2, 1] }), 422, 'validation_error');
    expect(await balanceOf(acct)).toBe('5.00');
  });
});
