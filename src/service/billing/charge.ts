/**
 * Money moves only here. A charge is one D1 batch (a transaction): the operations row is inserted
 * only if the balance and the key's limit cover the price, and the balance update and ledger entry
 * happen only if that row exists. Parallel requests can never take a balance below zero or a key
 * past its limit. A refund happens at most once per task, whoever asks for it and how often.
 */
import { ApiError } from '../../lib/errors';
import { UNIT_PRICE_KOPECKS, formatRub } from '../../lib/money';
import { iso } from '../../lib/time';
import type { Account, ApiKey, Period } from '../storage/accounts';
import { INCLUDED_REQUESTS, includedWindow } from './plans';

/** Start of the key's current limit period in UTC (weeks start on Monday). */
export function periodStart(period: Period, now: number): number {
  const d = new Date(now);
  switch (period) {
    case 'never':
      return 0;
    case 'daily':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case 'weekly':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
    case 'monthly':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
}

export function periodEnd(period: Period, now: number): number | null {
  const start = new Date(periodStart(period, now));
  switch (period) {
    case 'never':
      return null;
    case 'daily':
      return start.getTime() + 86_400_000;
    case 'weekly':
      return start.getTime() + 7 * 86_400_000;
    case 'monthly':
      return Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
  }
}

/** What the key spent in its current period, net of refunds. */
export async function keySpent(db: D1Database, key: ApiKey, now: number): Promise<number> {
  const row = await db
    .prepare("SELECT COALESCE(-SUM(amount_kopecks), 0) AS spent FROM ledger WHERE key_id = ? AND kind IN ('charge', 'refund') AND created_at >= ?")
    .bind(key.id, periodStart(key.period, now))
    .first<{ spent: number }>();
  return row?.spent ?? 0;
}

export interface Charge {
  taskId: string;
  operationId: string;
  type: string;
  units: number;
  kopecks: number;
  included: boolean;
}

/**
 * Takes the price of an operation, or throws 402 with nothing charged. A one-unit operation of a
 * Business account uses an included request while the month has some left (charged 0.00); the
 * choice between included and paid is made inside the same transaction as the payment.
 */
export async function chargeOperation(
  db: D1Database,
  account: Account,
  key: ApiKey,
  op: { taskId: string; operationId: string; type: string; units: number },
): Promise<Charge> {
  const now = Date.now();
  const price = op.units * UNIT_PRICE_KOPECKS;
  const since = periodStart(key.period, now);
  const window = op.units === 1 ? includedWindow(account, now) : null;
  const paidRow = 'EXISTS (SELECT 1 FROM operations WHERE task_id = ?2 AND included = 0)';
  const statements = [];
  if (window) {
    statements.push(
      db
        .prepare(
          `INSERT INTO operations (id, task_id, account_id, key_id, type, status, charge_kopecks, charge_units, included, refunded, created_at)
           SELECT ?1, ?2, ?3, ?4, ?5, 'queued', 0, 1, 1, 0, ?6
           WHERE (SELECT COUNT(*) FROM operations WHERE account_id = ?3 AND included = 1 AND refunded = 0
                  AND created_at >= ?7 AND created_at < ?8) < ?9`,
        )
        .bind(op.operationId, op.taskId, account.id, key.id, op.type, now, window.start, window.end, INCLUDED_REQUESTS),
    );
  }
  statements.push(
    db
      .prepare(
        `INSERT INTO operations (id, task_id, account_id, key_id, type, status, charge_kopecks, charge_units, included, refunded, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5, 'queued', ?6, ?7, 0, 0, ?8
         WHERE NOT EXISTS (SELECT 1 FROM operations WHERE task_id = ?2)
           AND (SELECT balance_kopecks FROM accounts WHERE id = ?3) >= ?6
           AND (?9 IS NULL OR (SELECT COALESCE(-SUM(amount_kopecks), 0) FROM ledger
                               WHERE key_id = ?4 AND kind IN ('charge', 'refund') AND created_at >= ?10) + ?6 <= ?9)`,
      )
      .bind(op.operationId, op.taskId, account.id, key.id, op.type, price, op.units, now, key.limit_kopecks, since),
    db.prepare(`UPDATE accounts SET balance_kopecks = balance_kopecks - ?1 WHERE id = ?3 AND ${paidRow}`).bind(price, op.taskId, account.id),
    db
      .prepare(`INSERT INTO ledger (account_id, key_id, task_id, kind, amount_kopecks, created_at) SELECT ?3, ?4, ?2, 'charge', -?1, ?5 WHERE ${paidRow}`)
      .bind(price, op.taskId, account.id, key.id, now),
  );
  const results = await db.batch(statements);
  if (window && results[0]!.meta.changes === 1) return { ...op, kopecks: 0, included: true };
  if (results[window ? 1 : 0]!.meta.changes === 1) return { ...op, kopecks: price, included: false };
  throw await paymentProblem(db, account.id, key, price, now);
}

/** The 402 that explains itself: the price, the balance or the limit, spent in period and renewal. */
async function paymentProblem(db: D1Database, accountId: string, key: ApiKey, price: number, now: number): Promise<ApiError> {
  if (key.limit_kopecks != null) {
    const spent = await keySpent(db, key, now);
    if (spent + price > key.limit_kopecks) {
      const renews = periodEnd(key.period, now);
      return new ApiError(
        'key_limit_exhausted',
        `The price ${formatRub(price)} RUB would take this key past its ${key.period === 'never' ? 'lifetime' : key.period} limit of ` +
          `${formatRub(key.limit_kopecks)} RUB: ${formatRub(spent)} RUB spent in the period. ` +
          (renews ? `The limit renews at ${iso(renews)}.` : 'The limit never renews: ask the account owner to raise it.') +
          ' Other keys of the account are not affected.',
      );
    }
  }
  const row = await db.prepare('SELECT balance_kopecks FROM accounts WHERE id = ?').bind(accountId).first<{ balance_kopecks: number }>();
  return new ApiError(
    'insufficient_balance',
    `The price is ${formatRub(price)} RUB but the balance is ${formatRub(row?.balance_kopecks ?? 0)} RUB: top up the balance and repeat the request. Nothing was charged.`,
  );
}

/**
 * Ends a task's history row as failed and returns its charge, in one D1 batch (a transaction):
 * the row gets status 'failed' and its finished_at (kept if it already has one), and the refund
 * runs in the same transaction, so a failure is never recorded without its refund nor a refund
 * without its failure; if the batch throws, nothing of it happened and it can simply be run
 * again. Exactly once: the operations row flips refunded 0 → 1, and the ledger entry and the
 * balance update run only when the statement before them changed a row (changes() = 1). An
 * included request has no money to return: the flip alone gives the request back (refunded rows
 * do not count as used). Returns whether this call refunded (false when an earlier call did, or
 * when there is no such row).
 */
export async function refundTask(db: D1Database, taskId: string, finishedAt = Date.now()): Promise<boolean> {
  const results = await db.batch([
    db.prepare("UPDATE operations SET status = 'failed', finished_at = COALESCE(finished_at, ?2) WHERE task_id = ?1").bind(taskId, finishedAt),
    db.prepare('UPDATE operations SET refunded = 1 WHERE task_id = ?1 AND refunded = 0').bind(taskId),
    db
      .prepare(
        `INSERT INTO ledger (account_id, key_id, task_id, kind, amount_kopecks, created_at)
         SELECT account_id, key_id, task_id, 'refund', charge_kopecks, ?2 FROM operations
         WHERE task_id = ?1 AND charge_kopecks > 0 AND changes() = 1`,
      )
      .bind(taskId, Date.now()),
    db
      .prepare(
        `UPDATE accounts SET balance_kopecks = balance_kopecks + (SELECT charge_kopecks FROM operations WHERE task_id = ?1)
         WHERE id = (SELECT account_id FROM operations WHERE task_id = ?1) AND changes() = 1`,
      )
      .bind(taskId),
  ]);
  return results[1]!.meta.changes === 1;
}
