/**
 * Issue 40 (4): a password change signs out every other session of the account (a thief's
 * session ends with the old password) and keeps the one that changed it.
 */
import { describe, expect, it } from 'vitest';
import { SELF } from 'cloudflare:test';
import { ADMIN, BASE, newAccount } from './helpers';

const sessionOf = (res: Response) => /pdf_edge_session=(ses_[^;]+)/.exec(res.headers.get('set-cookie') ?? '')![0];

async function session(accountId: string): Promise<string> {
  const link = await (await SELF.fetch(`${BASE}/admin/accounts/${accountId}/sign-in-link`, { method: 'POST', headers: ADMIN })).json<{ url: string }>();
  return sessionOf(await SELF.fetch(link.url, { method: 'POST', headers: { origin: BASE }, redirect: 'manual' }));
}

const overview = (cookie: string) => SELF.fetch(`${BASE}/dashboard`, { headers: { cookie }, redirect: 'manual' });

describe('password change', () => {
  it('ends every other session of the account and keeps the current one; other accounts are untouched', async () => {
    const [acct, other] = [await newAccount(), await newAccount()];
    const [mine, stolen, elsewhere] = [await session(acct.accountId), await session(acct.accountId), await session(other.accountId)];
    for (const c of [mine, stolen, elsewhere]) expect((await overview(c)).status).toBe(200);
    const changed = await SELF.fetch(`${BASE}/dashboard/password`, {
      method: 'POST',
      headers: { cookie: mine, origin: BASE, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password: 'a brand new password', again: 'a brand new password' }),
      redirect: 'manual',
    });
    expect(changed.status).toBe(303);
    expect((await overview(mine)).status).toBe(200);
    const thief = await overview(stolen);
    expect(thief.status).toBe(303);
    expect(thief.headers.get('location')).toBe('/dashboard/sign-in');
    expect((await overview(elsewhere)).status).toBe(200);
  });

  it('a refused change (passwords differ) ends nothing', async () => {
    const acct = await newAccount();
    const [mine, other] = [await session(acct.accountId), await session(acct.accountId)];
    const refused = await SELF.fetch(`${BASE}/dashboard/password`, {
      method: 'POST',
      headers: { cookie: mine, origin: BASE, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ password: 'a brand new password', again: 'another new password' }),
      redirect: 'manual',
    });
    expect(refused.status).toBe(422);
    expect((await overview(other)).status).toBe(200);
  });
});
