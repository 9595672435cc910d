import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { config } from '../../service/env';
import { ApiError } from '../../lib/errors';
import { findKeyBySecret } from '../../service/storage/accounts';
import { ipv6Groups } from '../../lib/outbound-url';

/**
 * The client's address for per-address limits (dashboard sign-in and sign-up), taken only from a
 * header the platform sets: TRUST_CLIENT_IP_HEADER "true" trusts CF-Connecting-IP (Cloudflare's
 * edge sets it and overwrites what a client sent); another value names the header a trusted proxy
 * in front of a self-hosted workerd sets (X-Real-IP; in a list such as X-Forwarded-For the last
 * entry, the one that proxy added). Unset or "false": a client-sent header is not believed and
 * every client is "unknown", one shared address. IPv6 addresses count per /64 (one customer's
 * network), so rotating addresses inside it gains nothing.
 */
export function clientAddress(c: { env: object; req: { header(name: string): string | undefined } }): string {
  const setting = ((c.env as Record<string, unknown>)['TRUST_CLIENT_IP_HEADER'] as string | undefined)?.trim() ?? '';
  if (!setting || /^(false|0|no)$/i.test(setting)) return 'unknown';
  const header = /^(true|1|yes)$/i.test(setting) ? 'cf-connecting-ip' : setting;
  const value = c.req.header(header)?.split(',').pop()?.trim().slice(0, 100);
  if (!value) return 'unknown';
  if (!value.includes(':')) return value;
  const groups = ipv6Groups(value.replace(/^\[|\]$/g, '').split('%')[0]!.toLowerCase());
  return groups ? `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64` : value;
}

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
