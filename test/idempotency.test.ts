/**
 * Idempotency-Key on paid POSTs (DECISIONS: Idempotency): replays, reuse with another body,
 * 4xx not kept, keys per account, and concurrent duplicates charged once.
 */
import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:test';
import { balanceOf, markerPdf, newAccount, uploadOk, type TestAccount } from './helpers';
import { expectProblem } from './fixtures';
import { sweepIdempotencyKeys, IDEMPOTENCY_TTL_MS } from '../src/api/middleware/idempotency';

const rotate = (acct: TestAccount, body: unknown, key: string) =>
  acct.api('/v1/pdf/rotate', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify(body) });

describe('Idempotency-Key', () => {
  it('the same key and body answer the first response again, marked replayed, and charge once', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'I'), 'i.pdf');
    const first = await rotate(acct, { file_id: up.file_id, angle: 90 }, 'order-1');
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const firstBody = await first.text();
    const again = await rotate(acct, { file_id: up.file_id, angle: 90 }, 'order-1');
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(firstBody);
    expect(await balanceOf(acct)).toBe('8.75');
  });

  it('20 concurrent requests with one key: one charge, one task, 20 identical answers', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(2, 'C'), 'c.pdf');
    const answers = await Promise.all(Array.from({ length: 20 }, () => rotate(acct, { file_id: up.file_id, angle: 180 }, 'burst').then(async (r) => ({ status: r.status, body: await r.text() }))));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(await balanceOf(acct)).toBe('8.75');
    const history = await (await acct.api('/v1/account/operations')).json<{ items: { task_id: string }[] }>();
    expect(history.items.filter((i) => i.task_id === JSON.parse(answers[0]!.body).task_id)).toHaveLength(1);
  });

  it('the same key with another body is 422 idempotency_key_reused and charges nothing more', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'R'), 'r.pdf');
    expect((await rotate(acct, { file_id: up.file_id, angle: 90 }, 'k')).status).toBe(202);
    await expectProblem(await rotate(acct, { file_id: up.file_id, angle: 180 }, 'k'), 422, 'idempotency_key_reused');
    expect(await balanceOf(acct)).toBe('8.75');
  });

  it('a 4xx answer is not kept: the request fixed, the same key goes through', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'F'), 'f.pdf');
    await expectProblem(await rotate(acct, { file_id: up.file_id, angle: 45 }, 'fix-me'), 422, 'validation_error');
    expect((await rotate(acct, { file_id: up.file_id, angle: 90 }, 'fix-me')).status).toBe(202);
    expect(await balanceOf(acct)).toBe('8.75');
  });

  it('keys are per account', async () => {
    const a = await newAccount();
    const b = await newAccount();
    const ra = await rotate(a, { file_id: (await uploadOk(a, await markerPdf(1, 'A'), 'a.pdf')).file_id }, 'shared');
    const rb = await rotate(b, { file_id: (await uploadOk(b, await markerPdf(1, 'B'), 'b.pdf')).file_id }, 'shared');
    expect(ra.status).toBe(202);
    expect(rb.status).toBe(202);
    expect((await ra.json<{ task_id: string }>()).task_id).not.toBe((await rb.json<{ task_id: string }>()).task_id);
  });

  it('a key must be 1 to 255 printable ASCII characters', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(1, 'K'), 'k.pdf');
    const problem = await expectProblem(await rotate(acct, { file_id: up.file_id }, 'x'.repeat(256)), 422, 'validation_error');
    expect(problem.errors?.[0]?.path).toBe('Idempotency-Key');
  });

  it('keys older than 24 hours are swept, and an expired key works as a new one', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'E'), 'e.pdf');
    const first = await (await rotate(acct, { file_id: up.file_id }, 'old')).json<{ task_id: string }>();
    await env.DB.prepare('UPDATE idempotency_keys SET created_at = created_at - ? WHERE key = ?').bind(IDEMPOTENCY_TTL_MS, 'old').run();
    const second = await (await rotate(acct, { file_id: up.file_id }, 'old')).json<{ task_id: string }>();
    expect(second.task_id).not.toBe(first.task_id);
    await env.DB.prepare('UPDATE idempotency_keys SET created_at = created_at - ? WHERE key = ?').bind(IDEMPOTENCY_TTL_MS, 'old').run();
    expect(await sweepIdempotencyKeys(env.DB)).toBeGreaterThanOrEqual(1);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM idempotency_keys WHERE key = 'old'").first('n')).toBe(0);
  });
});
