/**
 * Issue 40 (3): the dashboard and /docs carry a CSP that forbids framing and allows only what the
 * page itself loads, nosniff and a same-origin referrer policy; dashboard pages (keys, secrets shown once) are never
 * stored by a cache; every API answer carries nosniff.
 */
import { describe, expect, it } from 'vitest';
import { SELF } from 'cloudflare:test';
import { ADMIN, BASE, newAccount } from './helpers';

/** The directives of a Content-Security-Policy header, by name. */
function csp(res: Response): Map<string, string[]> {
  const header = res.headers.get('content-security-policy');
  expect(header, 'a Content-Security-Policy header').toBeTruthy();
  return new Map(header!.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...values]) => [name!, values]));
}

async function sha256Base64(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest));
}

/** Every inline <script> and <style> of the page is allowed by the policy's hashes (nothing else runs). */
async function inlineAllowed(html: string, policy: Map<string, string[]>): Promise<void> {
  for (const [tag, directive] of [['script', 'script-src'], ['style', 'style-src']] as const) {
    for (const m of html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))) {
      expect(policy.get(directive), `${directive} allows the page's inline ${tag}`).toContain(`'sha256-${await sha256Base64(m[1]!)}'`);
    }
  }
  expect(html).not.toMatch(/\son[a-z]+="/); // no inline event handlers: the CSP would block them
}

function expectPageHeaders(res: Response): Map<string, string[]> {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('same-origin');
  const policy = csp(res);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('default-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'none'"]);
  return policy;
}

const sessionOf = (res: Response) => /pdf_edge_session=(ses_[^;]+)/.exec(res.headers.get('set-cookie') ?? '')![0];

describe('security headers', () => {
  it('/docs: a CSP that lets its own inline script and style run and fetch /v1/openapi.json, nothing else; no framing', async () => {
    const res = await SELF.fetch(`${BASE}/docs`);
    expect(res.status).toBe(200);
    const policy = expectPageHeaders(res);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    const html = await res.text();
    expect(html).toContain("fetch('/v1/openapi.json')");
    await inlineAllowed(html, policy);
  });

  it('dashboard pages: CSP, nosniff, same-origin referrer and no-store, on the sign-in page and on pages that show secrets', async () => {
    const signIn = await SELF.fetch(`${BASE}/dashboard/sign-in`);
    await inlineAllowed(await signIn.text(), expectPageHeaders(signIn));
    expect(signIn.headers.get('cache-control')).toBe('no-store');

    const acct = await newAccount();
    const link = await (await SELF.fetch(`${BASE}/admin/accounts/${acct.accountId}/sign-in-link`, { method: 'POST', headers: ADMIN })).json<{ url: string }>();
    const first = await SELF.fetch(link.url, { method: 'POST', headers: { origin: BASE }, redirect: 'manual' });
    expect(first.headers.get('cache-control')).toBe('no-store'); // the link's answer sets the session
    const cookie = sessionOf(first);
    const keys = await SELF.fetch(`${BASE}/dashboard/keys`, { headers: { cookie } });
    expect(keys.status).toBe(200);
    expect(keys.headers.get('cache-control')).toBe('no-store'); // shows the webhook secret
    await inlineAllowed(await keys.text(), expectPageHeaders(keys));
    const made = await SELF.fetch(`${BASE}/dashboard/keys`, {
      method: 'POST',
      headers: { cookie, origin: BASE, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: 'shown once', limit: '', period: 'never' }),
    });
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    const page = await made.text();
    expect(page).toMatch(/value="sk_/);
    await inlineAllowed(page, expectPageHeaders(made)); // the copy button still works, under the CSP
  });

  it('API answers carry nosniff: JSON, problems, the health check', async () => {
    const acct = await newAccount();
    for (const res of [
      await acct.api('/v1/api-keys/balance'),
      await SELF.fetch(`${BASE}/v1/api-keys/balance`),
      await SELF.fetch(`${BASE}/healthz`),
      await SELF.fetch(`${BASE}/v1/openapi.json`),
      await SELF.fetch(`${BASE}/no/such/thing`),
    ]) {
      expect(res.headers.get('x-content-type-options'), res.url).toBe('nosniff');
      await res.body?.cancel();
    }
  });
});
