import { newId, newSecret, sha256Hex } from '../../lib/ids';
import { retryRead } from '../../lib/retry';

export type Plan = 'free' | 'standard' | 'business';
export type Period = 'never' | 'daily' | 'weekly' | 'monthly';

export interface Account {
  id: string;
  email: string;
  plan: Plan;
  balance_kopecks: number;
  purchased_at: number | null;
  webhook_secret: string;
  created_at: number;
}

export interface ApiKey {
  id: string;
  account_id: string;
  name: string;
  limit_kopecks: number | null;
  period: Period;
}

/** Upload limit per plan in bytes (DECISIONS: free 10 MB, standard and business 50 MB). */
export const PLAN_MAX_UPLOAD_MB: Record<Plan, number> = { free: 10, standard: 50, business: 50 };
export const maxUploadBytes = (plan: Plan): number => PLAN_MAX_UPLOAD_MB[plan] * 1_000_000;

/**
 * An email as accounts are keyed by it: trimmed and lower-cased, everywhere an email comes in (admin
 * API, sign-up, sign-in and its limits). A unique index on lower(email) (migration 0005) backs it.
 */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Whether an error is the database refusing a second account for an email (a race with another create). */
export const isDuplicateEmail = (err: unknown): boolean => /UNIQUE constraint failed: (accounts\.email|index 'accounts_email_lower')/i.test(String((err as Error)?.message ?? err));

export async function createAccount(
  db: D1Database,
  input: { email: string; plan: Plan; balance_kopecks: number; purchased_at: number | null },
): Promise<Account> {
  const now = Date.now();
  const account: Account = { id: newId('acc'), webhook_secret: newSecret('whsec'), created_at: now, ...input, email: normalizeEmail(input.email) };
  const statements = [
    db
      .prepare('INSERT INTO accounts (id, email, plan, balance_kopecks, purchased_at, webhook_secret, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .bind(account.id, account.email, account.plan, account.balance_kopecks, account.purchased_at, account.webhook_secret, now),
  ];
  if (input.balance_kopecks > 0) {
    statements.push(
      db.prepare("INSERT INTO ledger (account_id, kind, amount_kopecks, created_at) VALUES (?, 'credit', ?, ?)").bind(account.id, input.balance_kopecks, now),
    );
  }
  await db.batch(statements);
  return account;
}

export const getAccount = (db: D1Database, id: string): Promise<Account | null> =>
  db.prepare('SELECT * FROM accounts WHERE id = ?').bind(id).first<Account>();

export async function creditAccount(db: D1Database, accountId: string, kopecks: number): Promise<void> {
  const now = Date.now();
  await db.batch([
    db.prepare('UPDATE accounts SET balance_kopecks = balance_kopecks + ? WHERE id = ?').bind(kopecks, accountId),
    db.prepare("INSERT INTO ledger (account_id, kind, amount_kopecks, created_at) VALUES (?, 'credit', ?, ?)").bind(accountId, kopecks, now),
  ]);
}

export async function createKey(
  db: D1Database,
  accountId: string,
  input: { name: string; limit_kopecks: number | null; period: Period },
): Promise<{ key_id: string; secret: string }> {
  const key_id = newId('key');
  const secret = newSecret('sk');
  await db
    .prepare('INSERT INTO api_keys (id, account_id, name, secret_hash, limit_kopecks, period, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .bind(key_id, accountId, input.name, await sha256Hex(secret), input.limit_kopecks, input.period, Date.now())
    .run();
  return { key_id, secret };
}

/** A key as the dashboard lists it: with when it was made and last used (its newest operation). */
export interface KeyListing extends ApiKey {
  created_at: number;
  last_used_at: number | null;
}

export async function listKeys(db: D1Database, accountId: string): Promise<KeyListing[]> {
  const { results } = await db
    .prepare(
      `SELECT k.id, k.account_id, k.name, k.limit_kopecks, k.period, k.created_at,
              (SELECT MAX(o.created_at) FROM operations o WHERE o.key_id = k.id) AS last_used_at
       FROM api_keys k WHERE k.account_id = ? AND k.deleted_at IS NULL ORDER BY k.created_at`,
    )
    .bind(accountId)
    .all<KeyListing>();
  return results;
}

/** The account's live key `keyId`, or null (another account's key is as unknown as a missing one). */
export const keyOfAccount = (db: D1Database, accountId: string, keyId: string): Promise<ApiKey | null> =>
  db.prepare('SELECT id, account_id, name, limit_kopecks, period FROM api_keys WHERE id = ? AND account_id = ? AND deleted_at IS NULL').bind(keyId, accountId).first<ApiKey>();

/** A key's name, limit and period changed; its secret and history stay. */
export async function updateKey(db: D1Database, keyId: string, input: { name: string; limit_kopecks: number | null; period: Period }): Promise<boolean> {
  const res = await db
    .prepare('UPDATE api_keys SET name = ?, limit_kopecks = ?, period = ? WHERE id = ? AND deleted_at IS NULL')
    .bind(input.name, input.limit_kopecks, input.period, keyId)
    .run();
  return res.meta.changes === 1;
}

/** A new secret for the same key: id, name, limit and history stay; the old secret dies at once. */
export async function reissueKey(db: D1Database, keyId: string): Promise<string | null> {
  const secret = newSecret('sk');
  const res = await db
    .prepare('UPDATE api_keys SET secret_hash = ? WHERE id = ? AND deleted_at IS NULL')
    .bind(await sha256Hex(secret), keyId)
    .run();
  return res.meta.changes === 1 ? secret : null;
}

export async function deleteKey(db: D1Database, keyId: string): Promise<boolean> {
  const res = await db.prepare('UPDATE api_keys SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL').bind(Date.now(), keyId).run();
  return res.meta.changes === 1;
}

/**
 * The key and account a secret belongs to. Only SHA-256 hashes are stored: the lookup is by hash,
 * so the secret itself is never compared byte by byte (no timing signal about stored secrets).
 */
export async function findKeyBySecret(db: D1Database, secret: string): Promise<{ key: ApiKey; account: Account } | null> {
  const hash = await sha256Hex(secret);
  const row = await retryRead(() =>
    db
      .prepare(
        `SELECT k.id AS key_id, k.name, k.limit_kopecks, k.period, a.*
         FROM api_keys k JOIN accounts a ON a.id = k.account_id
         WHERE k.secret_hash = ? AND k.deleted_at IS NULL`,
      )
      .bind(hash)
      .first<Account & { key_id: string; name: string; limit_kopecks: number | null; period: Period }>(),
  );
  if (!row) return null;
  const { key_id, name, limit_kopecks, period, ...account } = row;
  return { key: { id: key_id, account_id: account.id, name, limit_kopecks, period }, account };
}

export async function setPlan(db: D1Database, accountId: string, plan: Plan, purchasedAt: number | null): Promise<boolean> {
  const res = await db
    .prepare('UPDATE accounts SET plan = ?, purchased_at = COALESCE(?, purchased_at) WHERE id = ?')
    .bind(plan, purchasedAt, accountId)
    .run();
  return res.meta.changes === 1;
}

export async function rotateWebhookSecret(db: D1Database, accountId: string): Promise<string | null> {
  const secret = newSecret('whsec');
  const res = await db.prepare('UPDATE accounts SET webhook_secret = ? WHERE id = ?').bind(secret, accountId).run();
  return res.meta.changes === 1 ? secret : null;
}
