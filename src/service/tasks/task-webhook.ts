/**
 * A task's webhook outbox: the delivery queued when the task ends (its body fixed then), and each
 * attempt the task's alarm makes, signed with the account's current secret. webhook.ts signs and
 * sends and knows no storage; this reads the task's state and the account's secret, and TaskObject
 * (task-object.ts) saves what changed.
 */
import type { Env } from '../env';
import { config } from '../env';
import { newId } from '../../lib/ids';
import { iso } from '../../lib/time';
import { deliverOnce, nextAttemptAt } from './webhook';
import type { TaskState } from './types';

/** The outbox of a task that has just ended, its first attempt due `now`. */
export function queueWebhook(state: TaskState, event: 'task.done' | 'task.failed', extra: Record<string, string>, now: number): void {
  const body = JSON.stringify({
    event,
    task_id: state.task_id,
    operation_type: state.operation_type,
    status: state.status,
    timestamp: iso(now),
    ...extra,
  });
  state.webhook = { url: state.webhook_url!, delivery_id: newId('dlv'), event, body, attempts: 0, next_at: now, last_result: null };
}

/** One webhook attempt, signed with the account's current secret (a reissued secret applies at once). */
export async function attemptWebhook(env: Env, state: TaskState): Promise<void> {
  const outbox = state.webhook!;
  const account = await env.DB.prepare('SELECT webhook_secret FROM accounts WHERE id = ?').bind(state.account_id).first<{ webhook_secret: string }>();
  const cfg = config(env);
  const { ok, result, permanent } = await deliverOnce(outbox, account?.webhook_secret ?? '', { allowInsecure: cfg.allowInsecureUrls });
  outbox.attempts += 1;
  outbox.last_result = result;
  outbox.next_at = ok || permanent ? null : nextAttemptAt(outbox.attempts, cfg.webhookRetryDelays, Date.now());
  console.log(
    JSON.stringify({ event: 'webhook_attempt', task_id: state.task_id, delivery_id: outbox.delivery_id, attempt: outbox.attempts, ok, result, gave_up: !ok && outbox.next_at === null }),
  );
}
