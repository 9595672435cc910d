// npm run test:e2e: a data: WOFF2 font through html-to-pdf on the running service (npm start, all
// Workers), as a user gets it. WOFF2 needs Brotli and the format's glyf/loca/hmtx transforms
// undone (src/fonts/woff2.ts); the fixture is Carlito (OFL) packed by Google's woff2 encoder.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as mupdf from 'mupdf';
import { startService, stopAll } from '../../scripts/bench/service.mjs';
import * as api from '../../scripts/bench/api.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let svc;

before(async () => {
  const state = mkdtempSync(join(tmpdir(), 'e2e-woff2-'));
  svc = await startService({ root, logPath: join(state, 'service.log'), extraArgs: ['--persist-to', join(state, 'state')] });
});

after(async () => {
  await svc?.stop();
  await stopAll();
});

test('a data: WOFF2 font is unpacked and used: the text in that face, extracting as written', async () => {
  const woff2 = readFileSync(join(root, 'test', 'fixtures', 'fonts', 'carlito-regular.woff2')).toString('base64');
  const html = `<style>@font-face { font-family: Woff2 Face; src: url(data:font/woff2;base64,${woff2}) format('woff2') } p { font-family: Woff2 Face }</style><p>Action draft fit ÀÉ Жук</p>`;
  const { apiKey } = await api.createAccount(svc, `woff2-${Date.now()}@example.com`, { balance: '10.00' });
  const form = new FormData();
  form.append('file', new Blob([html], { type: 'text/html' }), 'woff2.html');
  const up = await fetch(`${svc.base}/v1/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form }).then((r) => r.json());
  const rec = await api.waitTask(svc, apiKey, await api.submit(svc, apiKey, 'html-to-pdf', { file_id: up.file_id }));
  assert.equal(rec.status, 'done', rec.error_message);
  const doc = mupdf.Document.openDocument(await api.download(rec.download_url), 'application/pdf');
  const line = JSON.parse(doc.loadPage(0).toStructuredText().asJSON()).blocks[0].lines[0];
  // The face's own name (the finisher's subsetter writes its PostScript name, Carlito-Regular) or the
  // page's name for it; without the face the text would be in the serif default (Tinos).
  assert.match(line.font.name, /Woff2 Face|Carlito/);
  assert.doesNotMatch(line.font.name, /Tinos/);
  assert.equal(line.text.trim(), 'Action draft fit ÀÉ Жук');
});
