/**
 * Issue 40 (6): request bodies are capped per route before they are read: operations' JSON
 * 8 MB (a 3 MB signature image is still answered by validation; a 2 MB signature image as a data URL fits), dashboard forms 16 KB, the admin API 16 KB,
 * MCP 1 MB. Over the cap: 413 problem+json `payload_too_large` naming the cap, decided from
 * Content-Length when there is one, else by counting while reading (the rest is never read).
 */
import { describe, expect, it } from 'vitest';
import { SELF } from 'cloudflare:test';
import { ADMIN, BASE, newAccount } from './helpers';

async function expectTooLarge(res: Response, cap: RegExp): Promise<void> {
  expect(res.status).toBe(413);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = await res.json<{ code: string; detail: string; status: number }>();
  expect(body.code).toBe('payload_too_large');
  expect(body.status).toBe(413);
  expect(body.detail).toMatch(cap);
}

/** A body of `total` bytes streamed in 64 KB chunks (no Content-Length), counting what was pulled. */
function streamed(total: number, fill = 0x20): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  const chunk = new Uint8Array(65_536).fill(fill);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      controller.enqueue(chunk.slice(0, n));
    },
  });
  return { body, pulled: () => sent };
}

describe('request body caps', () => {
  it('an operation with a 9 MB JSON body (Content-Length) is 413 naming 8 MB; nothing is charged', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const big = JSON.stringify({ file_id: 'file_x', angle: 90, junk: 'x'.repeat(9_000_000) });
    const res = await acct.api('/v1/pdf/rotate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    await expectTooLarge(res, /8 MB/);
    expect((await (await acct.api('/v1/api-keys/balance')).json<{ balance: string }>()).balance).toBe('10.00');
  });

  it('a streamed (chunked) 60 MB operation body is cut off after the cap, not read to the end', async () => {
    const acct = await newAccount();
    const { body, pulled } = streamed(60_000_000);
    const res = await acct.api('/v1/pdf/rotate', { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    await expectTooLarge(res, /8 MB/);
    expect(pulled()).toBeLessThan(20_000_000);
  });

  it('a signature image as a data URL near its 3,000,000-character limit is still read (422 for the unknown file, not 413)', async () => {
    const acct = await newAccount();
    const res = await acct.json('/v1/pdf/sign', { file_id: 'file_unknown', page: 1, signature_data: `data:image/png;base64,${'A'.repeat(2_999_000)}` });
    expect(res.status).toBe(422);
  });

  it('a 100 KB dashboard form (sign-in password) is 413 naming 16 KB, chunked or not', async () => {
    const form = new URLSearchParams({ email: 'someone@example.com', password: 'p'.repeat(100_000) }).toString();
    const headers = { origin: BASE, 'content-type': 'application/x-www-form-urlencoded' };
    await expectTooLarge(await SELF.fetch(`${BASE}/dashboard/sign-in`, { method: 'POST', headers, body: form }), /16 KB/);
    const { body, pulled } = streamed(90_000_000, 0x61);
    await expectTooLarge(await SELF.fetch(`${BASE}/dashboard/sign-in`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit), /16 KB/);
    expect(pulled()).toBeLessThan(20_000_000);
  });

  it('the admin API: a 100 KB JSON body is 413 naming 16 KB; a normal one still works', async () => {
    const res = await SELF.fetch(`${BASE}/admin/accounts`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ email: `big-${crypto.randomUUID()}@x.dev`, junk: 'x'.repeat(100_000) }) });
    await expectTooLarge(res, /16 KB/);
    const ok = await SELF.fetch(`${BASE}/admin/accounts`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ email: `small-${crypto.randomUUID()}@x.dev` }) });
    expect(ok.status).toBe(201);
  });

  it('MCP: a 2 MB JSON-RPC body is 413 naming 1 MB', async () => {
    const acct = await newAccount();
    const res = await SELF.fetch(`${BASE}/mcp`, {
      method: 'POST',
      headers: { 'x-api-key': acct.secret, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { junk: 'x'.repeat(2_000_000) } }),
    });
    await expectTooLarge(res, /1 MB/);
  });
});
