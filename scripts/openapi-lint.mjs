#!/usr/bin/env node
// npm run lint:openapi: the OpenAPI document the service serves at /v1/openapi.json
// (src/api/openapi.ts, generated from the operations' zod schemas), checked by an independent linter,
// Redocly's (`@redocly/cli lint`, its recommended rules; redocly.yaml). The document is built here
// by bundling src/api/openapi.ts for Node as the Word converter is bundled, so no service has to run.
// Exits non-zero on any error or warning.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { NODE_BUNDLE_OPTIONS, root } from './lib/word-converter.mjs';

// Inside node_modules/.cache: the bundle imports mupdf (left external) from node_modules.
mkdirSync(join(root, 'node_modules', '.cache', 'pdf-edge'), { recursive: true });
const dir = mkdtempSync(join(root, 'node_modules', '.cache', 'pdf-edge', 'openapi-'));
try {
  const bundle = join(dir, 'openapi.mjs');
  // MuPDF is never run to describe the API: its imports become an empty module.
  const noMupdf = {
    name: 'no-mupdf',
    setup(b) {
      b.onResolve({ filter: /^mupdf(\/|$)/ }, (a) => ({ path: a.path, namespace: 'no-mupdf' }));
      b.onLoad({ filter: /.*/, namespace: 'no-mupdf' }, () => ({ contents: 'export default undefined;', loader: 'js' }));
    },
  };
  await build({ ...NODE_BUNDLE_OPTIONS, external: [], plugins: [noMupdf], entryPoints: [join(root, 'src', 'api', 'openapi.ts')], absWorkingDir: root, outfile: bundle, logLevel: 'silent' });
  const { openApiDocument } = await import(pathToFileURL(bundle).href);
  const doc = join(dir, 'openapi.json');
  // The served document names the origin it is served from; a deployed Worker's looks like this.
  writeFileSync(doc, JSON.stringify(openApiDocument('https://pdf-edge.workers.dev'), null, 1));
  const r = spawnSync(join(root, 'node_modules', '.bin', 'redocly'), ['lint', doc, '--config', join(root, 'redocly.yaml'), '--max-problems', '200'], {
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  process.stdout.write(out);
  // Redocly exits 0 on warnings; the bar here is 0 errors and 0 warnings.
  const warnings = Number(/You have (\d+) warnings?/.exec(out)?.[1] ?? 0);
  if (r.status !== 0 || warnings > 0) {
    console.error(`lint:openapi: ${r.status !== 0 ? 'errors' : `${warnings} warning(s)`}: fix src/api/openapi.ts`);
    process.exitCode = 1;
  } else console.log('lint:openapi: 0 errors, 0 warnings');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
