/**
 * Webhook deliveries of SPEC "Events": the signed POST that reports the end of a task. The task's
 * Durable Object keeps the outbox (delivery id, attempts, next attempt) and its alarm calls
 * `deliverOnce`; this module knows nothing about storage.
 */
import { outboundUrlProblem, type UrlPolicy } from '../../lib/outbound-url';

export interface WebhookOutbox {
  url: string;
  /** Same for every attempt: receivers drop duplicates by it (X-Service-Delivery). */
  delivery_id: string;
  event: 'task.done' | 'task.failed';
  /** The exact JSON body, fixed at the task's end; only the signature changes per attempt. */
  body: string;
  attempts: number;
  next_at: number | null;
  /** The last attempt's outcome, for the log. */
  last_result: string | null;
}

const encoder = new TextEncoder();

/** Hex HMAC-SHA256 of `<t>.<body>` keyed with the secret's UTF-8 bytes. */
export async function sign(secret: string, t: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${t}.${body}`)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

export const ATTEMPT_TIMEOUT_MS = 10_000;

/**
 * One attempt. Only a 2xx answer is success; redirects are not followed (they count as failure);
 * no answer within 10 s is a failure. Never throws.
 */
export async function deliverOnce(outbox: WebhookOutbox, secret: string, policy: UrlPolicy, now = Date.now()): Promise<{ ok: boolean; result: string; permanent?: boolean }> {
  // Checked again right before connecting: the guard may have tightened since the request.
  const refused = outboundUrlProblem(outbox.url, policy);
  if (refused) return { ok: false, result: `not sent: the URL ${refused}`, permanent: true };
  const t = Math.floor(now / 1000);
  try {
    const res = await fetch(outbox.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'pdf-edge-webhooks/1.0',
        'x-service-event': outbox.event,
        'x-service-delivery': outbox.delivery_id,
        'x-service-signature': `t=${t},v1=${await sign(secret, t, outbox.body)}`,
      },
      body: outbox.body,
    });
    await res.body?.cancel();
    return { ok: res.status >= 200 && res.status < 300, result: `HTTP ${res.status}` };
  } catch (err) {
    return { ok: false, result: (err as Error)?.name === 'TimeoutError' ? 'timeout after 10 s' : `network error: ${String(err)}` };
  }
}

/** After attempt number `attempts` failed: when to try again, or null when the retries are spent. */
export function nextAttemptAt(attempts: number, delaysSeconds: number[], now: number): number | null {
  const delay = delaysSeconds[attempts - 1];
  return delay === undefined ? null : now + delay * 1000;
}
