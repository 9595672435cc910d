/**
 * The test Worker: the API Worker (src/index.ts) with the OCR Worker's queue handler (src/ocr/worker.ts)
 * on the OCR queue, so a test runs an OCR task through both Workers' real code, real queues, R2 and
 * Durable Objects in one workerd. In production they are two Workers (wrangler.toml, workers/ocr/).
 */
import api from '../../src/index';
import ocr, { type OcrEnv } from '../../src/ocr/worker';
import type { Env } from '../../src/env';

export { TaskObject, RateLimiter } from '../../src/index';

export default {
  ...api,
  queue: (batch, env) => (batch.queue === 'pdf-edge-ocr' ? ocr.queue(batch, env as unknown as OcrEnv) : api.queue(batch, env)),
} satisfies ExportedHandler<Env>;
