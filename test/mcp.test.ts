/**
 * POST /mcp driven by the official MCP SDK client (Streamable HTTP) against the Worker itself.
 * The files agents link to are served by a watched fetch on a public-looking https host: nothing
 * leaves this machine, and the guard's refusals are checked without connecting anywhere.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SELF } from 'cloudflare:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BASE, balanceOf, download, inspect, markerPdf, newAccount, type TestAccount } from './helpers';
import { damagedPdf } from './fixtures';
import { halfTransparentPng, near, renderedPage } from './image-fixtures';

const FILES = 'https://files.example.test';
let served: Record<string, Uint8Array> = {};
let redirects: Record<string, string> = {};
let fetched: string[] = [];

beforeEach(() => {
  served = {};
  redirects = {};
  fetched = [];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new Request(input as RequestInfo, init).url;
    if (!url.startsWith(FILES)) return realFetch(input as RequestInfo, init);
    fetched.push(url);
    const path = new URL(url).pathname;
    if (redirects[path]) return new Response(null, { status: 302, headers: { location: redirects[path]! } });
    const bytes = served[path];
    return bytes ? new Response(bytes, { headers: { 'content-type': 'application/octet-stream' } }) : new Response('not here', { status: 404 });
  });
});
afterEach(() => vi.restoreAllMocks());

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'pdf-edge-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), { requestInit: { headers }, fetch: (url, init) => SELF.fetch(url as string, init) });
  await client.connect(transport);
  return client;
}

type ToolResult = Awaited<ReturnType<Client['callTool']>>;
const textOf = (r: ToolResult) => (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
const jsonOf = (r: ToolResult) => {
  expect(r.isError, textOf(r)).toBeFalsy();
  return JSON.parse((r.content as { text: string }[])[0]!.text) as Record<string, unknown>;
};

describe('MCP tools', () => {
  let acct: TestAccount;
  beforeEach(async () => {
    acct = await newAccount({ balance: '10.00' });
  });

  it('lists one tool per operation with links for ids and wait_seconds, plus get_task, get_balance, get_pricing', async () => {
    const client = await connect({ 'x-api-key': acct.secret });
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['rotate_pdf', 'merge_pdfs', 'split_pdf', 'delete_pages', 'extract_pages', 'reorder_pages', 'pdf_to_txt', 'word_to_pdf', 'get_task', 'get_balance', 'get_pricing']) {
      expect(byName.has(name), name).toBe(true);
    }
    const rotate = byName.get('rotate_pdf')!.inputSchema.properties as Record<string, { enum?: unknown[]; anyOf?: unknown[] }>;
    expect(Object.keys(rotate)).toEqual(expect.arrayContaining(['file_url', 'angle', 'pages', 'wait_seconds']));
    expect(rotate).not.toHaveProperty('file_id');
    expect(byName.get('rotate_pdf')!.inputSchema.required).toContain('file_url');
    const merge = byName.get('merge_pdfs')!.inputSchema.properties as Record<string, { maxItems?: number }>;
    expect(merge['file_urls']!.maxItems).toBe(20);
    expect(byName.get('rotate_pdf')!.description).toMatch(/1\.25 RUB/);
  });

  it('rotate_pdf with a file_url: the task record, done, its PDF rotated, paid as the HTTP call, in the history', async () => {
    served['/scan.pdf'] = await markerPdf(2, 'R');
    const client = await connect({ authorization: `Bearer ${acct.secret}` });
    const rec = jsonOf(await client.callTool({ name: 'rotate_pdf', arguments: { file_url: `${FILES}/scan.pdf`, angle: 90, wait_seconds: 60 } }));
    expect(fetched).toEqual([`${FILES}/scan.pdf`]);
    expect(rec).toMatchObject({ status: 'done', operation_type: 'rotate_pdf', charge: '1.25', filename: 'scan_service.pdf' });
    const out = await inspect(await download({ download_url: rec['download_url'] as string } as never));
    expect(out.rotations).toEqual([90, 90]);
    expect(await balanceOf(acct)).toBe('8.75');
    const history = await (await acct.api('/v1/account/operations')).json<{ items: { task_id: string; type: string }[] }>();
    expect(history.items).toContainEqual(expect.objectContaining({ task_id: rec['task_id'], type: 'rotate_pdf' }));
    const again = jsonOf(await client.callTool({ name: 'get_task', arguments: { task_id: rec['task_id'] } }));
    expect(again['status']).toBe('done');
    expect(jsonOf(await client.callTool({ name: 'get_balance', arguments: {} }))['balance']).toBe('8.75');
    expect((jsonOf(await client.callTool({ name: 'get_pricing', arguments: {} }))['page_rates'] as Record<string, number>)['ocr_pdf']).toBe(10);
  });

  it('a parameter the operation refuses is an error with the API\'s words, and nothing is fetched or charged', async () => {
    served['/a.pdf'] = await markerPdf(1, 'V');
    const client = await connect({ 'x-api-key': acct.secret });
    const r = await client.callTool({ name: 'rotate_pdf', arguments: { file_url: `${FILES}/a.pdf`, angle: 45 } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/angle must be one of 90, 180, 270/);
    expect(fetched).toEqual([]);
    expect(await balanceOf(acct)).toBe('10.00');
  });

  it('no money: 402 in words, with the price and the balance', async () => {
    const poor = await newAccount({ balance: '0.00' });
    served['/b.pdf'] = await markerPdf(1, 'P');
    const client = await connect({ 'x-api-key': poor.secret });
    const r = await client.callTool({ name: 'rotate_pdf', arguments: { file_url: `${FILES}/b.pdf` } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/price is 1\.25 RUB but the balance is 0\.00 RUB/);
  });

  it('a task that fails is an error carrying its error_message and its record, refunded', async () => {
    served['/broken.pdf'] = damagedPdf(await markerPdf(3, 'D'));
    const client = await connect({ 'x-api-key': acct.secret });
    const r = await client.callTool({ name: 'rotate_pdf', arguments: { file_url: `${FILES}/broken.pdf` } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/The task failed: The file is damaged/);
    expect(textOf(r)).toMatch(/"refunded":true/);
    expect(await balanceOf(acct)).toBe('10.00');
  });

  it('links the guard refuses, and links that fail, are errors that say what to fix; nothing connects', async () => {
    const client = await connect({ 'x-api-key': acct.secret });
    for (const [url, message] of [
      ['https://127.0.0.1:9443/x.pdf', /file_url must name a public Internet host \(127\.0\.0\.1 is a loopback/],
      ['https://169.254.169.254/latest/meta-data', /link-local/],
      ['http://files.example.com/x.pdf', /https:\/\//],
      [`${FILES}/missing.pdf`, /HTTP 404 \(not found\)/],
    ] as const) {
      const r = await client.callTool({ name: 'rotate_pdf', arguments: { file_url: url } });
      expect(r.isError, url).toBe(true);
      expect(textOf(r)).toMatch(message);
    }
    expect(fetched).toEqual([`${FILES}/missing.pdf`]);
    expect(await balanceOf(acct)).toBe('10.00');
  });

  it('merge_pdfs takes file_urls; a link to something that is not a PDF is refused by the upload, naming the link', async () => {
    served['/one.pdf'] = await markerPdf(1, 'A');
    served['/two.pdf'] = await markerPdf(2, 'B');
    served['/notes.rtf'] = new TextEncoder().encode('{\\rtf1 hello}');
    const client = await connect({ 'x-api-key': acct.secret });
    const rec = jsonOf(await client.callTool({ name: 'merge_pdfs', arguments: { file_urls: [`${FILES}/one.pdf`, `${FILES}/two.pdf`] } }));
    expect((await inspect(await download({ download_url: rec['download_url'] as string } as never))).markers).toEqual(['MARK-A-1', 'MARK-B-1', 'MARK-B-2']);
    const r = await client.callTool({ name: 'merge_pdfs', arguments: { file_urls: [`${FILES}/one.pdf`, `${FILES}/notes.rtf`] } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^file_urls\[1\]: .*RTF document/);
  });
});

describe('MCP watermark_pdf with image_url (issue 40)', () => {
  it('image_url is fetched through the guard, uploaded and used as image_file_id: the logo is on the page', async () => {
    const acct = await newAccount({ balance: '10.00' });
    served['/doc.pdf'] = await markerPdf(1, 'L');
    served['/logo.png'] = await halfTransparentPng(40, 20, [0, 0, 255]);
    const client = await connect({ 'x-api-key': acct.secret });
    const rec = jsonOf(await client.callTool({ name: 'watermark_pdf', arguments: { file_url: `${FILES}/doc.pdf`, image_url: `${FILES}/logo.png`, opacity: 1, angle: 0, scale: 0.5 } }));
    expect(fetched).toEqual([`${FILES}/doc.pdf`, `${FILES}/logo.png`]);
    expect(rec).toMatchObject({ status: 'done', operation_type: 'watermark_pdf' });
    // 150 pt wide on the 300 pt page, centred: its opaque (blue) right half covers x 150..225.
    const page = await renderedPage(await download({ download_url: rec['download_url'] as string } as never));
    expect(near(page.at(190 / 300, 0.5), [0, 0, 255]), String(page.at(190 / 300, 0.5))).toBe(true);
    expect(near(page.at(110 / 300, 0.5), [255, 255, 255]), String(page.at(110 / 300, 0.5))).toBe(true);
  });

  it('image_url and text together, or neither, are refused before anything is fetched; a refused image_url names image_url', async () => {
    const acct = await newAccount({ balance: '10.00' });
    served['/doc.pdf'] = await markerPdf(1, 'L');
    const client = await connect({ 'x-api-key': acct.secret });
    const both = await client.callTool({ name: 'watermark_pdf', arguments: { file_url: `${FILES}/doc.pdf`, image_url: `${FILES}/logo.png`, text: 'DRAFT' } });
    expect(both.isError).toBe(true);
    expect(textOf(both)).toMatch(/exactly one of text and image_url/);
    const neither = await client.callTool({ name: 'watermark_pdf', arguments: { file_url: `${FILES}/doc.pdf` } });
    expect(textOf(neither)).toMatch(/exactly one of text and image_url/);
    expect(fetched).toEqual([]);
    const guarded = await client.callTool({ name: 'watermark_pdf', arguments: { file_url: `${FILES}/doc.pdf`, image_url: 'https://169.254.169.254/logo.png' } });
    expect(textOf(guarded)).toMatch(/^image_url must name a public Internet host/);
    expect(await balanceOf(acct)).toBe('10.00');
  });
});

describe('POST /mcp', () => {
  it('no key or a wrong key is 401 before any MCP processing; GET is 405', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
    const post = (headers: Record<string, string>) => SELF.fetch(`${BASE}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(init) });
    expect((await post({})).status).toBe(401);
    expect((await post({ 'x-api-key': 'sk_wrong' })).status).toBe(401);
    const acct = await newAccount();
    expect((await SELF.fetch(`${BASE}/mcp`, { headers: { 'x-api-key': acct.secret } })).status).toBe(405);
  });

  it('a client that accepts only application/json gets JSON, not 406', async () => {
    const acct = await newAccount();
    const res = await SELF.fetch(`${BASE}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': acct.secret },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
  });

  it('redirects are followed at most 3 times, each target checked by the guard; over the plan size is refused while reading', async () => {
    served['/final.pdf'] = await markerPdf(1, 'F');
    redirects['/go'] = `${FILES}/final.pdf`;
    redirects['/evil'] = 'https://10.0.0.1/internal.pdf';
    redirects['/loop'] = `${FILES}/loop`;
    const free = await newAccount({ plan: 'free', balance: '10.00' });
    served['/big.bin'] = new Uint8Array(10_500_000);
    const client = await connect({ 'x-api-key': free.secret });
    expect(jsonOf(await client.callTool({ name: 'rotate_pdf', arguments: { file_url: `${FILES}/go` } }))['status']).toBe('done');
    const evil = await client.callTool({ name: 'rotate_pdf', arguments: { file_url: `${FILES}/evil` } });
    expect(textOf(evil)).toMatch(/file_url redirects to https:\/\/10\.0\.0\.1\/internal\.pdf, which must name a public Internet host/);
    expect(fetched).not.toContain('https://10.0.0.1/internal.pdf');
    expect(textOf(await client.callTool({ name: 'rotate_pdf', arguments: { file_url: `${FILES}/loop` } }))).toMatch(/more than 3 redirects/);
    expect(textOf(await client.callTool({ name: 'rotate_pdf', arguments: { file_url: `${FILES}/big.bin` } }))).toMatch(/larger than the 10 MB your plan allows/);
  });

  it('wait_seconds 0 returns the record at once; get_task waits for the end', async () => {
    served['/w.pdf'] = await markerPdf(1, 'W');
    const client = await connect({ 'x-api-key': (await newAccount()).secret });
    const rec = jsonOf(await client.callTool({ name: 'rotate_pdf', arguments: { file_url: `${FILES}/w.pdf`, wait_seconds: 0 } }));
    expect(['queued', 'processing', 'done']).toContain(rec['status']);
    const done = jsonOf(await client.callTool({ name: 'get_task', arguments: { task_id: rec['task_id'], wait_seconds: 30 } }));
    expect(done['status']).toBe('done');
    const bad = await client.callTool({ name: 'rotate_pdf', arguments: { file_url: `${FILES}/w.pdf`, wait_seconds: 121 } });
    expect(textOf(bad)).toMatch(/wait_seconds must be a whole number between 0 and 120/);
  });
});
