/**
 * Issue 40 (2): an email is one account whatever its case or surrounding spaces. The admin API,
 * sign-up and sign-in trim and lower-case it; a unique index on lower(email) keeps a second
 * spelling out; migration 0005 lower-cases existing rows and marks the later of two spellings.
 */
import { describe, expect, it } from 'vitest';
import { SELF, env } from 'cloudflare:test';
import { BASE, admin } from './helpers';
import { hashPassword } from '../src/service/auth/passwords';

const ORIGIN = { origin: BASE };
const post = (path: string, form: Record<string, string>) =>
  SELF.fetch(`${BASE}${path}`, { method: 'POST', body: new URLSearchParams(form), headers: { ...ORIGIN, 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });

describe('emails are normalised (trim + lower case)', () => {
  it('admin: Me@X.dev then me@x.dev is one account (the second is refused with 422); the stored email is lower case', async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const first = await admin('/admin/accounts', { email: `Me-${tag}@X.dev`, plan: 'standard', balance: '0' });
    expect(first.status).toBe(201);
    const { account_id } = await first.json<{ account_id: string }>();
    const row = await env.DB.prepare('SELECT email FROM accounts WHERE id = ?').bind(account_id).first<{ email: string }>();
    expect(row!.email).toBe(`me-${tag}@x.dev`);
    for (const spelling of [`me-${tag}@x.dev`, `ME-${tag}@X.DEV`, `  me-${tag}@x.dev  `]) {
      const again = await admin('/admin/accounts', { email: spelling, plan: 'standard', balance: '0' });
      expect(again.status, spelling).toBe(422);
      const body = await again.json<{ code: string; errors: { path: string }[] }>();
      expect(body.code).toBe('validation_error');
      expect(body.errors[0]!.path).toBe('email');
    }
    const { results } = await env.DB.prepare('SELECT id FROM accounts WHERE lower(email) = ?').bind(`me-${tag}@x.dev`).all();
    expect(results).toHaveLength(1);
  });

  it('sign-in works with any case and spaces; sign-up of another spelling is told the account exists', async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const made = await admin('/admin/accounts', { email: `Owner-${tag}@Example.COM`, plan: 'standard', balance: '0' });
    const { account_id } = await made.json<{ account_id: string }>();
    await env.DB.prepare('UPDATE accounts SET password_hash = ? WHERE id = ?').bind(await hashPassword('the owner password', 1000), account_id).run();
    for (const email of [`Owner-${tag}@Example.COM`, `owner-${tag}@example.com`, ` OWNER-${tag}@EXAMPLE.COM `]) {
      const res = await post('/dashboard/sign-in', { email, password: 'the owner password' });
      expect(res.status, email).toBe(303);
      expect(res.headers.get('location')).toBe('/dashboard');
    }
    const signUp = await post('/dashboard/sign-up', { email: `OWNER-${tag}@example.com`, password: 'a good long password', again: 'a good long password' });
    expect(signUp.status).toBe(409);
  });

  it('sign-up stores the lower-cased email; the same address in another case is 409', async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const made = await post('/dashboard/sign-up', { email: ` New-${tag}@Example.com`, password: 'a good long password', again: 'a good long password' });
    expect(made.status).toBe(303);
    expect(await env.DB.prepare('SELECT 1 FROM accounts WHERE email = ?').bind(`new-${tag}@example.com`).first()).not.toBeNull();
    expect((await post('/dashboard/sign-up', { email: `NEW-${tag}@EXAMPLE.COM`, password: 'a good long password', again: 'a good long password' })).status).toBe(409);
  });

  it('the database refuses a second spelling even from code that forgets to normalise', async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const insert = (id: string, email: string) =>
      env.DB.prepare("INSERT INTO accounts (id, email, plan, balance_kopecks, webhook_secret, created_at) VALUES (?, ?, 'free', 0, 'whsec_x', ?)").bind(id, email, Date.now()).run();
    await insert(`acc_a_${tag}`, `db-${tag}@x.dev`);
    await expect(insert(`acc_b_${tag}`, `DB-${tag}@X.dev`)).rejects.toThrow(/UNIQUE/);
  });

  it('migration 0005: existing rows are lower-cased; of two spellings the lower-case one (else the oldest) keeps the address, the other is marked', async () => {
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0005'));
    expect(migration, 'a migration 0005').toBeDefined();
    const tag = crypto.randomUUID().slice(0, 8);
    const insert = (id: string, email: string, at: number) =>
      env.DB.prepare("INSERT INTO accounts (id, email, plan, balance_kopecks, webhook_secret, created_at) VALUES (?, ?, 'free', 0, 'whsec_x', ?)").bind(id, email, at);
    // The rows as they were before the index: drop it, insert old spellings, then run the migration again.
    await env.DB.prepare('DROP INDEX IF EXISTS accounts_email_lower').run();
    try {
      await env.DB.batch([
        insert(`acc_1_${tag}`, `Solo-${tag}@X.dev`, 1),
        insert(`acc_2_${tag}`, `Pair-${tag}@X.dev`, 2), // older, but not lower case
        insert(`acc_3_${tag}`, `pair-${tag}@x.dev`, 3), // the spelling that could sign in: it keeps the address
        insert(`acc_4_${tag}`, `Trio-${tag}@X.dev`, 4), // none lower case: the oldest keeps it
        insert(`acc_5_${tag}`, `TRIO-${tag}@x.dev`, 5),
        insert(`acc_6_${tag}`, `trio-${tag}@X.DEV`, 6),
      ]);
    } finally {
      for (const query of migration!.queries) await env.DB.prepare(query).run();
    }
    const emailOf = async (n: number) => (await env.DB.prepare('SELECT email FROM accounts WHERE id = ?').bind(`acc_${n}_${tag}`).first<{ email: string }>())!.email;
    expect(await emailOf(1)).toBe(`solo-${tag}@x.dev`);
    expect(await emailOf(3)).toBe(`pair-${tag}@x.dev`);
    expect(await emailOf(2)).toBe(`pair-${tag}@x.dev#duplicate-acc_2_${tag}`);
    expect(await emailOf(4)).toBe(`trio-${tag}@x.dev`);
    expect(await emailOf(5)).toBe(`trio-${tag}@x.dev#duplicate-acc_5_${tag}`);
    expect(await emailOf(6)).toBe(`trio-${tag}@x.dev#duplicate-acc_6_${tag}`);
    const index = await env.DB.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'accounts_email_lower'").first<{ sql: string }>();
    expect(index!.sql).toMatch(/UNIQUE INDEX/i);
  });
});
