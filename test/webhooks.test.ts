import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SELF } from 'cloudflare:test';
import { admin, markerPdf, newAccount, uploadOk, waitTask, type TestAccount } from './helpers';
import { encryptPdf } from './fixtures';

const HOOKS = 'https://hooks.example.test';

interface Delivery {
  url: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** Records what the service POSTs to the receiver host and answers with a scripted status. */
let deliveries: Delivery[] = [];
let answer: (n: number, url: string) => Response = () => new Response('ok');
beforeEach(() => {
  deliveries = [];
  answer = () => new Response('ok');
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    if (!req.url.startsWith(HOOKS)) return realFetch(input as RequestInfo, init);
    deliveries.push({ url: req.url, headers: Object.fromEntries(req.headers), body: await req.text(), at: Date.now() });
    return answer(deliveries.length - 1, req.url);
  });
});
afterEach(() => vi.restoreAllMocks());

/** The receiver's side of SPEC "Signature check", written independently of src/. */
async function verify(secret: string, header: string, body: string): Promise<{ ok: boolean; t: number }> {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!m) return { ok: false, t: 0 };
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const mac = Uint8Array.from(m[2]!.match(/../g)!.map((h) => parseInt(h, 16)));
  const ok = await crypto.subtle.verify('HMAC', key, mac, new TextEncoder().encode(`${m[1]}.${body}`));
  return { ok: ok && Math.abs(Date.now() / 1000 - Number(m[1])) <= 300, t: Number(m[1]) };
}

async function until(n: number, timeoutMs = 15_000): Promise<Delivery[]> {
  const deadline = Date.now() + timeoutMs;
  while (deliveries.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return deliveries;
}

async function accountWithSecret(): Promise<{ acct: TestAccount; secret: string }> {
  const acct = await newAccount({ balance: '20.00' });
  const res = await admin(`/admin/accounts/${acct.accountId}/webhook-secret`);
  return { acct, secret: (await res.json<{ webhook_secret: string }>()).webhook_secret };
}

async function rotateWithHook(acct: TestAccount, path: string, pdf?: Uint8Array) {
  const up = await uploadOk(acct, pdf ?? (await markerPdf(1, 'W')), 'hook.pdf');
  const res = await acct.json('/v1/pdf/rotate', { file_id: up.file_id, webhook_url: `${HOOKS}${path}` });
  expect(res.status).toBe(202);
  return (await res.json<{ task_id: string }>()).task_id;
}

describe('webhooks', () => {
  it('task.done: one signed POST with the documented headers and body; its download_url works', async () => {
    const { acct, secret } = await accountWithSecret();
    const taskId = await rotateWithHook(acct, '/done');
    const [d] = await until(1);
    expect(d!.headers['content-type']).toBe('application/json');
    expect(d!.headers['x-service-event']).toBe('task.done');
    expect(d!.headers['x-service-delivery']).toMatch(/^dlv_[0-9a-f]{32}$/);
    expect((await verify(secret, d!.headers['x-service-signature']!, d!.body)).ok).toBe(true);
    const body = JSON.parse(d!.body);
    expect(Object.keys(body).sort()).toEqual(['download_url', 'event', 'filename', 'operation_type', 'status', 'task_id', 'timestamp']);
    expect(body).toMatchObject({ event: 'task.done', task_id: taskId, operation_type: 'rotate_pdf', status: 'done', filename: 'hook_service.pdf' });
    expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await SELF.fetch(body.download_url)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(deliveries).toHaveLength(1); // a 2xx ends the delivery
  });

  it('task.failed: error_message and no download_url; sent after the refund', async () => {
    const { acct, secret } = await accountWithSecret();
    const taskId = await rotateWithHook(acct, '/failed', await encryptPdf(await markerPdf(1, 'E')));
    const [d] = await until(1);
    expect(d!.headers['x-service-event']).toBe('task.failed');
    expect((await verify(secret, d!.headers['x-service-signature']!, d!.body)).ok).toBe(true);
    const body = JSON.parse(d!.body);
    expect(body).toMatchObject({ event: 'task.failed', task_id: taskId, status: 'failed' });
    expect(body.error_message).toContain('unlock');
    expect(body.download_url).toBeUndefined();
    expect((await waitTask(acct, taskId)).refunded).toBe(true);
  });

  it('a failing receiver gets 3 more attempts with the same delivery id, each signed anew, then no more', async () => {
    answer = () => new Response('no', { status: 500 });
    const { acct, secret } = await accountWithSecret();
    await rotateWithHook(acct, '/500');
    const got = await until(4);
    await new Promise((r) => setTimeout(r, 2500));
    expect(got).toHaveLength(4);
    expect(new Set(got.map((d) => d.headers['x-service-delivery'])).size).toBe(1);
    for (const d of got) expect((await verify(secret, d.headers['x-service-signature']!, d.body)).ok).toBe(true);
    for (let k = 1; k < 4; k++) expect(got[k]!.at - got[k - 1]!.at).toBeGreaterThanOrEqual(900); // WEBHOOK_RETRY_DELAYS=1,1,1
  });

  it('a redirect is a failure and is not followed; a later 2xx ends the delivery', async () => {
    answer = (n) => (n === 0 ? new Response(null, { status: 307, headers: { location: `${HOOKS}/elsewhere` } }) : new Response('ok'));
    const { acct } = await accountWithSecret();
    await rotateWithHook(acct, '/redirect');
    const got = await until(2);
    await new Promise((r) => setTimeout(r, 2000));
    expect(got.map((d) => new URL(d.url).pathname)).toEqual(['/redirect', '/redirect']);
  });

  it('a reissued signing secret applies to the next attempt at once', async () => {
    answer = (n) => (n === 0 ? new Response('no', { status: 503 }) : new Response('ok'));
    const { acct, secret: old } = await accountWithSecret();
    await rotateWithHook(acct, '/rotate-secret');
    const [first] = await until(1);
    const fresh = (await (await admin(`/admin/accounts/${acct.accountId}/webhook-secret`)).json<{ webhook_secret: string }>()).webhook_secret;
    const [, second] = await until(2);
    expect((await verify(old, first!.headers['x-service-signature']!, first!.body)).ok).toBe(true);
    expect((await verify(fresh, second!.headers['x-service-signature']!, second!.body)).ok).toBe(true);
    expect((await verify(old, second!.headers['x-service-signature']!, second!.body)).ok).toBe(false);
  });

  it('webhook_url must be https:// (ALLOW_INSECURE_URLS is off here) and a URL', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(1, 'H'), 'h.pdf');
    for (const webhook_url of ['http://hooks.example.test/x', 'not a url', 'ftp://x.test/']) {
      const res = await acct.json('/v1/pdf/rotate', { file_id: up.file_id, webhook_url });
      expect(res.status).toBe(422);
      expect((await res.json<{ errors: { path: string }[] }>()).errors[0]!.path).toBe('webhook_url');
    }
    expect((await acct.json('/v1/pdf/rotate', { file_id: up.file_id, webhook_url: `${HOOKS}/ok` })).status).toBe(202);
  });
});
