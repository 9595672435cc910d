/**
 * The PDF Worker (workers/pdf/wrangler.toml): MuPDF and the page operations (every operation whose
 * engine is 'pdf'), behind the task engine's RPC method `run` (service/tasks/run-job.ts). It has no
 * bindings: the API Worker's consumer streams it a task's inputs and stores what it makes, so the
 * API Worker never loads MuPDF and no PDF it works on can make an HTTP request wait.
 */
import { taskEngine } from '../service/tasks/run-job';
import { operationsOf } from '../operations/runs';

export const PdfEngine = taskEngine(operationsOf('pdf'));

export default {
  fetch: () => new Response('The PDF Worker answers its RPC binding only.', { status: 404 }),
} satisfies ExportedHandler;
