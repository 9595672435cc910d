/**
 * The convert Worker (workers/convert/wrangler.toml): consumes the `pdf-edge-convert` queue, the
 * tasks of operations whose engine is 'convert' (word-to-pdf), with the same task runner as the
 * API Worker's consumer (src/tasks/consumer.ts). It alone bundles the Word converter and its two
 * dozen font faces (about 5 MB compressed), which kept the API Worker at 99% of the 10 MiB limit.
 * It shares the API Worker's R2 bucket, D1 database and TaskObjects; a task it cannot finish goes
 * to the dead-letter queue the API Worker consumes.
 */
import type { Env } from '../env';
import { handleQueue, type Operations } from '../tasks/consumer';
import { wordToPdfWithConverter } from './word-to-pdf';
import { htmlToPdfWithLayout } from './html-to-pdf';

export const convertOperations: Operations = new Map([wordToPdfWithConverter, htmlToPdfWithLayout].map((op) => [op.path, op]));

export default {
  queue: (batch, env) => handleQueue(batch, env, convertOperations),
} satisfies ExportedHandler<Env>;
