/**
 * `Idempotency-Key` on paid POSTs (DECISIONS: Idempotency), as Stripe does it: per account, kept
 * 24 hours. The first request with a key claims it in D1 (a row without a status) and is answered
 * as usual; its answer is stored unless it is a 4xx (the client may fix the request and send the
 * key again) or a 5xx (nothing was charged: operations refund before answering 500). Later
 * requests with the key and the same body get the stored answer again with `Idempotent-Replayed:
 * true` and are not charged; with another body, 422 `idempotency_key_reused`. Requests that
 * arrive while the first is still being answered wait for it (the claim is one INSERT, so of 20
 * concurrent duplicates exactly one goes through and is charged).
 *
 * A claim left without an answer (the request died between claim and answer: the isolate was
 * killed, so neither the answer nor the claim's removal was written) does not block the key for
 * 24 hours: once it is STALE_CLAIM_MS old, a request with the key and the same body takes it over
 * (one conditional UPDATE of the claim's created_at, so of concurrent takers exactly one wins) and
 * is answered as a first request. A claim is its created_at: the request that made it stores its
 * answer or drops the claim only if the claim is still its own.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { ApiError, invalid } from '../../lib/errors';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a duplicate waits for the first request's answer before giving up with 409 (the first takes well under a second). */
const WAIT_FOR_FIRST_MS = 60_000;
const POLL_MS = 50;
/**
 * A claim without an answer older than this was left by a request that died: it may be taken
 * over. Well past WAIT_FOR_FIRST_MS, and a first request is answered in well under a second.
 */
export const STALE_CLAIM_MS = 2 * 60_000;

interface Claim {
  request_hash: string;
  status: number | null;
  body: string | null;
  created_at: number;
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
      if (claimed.meta.changes === 1) return answerFirst(c, next, account, key, now);

      const row = await db
        .prepare('SELECT request_hash, status, body, created_at FROM idempotency_keys WHERE account_id = ? AND key = ?')
        .bind(account, key)
        .first<Claim>();
      if (!row) continue; // the first answered 4xx/5xx meanwhile (its claim was dropped): claim it ourselves
      if (row.request_hash !== hash) {
        throw new ApiError('idempotency_key_reused', `This Idempotency-Key was used with another request body in the last 24 hours: use a new key for a new request.`);
      }
      if (row.status !== null) {
        return new Response(row.body, { status: row.status, headers: { 'content-type': 'application/json', 'idempotent-replayed': 'true' } });
      }
      if (row.created_at <= now - STALE_CLAIM_MS) {
        // Left by a request that died before answering: take it over (only if it is still that claim).
        const taken = await db
          .prepare('UPDATE idempotency_keys SET created_at = ? WHERE account_id = ? AND key = ? AND status IS NULL AND created_at = ?')
          .bind(now, account, key, row.created_at)
          .run();
        if (taken.meta.changes === 1) {
          console.log(JSON.stringify({ event: 'idempotency_claim_taken_over', account_id: account, claimed_at: row.created_at }));
          return answerFirst(c, next, account, key, now);
        }
        continue; // another request took it first
      }
      if (Date.now() > deadline) throw new ApiError('idempotency_key_in_use', 'The first request with this Idempotency-Key is still being answered: send it again in a moment.');
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  };
}

/**
 * Runs the request that holds the claim (made at `claimedAt`) and keeps its answer (2xx and 3xx
 * only). Both the answer and the claim's removal touch the claim only while it is still this one.
 */
async function answerFirst(c: Parameters<MiddlewareHandler<AppEnv>>[0], next: () => Promise<void>, account: string, key: string, claimedAt: number): Promise<void> {
  const db = c.env.DB;
  const drop = () =>
    db.prepare('DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND status IS NULL AND created_at = ?').bind(account, key, claimedAt).run();
  try {
    await next();
  } catch (err) {
    await drop();
    throw err;
  }
  const status = c.res.status;
  if (status >= 400) {
    await drop();
    return;
  }
  const body = await c.res.clone().text();
  await db
    .prepare('UPDATE idempotency_keys SET status = ?, body = ? WHERE account_id = ? AND key = ? AND status IS NULL AND created_at = ?')
    .bind(status, body, account, key, claimedAt)
    .run();
}

/** SHA-256 of what makes two requests the same request: method, path and body bytes. */
export async function requestHash(method: string, path: string, body: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${method} ${path}\n${body}`));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The cron sweep's part: keys older than 24 hours. */
export async function sweepIdempotencyKeys(db: D1Database, now = Date.now()): Promise<number> {
  const r = await db.prepare('DELETE FROM idempotency_keys WHERE created_at <= ?').bind(now - IDEMPOTENCY_TTL_MS).run();
  return r.meta.changes ?? 0;
}
