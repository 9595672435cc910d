import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { admin, balanceOf, markerPdf, newAccount, runOp, uploadOk, waitTask, type TestAccount } from './helpers';
import { damagedPdf, expectProblem } from './fixtures';
import { refundTask } from '../src/service/billing/charge';

async function ledgerOf(accountId: string) {
  const sum = await env.DB.prepare('SELECT SUM(amount_kopecks) AS total FROM ledger WHERE account_id = ?').bind(accountId).first<{ total: number }>();
  const acc = await env.DB.prepare('SELECT balance_kopecks FROM accounts WHERE id = ?').bind(accountId).first<{ balance_kopecks: number }>();
  return { sum: sum!.total, balance: acc!.balance_kopecks };
}

const refundRows = async (taskId: string) =>
  (await env.DB.prepare("SELECT amount_kopecks FROM ledger WHERE task_id = ? AND kind = 'refund'").bind(taskId).all<{ amount_kopecks: number }>()).results;

async function secondKey(acct: TestAccount, body: Record<string, unknown> = { name: 'second' }) {
  const res = await admin(`/admin/accounts/${acct.accountId}/keys`, body);
  expect(res.status).toBe(201);
  const { secret } = await res.json<{ key_id: string; secret: string }>();
  return (path: string, json: unknown) =>
    acct.api(path, { method: 'POST', headers: { 'x-api-key': secret, 'content-type': 'application/json' }, body: JSON.stringify(json) });
}

describe('charging', () => {
  it('is atomic: 12 parallel requests on a balance of 4 units get exactly 4 × 202 and 8 × 402', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'P'), 'p.pdf');
    const responses = await Promise.all(Array.from({ length: 12 }, () => acct.json('/v1/pdf/rotate', { file_id: up.file_id })));
    const accepted = responses.filter((r) => r.status === 202);
    const refused = responses.filter((r) => r.status === 402);
    expect([accepted.length, refused.length]).toEqual([4, 8]);
    for (const r of refused) {
      const p = await expectProblem(r, 402, 'insufficient_balance');
      expect(p.detail).toBe('The price is 1.25 RUB but the balance is 0.00 RUB: top up the balance and repeat the request. Nothing was charged.');
    }
    const tasks = await Promise.all(accepted.map(async (r) => waitTask(acct, (await r.json<{ task_id: string }>()).task_id)));
    expect(tasks.map((t) => t.status)).toEqual(['done', 'done', 'done', 'done']);
    expect(await balanceOf(acct)).toBe('0.00');
    // The ledger adds up to the balance: one credit of 500 and four charges of -125.
    expect(await ledgerOf(acct.accountId)).toEqual({ sum: 0, balance: 0 });
    const kinds = await env.DB.prepare('SELECT kind, COUNT(*) AS n, SUM(amount_kopecks) AS total FROM ledger WHERE account_id = ? GROUP BY kind ORDER BY kind')
      .bind(acct.accountId)
      .all<{ kind: string; n: number; total: number }>();
    expect(kinds.results).toEqual([
      { kind: 'charge', n: 4, total: -500 },
      { kind: 'credit', n: 1, total: 500 },
    ]);
  });

  it('a key limit refuses the third request with key_limit_exhausted while another key keeps working', async () => {
    const acct = await newAccount({ balance: '100.00', limit: '2.50', period: 'daily' });
    const up = await uploadOk(acct, await markerPdf(1, 'K'), 'k.pdf');
    const rotate = () => acct.json('/v1/pdf/rotate', { file_id: up.file_id });
    expect((await rotate()).status).toBe(202);
    expect((await rotate()).status).toBe(202);
    const third = await expectProblem(await rotate(), 402, 'key_limit_exhausted');
    const d = new Date();
    const renews = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)).toISOString().replace('.000Z', 'Z');
    expect(third.detail).toBe(
      `The price 1.25 RUB would take this key past its daily limit of 2.50 RUB: 2.50 RUB spent in the period. The limit renews at ${renews}. Other keys of the account are not affected.`,
    );
    const other = await secondKey(acct);
    expect((await other('/v1/pdf/rotate', { file_id: up.file_id })).status).toBe(202);
    expect(await balanceOf(acct)).toBe('96.25');
    expect(await ledgerOf(acct.accountId)).toEqual({ sum: 9625, balance: 9625 });
  });

  it('parallel requests cannot take a key past its limit', async () => {
    const acct = await newAccount({ balance: '100.00', limit: '3.75', period: 'monthly' });
    const up = await uploadOk(acct, await markerPdf(1, 'M'), 'm.pdf');
    const responses = await Promise.all(Array.from({ length: 8 }, () => acct.json('/v1/pdf/rotate', { file_id: up.file_id })));
    expect(responses.filter((r) => r.status === 202)).toHaveLength(3);
    for (const r of responses.filter((r) => r.status !== 202)) await expectProblem(r, 402, 'key_limit_exhausted');
    expect(await balanceOf(acct)).toBe('96.25');
  });

  it('a refunded charge no longer counts against the key limit', async () => {
    const acct = await newAccount({ balance: '100.00', limit: '1.25', period: 'never' });
    const bad = await uploadOk(acct, damagedPdf(await markerPdf(2, 'B')), 'bad.pdf');
    const failed = await runOp(acct, 'rotate', { file_id: bad.file_id });
    expect(failed).toMatchObject({ status: 'failed', refunded: true });
    const good = await uploadOk(acct, await markerPdf(1, 'G'), 'good.pdf');
    expect((await runOp(acct, 'rotate', { file_id: good.file_id })).status).toBe('done');
    await expectProblem(await acct.json('/v1/pdf/rotate', { file_id: good.file_id }), 402, 'key_limit_exhausted');
    expect(await balanceOf(acct)).toBe('98.75');
  });
});

