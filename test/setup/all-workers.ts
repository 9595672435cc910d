/**
 * The test Worker: the API Worker (src/index.ts) with the engine Workers' entrypoints beside it
 * (src/pdf/, src/convert/, src/ocr/), which its service bindings reach over real RPC
 * (vitest.config.ts binds them to this Worker's own exports), so a test runs a task through every
 * Worker's real code, real queues, D1, R2 and Durable Objects in one workerd. In production they
 * are five Workers (wrangler.toml, workers/*).
 */
import api from '../../src/index';

export { TaskObject, RateLimiter } from '../../src/index';
export { PdfEngine } from '../../src/pdf/worker';
export { PdfInspector } from '../../src/pdf/inspect-worker';
export { ConvertEngine } from '../../src/convert/worker';
export { OcrEngine } from '../../src/ocr/worker';

export default api;
