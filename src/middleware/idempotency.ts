/**
 * `Idempotency-Key` on paid POSTs (DECISIONS: Idempotency), as Stripe does it: per account, kept
 * 24 hours. The first request with a key claims it in D1 (a row without a status) and is answered
 * as usual; its answer is stored unless it is a 4xx (the client may fix the request and send the
 * key again) or a 5xx (nothing was charged: operations refund before answering 500). Later
 * requests with the key and the same body get the stored answer again with `Idempotent-Replayed:
 * true` and are not charged; with another body, 422 `idempotency_key_reused`. Requests that
 * arrive while the first is still being answered wait for it (the claim is one INSERT, so of 20
 * concurrent duplicates exactly one goes through and is charged).
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { ApiError, invalid } from '../lib/errors';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a duplicate waits for the first request's answer before giving up with 409 (the first takes well under a second). */
const WAIT_FOR_FIRST_MS = 60_000;
const POLL_MS = 50;

interface Claim {
  request_hash: string;
  status: number | null;
  body: string | null;
}

export function idempotency(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined) return next();
    if (!/^[\x20-\x7e]{1,255}$/.test(key)) {
      throw invalid('Idempotency-Key', 'the Idempotency-Key header must be 1 to 255 printable ASCII characters');
    }
    const db = c.env.DB;
    const account = c.get('account').id;
    const hash = await requestHash(c.req.method, new URL(c.req.url).pathname, await c.req.text());

    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      const now = Date.now();
      await db.prepare('DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND created_at <= ?').bind(account, key, now - IDEMPOTENCY_TTL_MS).run();
      const claimed = await db
        .prepare('INSERT INTO idempotency_keys (account_id, key, request_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING')
        .bind(account, key, hash, now)
        .run();
      if (claimed.meta.changes === 1) return answerFirst(c, next, account, key);

      const row = await db.prepare('SELECT request_hash, status, body FROM idempotency_keys WHERE account_id = ? AND key = ?').bind(account, key).first<Claim>();
      if (!row) continue; // the first answered 4xx/5xx meanwhile (its claim was dropped): claim it ourselves
      if (row.request_hash !== hash) {
        throw new ApiError('idempotency_key_reused', `This Idempotency-Key was used with another request body in the last 24 hours: use a new key for a new request.`);
      }
      if (row.status !== null) {
        return new Response(row.body, { status: row.status, headers: { 'content-type': 'application/json', 'idempotent-replayed': 'true' } });
      }
      if (Date.now() > deadline) throw new ApiError('idempotency_key_in_use', 'The first request with this Idempotency-Key is still being answered: send it again in a moment.');
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  };
}

/** Runs the request that holds the claim and keeps its answer (2xx and 3xx only). */
async function answerFirst(c: Parameters<MiddlewareHandler<AppEnv>>[0], next: () => Promise<void>, account: string, key: string): Promise<void> {
  const db = c.env.DB;
  try {
    await next();
  } catch (err) {
    await db.prepare('DELETE FROM idempotency_keys WHERE account_id = ? AND key = ?').bind(account, key).run();
    throw err;
  }
  const status = c.res.status;
  if (status >= 400) {
    await db.prepare('DELETE FROM idempotency_keys WHERE account_id = ? AND key = ?').bind(account, key).run();
    return;
  }
  const body = await c.res.clone().text();
  await db.prepare('UPDATE idempotency_keys SET status = ?, body = ? WHERE account_id = ? AND key = ?').bind(status, body, account, key).run();
}

/** SHA-256 of what makes two requests the same request: method, path and body bytes. */
async function requestHash(method: string, path: string, body: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${method} ${path}\n${body}`));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The cron sweep's part: keys older than 24 hours. */
export async function sweepIdempotencyKeys(db: D1Database, now = Date.now()): Promise<number> {
  const r = await db.prepare('DELETE FROM idempotency_keys WHERE created_at <= ?').bind(now - IDEMPOTENCY_TTL_MS).run();
  return r.meta.changes ?? 0;
}
