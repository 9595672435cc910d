/**
 * Dashboard sign-in through the Worker (issue 32, first part): one-time links, passwords, session
 * cookies, sign-out here and everywhere, and the walls between a session and an API key.
 */
import { describe, expect, it } from 'vitest';
import { SELF, env } from 'cloudflare:test';
import { ADMIN, BASE, newAccount } from './helpers';
import { hashPassword, verifyPassword } from '../src/service/auth/passwords';
import { createApp } from '../src/api/app';

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
    const opened = await get(path); // opening the link spends nothing: its button does
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain(`action="${path}"`);
    const first = await post(path, {});
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/dashboard/password');
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(first.headers.get('set-cookie')).toMatch(/Secure/i);
    expect(first.headers.get('set-cookie')).toMatch(/SameSite=Strict/i);
    const cookie = sessionCookie(first)!;
    expect((await post(path, {})).status).toBe(410); // single use
    expect((await get(path)).status).toBe(410);
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
    const [a, b] = [sessionCookie(await post(new URL((await signInLink(id)).url).pathname, {}))!, sessionCookie(await post(new URL((await signInLink(id)).url).pathname, {}))!];
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

/** A signed-in session for the account (through a one-time link). */
async function signedIn(id: string): Promise<string> {
  return sessionCookie(await post(new URL((await signInLink(id)).url).pathname, {}))!;
}

describe('dashboard keys', () => {
  it('make a key with a 2.50 daily limit (secret shown once), spend to 402, see the spend, reissue (old secret refused), delete', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const cookie = await signedIn(acct.accountId);
    const made = await post('/dashboard/keys', { name: 'daily 2.50', limit: '2.50', period: 'daily' }, cookie);
    expect(made.status).toBe(201);
    const secret = /value="(sk_[^"]+)"/.exec(await made.text())![1]!;
    const call = (s: string) => SELF.fetch(`${BASE}/v1/api-keys/balance`, { headers: { 'x-api-key': s } });
    expect((await call(secret)).status).toBe(200);
    const keyId = (await env.DB.prepare("SELECT id FROM api_keys WHERE account_id = ? AND name = 'daily 2.50'").bind(acct.accountId).first<{ id: string }>())!.id;
    // Two 1.25 operations spend the limit; the third is refused.
    const pdf = new Uint8Array(await (await (await import('pdf-lib')).PDFDocument.create().then(async (d) => (d.addPage(), d.save()))));
    const upload = async () => {
      const form = new FormData();
      form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'a.pdf');
      return (await (await SELF.fetch(`${BASE}/v1/upload`, { method: 'POST', body: form, headers: { 'x-api-key': secret } })).json<{ file_id: string }>()).file_id;
    };
    const rotate = async () => SELF.fetch(`${BASE}/v1/pdf/rotate`, { method: 'POST', body: JSON.stringify({ file_id: await upload(), angle: 90 }), headers: { 'x-api-key': secret, 'content-type': 'application/json' } });
    expect((await rotate()).status).toBe(202);
    expect((await rotate()).status).toBe(202);
    const refused = await rotate();
    expect(refused.status).toBe(402);
    expect((await refused.json<{ code: string }>()).code).toBe('key_limit_exhausted');
    const listed = await (await get('/dashboard/keys', cookie)).text();
    expect(listed).toContain('2.50 ₽ a day');
    expect(listed).toMatch(/<td>2\.50 ₽<\/td>/); // spent this period
    // Reissue: the old secret dies at once, the new one works.
    const reissued = await post(`/dashboard/keys/${keyId}/reissue`, {}, cookie);
    const fresh = /value="(sk_[^"]+)"/.exec(await reissued.text())![1]!;
    expect((await call(secret)).status).toBe(401);
    expect((await call(fresh)).status).toBe(200);
    // Change the limit, then delete (after a confirmation page).
    expect((await post(`/dashboard/keys/${keyId}`, { name: 'renamed', limit: '', period: 'never' }, cookie)).status).toBe(303);
    expect(await (await get('/dashboard/keys', cookie)).text()).toContain('renamed');
    expect((await get(`/dashboard/keys/${keyId}/delete`, cookie)).status).toBe(200);
    expect((await post(`/dashboard/keys/${keyId}/delete`, {}, cookie)).status).toBe(303);
    expect((await call(fresh)).status).toBe(401);
  });

  it("another account's key id is a 404; no session goes to sign-in; a bad limit says what to fix; the webhook secret is reissued", async () => {
    const [mine, theirs] = [await newAccount(), await newAccount()];
    const cookie = await signedIn(mine.accountId);
    const theirKey = (await env.DB.prepare('SELECT id FROM api_keys WHERE account_id = ?').bind(theirs.accountId).first<{ id: string }>())!.id;
    expect((await post(`/dashboard/keys/${theirKey}/reissue`, {}, cookie)).status).toBe(404);
    expect((await post(`/dashboard/keys/${theirKey}/delete`, {}, cookie)).status).toBe(404);
    expect((await get(`/dashboard/keys/${theirKey}/delete`, cookie)).status).toBe(404);
    expect((await SELF.fetch(`${BASE}/v1/api-keys/balance`, { headers: { 'x-api-key': theirs.secret } })).status).toBe(200); // untouched
    expect((await get('/dashboard/keys')).headers.get('location')).toBe('/dashboard/sign-in');
    const bad = await post('/dashboard/keys', { name: 'x', limit: '2.505', period: 'daily' }, cookie);
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('at most two decimals');
    const before = (await env.DB.prepare('SELECT webhook_secret FROM accounts WHERE id = ?').bind(mine.accountId).first<{ webhook_secret: string }>())!.webhook_secret;
    expect(await (await get('/dashboard/keys', cookie)).text()).toContain(before);
    const shown = await (await post('/dashboard/webhook-secret/reissue', {}, cookie)).text();
    const after = (await env.DB.prepare('SELECT webhook_secret FROM accounts WHERE id = ?').bind(mine.accountId).first<{ webhook_secret: string }>())!.webhook_secret;
    expect(after).not.toBe(before);
    expect(shown).toContain(after);
  });
});

