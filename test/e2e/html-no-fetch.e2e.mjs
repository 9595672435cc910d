// npm run test:e2e: html-to-pdf fetches nothing. A listener on 127.0.0.1 stands in for every
// outside server; a page points at it from every place a browser would load from (images,
// srcset, style sheets, @import, CSS url(), fonts, frames, objects, scripts, meta refresh,
// protocol-relative and file: URLs) and is converted through the running service (npm start, all
// Workers). The PDF must carry the page's text and the listener must have heard nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as mupdf from 'mupdf';
import { startService, stopAll } from '../../scripts/bench/service.mjs';
import * as api from '../../scripts/bench/api.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let svc, listener;
const requests = [];

before(async () => {
  listener = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.end('');
  });
  await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const state = mkdtempSync(join(tmpdir(), 'e2e-html-'));
  svc = await startService({ root, logPath: join(state, 'service.log'), extraArgs: ['--persist-to', join(state, 'state')] });
});

after(async () => {
  await svc?.stop();
  await stopAll();
  listener?.close();
});

function pageFullOfReferences(origin) {
  const host = origin.replace(/^http:/, '');
  return `<!doctype html><html><head>
<meta http-equiv="refresh" content="0; url=${origin}/refresh">
<link rel="stylesheet" href="${origin}/link.css"><link rel="preload" href="${origin}/preload.js" as="script">
<link rel="icon" href="${origin}/favicon.ico">
<style>
@import url("${origin}/import.css"); @import "${host}/import-relative.css";
@font-face { font-family: Remote; src: url("${origin}/font.woff2") format("woff2"), url(file:///etc/fonts/x.ttf) }
body { background: url(${origin}/body-bg.png) }
.box { background-image: url('${host}/box-bg.png'); font-family: Remote, sans-serif; list-style-image: url(${origin}/bullet.png) }
.box::before { content: url(${origin}/before.png) }
</style>
<script src="${origin}/script.js"></script><script>fetch("${origin}/inline-fetch"); new Image().src = "${origin}/script-image";</script>
</head><body background="${origin}/body-attr.png">
<h1>Nothing is fetched</h1>
<img src="${origin}/img.png" srcset="${origin}/img-2x.png 2x, ${host}/img-3x.png 3x" alt="remote">
<picture><source srcset="${origin}/picture.webp"><img src="file:///etc/passwd"></picture>
<img src="${host}/protocol-relative.png"><input type="image" src="${origin}/input.png">
<video poster="${origin}/poster.png" src="${origin}/video.mp4"></video><audio src="${origin}/audio.mp3"></audio>
<iframe src="${origin}/frame.html"></iframe><object data="${origin}/object.pdf"></object><embed src="${origin}/embed.swf">
<svg width="20" height="20"><image href="${origin}/svg-image.png" width="20" height="20"/><use href="${origin}/sprite.svg#a"/></svg>
<div class="box" style="background: url(${origin}/inline-style.png)">Styled box text</div>
<table background="${origin}/table-bg.png"><tr><td background="${origin}/cell-bg.png">Cell text</td></tr></table>
<a href="${origin}/linked">A link is kept, not followed</a>
</body></html>`;
}

test('a page full of external references converts, and no request reaches the listener', async () => {
  const origin = `http://127.0.0.1:${listener.address().port}`;
  const { apiKey } = await api.createAccount(svc, `nofetch-${Date.now()}@example.com`, { balance: '10.00' });
  const form = new FormData();
  form.append('file', new Blob([pageFullOfReferences(origin)], { type: 'text/html' }), 'references.html');
  const up = await fetch(`${svc.base}/v1/upload`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form }).then((r) => r.json());
  assert.ok(up.file_id, JSON.stringify(up));
  const rec = await api.waitTask(svc, apiKey, await api.submit(svc, apiKey, 'html-to-pdf', { file_id: up.file_id }));
  assert.equal(rec.status, 'done', rec.error_message);
  const pdf = await api.download(rec.download_url);
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  assert.equal(doc.countPages(), 1);
  const page = doc.loadPage(0);
  const text = page.toStructuredText().asText();
  for (const shown of ['Nothing is fetched', 'Styled box text', 'Cell text', 'A link is kept, not followed']) assert.ok(text.includes(shown), `"${shown}" in ${JSON.stringify(text)}`);
  assert.deepEqual(page.getLinks().map((l) => l.getURI()), [`${origin}/linked`], 'the link is kept as a PDF link, not followed');
  await new Promise((resolve) => setTimeout(resolve, 1500)); // anything late would have arrived by now
  assert.deepEqual(requests, []);
});
