/**
 * The operations history and spend summaries of an account: the SQL behind GET
 * /v1/account/operations and the dashboard's History page.
 */

export interface HistoryRow {
  id: string;
  task_id: string;
  type: string;
  status: string;
  charge_kopecks: number;
  charge_units: number;
  included: number;
  refunded: number;
  key_id: string;
  key_name: string | null;
  created_at: number;
}

export interface HistoryFilter {
  type?: string;
  keyId?: string;
  status?: string;
  /** created_at >= from, < to (unix ms). */
  from?: number;
  to?: number;
  /** Rows older than this one (the previous page's last row). */
  after?: { created_at: number; id: string };
  limit: number;
}

export const encodeCursor = (row: Pick<HistoryRow, 'created_at' | 'id'>) => btoa(`${row.created_at}:${row.id}`).replace(/=+$/, '');

export function decodeCursor(cursor: string): { created_at: number; id: string } | null {
  try {
    const [t, id] = atob(cursor).split(':');
    return Number.isFinite(Number(t)) && id ? { created_at: Number(t), id } : null;
  } catch {
    return null;
  }
}

/** A page of the account's operations, newest first, and the cursor of the next page (or null). */
export async function operationsPage(db: D1Database, accountId: string, f: HistoryFilter): Promise<{ rows: HistoryRow[]; next: string | null }> {
  const where = ['o.account_id = ?'];
  const binds: unknown[] = [accountId];
  const add = (clause: string, ...values: unknown[]) => (where.push(clause), binds.push(...values));
  if (f.type) add('o.type = ?', f.type);
  if (f.keyId) add('o.key_id = ?', f.keyId);
  if (f.status) add('o.status = ?', f.status);
  if (f.from !== undefined) add('o.created_at >= ?', f.from);
  if (f.to !== undefined) add('o.created_at < ?', f.to);
  if (f.after) add('(o.created_at < ? OR (o.created_at = ? AND o.id < ?))', f.after.created_at, f.after.created_at, f.after.id);
  const rows = await db
    .prepare(
      `SELECT o.*, k.name AS key_name FROM operations o LEFT JOIN api_keys k ON k.id = o.key_id
       WHERE ${where.join(' AND ')} ORDER BY o.created_at DESC, o.id DESC LIMIT ?`,
    )
    .bind(...binds, f.limit + 1)
    .all<HistoryRow>();
  const page = rows.results.slice(0, f.limit);
  return { rows: page, next: rows.results.length > f.limit ? encodeCursor(page[page.length - 1]!) : null };
}

/** What the account spent each UTC day in [from, to), net of refunds (ledger), as [day start, kopecks]. */
export async function spendByDay(db: D1Database, accountId: string, from: number, to: number): Promise<[number, number][]> {
  const rows = await db
    .prepare(
      `SELECT (created_at / 86400000) * 86400000 AS day, -SUM(amount_kopecks) AS spent FROM ledger
       WHERE account_id = ? AND kind IN ('charge', 'refund') AND created_at >= ? AND created_at < ?
       GROUP BY day ORDER BY day`,
    )
    .bind(accountId, from, to)
    .all<{ day: number; spent: number }>();
  return rows.results.map((r) => [r.day, r.spent]);
}

/** What the account spent per operation type since `from`, net of refunds, most first, as [type, kopecks]. */
export async function spendByType(db: D1Database, accountId: string, from: number): Promise<[string, number][]> {
  const rows = await db
    .prepare(
      `SELECT type, SUM(CASE WHEN refunded = 0 THEN charge_kopecks ELSE 0 END) AS spent FROM operations
       WHERE account_id = ? AND created_at >= ? GROUP BY type ORDER BY spent DESC`,
    )
    .bind(accountId, from)
    .all<{ type: string; spent: number }>();
  return rows.results.map((r) => [r.type, r.spent]);
}
