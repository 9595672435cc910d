/**
 * Issue 40: a file_url whose host answers and then trickles its body ends with the time-limit
 * message, not the internal error. The limit is a parameter here (300 ms) instead of 30 s.
 */
import { describe, expect, it } from 'vitest';
import { FETCH_TIMEOUT_MS, FileUrlError, fetchFileUrl } from '../src/api/mcp/file-url';

const INSECURE = { allowInsecure: true };
/**
 * Run beside the tests (`node test/low-findings-trickle-server.mjs 18741`) for the loopback case. It is
 * skipped when the listener is not reached: vitest.config.ts's outboundService passes the request on
 * with `fetch(request)`, which Node refuses ("Failed to parse URL from [object Request]"), so today
 * no fetch from the test Worker reaches a loopback listener; the same check was run in workerd
 * through Miniflare directly (see the issue 40 report).
 */
const TRICKLE = 'http://127.0.0.1:18741';

/** A response that sends its headers, then a byte every 50 ms for ever; `honour` errors the body when the fetch's signal fires. */
function trickling(honour: boolean): typeof fetch {
  return (async (_url: RequestInfo | URL, init?: RequestInit) => {
    let timer: ReturnType<typeof setInterval> | null = null;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('%PDF-1.7\n'));
        timer = setInterval(() => controller.enqueue(new Uint8Array([0x20])), 50);
        if (honour) init?.signal?.addEventListener('abort', () => (clearInterval(timer), controller.error(init.signal!.reason)));
      },
      cancel() {
        clearInterval(timer);
      },
    });
    return new Response(body, { headers: { 'content-type': 'application/pdf' } });
  }) as typeof fetch;
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a failure');
}

describe('file_url time limit while the body comes', () => {
  it('the default limit is 30 s', () => {
    expect(FETCH_TIMEOUT_MS).toBe(30_000);
  });

  for (const honour of [true, false]) {
    it(`a body that trickles past the limit: the timeout message (the body ${honour ? 'errors with the signal' : 'ignores the signal'})`, { timeout: 10_000 }, async () => {
      const t0 = performance.now();
      const err = await failure(fetchFileUrl('https://files.example.test/slow.pdf', 'file_url', 10_000_000, INSECURE, trickling(honour), 300));
      expect(err).toBeInstanceOf(FileUrlError);
      expect(err.message).toBe('file_url: the link did not send its file within 0.3 s; use a faster host or upload the file another way');
      expect(performance.now() - t0).toBeLessThan(3000);
    });
  }

  it('from a real listener on 127.0.0.1 that sends headers then trickles (runs when test/low-findings-trickle-server.mjs is up)', { timeout: 15_000 }, async (ctx) => {
    const up = await fetch(`${TRICKLE}/ping`, { signal: AbortSignal.timeout(3000) }).then((r) => r.text()).catch((err) => (console.log('trickle listener not reached:', String(err)), null));
    if (up !== 'pong') {
      console.log('trickle listener answered:', up);
      return ctx.skip();
    }
    const t0 = performance.now();
    const err = await failure(fetchFileUrl(`${TRICKLE}/slow.pdf`, 'file_url', 10_000_000, INSECURE, fetch, 1500));
    expect(err).toBeInstanceOf(FileUrlError);
    expect(err.message).toMatch(/^file_url: the link did not send its file within 1\.5 s/);
    expect(performance.now() - t0).toBeLessThan(6000);
  });
});