describe('dashboard balance and history', () => {
  it('the balance page shows the balance record; history filters by status and type, pages by 25, and charts spend per day', async () => {
    const acct = await newAccount({ balance: '30.00' });
    const cookie = await signedIn(acct.accountId);
    const balance = await (await get('/dashboard/balance', cookie)).text();
    expect(balance).toContain('30.00 ₽');
    // A real paid operation (it shows in the day's spend), then 30 history rows of two kinds.
    const keyId = (await env.DB.prepare('SELECT id FROM api_keys WHERE account_id = ?').bind(acct.accountId).first<{ id: string }>())!.id;
    const now = Date.now();
    const insert = env.DB.prepare('INSERT INTO operations (id, task_id, account_id, key_id, type, status, charge_kopecks, charge_units, refunded, created_at) VALUES (?, ?, ?, ?, ?, ?, 125, 1, ?, ?)');
    await env.DB.batch(Array.from({ length: 30 }, (_, i) => insert.bind(`op_t${i}_${acct.accountId}`, `task_t${i}_${acct.accountId}`, acct.accountId, keyId, i % 3 ? 'rotate_pdf' : 'merge_pdfs', i % 3 ? 'done' : 'failed', i % 3 ? 0 : 1, now - i * 1000)));
    await env.DB.prepare("INSERT INTO ledger (account_id, key_id, kind, amount_kopecks, created_at) VALUES (?, ?, 'charge', -250, ?)").bind(acct.accountId, keyId, now).run();
    const first = await (await get('/dashboard/history', cookie)).text();
    expect(first.match(/<tr><td>/g)!.length).toBe(25);
    expect(first).toContain('Older operations');
    const next = /href="\/dashboard\/history\?([^"]+)"/.exec(first)![1]!.replace(/&amp;/g, '&');
    expect((await (await get(`/dashboard/history?${next}`, cookie)).text()).match(/<tr><td>/g)!.length).toBe(5);
    const failed = await (await get('/dashboard/history?status=failed&type=merge_pdfs', cookie)).text();
    expect(failed.match(/<tr><td>/g)!.length).toBe(10);
    expect(failed).toContain('refunded');
    expect(failed).not.toContain('<td>rotate_pdf</td>');
    // The day chart: one bar per day, today's titled with its spend.
    expect(first.match(/<rect /g)!.length).toBeGreaterThanOrEqual(30);
    expect(first).toContain(`${new Date(now).toISOString().slice(0, 10)}: 2.50 ₽`);
    expect((await get('/dashboard/history')).headers.get('location')).toBe('/dashboard/sign-in');
  });
});

