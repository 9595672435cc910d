import type { Env } from '../service/env';
import { config } from '../service/env';
import { refundTask } from '../service/billing/charge';
import { sweepExpiredFiles } from '../service/storage/files';
import { sweepIdempotencyKeys } from './middleware/idempotency';
import type { Reconciled } from '../service/tasks/task-object';

/** How long past TASK_WATCHDOG_SECONDS a history row may stay open before the sweep asks its task object. */
export const RECONCILE_MARGIN_MS = 5 * 60_000;
const BATCH = 200;

export interface SweepReport {
  files: number;
  results: number;
  idempotencyKeys: number;
  /** History rows failed and not refunded that were refunded (by their task object or here). */
  refunds: number;
  /** Open history rows long past the watchdog whose task object was asked to reconcile, by what it found. */
  reconciled: Partial<Record<Reconciled | 'error', number>>;
}

/**
 * Cron sweep (every 5 minutes): deletes expired uploads, asks task objects whose result expired to
 * delete it (their alarms normally do it on time; this catches anything an alarm missed), drops
 * Idempotency-Keys older than 24 hours, and is the safety net for money: history rows failed and
 * not refunded are refunded, and rows still queued/processing long past the watchdog
 * (TASK_WATCHDOG_SECONDS + RECONCILE_MARGIN_MS) get their task object asked to reconcile (it
 * fails and refunds a task past its own watchdog, retries a pending refund, or writes a done
 * task's row again). A row whose task object does not exist (the request died between charge
 * and task creation) can never run: it is failed and refunded here. Refunds are exactly once
 * whoever asks (refundTask flips operations.refunded 0 → 1 in the batch that moves the money).
 */
export async function sweep(env: Env, now = Date.now()): Promise<SweepReport> {
  let files = 0;
  for (let n = -1; n !== 0; ) files += n = await sweepExpiredFiles(env, now);
  const stub = (taskId: string) => env.TASK.get(env.TASK.idFromName(taskId));
  const due = await env.DB.prepare(
    'SELECT task_id FROM operations WHERE result_key IS NOT NULL AND result_deleted_at IS NULL AND result_expires_at <= ? LIMIT 500',
  )
    .bind(now)
    .all<{ task_id: string }>();
  await Promise.all(due.results.map((r) => stub(r.task_id).expireIfDue()));
  const idempotencyKeys = await sweepIdempotencyKeys(env.DB, now);

  // Failed and not refunded: the task object refunds (its view then says refunded, its webhook goes
  // out); should it be gone or not answer, the row is refunded here all the same. (A pending refund
  // the object could not write now stays with its alarm and the next sweep.)
  const unrefunded = await env.DB.prepare("SELECT task_id FROM operations WHERE status = 'failed' AND refunded = 0 ORDER BY created_at LIMIT ?")
    .bind(BATCH)
    .all<{ task_id: string }>();
  let refunds = 0;
  await Promise.all(
    unrefunded.results.map(async ({ task_id }) => {
      const outcome = await stub(task_id).reconcile().catch(() => 'error' as const);
      if (outcome === 'refunded') refunds += 1;
      // No object, or none answering: the row says failed, so its money goes back here.
      else if ((outcome === 'missing' || outcome === 'error') && (await refundTask(env.DB, task_id).catch(() => false))) refunds += 1;
    }),
  );

  const watchdogMs = config(env).taskWatchdogSeconds * 1000;
  const open = await env.DB.prepare("SELECT task_id FROM operations WHERE status IN ('queued', 'processing') AND created_at <= ? ORDER BY created_at LIMIT ?")
    .bind(now - watchdogMs - RECONCILE_MARGIN_MS, BATCH)
    .all<{ task_id: string }>();
  const reconciled: SweepReport['reconciled'] = {};
  await Promise.all(
    open.results.map(async ({ task_id }) => {
      let outcome: Reconciled | 'error' = await stub(task_id).reconcile().catch(() => 'error' as const);
      if (outcome === 'missing') {
        // No task object: nothing will ever run this task. The row is failed and refunded.
        outcome = (await refundTask(env.DB, task_id).then(
          () => true,
          () => false,
        ))
          ? 'refunded'
          : 'error';
      }
      reconciled[outcome] = (reconciled[outcome] ?? 0) + 1;
    }),
  );
  if (unrefunded.results.length || open.results.length) console.log(JSON.stringify({ event: 'sweep_reconcile', refunds, reconciled }));
  return { files, results: due.results.length, idempotencyKeys, refunds, reconciled };
}
