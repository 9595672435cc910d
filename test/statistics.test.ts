import { describe, expect, it } from 'vitest';
import { markerPdf, newAccount, runOp, uploadOk } from './helpers';
import { damagedPdf } from './fixtures';

describe('GET /v1/account/statistics', () => {
  it('counts requests per type, done and failed, and charges net of refunds; the total matches spent_month', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const good = await uploadOk(acct, await markerPdf(3, 'S'), 'good.pdf');
    const bad = await uploadOk(acct, damagedPdf(await markerPdf(2, 'B')), 'bad.pdf');
    await runOp(acct, 'rotate', { file_id: good.file_id });
    await runOp(acct, 'rotate', { file_id: good.file_id, angle: 180 });
    expect((await runOp(acct, 'rotate', { file_id: bad.file_id })).status).toBe('failed');
    await runOp(acct, 'split', { file_id: good.file_id });

    const stats = await (await acct.api('/v1/account/statistics')).json<{
      types: { type: string; requests: number; done: number; failed: number; included: number; charge_units: number; charge: string }[];
      total: { requests: number; charge: string };
    }>();
    expect(stats.types).toEqual([
      { type: 'rotate_pdf', requests: 3, done: 2, failed: 1, included: 0, charge_units: 2, charge: '2.50' },
      { type: 'split_pdf', requests: 1, done: 1, failed: 0, included: 0, charge_units: 1, charge: '1.25' },
    ]);
    expect(stats.total).toMatchObject({ requests: 4, charge: '3.75' });
    const balance = await (await acct.api('/v1/api-keys/balance')).json<{ spent_month: string; balance: string }>();
    expect(balance).toMatchObject({ spent_month: '3.75', balance: '16.25' });
  });

  it('refuses a malformed period with 422 and an empty period is empty', async () => {
    const acct = await newAccount();
    expect((await acct.api('/v1/account/statistics?from=yesterday')).status).toBe(422);
    const empty = await (await acct.api('/v1/account/statistics?from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z')).json<{ types: unknown[]; total: { charge: string } }>();
    expect(empty).toMatchObject({ types: [], total: { charge: '0.00' } });
  });
});
