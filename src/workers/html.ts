/**
 * The HTML → PDF Worker (workers/html/wrangler.toml): the HTML converter (MuPDF's HTML layout with
 * our rewriting) behind the task engine's RPC method `run` (service/tasks/run-job.ts), for every
 * operation whose engine is 'html'. Its one binding is FONTS, the faces as static assets, read
 * when a page names them (fonts/face-shelf.ts). The API Worker's consumer streams it a task's
 * inputs and stores what it makes.
 */
import { taskEngine } from '../service/tasks/run-job';
import { operationsOf } from '../operations/runs';

export const HtmlEngine = taskEngine(operationsOf('html'));

export default {
  fetch: () => new Response('The HTML Worker answers its RPC binding only.', { status: 404 }),
} satisfies ExportedHandler;
