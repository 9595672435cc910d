/** Admin API of DECISIONS.md (operators and automation; the dashboard will call the same functions). */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { ApiError } from '../../lib/errors';
import { parseRub } from '../../lib/money';
import { jsonObjectBody, parseOr422 } from '../../lib/validation';
import { adminAuth } from '../middleware/admin';
import * as accounts from '../../service/storage/accounts';
import { balanceRecord } from './account';
import { issueSignInLink } from '../../service/auth/sessions';
import { iso } from '../../lib/time';
import { publicBaseUrl } from '../../service/env';

const Money = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const k = parseRub(v);
  if (k === null) {
    ctx.addIssue({ code: 'custom', message: 'an amount in rubles with at most two decimals, e.g. "100.00"' });
    return z.NEVER;
  }
  return k;
});
const Plan = z.enum(['free', 'standard', 'business']);
const Time = z.iso.datetime({ offset: true }).transform((s) => Date.parse(s));

// The email is trimmed and lower-cased before it is checked: one account per address, whatever its case.
const Email = z.string().trim().toLowerCase().pipe(z.email());
const NewAccount = z.object({ email: Email, plan: Plan.default('standard'), balance: Money.default(0), purchased_at: Time.optional() });
const Credit = z.object({ amount: Money });
const SetPlan = z.object({ plan: Plan, purchased_at: Time.optional() });
const NewKey = z.object({
  name: z.string().min(1).max(100),
  limit: Money.nullable().optional(),
  period: z.enum(['never', 'daily', 'weekly', 'monthly']).default('never'),
});

export function adminRoutes() {
  const routes = new Hono<AppEnv>();
  routes.use('*', adminAuth());

  routes.post('/accounts', async (c) => {
    const body = parseOr422(NewAccount, await jsonObjectBody(c));
    const purchased = body.purchased_at ?? (body.plan === 'business' ? Date.now() : null);
    const taken = () => new ApiError('validation_error', 'An account with this email exists.', [{ path: 'email', message: 'already registered (emails are compared without regard to case)' }]);
    const exists = await c.env.DB.prepare('SELECT 1 FROM accounts WHERE lower(email) = ?').bind(body.email).first();
    if (exists) throw taken();
    let account: accounts.Account;
    try {
      account = await accounts.createAccount(c.env.DB, { email: body.email, plan: body.plan, balance_kopecks: body.balance, purchased_at: purchased });
    } catch (err) {
      if (accounts.isDuplicateEmail(err)) throw taken(); // made by a concurrent request
      throw err;
    }
    return c.json({ account_id: account.id, webhook_secret: account.webhook_secret }, 201);
  });

  routes.post('/accounts/:id/credit', async (c) => {
    const body = parseOr422(Credit, await jsonObjectBody(c));
    const account = await accounts.getAccount(c.env.DB, c.req.param('id'));
    if (!account) throw new ApiError('not_found', 'No such account.');
    await accounts.creditAccount(c.env.DB, account.id, body.amount);
    return c.json(await balanceRecord(c.env.DB, account));
  });

  routes.post('/accounts/:id/plan', async (c) => {
    const body = parseOr422(SetPlan, await jsonObjectBody(c));
    const purchased = body.purchased_at ?? (body.plan === 'business' ? Date.now() : null);
    if (!(await accounts.setPlan(c.env.DB, c.req.param('id'), body.plan, purchased))) throw new ApiError('not_found', 'No such account.');
    const account = (await accounts.getAccount(c.env.DB, c.req.param('id')))!;
    return c.json({ account_id: account.id, plan: account.plan, purchased_at: account.purchased_at && new Date(account.purchased_at).toISOString() });
  });

  routes.post('/accounts/:id/keys', async (c) => {
    const body = parseOr422(NewKey, await jsonObjectBody(c));
    const account = await accounts.getAccount(c.env.DB, c.req.param('id'));
    if (!account) throw new ApiError('not_found', 'No such account.');
    const key = await accounts.createKey(c.env.DB, account.id, { name: body.name, limit_kopecks: body.limit ?? null, period: body.period });
    return c.json(key, 201);
  });

  routes.post('/keys/:key_id/reissue', async (c) => {
    const secret = await accounts.reissueKey(c.env.DB, c.req.param('key_id'));
    if (!secret) throw new ApiError('not_found', 'No such key.');
    return c.json({ key_id: c.req.param('key_id'), secret });
  });

  routes.delete('/keys/:key_id', async (c) => {
    if (!(await accounts.deleteKey(c.env.DB, c.req.param('key_id')))) throw new ApiError('not_found', 'No such key.');
    return c.body(null, 204);
  });

  // A one-time dashboard sign-in link (first access, password reset).
  routes.post('/accounts/:id/sign-in-link', async (c) => {
    const account = await accounts.getAccount(c.env.DB, c.req.param('id'));
    if (!account) throw new ApiError('not_found', 'No such account.');
    const link = await issueSignInLink(c.env.DB, account.id, publicBaseUrl(c.env, new URL(c.req.url).origin));
    return c.json({ url: link.url, expires_at: iso(link.expiresAt) }, 201);
  });

  routes.post('/accounts/:id/webhook-secret', async (c) => {
    const secret = await accounts.rotateWebhookSecret(c.env.DB, c.req.param('id'));
    if (!secret) throw new ApiError('not_found', 'No such account.');
    return c.json({ webhook_secret: secret });
  });

  return routes;
}
