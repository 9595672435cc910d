/**
 * Issue 40 (1): a link that cannot be fetched gets one and the same answer whatever went wrong on
 * the network (refused, reset, DNS, TLS, timeout, a body cut short), so a client cannot tell an open
 * port from a closed one; the cause goes to the log only. The failures are thrown by a stand-in
 * fetch (the test harness answers a refused loopback connection with its own HTTP 500, so a real
 * closed port cannot be shown here); nothing connects anywhere.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SELF } from 'cloudflare:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fetchFileUrl, FileUrlError } from '../src/api/mcp/file-url';
import { BASE, newAccount } from './helpers';

const insecure = { allowInsecure: true };

/** A response whose body fails after a first chunk, as a connection reset mid-transfer does. */
function cutShort(): Response {
  let n = 0;
  return new Response(new ReadableStream({ pull: (c) => (n++ === 0 ? c.enqueue(new Uint8Array(100)) : c.error(new TypeError('Network connection lost.'))) }));
}

const FAILURES: [string, typeof fetch][] = [
  ['connection refused', async () => { throw new TypeError('fetch failed: connect ECONNREFUSED 127.0.0.1:9') }],
  ['connection reset', async () => { throw new TypeError('Network connection lost.') }],
  ['DNS failure', async () => { throw new TypeError('DNS lookup failed') }],
  ['TLS failure', async () => { throw new Error('TLS peer certificate is not trusted; reason = unable to get local issuer certificate') }],
  ['timeout', async () => { throw new DOMException('The operation was aborted due to timeout', 'TimeoutError') }],
  ['body cut short', async () => cutShort()],
];

async function messageOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(FileUrlError);
    return (err as Error).message;
  }
  throw new Error('expected a failure');
}

afterEach(() => vi.restoreAllMocks());

describe('one answer for every network failure', () => {
  it('refused, reset, DNS, TLS, timeout and a body cut short read the same; the cause is logged', async () => {
    const log = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const messages = new Set<string>();
    for (const [what, fetcher] of FAILURES) {
      const message = await messageOf(fetchFileUrl('http://127.0.0.1:9/file.pdf', 'file_url', 1_000_000, insecure, fetcher));
      expect(message, what).not.toMatch(/ECONNREFUSED|DNS|TLS|timeout|lost|within/i);
      messages.add(message);
    }
    expect([...messages]).toEqual(['file_url: the file could not be fetched from http://127.0.0.1:9/file.pdf; check that the link works from the public Internet']);
    const logged = log.mock.calls.map((c) => String(c[0])).join('\n');
    expect(logged).toMatch(/ECONNREFUSED/);
    expect(logged).toMatch(/TLS peer certificate/);
  });

  it('through MCP: every failure is the same tool error text, and nothing is charged', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const realFetch = globalThis.fetch;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = new Request(input as RequestInfo, init).url;
      const failure = FAILURES.find(([what]) => url === `https://files.example.test/${encodeURIComponent(what)}.pdf`);
      return failure ? failure[1](input, init) : realFetch(input as RequestInfo, init);
    });
    const acct = await newAccount({ balance: '10.00' });
    const client = new Client({ name: 'probe', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), { requestInit: { headers: { 'x-api-key': acct.secret } }, fetch: (u, i) => SELF.fetch(u as string, i) }));
    const texts = new Set<string>();
    for (const [what] of FAILURES) {
      const url = `https://files.example.test/${encodeURIComponent(what)}.pdf`;
      const r = await client.callTool({ name: 'rotate_pdf', arguments: { file_url: url } });
      expect(r.isError, what).toBe(true);
      texts.add((r.content as { text: string }[])[0]!.text.replace(url, '<url>'));
    }
    expect([...texts]).toEqual(['file_url: the file could not be fetched from <url>; check that the link works from the public Internet']);
    expect((await (await acct.api('/v1/api-keys/balance')).json<{ balance: string }>()).balance).toBe('10.00');
  });
});
