/**
 * The dashboard's Balance and History sections: the balance record of SPEC (routes/account.ts's
 * balanceRecord), the operations history with filters (type, key, status, dates) and pages
 * (storage/history.ts, the API's own query), and spend per day and per operation type as charts.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../app-env';
import * as accounts from '../../service/storage/accounts';
import { decodeCursor, operationsPage, spendByDay, spendByType } from '../../service/storage/history';
import { balanceRecord } from '../routes/account';
import { currentAccount } from './session';
import { t } from './i18n';
import { page } from './pages';
import { balancePage, historyPage, type HistoryView } from './history-pages';

const PAGE_SIZE = 25;
const DAY = 86_400_000;
/** The spend chart's span: the last 30 UTC days, today included. */
const CHART_DAYS = 30;

export function historyRoutes() {
  const routes = new Hono<AppEnv>();

  routes.get('/balance', async (c) => {
    const accountId = await currentAccount(c);
    const account = accountId ? await accounts.getAccount(c.env.DB, accountId) : null;
    if (!account) return c.redirect('/dashboard/sign-in', 303);
    return c.html(page(t('Balance'), balancePage(account.plan, await balanceRecord(c.env.DB, account))));
  });

  routes.get('/history', async (c) => {
    const accountId = await currentAccount(c);
    if (!accountId) return c.redirect('/dashboard/sign-in', 303);
    const q = c.req.query();
    const day = (s: string | undefined) => (s && /^\d{4}-\d{2}-\d{2}$/.test(s) ? Date.parse(`${s}T00:00:00Z`) : undefined);
    const filter = { type: q.type || undefined, keyId: q.key || undefined, status: q.status === 'done' || q.status === 'failed' || q.status === 'processing' || q.status === 'queued' ? q.status : undefined, from: day(q.from), to: day(q.to) === undefined ? undefined : day(q.to)! + DAY };
    const { rows, next } = await operationsPage(c.env.DB, accountId, { ...filter, after: q.cursor ? (decodeCursor(q.cursor) ?? undefined) : undefined, limit: PAGE_SIZE });
    const today = Math.floor(Date.now() / DAY) * DAY;
    const chartFrom = today - (CHART_DAYS - 1) * DAY;
    const spent = new Map(await spendByDay(c.env.DB, accountId, chartFrom, today + DAY));
    const view: HistoryView = {
      rows,
      nextQuery: next ? new URLSearchParams({ ...q, cursor: next }).toString() : null,
      filter: { type: q.type ?? '', key: q.key ?? '', status: filter.status ?? '', from: q.from ?? '', to: q.to ?? '' },
      keys: await accounts.listKeys(c.env.DB, accountId),
      days: Array.from({ length: CHART_DAYS }, (_, i) => [chartFrom + i * DAY, spent.get(chartFrom + i * DAY) ?? 0] as [number, number]),
      byType: await spendByType(c.env.DB, accountId, chartFrom),
    };
    return c.html(page(t('History'), historyPage(view)));
  });

  return routes;
}
