import { describe, expect, it } from 'vitest';
import { balanceOf, download, inspect, markerPdf, newAccount, runOp, uploadOk } from './helpers';
import { expectProblem, makePng } from './fixtures';

describe('merge', () => {
  it('concatenates the inputs in the order of file_ids and names the result after the first input', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const a = await uploadOk(acct, await markerPdf(2, 'A'), 'a.pdf');
    const b = await uploadOk(acct, await markerPdf(1, 'B'), 'b.pdf');
    const c = await uploadOk(acct, await markerPdf(3, 'C'), 'c.pdf');
    const rec = await runOp(acct, 'merge', { file_ids: [c.file_id, a.file_id, b.file_id] });
    expect(rec.status).toBe('done');
    expect(rec.operation_type).toBe('merge_pdfs');
    expect(rec.filename).toBe('c_service.pdf');
    expect(rec.content_type).toBe('application/pdf');
    const bytes = await download(rec);
    expect(rec.size).toBe(bytes.length);
    expect((await inspect(bytes)).markers).toEqual(['MARK-C-1', 'MARK-C-2', 'MARK-C-3', 'MARK-A-1', 'MARK-A-2', 'MARK-B-1']);
    // Three small files add up to far less than 10 MB: one unit.
    expect(rec.charge).toBe('1.25');
    expect(rec.charge_units).toBe(1);
    expect(await balanceOf(acct)).toBe('8.75');
  });

  it('keeps page sizes of each input and accepts the same file twice', async () => {
    const acct = await newAccount();
    const wide = await uploadOk(acct, await markerPdf(1, 'W', { size: [500, 200] }), 'wide.pdf');
    const tall = await uploadOk(acct, await markerPdf(1, 'T', { size: [200, 500] }), 'tall.pdf');
    const rec = await runOp(acct, 'merge', { file_ids: [tall.file_id, wide.file_id, tall.file_id] });
    const out = await inspect(await download(rec));
    expect(out.markers).toEqual(['MARK-T-1', 'MARK-W-1', 'MARK-T-1']);
    expect(out.sizes).toEqual([
      [200, 500],
      [500, 200],
      [200, 500],
    ]);
    expect(rec.filename).toBe('tall_service.pdf');
  });

  it('accepts exactly 20 files', async () => {
    const acct = await newAccount();
    const one = await uploadOk(acct, await markerPdf(1, 'X'), 'x.pdf');
    const rec = await runOp(acct, 'merge', { file_ids: Array.from({ length: 20 }, () => one.file_id) });
    expect(rec.status).toBe('done');
    const out = await inspect(await download(rec));
    expect(out.markers).toEqual(Array.from({ length: 20 }, () => 'MARK-X-1'));
    expect(rec.charge).toBe('1.25');
  });

  it('refuses fewer than 2 and more than 20 files with 422 and charges nothing', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const one = await uploadOk(acct, await markerPdf(1, 'X'), 'x.pdf');
    const single = await expectProblem(await acct.json('/v1/pdf/merge', { file_ids: [one.file_id] }), 422, 'validation_error');
    expect(single.errors).toEqual([{ path: 'file_ids', message: 'give 2 to 20 files' }]);
    const many = await expectProblem(
      await acct.json('/v1/pdf/merge', { file_ids: Array.from({ length: 21 }, () => one.file_id) }),
      422,
      'validation_error',
    );
    expect(many.errors).toEqual([{ path: 'file_ids', message: 'give 2 to 20 files' }]);
    await expectProblem(await acct.json('/v1/pdf/merge', { file_ids: [] }), 422, 'validation_error');
    await expectProblem(await acct.json('/v1/pdf/merge', { file_id: one.file_id }), 422, 'validation_error');
    expect(await balanceOf(acct)).toBe('5.00');
  });

  it('refuses a non-PDF input with 422 naming the file and its type', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const pdf = await uploadOk(acct, await markerPdf(1, 'P'), 'p.pdf');
    const png = await uploadOk(acct, makePng(4, 3), 'logo.png');
    expect(png.pages).toBeNull();
    const problem = await expectProblem(await acct.json('/v1/pdf/merge', { file_ids: [pdf.file_id, png.file_id] }), 422, 'validation_error');
    expect(problem.errors).toEqual([{ path: 'file_ids[1]', message: 'this operation takes PDF, but logo.png is PNG (image/png)' }]);
    expect(await balanceOf(acct)).toBe('5.00');
  });

  it('refuses an unknown file_id and another account\'s file with 422', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const other = await newAccount();
    const mine = await uploadOk(acct, await markerPdf(1, 'M'), 'm.pdf');
    const theirs = await uploadOk(other, await markerPdf(1, 'O'), 'o.pdf');
    const problem = await expectProblem(
      await acct.json('/v1/pdf/merge', { file_ids: [mine.file_id, theirs.file_id, 'file_0000'] }),
      422,
      'validation_error',
    );
    expect(problem.errors!.map((e) => e.path)).toEqual(['file_ids[1]', 'file_ids[2]']);
    expect(await balanceOf(acct)).toBe('5.00');
  });
});
