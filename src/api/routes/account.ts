/** Balance record, price list and operations history. */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { formatRub, UNIT_PRICE_KOPECKS, UNIT_BYTES } from '../../lib/money';
import { iso } from '../../lib/time';
import { parseOr422 } from '../../lib/validation';
import { invalid } from '../../lib/errors';
import { OPERATIONS } from '../../operations';
import { PLAN_MAX_UPLOAD_MB, type Account } from '../../service/storage/accounts';
import { INCLUDED_REQUESTS, includedWindow } from '../../service/billing/plans';
import { PAGE_RATES } from '../../service/billing/pricing';
import { decodeCursor, operationsPage } from '../../service/storage/history';

export async function balanceRecord(db: D1Database, account: Account) {
  const now = Date.now();
  const d = new Date(now);
  const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const fresh = await db.prepare('SELECT balance_kopecks FROM accounts WHERE id = ?').bind(account.id).first<{ balance_kopecks: number }>();
  const spent = await db
    .prepare("SELECT COALESCE(-SUM(amount_kopecks), 0) AS spent FROM ledger WHERE account_id = ? AND kind IN ('charge', 'refund') AND created_at >= ?")
    .bind(account.id, monthStart)
    .first<{ spent: number }>();
  const window = includedWindow(account, now);
  let used = 0;
  if (window) {
    const row = await db
      .prepare('SELECT COUNT(*) AS n FROM operations WHERE account_id = ? AND included = 1 AND refunded = 0 AND created_at >= ? AND created_at < ?')
      .bind(account.id, window.start, window.end)
      .first<{ n: number }>();
    used = row?.n ?? 0;
  }
  const limit = window ? INCLUDED_REQUESTS : 0;
  return {
    balance: formatRub(fresh?.balance_kopecks ?? 0),
    spent_month: formatRub(spent?.spent ?? 0),
    request_price: formatRub(UNIT_PRICE_KOPECKS),
    request_unit_mb: UNIT_BYTES / 1_000_000,
    included_limit: limit,
    included_used: used,
    included_remaining: Math.max(0, limit - used),
    included_resets_at: window ? iso(window.end) : null,
  };
}

export function priceList() {
  return {
    currency: 'RUB',
    request_price: formatRub(UNIT_PRICE_KOPECKS),
    request_unit_mb: UNIT_BYTES / 1_000_000,
    page_rates: PAGE_RATES,
    operations: OPERATIONS.map((op) => ({
      path: `/v1/pdf/${op.path}`,
      operation_type: op.type,
      unit: op.unit ?? (op.inputs.kind === 'file_ids' ? '10 MB of summed files' : '10 MB'),
    })),
    plans: {
      free: { max_upload_mb: PLAN_MAX_UPLOAD_MB.free },
      standard: { max_upload_mb: PLAN_MAX_UPLOAD_MB.standard },
      business: { max_upload_mb: PLAN_MAX_UPLOAD_MB.business, included_requests: INCLUDED_REQUESTS },
    },
  };
}

const HistoryQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(200).optional(),
  type: z.string().max(64).optional(),
});

export function accountRoutes() {
  const routes = new Hono<AppEnv>();

  routes.get('/api-keys/balance', async (c) => c.json(await balanceRecord(c.env.DB, c.get('account'))));

  routes.get('/pricing/api', (c) => c.json(priceList()));

  routes.get('/account/operations', async (c) => {
    const q = parseOr422(HistoryQuery, c.req.query());
    const after = q.cursor ? decodeCursor(q.cursor) : null;
    if (q.cursor && !after) throw invalid('cursor', 'the cursor is not one this endpoint gave out: pass next_cursor as it was returned');
    const { rows: page, next } = await operationsPage(c.env.DB, c.get('account').id, { type: q.type, after: after ?? undefined, limit: q.limit });
    return c.json({
      items: page.map((r) => ({
        id: r.id,
        task_id: r.task_id,
        type: r.type,
        status: r.status,
        charge: formatRub(r.charge_kopecks),
        charge_units: r.charge_units,
        included: r.included === 1,
        refunded: r.refunded === 1,
        key_id: r.key_id,
        key_name: r.key_name,
        created_at: iso(r.created_at),
      })),
      next_cursor: next,
    });
  });

  return routes;
}
