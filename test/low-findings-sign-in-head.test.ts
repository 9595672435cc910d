/** Issue 40: a HEAD request (link checker, mail scanner) does not spend a one-time sign-in link. */
import { describe, expect, it } from 'vitest';
import { SELF } from 'cloudflare:test';
import { ADMIN, BASE, newAccount } from './helpers';

describe('sign-in links and HEAD', () => {
  it('HEAD answers without a session and leaves the link usable; the GET then signs in once', async () => {
    const acct = await newAccount();
    const res = await SELF.fetch(`${BASE}/admin/accounts/${acct.accountId}/sign-in-link`, { method: 'POST', headers: ADMIN });
    const { url } = await res.json<{ url: string }>();
    const path = new URL(url).pathname;
    for (let i = 0; i < 3; i++) {
      const head = await SELF.fetch(`${BASE}${path}`, { method: 'HEAD', redirect: 'manual' });
      expect(head.status).toBe(200);
      expect(head.headers.get('set-cookie') ?? '').not.toMatch(/pdf_edge_session=ses_/);
      expect(head.headers.get('cache-control')).toMatch(/no-store/);
    }
    const first = await SELF.fetch(`${BASE}${path}`, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('set-cookie')).toMatch(/pdf_edge_session=ses_/);
    expect((await SELF.fetch(`${BASE}${path}`, { redirect: 'manual' })).status).toBe(410);
  });
});
