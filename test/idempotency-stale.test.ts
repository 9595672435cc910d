/**
 * An Idempotency-Key whose first request died between claiming the key and answering (a claim row
 * without a status) is not blocked for 24 hours: after STALE_CLAIM_MS a request with the key and
 * the same body takes the claim over, is processed and charged once; its answer is then replayed.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:test';
import { balanceOf, markerPdf, newAccount, uploadOk, type TestAccount } from './helpers';
import { expectProblem } from './fixtures';
import { requestHash, STALE_CLAIM_MS } from '../src/api/middleware/idempotency';

const rotate = (acct: TestAccount, body: string, key: string) =>
  acct.api('/v1/pdf/rotate', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body });

/** The claim a request that died after claiming `key` for `body` leaves behind, made `ageMs` ago. */
async function orphanClaim(acct: TestAccount, key: string, body: string, ageMs: number): Promise<void> {
  await env.DB.prepare('INSERT INTO idempotency_keys (account_id, key, request_hash, status, body, created_at) VALUES (?, ?, ?, NULL, NULL, ?)')
    .bind(acct.accountId, key, await requestHash('POST', '/v1/pdf/rotate', body), Date.now() - ageMs)
    .run();
}

const claimOf = (acct: TestAccount, key: string) =>
  env.DB.prepare('SELECT status, body FROM idempotency_keys WHERE account_id = ? AND key = ?').bind(acct.accountId, key).first<{ status: number | null; body: string | null }>();

describe('Idempotency-Key claims left without an answer', () => {
  it('a claim older than STALE_CLAIM_MS is taken over: the request is processed, charged once, then replayed', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'S'), 's.pdf');
    const body = JSON.stringify({ file_id: up.file_id, angle: 90 });
    await orphanClaim(acct, 'crashed', body, STALE_CLAIM_MS + 1000);
    const first = await rotate(acct, body, 'crashed');
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const firstBody = await first.text();
    expect(JSON.parse(firstBody).task_id).toMatch(/^task_/);
    expect(await balanceOf(acct)).toBe('8.75');
    expect(await claimOf(acct, 'crashed')).toEqual({ status: 202, body: firstBody });
    const again = await rotate(acct, body, 'crashed');
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(firstBody);
    expect(await balanceOf(acct)).toBe('8.75');
  });

  it('10 concurrent requests on a stale claim: exactly one takes it over and is charged, all get its answer', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'T'), 't.pdf');
    const body = JSON.stringify({ file_id: up.file_id, angle: 180 });
    await orphanClaim(acct, 'crashed-burst', body, 10 * 60_000);
    const answers = await Promise.all(Array.from({ length: 10 }, () => rotate(acct, body, 'crashed-burst').then(async (r) => ({ status: r.status, body: await r.text() }))));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(202));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(await balanceOf(acct)).toBe('8.75');
    const ops = await env.DB.prepare('SELECT COUNT(*) AS n FROM operations WHERE account_id = ?').bind(acct.accountId).first<{ n: number }>();
    expect(ops!.n).toBe(1);
  });

  it('a duplicate waiting on a claim that turns stale while it waits takes it over (no 409)', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'W'), 'w.pdf');
    const body = JSON.stringify({ file_id: up.file_id });
    await orphanClaim(acct, 'almost-stale', body, STALE_CLAIM_MS - 1500);
    const started = Date.now();
    const res = await rotate(acct, body, 'almost-stale');
    expect(res.status).toBe(202);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // it waited for the first, as duplicates do
    expect(await balanceOf(acct)).toBe('8.75');
  });

  it('a stale claim made for another body still answers 422 idempotency_key_reused, charging nothing', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'O'), 'o.pdf');
    await orphanClaim(acct, 'other-body', JSON.stringify({ file_id: up.file_id, angle: 270 }), STALE_CLAIM_MS + 1000);
    await expectProblem(await rotate(acct, JSON.stringify({ file_id: up.file_id, angle: 90 }), 'other-body'), 422, 'idempotency_key_reused');
    expect(await balanceOf(acct)).toBe('10.00');
  });
});
