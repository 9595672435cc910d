/**
 * The dashboard's "API and MCP" section (SPEC: keys are created, reissued and deleted only here,
 * so a limited key cannot change its own limit): the account's keys with their limits and spend,
 * create (the secret shown once), rename and change the limit, reissue (the old secret dies at
 * once), delete; the webhook signing secret and its reissue; the base URL, a curl example and the
 * MCP client configuration. Every change goes through storage/accounts.ts, the code the admin API
 * uses. Another account's key id is a 404, as a missing one.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import * as accounts from '../../service/storage/accounts';
import { keySpent, periodEnd } from '../../service/billing/charge';
import { parseRub } from '../../lib/money';
import { currentAccount, type DashboardContext } from './session';
import { t } from './i18n';
import { page, messagePage } from './pages';
import { confirmPage, keysPage, secretPage, type KeyRow } from './key-pages';
import { publicBaseUrl } from '../../service/env';

const PERIODS = ['never', 'daily', 'weekly', 'monthly'] as const;

export function keyRoutes() {
  const routes = new Hono<AppEnv>();

  routes.get('/keys', async (c) => {
    const accountId = await currentAccount(c);
    if (!accountId) return c.redirect('/dashboard/sign-in', 303);
    return c.html(page(t('API and MCP'), await keysView(c, accountId)));
  });

  routes.post('/keys', async (c) => {
    const accountId = await currentAccount(c);
    if (!accountId) return c.redirect('/dashboard/sign-in', 303);
    const input = keyInput(await c.req.parseBody());
    if ('problem' in input) return c.html(page(t('API and MCP'), await keysView(c, accountId, input.problem)), 422);
    const { secret, key_id } = await accounts.createKey(c.env.DB, accountId, input);
    return c.html(page(t('New key'), secretPage(t('The key "{name}" ({id}) is made.', { name: input.name, id: key_id }), secret)), 201);
  });

  routes.post('/keys/:id', async (c) => {
    const accountId = await currentAccount(c);
    if (!accountId) return c.redirect('/dashboard/sign-in', 303);
    if (!(await accounts.keyOfAccount(c.env.DB, accountId, c.req.param('id')))) return notFound(c);
    const input = keyInput(await c.req.parseBody());
    if ('problem' in input) return c.html(page(t('API and MCP'), await keysView(c, accountId, input.problem)), 422);
    await accounts.updateKey(c.env.DB, c.req.param('id'), input);
    return c.redirect('/dashboard/keys', 303);
  });

  routes.post('/keys/:id/reissue', async (c) => {
    const accountId = await currentAccount(c);
    if (!accountId) return c.redirect('/dashboard/sign-in', 303);
    const key = await accounts.keyOfAccount(c.env.DB, accountId, c.req.param('id'));
    if (!key) return notFound(c);
    const secret = await accounts.reissueKey(c.env.DB, key.id);
    if (!secret) return notFound(c);
    return c.html(page(t('Key reissued'), secretPage(t('The key "{name}" has a new secret; the old one no longer works.', { name: key.name }), secret)));
  });

  routes.get('/keys/:id/delete', async (c) => {
    const accountId = await currentAccount(c);
    if (!accountId) return c.redirect('/dashboard/sign-in', 303);
    const key = await accounts.keyOfAccount(c.env.DB, accountId, c.req.param('id'));
    if (!key) return notFound(c);
    return c.html(page(t('Delete the key?'), confirmPage(t('Delete the key "{name}"? Requests with it are refused from now on; its history stays.', { name: key.name }), `/dashboard/keys/${key.id}/delete`, t('Delete the key'))));
  });

  routes.post('/keys/:id/delete', async (c) => {
    const accountId = await currentAccount(c);
    if (!accountId) return c.redirect('/dashboard/sign-in', 303);
    if (!(await accounts.keyOfAccount(c.env.DB, accountId, c.req.param('id')))) return notFound(c);
    await accounts.deleteKey(c.env.DB, c.req.param('id'));
    return c.redirect('/dashboard/keys', 303);
  });

  routes.get('/webhook-secret/reissue', async (c) => {
    if (!(await currentAccount(c))) return c.redirect('/dashboard/sign-in', 303);
    return c.html(page(t('Reissue the webhook secret?'), confirmPage(t('Deliveries from now on are signed with a new secret; receivers checking the old one will refuse them.'), '/dashboard/webhook-secret/reissue', t('Reissue the secret'))));
  });

  routes.post('/webhook-secret/reissue', async (c) => {
    const accountId = await currentAccount(c);
    if (!accountId) return c.redirect('/dashboard/sign-in', 303);
    const secret = await accounts.rotateWebhookSecret(c.env.DB, accountId);
    if (!secret) return notFound(c);
    return c.html(page(t('Webhook secret reissued'), secretPage(t('Webhook deliveries are signed with this secret from now on.'), secret)));
  });

  return routes;
}

function notFound(c: DashboardContext) {
  return c.html(page(t('Not found'), messagePage(t('There is no such key in this account.'))), 404);
}

/** A key's name, limit and period from a form, or what to fix. */
function keyInput(form: Record<string, unknown>): { name: string; limit_kopecks: number | null; period: accounts.Period } | { problem: string } {
  const name = String(form.name ?? '').trim();
  if (!name || name.length > 100) return { problem: t('A key needs a name of 1 to 100 characters.') };
  const limitText = String(form.limit ?? '').trim().replace(',', '.');
  const limit = limitText === '' ? null : parseRub(limitText);
  if (limitText !== '' && limit === null) return { problem: t('The limit is an amount in rubles with at most two decimals, such as 2.50, or empty for none.') };
  const period = String(form.period ?? 'never');
  if (!(PERIODS as readonly string[]).includes(period)) return { problem: t('The period is never, daily, weekly or monthly.') };
  return { name, limit_kopecks: limit, period: period as accounts.Period };
}

async function keysView(c: DashboardContext, accountId: string, problem?: string) {
  const now = Date.now();
  const keys = await accounts.listKeys(c.env.DB, accountId);
  const rows: KeyRow[] = await Promise.all(keys.map(async (k) => ({ ...k, spent_kopecks: await keySpent(c.env.DB, k, now), renews_at: periodEnd(k.period, now) })));
  const account = await accounts.getAccount(c.env.DB, accountId);
  return keysPage({ keys: rows, webhookSecret: account?.webhook_secret ?? '', baseUrl: publicBaseUrl(c.env, new URL(c.req.url).origin), problem });
}
