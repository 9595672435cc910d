/**
 * Dashboard sign-in through the Worker (issue 32, first part): one-time links, passwords, session
 * cookies, sign-out here and everywhere, and the walls between a session and an API key.
 */
import { describe, expect, it } from 'vitest';
import { SELF, env } from 'cloudflare:test';
import { ADMIN, BASE, newAccount } from './helpers';
import { hashPassword, verifyPassword } from '../src/auth/passwords';

const ORIGIN = { origin: BASE };

async function signInLink(accountId: string): Promise<{ url: string; expires_at: string }> {
  const res = await SELF.fetch(`${BASE}/admin/accounts/${accountId}/sign-in-link`, { method: 'POST', headers: ADMIN });
  expect(res.status).toBe(201);
  return res.json();
}

/** The session cookie a response sets (name=value), or null. */
function sessionCookie(res: Response): string | null {
  const header = res.headers.get('set-cookie') ?? '';
  const match = /pdf_edge_session=(ses_[^;]+)/.exec(header);
  return match ? `pdf_edge_session=${match[1]}` : null;
}

const get = (path: string, cookie?: string) => SELF.fetch(`${BASE}${path}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
const post = (path: string, form: Record<string, string>, cookie?: string, origin = ORIGIN) =>
  SELF.fetch(`${BASE}${path}`, { method: 'POST', body: new URLSearchParams(form), headers: { ...origin, ...(cookie ? { cookie } : {}), 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });

describe('dashboard sign-in', () => {
  it('a one-time link signs in once, sets a password; then sign out, sign in with it; the cookie is HttpOnly, Secure, SameSite=Strict', async () => {
    const acct = await newAccount({ balance: '12.50' });
    const id = acct.accountId;
    const link = await signInLink(id);
    expect(Date.parse(link.expires_at) - Date.now()).toBeGreaterThan(25 * 60_000);
    const path = new URL(link.url).pathname;
    const first = await get(path);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/dashboard/password');
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(first.headers.get('set-cookie')).toMatch(/Secure/i);
    expect(first.headers.get('set-cookie')).toMatch(/SameSite=Strict/i);
    const cookie = sessionCookie(first)!;
    expect((await get(path)).status).toBe(410); // single use
    expect((await post('/dashboard/password', { password: 'short', again: 'short' }, cookie)).status).toBe(422);
    expect((await post('/dashboard/password', { password: 'correct horse battery', again: 'correct horse battery' }, cookie)).status).toBe(303);
    const overview = await get('/dashboard', cookie);
    expect(overview.status).toBe(200);
    expect(await overview.text()).toContain('12.50');
    expect((await post('/dashboard/sign-out', {}, cookie)).status).toBe(303);
    expect((await get('/dashboard', cookie)).headers.get('location')).toBe('/dashboard/sign-in');
    const email = (await env.DB.prepare('SELECT email FROM accounts WHERE id = ?').bind(id).first<{ email: string }>())!.email;
    expect((await post('/dashboard/sign-in', { email, password: 'wrong password!' })).status).toBe(401);
    const again = await post('/dashboard/sign-in', { email, password: 'correct horse battery' });
    expect(again.status).toBe(303);
    expect((await get('/dashboard', sessionCookie(again)!)).status).toBe(200);
  });

  it('sign out everywhere ends every session; a session is no API key and an API key opens no page; a cross-site POST is refused', async () => {
    const acct = await newAccount();
    const id = acct.accountId;
    const [a, b] = [sessionCookie(await get(new URL((await signInLink(id)).url).pathname))!, sessionCookie(await get(new URL((await signInLink(id)).url).pathname))!];
    expect((await get('/dashboard', b)).status).toBe(200);
    // The session cookie is not a key, and a key is not a session.
    expect((await SELF.fetch(`${BASE}/v1/api-keys/balance`, { headers: { cookie: a } })).status).toBe(401);
    expect((await SELF.fetch(`${BASE}/dashboard`, { headers: { 'x-api-key': acct.secret }, redirect: 'manual' })).headers.get('location')).toBe('/dashboard/sign-in');
    // A form posted from another site changes nothing.
    expect((await post('/dashboard/sign-out-everywhere', {}, a, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await post('/dashboard/sign-out-everywhere', {}, a, {} as { origin: string })).status).toBe(403);
    expect((await get('/dashboard', b)).status).toBe(200);
    expect((await post('/dashboard/sign-out-everywhere', {}, a)).status).toBe(303);
    expect((await get('/dashboard', b)).status).toBe(303);
  });

  it('sign-in attempts are limited per email: after 5 wrong passwords the 6th gets 429 even with the right one', async () => {
    const acct = await newAccount();
    const id = acct.accountId;
    await env.DB.prepare('UPDATE accounts SET password_hash = ? WHERE id = ?').bind(await hashPassword('the right password', 1000), id).run();
    const email = (await env.DB.prepare('SELECT email FROM accounts WHERE id = ?').bind(id).first<{ email: string }>())!.email;
    for (let i = 0; i < 5; i++) expect((await post('/dashboard/sign-in', { email, password: `wrong ${i} attempt` })).status).toBe(401);
    expect((await post('/dashboard/sign-in', { email, password: 'the right password' })).status).toBe(429);
  });

  it('passwords: PBKDF2-SHA-256 with the scheme and count stored; another count still verifies; a tampered hash does not', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^pbkdf2-sha256\$100000\$[\w-]{22}\$[\w-]{43}$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(await verifyPassword('x', await hashPassword('x', 5000))).toBe(true);
    expect(await verifyPassword('correct horse battery', stored.replace('100000', '99999'))).toBe(false);
    expect(await verifyPassword('anything', null)).toBe(false);
  });
});
