/**
 * Request body caps per route (issue 40), checked before a body is read: Content-Length first;
 * a body without one (chunked) is counted while it streams in and reading stops at the cap, so
 * an oversized body is never read to its end. Over the cap: 413 problem+json `payload_too_large`
 * naming the cap. Uploads are not capped here: the multipart reader enforces the plan's limit.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';
import { ApiError } from '../../lib/errors';

const KB = 1000;
const MB = 1_000_000;

/** The cap of a request's body by its path, or null for none here (uploads). */
export function bodyCapOf(path: string): { bytes: number; what: string } | null {
  if (path === '/v1/upload' || path.startsWith('/v1/upload/')) return null;
  // A signature image as a data URL: up to 3,000,000 characters (operations/sign.ts).
  // 8 MB: a signature image past its own 3,000,000-character limit must still reach validation,
  // which answers 422 naming that limit (the contract's answer for an image over 2 MB).
  if (path.startsWith('/v1/pdf/')) return { bytes: 8 * MB, what: 'an operation request' };
  if (path === '/dashboard' || path.startsWith('/dashboard/')) return { bytes: 16 * KB, what: 'a dashboard form' };
  if (path.startsWith('/admin/')) return { bytes: 16 * KB, what: 'an admin API request' };
  if (path === '/mcp') return { bytes: 1 * MB, what: 'an MCP message' };
  return { bytes: 64 * KB, what: 'this request' };
}

const size = (bytes: number) => (bytes >= MB ? `${bytes / MB} MB` : `${bytes / KB} KB`);

export function bodyCap(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    const cap = raw.body ? bodyCapOf(new URL(raw.url).pathname) : null;
    if (!cap || !raw.body) return next();
    const tooLarge = () => new ApiError('payload_too_large', `The request body is larger than the ${size(cap.bytes)} ${cap.what} may have.`);
    const declared = raw.headers.get('content-length');
    if (declared !== null && !raw.headers.has('transfer-encoding')) {
      if (!/^\d+$/.test(declared) || Number(declared) > cap.bytes) throw tooLarge();
      return next();
    }
    // No length given: read at most the cap, then hand the route the bytes read.
    const reader = raw.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > cap.bytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
    const body = new Uint8Array(total);
    let at = 0;
    for (const chunk of chunks) (body.set(chunk, at), (at += chunk.length));
    c.req.raw = new Request(raw, { body });
    return next();
  };
}
