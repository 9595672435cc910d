import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/**
 * Tesseract's models (ocr-data/*.traineddata), which wrangler bundles as Data modules, as modules
 * exporting their bytes, for the test Worker that includes the OCR Worker's code; and the font
 * faces, for the tests that lay out with every face at hand (src/fonts/bundled.ts; the Workers
 * themselves read them from their FONTS assets).
 */
const trainedDataModules: Plugin = {
  name: 'traineddata-and-faces-as-bytes',
  // Before Vite's own asset handling, which would make a .ttf a URL.
  enforce: 'pre',
  load(id) {
    if (!id.endsWith('.traineddata') && !id.endsWith('.ttf')) return null;
    const base64 = readFileSync(id).toString('base64');
    return `const s = atob(${JSON.stringify(base64)}); const b = new Uint8Array(s.length); for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i); export default b.buffer;`;
  },
};

function refuseOutsideLoopback(request: Request): Promise<Response> | Response {
  const host = new URL(request.url).hostname.replace(/^\[|\]$/g, '');
  if (/^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1') return fetch(request);
  return new Response(`test network refuses ${host}: only loopback addresses are reachable`, { status: 502 });
}

// Tests run inside workerd with the real local bindings of wrangler.toml (D1, R2, Queues, DOs).
export default defineConfig(async () => ({
  plugins: [
    trainedDataModules,
    cloudflareTest({
      wrangler: { configPath: './wrangler.toml' },
      // The API Worker with the engine Workers' entrypoints, which its service bindings reach on itself.
      main: './test/setup/all-workers.ts',
      miniflare: {
        // The last gate before the network: a fetch the test's own interception no longer catches (a webhook
        // retried after its test ended) is answered here, so nothing leaves 127.0.0.0/8 and ::1, not even a DNS query.
        outboundService: refuseOutsideLoopback,
        queueConsumers: {
          'pdf-edge-tasks': { maxBatchSize: 1, maxBatchTimeout: 0, maxRetries: 3, deadLetterQueue: 'pdf-edge-tasks-dead' },
          'pdf-edge-tasks-dead': { maxBatchSize: 10, maxBatchTimeout: 1 },
          'pdf-edge-ocr': { maxBatchSize: 1, maxBatchTimeout: 0, maxRetries: 3, deadLetterQueue: 'pdf-edge-tasks-dead' },
          'pdf-edge-convert': { maxBatchSize: 1, maxBatchTimeout: 0, maxRetries: 3, deadLetterQueue: 'pdf-edge-tasks-dead' },
        },
        serviceBindings: {
          PDF_ENGINE: { name: 'pdf-edge', entrypoint: 'PdfEngine' },
          OFFICE_ENGINE: { name: 'pdf-edge', entrypoint: 'OfficeEngine' },
          HTML_ENGINE: { name: 'pdf-edge', entrypoint: 'HtmlEngine' },
          OCR_ENGINE: { name: 'pdf-edge', entrypoint: 'OcrEngine' },
          PDF_INSPECTOR: { name: 'pdf-edge', entrypoint: 'PdfInspector' },
        },
        // The engines' FONTS binding: the folder the engine Workers serve as static assets (scripts/fonts-assets.mjs).
        assets: { directory: './.fonts', binding: 'FONTS', routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: true } },
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations('./migrations'),
          ADMIN_TOKEN: 'test-admin-token',
          // Short lifetimes so expiry and cleanup can be observed in a test.
          FILE_TTL_SECONDS: '3600',
          RESULT_TTL_SECONDS: '3600',
          DOWNLOAD_URL_TTL_SECONDS: '3600',
          FREE_CLEANUP_SECONDS: '1',
          RATE_LIMIT_PER_SECOND: '20',
          RATE_LIMIT_BURST: '40',
          WEBHOOK_RETRY_DELAYS: '1,1,1',
          // The dashboard's self-service sign-up is tested open (and closed, with the variable overridden).
          SIGNUP_ENABLED: 'true',
          // As npm start runs it: nobody in front of the test Worker sets CF-Connecting-IP.
          TRUST_CLIENT_IP_HEADER: 'false',
        },
      },
    }),
  ],
  resolve: {
    // mupdf's package exports hide the .wasm file from Vite's resolver; wrangler (esbuild) resolves it directly.
    alias: { 'mupdf/dist/mupdf-wasm.wasm': fileURLToPath(new URL('./node_modules/mupdf/dist/mupdf-wasm.wasm', import.meta.url)) },
  },
  // Binary test fixtures (.doc, .docx) are imported as base64 data URLs with `?inline`.
  assetsInclude: ['**/*.doc', '**/*.docx'],
  test: {
    include: ['test/**/*.test.ts'],
    isolate: false,
    setupFiles: ['./test/setup/apply-migrations.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
}));