describe('refunds', () => {
  it('a failed task is refunded exactly once, however often refundTask is called', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const bad = await uploadOk(acct, damagedPdf(await markerPdf(2, 'F')), 'bad.pdf');
    const rec = await runOp(acct, 'rotate', { file_id: bad.file_id });
    expect(rec).toMatchObject({ status: 'failed', refunded: true });
    expect(await balanceOf(acct)).toBe('10.00');
    expect(await refundTask(env.DB, rec.task_id)).toBe(false);
    expect(await refundTask(env.DB, rec.task_id)).toBe(false);
    expect(await balanceOf(acct)).toBe('10.00');
    expect(await refundRows(rec.task_id)).toEqual([{ amount_kopecks: 125 }]);
    expect(await ledgerOf(acct.accountId)).toEqual({ sum: 1000, balance: 1000 });
    const history = await (await acct.api('/v1/account/operations')).json<{ items: Record<string, unknown>[] }>();
    expect(history.items).toHaveLength(1);
    expect(history.items[0]).toMatchObject({ task_id: rec.task_id, type: 'rotate_pdf', status: 'failed', charge: '1.25', charge_units: 1, refunded: true });
  });

  it('parallel refunds of one task: exactly one succeeds', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'R'), 'r.pdf');
    const rec = await runOp(acct, 'rotate', { file_id: up.file_id });
    expect(await balanceOf(acct)).toBe('8.75');
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => refundTask(env.DB, rec.task_id)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await balanceOf(acct)).toBe('10.00');
    expect(await refundRows(rec.task_id)).toEqual([{ amount_kopecks: 125 }]);
    expect(await refundTask(env.DB, `task_${'0'.repeat(32)}`)).toBe(false);
    expect(await ledgerOf(acct.accountId)).toEqual({ sum: 1000, balance: 1000 });
  });
});

describe('business plan', () => {
  interface Balance { balance: string; included_limit: number; included_used: number; included_remaining: number; included_resets_at: string | null }
  const balanceRecord = async (acct: TestAccount) => (await acct.api('/v1/api-keys/balance')).json<Balance>();

  const businessAccount = (purchasedAt: string) => newAccount({ plan: 'business', balance: '10.00', purchasedAt });

  /** A purchase date on this day of month a month or more ago, so the current window is well defined. */
  const purchased = () => { const d = new Date(); return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 2, Math.min(d.getUTCDate(), 28), 0, 0, 0)).toISOString(); };

  it('a one-unit operation is an included request, charged 0.00, and the balance is untouched', async () => {
    const acct = await businessAccount(purchased());
    const before = await balanceRecord(acct);
    expect(before).toMatchObject({ balance: '10.00', included_limit: 500, included_used: 0, included_remaining: 500 });
    const up = await uploadOk(acct, await markerPdf(1, 'I'), 'i.pdf');
    const rec = await runOp(acct, 'rotate', { file_id: up.file_id });
    expect(rec).toMatchObject({ status: 'done', charge: '0.00', charge_units: 1, included: true });
    expect(await balanceRecord(acct)).toMatchObject({ balance: '10.00', included_used: 1, included_remaining: 499 });
    const history = await (await acct.api('/v1/account/operations')).json<{ items: { included: boolean; charge: string }[] }>();
    expect(history.items[0]).toMatchObject({ included: true, charge: '0.00' });
  });

  it('a refund of an included request gives the request back', async () => {
    const acct = await businessAccount(purchased());
    const up = await uploadOk(acct, damagedPdf(await markerPdf(2, 'X')), 'broken.pdf');
    const res = await acct.json('/v1/pdf/rotate', { file_id: up.file_id });
    const rec = await waitTask(acct, (await res.json<{ task_id: string }>()).task_id);
    expect(rec).toMatchObject({ status: 'failed', refunded: true, included: true, charge: '0.00' });
    expect(await balanceRecord(acct)).toMatchObject({ balance: '10.00', included_used: 0, included_remaining: 500 });
  });

  it('when the 500 are used up, one-unit operations are paid from the balance', async () => {
    const acct = await businessAccount(purchased());
    const now = Date.now();
    await env.DB.batch(
      Array.from({ length: 500 }, (_, i) =>
        env.DB.prepare(
          "INSERT INTO operations (id, task_id, account_id, key_id, type, status, charge_kopecks, charge_units, included, refunded, created_at) VALUES (?, ?, ?, ?, 'rotate_pdf', 'done', 0, 1, 1, 0, ?)",
        ).bind(`op_seed_${acct.accountId}_${i}`, `task_seed_${acct.accountId}_${i}`, acct.accountId, acct.keyId, now - 1000),
      ),
    );
    expect(await balanceRecord(acct)).toMatchObject({ included_used: 500, included_remaining: 0 });
    const up = await uploadOk(acct, await markerPdf(1, 'P'), 'p.pdf');
    const rec = await runOp(acct, 'rotate', { file_id: up.file_id });
    expect(rec).toMatchObject({ charge: '1.25', included: false });
    expect((await balanceRecord(acct)).balance).toBe('8.75');
  });

  it('included_resets_at is the purchase day of the next month; other plans have none', async () => {
    const acct = await businessAccount('2026-01-15T00:00:00Z');
    const rec = await balanceRecord(acct);
    const now = new Date();
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + (now.getUTCDate() >= 15 ? 1 : 0), 15));
    expect(rec.included_resets_at).toBe(next.toISOString().replace('.000Z', 'Z'));
    const standard = await balanceRecord(await newAccount());
    expect(standard).toMatchObject({ included_limit: 0, included_used: 0, included_remaining: 0, included_resets_at: null });
  });
});
