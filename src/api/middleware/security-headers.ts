/**
 * Response headers against content sniffing, framing and leaking (issue 40): every answer carries
 * `X-Content-Type-Options: nosniff`; HTML pages (the dashboard, /docs) add a Content-Security-Policy
 * that allows nothing but the page's own inline script and style (by their SHA-256) and, for /docs,
 * its fetch of /v1/openapi.json; framing is refused (`frame-ancestors 'none'`, X-Frame-Options), no
 * Referer leaves (sign-in link tokens are in URLs), and pages that show secrets are never stored.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env';

/** `'sha256-…'` of an inline script's or style's text, as CSP hash sources are written. */
async function hashSource(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
}

export interface PagePolicy {
  /** The exact text of each inline <script> the pages carry. */
  scripts?: readonly string[];
  /** The exact text of each inline <style>. */
  styles?: readonly string[];
  /** connect-src: 'self' when the page's script fetches from this origin. */
  connectSelf?: boolean;
  /** form-action: 'self' when the pages post forms. */
  formsSelf?: boolean;
}

export async function contentSecurityPolicy(policy: PagePolicy): Promise<string> {
  const sources = async (texts: readonly string[] = []) => (texts.length ? (await Promise.all(texts.map(hashSource))).join(' ') : "'none'");
  return [
    "default-src 'none'",
    `script-src ${await sources(policy.scripts)}`,
    `style-src ${await sources(policy.styles)}`,
    "img-src 'self'",
    `connect-src ${policy.connectSelf ? "'self'" : "'none'"}`,
    `form-action ${policy.formsSelf ? "'self'" : "'none'"}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Sets headers on the response, copying it first when its headers are immutable (a fetched response). */
export function setHeaders(c: { res: Response }, headers: Record<string, string>): void {
  try {
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  } catch {
    c.res = new Response(c.res.body, c.res);
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  }
}

/** nosniff on every answer: a browser never takes a JSON body, a result file or a problem for HTML. */
export function noSniff(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    setHeaders(c, { 'x-content-type-options': 'nosniff' });
  };
}

/** The headers of an HTML page: CSP from `policy`, no framing, no Referer to other origins, and (secrets) no caching. */
export function pageHeaders(policy: PagePolicy, opts: { noStore?: boolean } = {}): MiddlewareHandler<AppEnv> {
  let csp: Promise<string> | undefined;
  return async (c, next) => {
    await next();
    setHeaders(c, {
      'content-security-policy': await (csp ??= contentSecurityPolicy(policy)),
      'x-frame-options': 'DENY',
      // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` with the
      // dashboard's own form POSTs (Fetch's origin serialisation), which the CSRF check refuses.
      'referrer-policy': 'same-origin',
      'x-content-type-options': 'nosniff',
      ...(opts.noStore ? { 'cache-control': 'no-store' } : {}),
    });
  };
}
