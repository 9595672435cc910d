import type { Env } from './env';
import { sweepExpiredFiles } from './storage/files';
import { sweepIdempotencyKeys } from './middleware/idempotency';

/**
 * Cron sweep: deletes expired uploads, and asks task objects whose result expired to delete it
 * (their alarms normally do it on time; this catches anything an alarm missed), and drops
 * Idempotency-Keys older than 24 hours.
 */
export async function sweep(env: Env, now = Date.now()): Promise<{ files: number; results: number; idempotencyKeys: number }> {
  let files = 0;
  for (let n = -1; n !== 0; ) files += n = await sweepExpiredFiles(env, now);
  const due = await env.DB.prepare(
    'SELECT task_id FROM operations WHERE result_key IS NOT NULL AND result_deleted_at IS NULL AND result_expires_at <= ? LIMIT 500',
  )
    .bind(now)
    .all<{ task_id: string }>();
  await Promise.all(due.results.map((r) => env.TASK.get(env.TASK.idFromName(r.task_id)).expireIfDue()));
  const idempotencyKeys = await sweepIdempotencyKeys(env.DB, now);
  return { files, results: due.results.length, idempotencyKeys };
}
