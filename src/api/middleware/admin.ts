import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { ApiError } from '../../lib/errors';
import { timingSafeEqual } from '../../lib/ids';

/** The admin API exists only when the ADMIN_TOKEN secret is set; it answers 404 otherwise. */
export function adminAuth(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const expected = c.env.ADMIN_TOKEN;
    if (!expected) throw new ApiError('not_found', 'No such endpoint.');
    const given = c.req.header('x-admin-token') ?? '';
    if (!timingSafeEqual(given, expected)) throw new ApiError('unauthorized', 'The X-Admin-Token header is missing or wrong.');
    await next();
  };
}
