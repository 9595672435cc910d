/**
 * The test Worker: the API Worker (src/workers/api.ts) with the engine Workers' entrypoints beside it
 * (src/workers/pdf.ts, inspect.ts, office.ts, html.ts, ocr.ts), which its service bindings reach over
 * real RPC (vitest.config.ts binds them to this Worker's own exports), so a test runs a task through
 * every Worker's real code, real queues, D1, R2 and Durable Objects in one workerd. The engines'
 * FONTS binding is this Worker's static assets, the same .fonts/ folder the engine Workers serve.
 * In production they are six Workers (wrangler.toml, workers/*).
 */
import api from '../../src/workers/api';

export { TaskObject, RateLimiter } from '../../src/workers/api';
export { PdfEngine } from '../../src/workers/pdf';
export { PdfInspector } from '../../src/workers/inspect';
export { OfficeEngine } from '../../src/workers/office';
export { HtmlEngine } from '../../src/workers/html';
export { OcrEngine } from '../../src/workers/ocr';

export default api;
