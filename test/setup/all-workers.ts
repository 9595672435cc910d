/**
 * The test Worker: the API Worker (src/index.ts) with the convert and OCR Workers' queue handlers
 * (src/convert/worker.ts, src/ocr/worker.ts) on their queues, so a test runs a task through every
 * Worker's real code, real queues, D1, R2 and Durable Objects in one workerd. In production they are
 * three Workers (wrangler.toml, workers/convert/, workers/ocr/).
 */
import api from '../../src/index';
import ocr, { type OcrEnv } from '../../src/ocr/worker';
import convert from '../../src/convert/worker';
import type { Env } from '../../src/env';

export { TaskObject, RateLimiter } from '../../src/index';

export default {
  ...api,
  queue: (batch, env) =>
    batch.queue === 'pdf-edge-ocr' ? ocr.queue(batch, env as unknown as OcrEnv) : batch.queue === 'pdf-edge-convert' ? convert.queue(batch, env) : api.queue(batch, env),
} satisfies ExportedHandler<Env>;
