/**
 * What the steps of a long task hand on to each other (to-jpg's pages rendered so far): R2 objects
 * under the task's own prefix (contracts/scratch.ts), deleted by the task object when the task ends.
 */
import type { Env } from '../env';
import type { Scratch } from '../../contracts/operation';
import { scratchKey, scratchPrefix } from '../../contracts/scratch';

export { scratchKey } from '../../contracts/scratch';

export function scratchOf(env: Env, taskId: string): Scratch {
  return {
    put: async (name, bytes) => void (await env.FILES.put(scratchKey(taskId, name), bytes)),
    get: async (name) => (await env.FILES.get(scratchKey(taskId, name)))?.body ?? null,
  };
}

export async function clearScratch(files: R2Bucket, taskId: string): Promise<void> {
  for (let cursor: string | undefined, more = true; more; ) {
    const listed = await files.list({ prefix: scratchPrefix(taskId), cursor });
    if (listed.objects.length) await files.delete(listed.objects.map((o) => o.key));
    more = listed.truncated;
    cursor = listed.truncated ? listed.cursor : undefined;
  }
}
