/**
 * The Office → PDF Worker (workers/office/wrangler.toml): the Word converter (spreadsheets and
 * slides to come) behind the task engine's RPC method `run` (service/tasks/run-job.ts), for every
 * operation whose engine is 'office'. Its one binding is FONTS, the faces as static assets, read
 * when a document needs them (fonts/face-shelf.ts). The API Worker's consumer streams it a task's
 * inputs and stores what it makes.
 */
import { taskEngine } from '../service/tasks/run-job';
import { operationsOf } from '../operations/runs';

export const OfficeEngine = taskEngine(operationsOf('office'));

export default {
  fetch: () => new Response('The Office Worker answers its RPC binding only.', { status: 404 }),
} satisfies ExportedHandler;
