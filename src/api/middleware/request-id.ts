import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';

/** Every response carries X-Request-Id; logs of a failed request are found by it. */
export function requestId(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const id = c.req.header('cf-ray') ?? crypto.randomUUID();
    c.set('requestId', id);
    await next();
    c.res.headers.set('x-request-id', id);
  };
}
