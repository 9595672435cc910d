/** html-to-pdf through the service (a first cut on MuPDF's HTML layout): sizes, margins, encodings, fragments, data: images, links, title. */
import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/engines/mupdf';
import { download, newAccount, runOp, uploadOk, type TestAccount } from './helpers';
import { decodeHtml, withoutActiveContent } from '../src/convert/html-to-pdf';

async function convert(acct: TestAccount, html: Uint8Array | string, params: Record<string, unknown> = {}) {
  const bytes = typeof html === 'string' ? new TextEncoder().encode(html) : html;
  const up = await uploadOk(acct, bytes, 'page.html');
  const rec = await runOp(acct, 'html-to-pdf', { file_id: up.file_id, ...params });
  expect(rec.status, rec.error_message ?? '').toBe('done');
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(await download(rec), 'application/pdf');
  const page = doc.loadPage(0);
  const first = JSON.parse(page.toStructuredText('').asJSON()).blocks[0]?.lines?.[0];
  const out = { size: page.getBounds().slice(2).map(Math.round), text: page.toStructuredText('').asText(), left: first?.bbox.x as number, links: page.getLinks().map((l) => l.getURI()), title: doc.getMetaData('info:Title') };
  doc.destroy();
  return out;
}

describe('html-to-pdf', () => {
  it('A4 portrait by default; A3, Letter and landscape on request; margins none < narrow < standard', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const html = '<!doctype html><html><head><title>Report title</title></head><body><p>Margin probe</p><p><a href="https://example.com/x">a link</a></p></body></html>';
    const a4 = await convert(acct, html);
    expect(a4.size).toEqual([595, 842]);
    expect(a4.title).toBe('Report title');
    expect(a4.links).toContain('https://example.com/x');
    expect((await convert(acct, html, { page_size: 'A3' })).size).toEqual([842, 1191]);
    expect((await convert(acct, html, { page_size: 'Letter', orientation: 'landscape' })).size).toEqual([792, 612]);
    const [none, narrow, standard] = [await convert(acct, html, { margin: 'none' }), await convert(acct, html, { margin: 'narrow' }), await convert(acct, html, { margin: 'standard' })];
    expect(none.left).toBeLessThan(narrow.left);
    expect(narrow.left).toBeLessThan(standard.left);
  });

  it('a windows-1251 page (meta charset, no BOM), a UTF-16 page and a bare fragment all read right', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const cp1251 = Uint8Array.from([...new TextEncoder().encode('<html><head><meta charset="windows-1251"></head><body><p>'), 0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2, ...new TextEncoder().encode('</p></body></html>')]);
    expect((await convert(acct, cp1251)).text).toContain('Привет');
    const utf16 = '<html><body><p>Юникод в шестнадцатибитной кодировке</p></body></html>';
    const le = new Uint8Array(2 + utf16.length * 2);
    le.set([0xff, 0xfe]);
    for (let i = 0; i < utf16.length; i++) [le[2 + 2 * i], le[3 + 2 * i]] = [utf16.charCodeAt(i) & 0xff, utf16.charCodeAt(i) >> 8];
    expect((await convert(acct, le)).text).toContain('Юникод в шестнадцатибитной кодировке');
    expect((await convert(acct, '<table><tr><td>Cell from a fragment</td></tr></table>')).text).toContain('Cell from a fragment');
  });

  it('a link to a place in the page becomes an internal PDF link; a javascript: link is dropped, its text kept', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const got = await convert(acct, '<html><body><p><a href="#later">Jump</a> <a href="javascript:alert(1)">Script link</a></p><h2 id="later">Later part</h2></body></html>');
    expect(got.text).toContain('Script link');
    expect(got.links).toHaveLength(1);
    expect(got.links[0]).toMatch(/^#page=1/);
  });

  it('scripts, frames and refreshes are removed before layout; meta charsets become UTF-8', () => {
    const cleaned = withoutActiveContent('<meta http-equiv="refresh" content="0;url=https://x"><meta charset="koi8-r"><script>fetch("https://x")</script><iframe src="https://x"></iframe><p>kept</p>');
    expect(cleaned).toBe('<meta charset="utf-8"><p>kept</p>');
    const fonts = withoutActiveContent('<style>@font-face { font-family: X; src: url("data:font/ttf;base64,AAAA") } p { color: red }</style>');
    expect(fonts).toBe('<style>p{color: red}</style>');
    expect(decodeHtml(Uint8Array.from([0xef, 0xbb, 0xbf, 0x41]))).toBe('A');
    // No charset declared, not UTF-8: Russian in windows-1251 and in KOI8-R, and Western text.
    const word = 'Пример документа с определениями';
    const cp1251 = Uint8Array.from([...word].map((ch) => (ch === ' ' ? 0x20 : ch.charCodeAt(0) - 0x410 + 0xc0)));
    expect(decodeHtml(cp1251)).toBe(word);
    const koi8 = Uint8Array.from([0xf0, 0xd2, 0xc9, 0xcd, 0xc5, 0xd2, 0x20, 0xd4, 0xc5, 0xcb, 0xd3, 0xd4, 0xc1]);
    expect(decodeHtml(koi8)).toBe('Пример текста');
    expect(decodeHtml(Uint8Array.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x61, 0x6e, 0x64, 0x20, 0x6e, 0x61, 0xef, 0x76, 0x65]))).toBe('Café and naïve');
    expect(decodeHtml(new Uint8Array([...new TextEncoder().encode('<meta charset="koi8-r">'), 0xf0, 0xd2, 0xc9]))).toContain('При');
  });
});
