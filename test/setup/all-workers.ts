/**
 * The test Worker: the API Worker (src/workers/api.ts) with the engine Workers' entrypoints beside it
 * (src/workers/pdf.ts, inspect.ts, convert.ts, ocr.ts), which its service bindings reach over real RPC
 * (vitest.config.ts binds them to this Worker's own exports), so a test runs a task through every
 * Worker's real code, real queues, D1, R2 and Durable Objects in one workerd. In production they
 * are five Workers (wrangler.toml, workers/*).
 */
import api from '../../src/workers/api';

export { TaskObject, RateLimiter } from '../../src/workers/api';
export { PdfEngine } from '../../src/workers/pdf';
export { PdfInspector } from '../../src/workers/inspect';
export { ConvertEngine } from '../../src/workers/convert';
export { OcrEngine } from '../../src/workers/ocr';

export default api;
