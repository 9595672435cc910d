import { describe, expect, it } from 'vitest';
import { download, inspect, markerPdf, newAccount, runOp, uploadOk } from './helpers';

describe('merge appends to the largest input', () => {
  it('keeps file_ids order when the largest file is not the first, and leaves the largest file byte-for-byte as the prefix', async () => {
    const acct = await newAccount();
    const small = await uploadOk(acct, await markerPdf(1, 'A'), 'a.pdf');
    const bigBytes = await markerPdf(30, 'B', { rotate: [90] });
    const big = await uploadOk(acct, bigBytes, 'b.pdf');
    const tail = await uploadOk(acct, await markerPdf(2, 'C', { size: [500, 200] }), 'c.pdf');
    const rec = await runOp(acct, 'merge', { file_ids: [small.file_id, big.file_id, tail.file_id] });
    expect(rec.status).toBe('done');
    expect(rec.filename).toBe('a_service.pdf');
    const bytes = await download(rec);
    expect(bytes.subarray(0, bigBytes.length)).toEqual(bigBytes);
    const out = await inspect(bytes);
    expect(out.markers).toEqual(['MARK-A-1', ...Array.from({ length: 30 }, (_, i) => `MARK-B-${i + 1}`), 'MARK-C-1', 'MARK-C-2']);
    expect(out.rotations[1]).toBe(90);
    expect(out.sizes.at(-1)).toEqual([500, 200]);
  });
});
