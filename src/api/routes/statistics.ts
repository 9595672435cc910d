/** Per-type statistics of the account's operations for a period (the dashboard's summary). */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app-env';
import { formatRub } from '../../lib/money';
import { iso } from '../../lib/time';
import { parseOr422 } from '../../lib/validation';

const Query = z.object({
  from: z.iso.datetime({ offset: true }).transform((s) => Date.parse(s)).optional(),
  to: z.iso.datetime({ offset: true }).transform((s) => Date.parse(s)).optional(),
});

interface Row {
  type: string;
  requests: number;
  done: number;
  failed: number;
  included: number;
  charge_units: number;
  charged: number;
  refunded_kopecks: number;
}

export function statisticsRoutes() {
  const routes = new Hono<AppEnv>();
  routes.get('/account/statistics', async (c) => {
    const q = parseOr422(Query, c.req.query());
    const now = new Date();
    const from = q.from ?? Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    const to = q.to ?? Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    const rows = await c.env.DB.prepare(
      `SELECT type,
              COUNT(*) AS requests,
              SUM(status = 'done') AS done,
              SUM(status = 'failed') AS failed,
              SUM(included) AS included,
              SUM(CASE WHEN refunded = 0 THEN charge_units ELSE 0 END) AS charge_units,
              SUM(charge_kopecks) AS charged,
              SUM(CASE WHEN refunded = 1 THEN charge_kopecks ELSE 0 END) AS refunded_kopecks
       FROM operations WHERE account_id = ? AND created_at >= ? AND created_at < ?
       GROUP BY type ORDER BY type`,
    )
      .bind(c.get('account').id, from, to)
      .all<Row>();
    const types = rows.results.map((r) => ({
      type: r.type,
      requests: r.requests,
      done: r.done,
      failed: r.failed,
      included: r.included,
      charge_units: r.charge_units,
      // What the type cost net of refunds, as in the balance's spent_month.
      charge: formatRub(r.charged - r.refunded_kopecks),
    }));
    const sum = (k: 'requests' | 'done' | 'failed' | 'included' | 'charge_units') => types.reduce((n, t) => n + t[k], 0);
    return c.json({
      from: iso(from),
      to: iso(to),
      types,
      total: {
        requests: sum('requests'),
        done: sum('done'),
        failed: sum('failed'),
        included: sum('included'),
        charge_units: sum('charge_units'),
        charge: formatRub(rows.results.reduce((n, r) => n + r.charged - r.refunded_kopecks, 0)),
      },
    });
  });
  return routes;
}
