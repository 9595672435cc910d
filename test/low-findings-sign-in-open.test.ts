/**
 * Issue 40: opening a one-time sign-in link (HEAD or GET: link checkers, mail scanners, previews)
 * does not spend it; only its page's button (a same-origin POST) does, once.
 */
import { describe, expect, it } from 'vitest';
import { SELF } from 'cloudflare:test';
import { ADMIN, BASE, newAccount } from './helpers';

const hasSession = (res: Response) => /pdf_edge_session=ses_/.test(res.headers.get('set-cookie') ?? '');

describe('sign-in links are spent by their button, not by being opened', () => {
  it('HEAD and GET leave the link usable; a cross-site POST is refused; the POST signs in once', async () => {
    const acct = await newAccount();
    const res = await SELF.fetch(`${BASE}/admin/accounts/${acct.accountId}/sign-in-link`, { method: 'POST', headers: ADMIN });
    const { url } = await res.json<{ url: string }>();
    const path = new URL(url).pathname;
    for (let i = 0; i < 3; i++) {
      const head = await SELF.fetch(`${BASE}${path}`, { method: 'HEAD', redirect: 'manual' });
      expect(head.status).toBe(200);
      expect(hasSession(head)).toBe(false);
      expect(head.headers.get('cache-control')).toMatch(/no-store/);
      const opened = await SELF.fetch(`${BASE}${path}`, { redirect: 'manual' });
      expect(opened.status).toBe(200);
      expect(hasSession(opened)).toBe(false);
      expect(await opened.text()).toMatch(/<form method="post" action="\/dashboard\/link\/sil_[^"]+">/);
    }
    const crossSite = await SELF.fetch(`${BASE}${path}`, { method: 'POST', headers: { origin: 'https://evil.example' }, redirect: 'manual' });
    expect(crossSite.status).toBe(403);
    expect(hasSession(crossSite)).toBe(false);
    const first = await SELF.fetch(`${BASE}${path}`, { method: 'POST', headers: { origin: BASE }, redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/dashboard/password');
    expect(hasSession(first)).toBe(true);
    expect((await SELF.fetch(`${BASE}${path}`, { method: 'POST', headers: { origin: BASE }, redirect: 'manual' })).status).toBe(410);
    expect((await SELF.fetch(`${BASE}${path}`, { redirect: 'manual' })).status).toBe(410);
  });
});
