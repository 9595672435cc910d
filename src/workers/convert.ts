/**
 * The convert Worker (workers/convert/wrangler.toml): the document converters (Word, HTML) with
 * their bundled font faces, behind the task engine's RPC method `run` (tasks/run-job.ts). It
 * has no bindings: the API Worker's consumer streams it a task's inputs and stores what it makes.
 * It alone bundles the Word converter and its two dozen font faces (about 5 MB compressed).
 */
import { taskEngine } from '../service/tasks/run-job';
import { wordToPdfWithConverter } from '../operations/runs/word-to-pdf';
import { htmlToPdfWithLayout } from '../operations/runs/html-to-pdf';
import type { Operations } from '../service/tasks/run-job';

export const convertOperations: Operations = new Map([wordToPdfWithConverter, htmlToPdfWithLayout].map((op) => [op.path, op]));

export const ConvertEngine = taskEngine(convertOperations);

export default {
  fetch: () => new Response('The convert Worker answers its RPC binding only.', { status: 404 }),
} satisfies ExportedHandler;
