import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { BASE, admin, balanceOf, markerPdf, newAccount } from './helpers';
import { expectProblem } from './fixtures';

const BALANCE = `${BASE}/v1/api-keys/balance`;

describe('authentication', () => {
  it('401 unauthorized problem+json without a key and with a wrong key', async () => {
    const none = await expectProblem(await SELF.fetch(BALANCE), 401, 'unauthorized');
    expect(none).toMatchObject({ type: 'about:blank', title: 'Unauthorized', status: 401 });
    await expectProblem(await SELF.fetch(BALANCE, { headers: { 'x-api-key': 'sk_wrong' } }), 401, 'unauthorized');
    await expectProblem(await SELF.fetch(BALANCE, { headers: { authorization: 'Bearer sk_wrong' } }), 401, 'unauthorized');
    await expectProblem(await SELF.fetch(BALANCE, { headers: { authorization: 'Basic Zm9vOmJhcg==' } }), 401, 'unauthorized');
  });

  it('a key in the URL query is refused with 401 even when a header carries a valid key', async () => {
    const acct = await newAccount();
    for (const name of ['api_key', 'key', 'token']) {
      const query = await expectProblem(await SELF.fetch(`${BALANCE}?${name}=${acct.secret}`), 401, 'unauthorized');
      expect(query.detail).toContain('must not be sent in the URL');
      await expectProblem(await acct.api(`/v1/api-keys/balance?${name}=${acct.secret}`), 401, 'unauthorized');
    }
  });

  it('accepts the key in X-API-Key and in Authorization: Bearer', async () => {
    const acct = await newAccount({ balance: '12.50' });
    const viaHeader = await SELF.fetch(BALANCE, { headers: { 'X-API-Key': acct.secret } });
    expect(viaHeader.status).toBe(200);
    expect((await viaHeader.json<{ balance: string }>()).balance).toBe('12.50');
    const viaBearer = await SELF.fetch(BALANCE, { headers: { Authorization: `Bearer ${acct.secret}` } });
    expect(viaBearer.status).toBe(200);
    expect((await viaBearer.json<{ balance: string }>()).balance).toBe('12.50');
  });

  it('reissue kills the old secret at once and keeps the key id', async () => {
    const acct = await newAccount();
    const res = await admin(`/admin/keys/${acct.keyId}/reissue`);
    expect(res.status).toBe(200);
    const { key_id, secret } = await res.json<{ key_id: string; secret: string }>();
    expect(key_id).toBe(acct.keyId);
    expect(secret).not.toBe(acct.secret);
    await expectProblem(await acct.api('/v1/api-keys/balance'), 401, 'unauthorized');
    expect((await SELF.fetch(BALANCE, { headers: { 'x-api-key': secret } })).status).toBe(200);
  });

  it('delete kills the key; balance and other keys stay', async () => {
    const acct = await newAccount({ balance: '7.25' });
    const second = await (await admin(`/admin/accounts/${acct.accountId}/keys`, { name: 'second' })).json<{ key_id: string; secret: string }>();
    const del = await admin(`/admin/keys/${acct.keyId}`, undefined, 'DELETE');
    expect(del.status).toBe(204);
    await expectProblem(await acct.api('/v1/api-keys/balance'), 401, 'unauthorized');
    await expectProblem(await acct.upload(await markerPdf(1, 'K'), 'k.pdf'), 401, 'unauthorized');
    const other = await SELF.fetch(BALANCE, { headers: { 'x-api-key': second.secret } });
    expect((await other.json<{ balance: string }>()).balance).toBe('7.25');
    // A deleted key cannot be deleted or reissued again.
    await expectProblem(await admin(`/admin/keys/${acct.keyId}`, undefined, 'DELETE'), 404, 'not_found');
    await expectProblem(await admin(`/admin/keys/${acct.keyId}/reissue`), 404, 'not_found');
  });

  it('the admin API needs its token', async () => {
    await expectProblem(await SELF.fetch(`${BASE}/admin/accounts`, { method: 'POST', body: '{}' }), 401, 'unauthorized');
    const wrong = await SELF.fetch(`${BASE}/admin/accounts`, { method: 'POST', headers: { 'x-admin-token': 'test-admin-tokeN' }, body: '{}' });
    await expectProblem(wrong, 401, 'unauthorized');
  });

  it('every response carries a distinct X-Request-Id', async () => {
    const acct = await newAccount();
    const responses = [
      await acct.api('/v1/api-keys/balance'),
      await SELF.fetch(BALANCE),
      await acct.api('/v1/no-such-endpoint'),
      await acct.json('/v1/pdf/rotate', {}),
      await SELF.fetch(`${BASE}/healthz`),
      await SELF.fetch(`${BASE}/v1/download/nothing`),
      await acct.upload(await markerPdf(1, 'I'), 'i.pdf'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 401, 404, 422, 200, 404, 201]);
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^\S{8,}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('rate limit', () => {
  it('a burst of 60 parallel requests of one key gets 429 rate_limited with a numeric Retry-After', async () => {
    const acct = await newAccount();
    const other = await newAccount();
    const responses = await Promise.all(Array.from({ length: 60 }, () => acct.api('/v1/api-keys/balance')));
    const limited = responses.filter((r) => r.status === 429);
    const ok = responses.filter((r) => r.status === 200);
    expect(ok.length + limited.length).toBe(60);
    expect(ok.length).toBeGreaterThanOrEqual(40); // the bucket starts full (burst 40)
    expect(limited.length).toBeGreaterThanOrEqual(1);
    const first = limited[0]!;
    expect(first.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    await expectProblem(first, 429, 'rate_limited');
    // The limit is per key: another account's key is not affected.
    expect(await balanceOf(other)).toBe('100.00');
  });
});
