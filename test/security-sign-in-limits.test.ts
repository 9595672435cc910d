/**
 * Issue 40 (7): sign-in limits that neither lock the owner out nor trust a header the client
 * writes. Attempts are limited per (email, client address) pair (5, then one every 12 s), per
 * email over all addresses (20, then one every 3 s), and per address (20, then one every 3 s).
 * The client address comes from CF-Connecting-IP only when TRUST_CLIENT_IP_HEADER says the
 * platform sets it (on Cloudflare the edge overwrites it); otherwise every client shares one
 * address, so a spoofed header changes nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createExecutionContext, env, runInDurableObject } from 'cloudflare:test';
import { BASE, newAccount } from './helpers';
import { hashPassword } from '../src/service/auth/passwords';
import { createApp } from '../src/api/app';
import type { RateLimiter } from '../src/api/middleware/rate-limiter-object';

const app = createApp();
const trusted = { ...env, TRUST_CLIENT_IP_HEADER: 'true' } as typeof env;

function signIn(environment: typeof env, email: string, password: string, address?: string): Promise<Response> {
  const headers: Record<string, string> = { origin: BASE, 'content-type': 'application/x-www-form-urlencoded' };
  if (address) headers['cf-connecting-ip'] = address;
  return Promise.resolve(app.fetch(new Request(`${BASE}/dashboard/sign-in`, { method: 'POST', headers, body: new URLSearchParams({ email, password }), redirect: 'manual' }), environment, createExecutionContext()));
}

async function owner(): Promise<string> {
  const acct = await newAccount();
  await env.DB.prepare('UPDATE accounts SET password_hash = ? WHERE id = ?').bind(await hashPassword('the owner password', 1000), acct.accountId).run();
  return (await env.DB.prepare('SELECT email FROM accounts WHERE id = ?').bind(acct.accountId).first<{ email: string }>())!.email;
}

/** Refills the shared bucket of clients whose address is not known, so that other tests' sign-ins are not slowed. */
async function refillUnknownAddress(): Promise<void> {
  for (const name of ['sign-in:ip:unknown', 'sign-up:ip:unknown']) {
    await runInDurableObject(env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name)), (instance: RateLimiter) => {
      (instance as unknown as { tokens: number }).tokens = -1;
    });
  }
}
afterAll(refillUnknownAddress);

describe('sign-in limits', () => {
  it("with the address trusted, an attacker failing sign-ins for the owner's email does not lock the owner out", async () => {
    const email = await owner();
    for (let i = 0; i < 6; i++) await signIn(trusted, email, `wrong guess ${i}`, '203.0.113.66');
    expect((await signIn(trusted, email, 'the owner password', '203.0.113.66')).status).toBe(429); // the attacker's pair is limited
    const mine = await signIn(trusted, email, 'the owner password', '198.51.100.7');
    expect(mine.status).toBe(303);
    expect(mine.headers.get('location')).toBe('/dashboard');
  });

  it('with the address trusted, guesses for one email from many addresses meet the per-email cap', async () => {
    const email = await owner();
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await signIn(trusted, email, `wrong guess ${i}`, `192.0.2.${i + 1}`)).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20)).toContain(429);
  });

  it('without TRUST_CLIENT_IP_HEADER a client-sent CF-Connecting-IP is ignored: changing it evades neither limit', async () => {
    const email = await owner();
    for (let i = 0; i < 5; i++) expect((await signIn(env, email, `wrong guess ${i}`, `203.0.113.${i + 1}`)).status).toBe(401);
    expect((await signIn(env, email, 'the owner password', '203.0.113.99')).status).toBe(429);
    await refillUnknownAddress();
    // Spraying many emails with a fresh spoofed address each time meets the per-address limit of the one shared bucket.
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await signIn(env, `nobody-${i}-${crypto.randomUUID()}@example.com`, 'a guessed password', `10.9.${i}.1`)).status);
    await refillUnknownAddress();
    expect(statuses.slice(20)).toContain(429);
  });
});
