import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { config } from '../env';
import { ApiError } from '../lib/errors';
import { findKeyBySecret } from '../storage/accounts';

const QUERY_KEY_NAMES = ['api_key', 'apikey', 'key', 'token', 'access_token'];

function keyFromHeaders(header: (name: string) => string | undefined): string | null {
  const direct = header('x-api-key')?.trim();
  if (direct) return direct;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header('authorization') ?? '');
  return m ? m[1]! : null;
}

/**
 * API key authentication (X-API-Key or Authorization: Bearer), then the per-key rate limit.
 * A key in the URL is refused even when a header carries a valid one: URLs end up in logs.
 */
export function apiKeyAuth(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const url = new URL(c.req.url);
    if (QUERY_KEY_NAMES.some((n) => url.searchParams.has(n))) {
      throw new ApiError('unauthorized', 'API keys must not be sent in the URL: send the key in the X-API-Key header or as Authorization: Bearer <key>, and reissue this key since the URL may have been logged.');
    }
    const secret = keyFromHeaders((n) => c.req.header(n));
    if (!secret) throw new ApiError('unauthorized', 'No API key: send it in the X-API-Key header or as Authorization: Bearer <key>.');
    const found = await findKeyBySecret(c.env.DB, secret);
    if (!found) throw new ApiError('unauthorized', 'The API key is wrong, was reissued or was deleted: check the key in the dashboard.');
    c.set('account', found.account);
    c.set('key', found.key);

    const { rateLimitPerSecond, rateLimitBurst } = config(c.env);
    if (rateLimitPerSecond > 0) {
      const limiter = c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(found.key.id));
      const wait = await limiter.take(rateLimitPerSecond, rateLimitBurst);
      if (wait > 0) {
        throw new ApiError(
          'rate_limited',
          `Too many requests for this key: the limit is ${rateLimitPerSecond} per second (burst ${rateLimitBurst}). Retry after ${wait} s.`,
          undefined,
          { 'retry-after': String(wait) },
        );
      }
    }
    await next();
  };
}