describe('dashboard sign-up', () => {
  it('open: a new email gets a free account, signed in; an existing email is told to sign in; closed: 404', async () => {
    const email = `new-${crypto.randomUUID()}@example.com`;
    const made = await post('/dashboard/sign-up', { email, password: 'a good long password', again: 'a good long password' });
    expect(made.status).toBe(303);
    const overview = await (await get('/dashboard', sessionCookie(made)!)).text();
    expect(overview).toContain(email);
    expect(overview).toContain('free');
    expect((await post('/dashboard/sign-up', { email, password: 'a good long password', again: 'a good long password' })).status).toBe(409);
    expect((await post('/dashboard/sign-up', { email: 'not-an-email', password: 'a good long password', again: 'a good long password' })).status).toBe(422);
    const closed = { ...env, SIGNUP_ENABLED: 'false' } as typeof env;
    const app = createApp();
    expect((await app.fetch(new Request(`${BASE}/dashboard/sign-up`), closed)).status).toBe(404);
    const form = new URLSearchParams({ email: `x-${crypto.randomUUID()}@example.com`, password: 'a good long password', again: 'a good long password' });
    expect((await app.fetch(new Request(`${BASE}/dashboard/sign-up`, { method: 'POST', body: form, headers: { origin: BASE, 'content-type': 'application/x-www-form-urlencoded' } }), closed)).status).toBe(404);
  });
});

describe('dashboard languages', () => {
  it('Russian from Accept-Language, English by ?lang=en (remembered in a cookie), labels tied to their inputs in both', async () => {
    const ru = await (await SELF.fetch(`${BASE}/dashboard/sign-in`, { headers: { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.5' } })).text();
    expect(ru).toContain('<html lang="ru">');
    expect(ru).toContain('<label for="password">Пароль</label>');
    expect(ru).toContain('>Войти</button>');
    const switched = await SELF.fetch(`${BASE}/dashboard/sign-in?lang=en`, { headers: { 'accept-language': 'ru' } });
    expect(await switched.text()).toContain('>Sign in</button>');
    const cookie = /pdf_edge_lang=en/.exec(switched.headers.get('set-cookie') ?? '')![0];
    const remembered = await (await SELF.fetch(`${BASE}/dashboard/sign-in`, { headers: { 'accept-language': 'ru', cookie } })).text();
    expect(remembered).toContain('<html lang="en">');
    const acct = await newAccount();
    const session = await signedIn(acct.accountId);
    const keys = await (await SELF.fetch(`${BASE}/dashboard/keys?lang=ru`, { headers: { cookie: session } })).text();
    expect(keys).toContain('Создать ключ');
    expect(keys).toContain('без лимита');
  });
});

describe('dashboard session fixation', () => {
  it('a session id planted before sign-in is never accepted: signing in issues a new one', async () => {
    const acct = await newAccount();
    await env.DB.prepare('UPDATE accounts SET password_hash = ? WHERE id = ?').bind(await hashPassword('planted test password', 1000), acct.accountId).run();
    const email = (await env.DB.prepare('SELECT email FROM accounts WHERE id = ?').bind(acct.accountId).first<{ email: string }>())!.email;
    const planted = 'pdf_edge_session=ses_planted_by_someone_else_000000000000000000';
    expect((await get('/dashboard', planted)).headers.get('location')).toBe('/dashboard/sign-in');
    const signed = await post('/dashboard/sign-in', { email, password: 'planted test password' }, planted);
    const issued = sessionCookie(signed)!;
    expect(issued).not.toBe(planted);
    expect((await get('/dashboard', planted)).headers.get('location')).toBe('/dashboard/sign-in');
    expect((await get('/dashboard', issued)).status).toBe(200);
  });
});
