/** html-to-pdf through the service (a first cut on MuPDF's HTML layout): sizes, margins, encodings, fragments, data: images, links, title. */
import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { download, newAccount, runOp, uploadOk, type TestAccount } from './helpers';
import { prepareHtml } from '../src/convert/html';
import { decodeHtml, withoutActiveContent } from '../src/convert/html/html-source';
import { pageBox } from '../src/convert/html/html-page-box';
import { printRules } from '../src/convert/html/css-flatten';
import { gridTracks } from '../src/convert/html/html-boxes';
import { specificityOf } from '../src/convert/html/html-styles';
import { matchesPrint, resolveViewportAndCalc } from '../src/convert/html/css-media';
import { woffToSfnt } from '../src/fonts/sfnt';
import { bundledFonts } from '../src/fonts/bundled';
import { FACE_FILES } from '../src/fonts/catalog';
import { zlibSync } from 'fflate';

async function convert(acct: TestAccount, html: Uint8Array | string, params: Record<string, unknown> = {}) {
  const bytes = typeof html === 'string' ? new TextEncoder().encode(html) : html;
  const up = await uploadOk(acct, bytes, 'page.html');
  const rec = await runOp(acct, 'html-to-pdf', { file_id: up.file_id, ...params });
  expect(rec.status, rec.error_message ?? '').toBe('done');
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(await download(rec), 'application/pdf');
  const page = doc.loadPage(0);
  const first = JSON.parse(page.toStructuredText('').asJSON()).blocks[0]?.lines?.[0];
  const lines = (JSON.parse(page.toStructuredText('').asJSON()).blocks as { lines?: { text: string; bbox: { x: number; y: number; w: number; h: number }; font: { name: string } }[] }[]).flatMap((b) => b.lines ?? []);
  const pages = Array.from({ length: doc.countPages() }, (_, i) => doc.loadPage(i).toStructuredText('').asText().trim());
  const out = { size: page.getBounds().slice(2).map(Math.round), text: page.toStructuredText('').asText(), left: first?.bbox.x as number, links: page.getLinks().map((l) => l.getURI()), title: doc.getMetaData('info:Title'), lines, pages };
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
    expect(withoutActiveContent('<p class=MsoNormal>Text<o:p></o:p></p><p><o:p>&nbsp;</o:p></p><a href="http://x">link</a>')).toBe('<p class=MsoNormal>Text</p><p>&nbsp;</p><a href="http://x">link</a>');
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

  it('forced breaks in either spelling start pages; none before the first content or after the last', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const html = `<style>h2 { break-before: page } .after { page-break-after: always } .left { break-before: left }</style>
      <h2>Opening</h2><p>one</p><h2>Second</h2><p class="after">two</p><p>three</p><div class="left">four</div>
      <p style="page-break-before: always">five</p><p>x<br style="page-break-before: always">same page</p><p class="after">last</p>`;
    const got = await convert(acct, html);
    expect(got.pages.map((t) => t.replace(/\s+/g, ' '))).toEqual(['Opening one', 'Second two', 'three', 'four', 'five x same page last']);
  });

  it('a flex row and a grid lay their items side by side; text-transform and <ol type> are applied', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const html = `<style>.row { display: flex; justify-content: space-between } .grid { display: grid; grid-template-columns: repeat(2, 1fr) 100px }
      .caps { text-transform: uppercase }</style>
      <div class="row"><span>Left item</span><span>Right item</span></div>
      <div class="grid"><div>Cell A</div><div>Cell B</div><div>Cell C</div><div>Cell D</div></div>
      <p class="caps">shouted <b>words</b></p><ol type="a"><li>first</li><li>second</li></ol>`;
    const got = await convert(acct, html, { page_size: 'Letter', margin: 'none' });
    const at = (text: string) => got.lines.find((l) => l.text.includes(text))!.bbox;
    expect(at('Right item').y).toBeCloseTo(at('Left item').y, 0);
    expect(at('Right item').x).toBeGreaterThan(480); // pushed to the right edge of a 612 pt page
    expect(at('Cell B').y).toBeCloseTo(at('Cell A').y, 0);
    expect(at('Cell C').y).toBeCloseTo(at('Cell A').y, 0);
    expect(at('Cell D').y).toBeGreaterThan(at('Cell A').y + 5); // the grid's second row
    expect(at('Cell B').x - at('Cell A').x).toBeGreaterThan(200); // two 1fr columns of (612 - 16 - 100) / 2
    expect(got.text).toContain('SHOUTED WORDS');
    expect(got.text).toMatch(/a\.\s*first[\s\S]*b\.\s*second/);
  });

  it("the document's @page size and margin win over the request's; a data: font (TTF and WOFF) is used and subset", async () => {
    const acct = await newAccount({ balance: '20.00' });
    const a5 = await convert(acct, '<style>@page { size: A5 landscape; margin: 2in }</style><p>Margin probe</p>', { page_size: 'A3', margin: 'none' });
    expect(a5.size).toEqual([595, 420]);
    expect(a5.left).toBeGreaterThanOrEqual(144);
    // Word's "Save as HTML": the section's named page sets the sheet for the whole document.
    const word = await convert(acct, '<html><head><style>@page WordSection1 { size: 595.3pt 841.9pt; margin: 72pt 72pt 72pt 90pt } div.WordSection1 { page: WordSection1 }</style></head><body lang=EN-GB><div class=WordSection1><p>Section text</p></div></body></html>', { page_size: 'Letter' });
    expect(word.size).toEqual([595, 842]);
    expect(word.left).toBeGreaterThanOrEqual(90);
    const ttf = bundledFonts(FACE_FILES.Carlito.regular)!;
    const base64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));
    const viaTtf = await convert(acct, `<style>@font-face { font-family: Brand Face; src: url(data:font/ttf;base64,${base64(ttf)}) } p { font-family: Brand Face, serif }</style><p>Embedded face: Action draft fit</p>`);
    expect(viaTtf.lines[0]!.font.name).toMatch(/Carlito|Brand/);
    expect(viaTtf.text).toContain('Action draft fit'); // no ligature glyph without its text
    expect((await convert(acct, '<p style="font-family: Calibri">Action draft fit</p>')).text).toContain('Action draft fit');
    const viaWoff = await convert(acct, `<style>@font-face { font-family: 'Packed'; src: url("data:font/woff;base64,${base64(woff(ttf))}") format("woff") } p { font-family: Packed }</style><p>Packed face</p>`);
    expect(viaWoff.lines[0]!.font.name).toMatch(/Carlito|Packed/);
    // WOFF2 is checked through the running service (test/e2e/html-woff2.e2e.mjs): brotli's decoder
    // loads its dictionary by a circular require that the test runner's module shim breaks.
    const up = await uploadOk(acct, new TextEncoder().encode('<p>Small</p>'), 'small.html');
    const rec = await runOp(acct, 'html-to-pdf', { file_id: up.file_id });
    expect((await download(rec)).byteLength).toBeLessThan(40_000); // subset: a whole Tinos face is 400 KB or more
    expect((await convert(acct, '<p>e-mail</p><p style="font-family: Arial">sans-serif</p>')).text).toMatch(/e-mail\s+sans-serif/); // a hyphen, not U+00AD
  });

  it('content wider than the page is shrunk to fit, none of it cut off; content that fits keeps its size', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    const wide = await convert(acct, `<div style="width:1100px">${words} final-word</div>`);
    const narrow = await convert(acct, `<div style="width:300px">${words}</div>`);
    expect(wide.text).toContain('final-word');
    const right = (got: typeof wide) => Math.max(...got.lines.map((l) => l.bbox.x + l.bbox.w));
    expect(right(wide)).toBeLessThanOrEqual(596); // within the A4 sheet
    expect(right(wide)).toBeGreaterThan(480); // the line runs across the page, drawn smaller
    expect(wide.lines[0]!.bbox.h).toBeLessThan(narrow.lines[0]!.bbox.h * 0.85);
  });

  it("a table over several pages repeats its <thead> at the top of each, every row printed once", async () => {
    const acct = await newAccount({ balance: '20.00' });
    const rows = Array.from({ length: 150 }, (_, i) => `<tr><td>row-${i}</td><td>${i % 9 === 0 ? 'a longer value that wraps onto a second line of its cell in the printed table, '.repeat(2) : 'value'}</td></tr>`).join('');
    const got = await convert(acct, `<h1>Title</h1><table border="1" style="width:100%"><thead><tr><th>Head-A</th><th>Head-B</th></tr></thead><tbody>${rows}</tbody></table><p>After the table</p>`);
    expect(got.pages.length).toBeGreaterThanOrEqual(4);
    for (const page of got.pages) expect(page.startsWith('Title') || page.startsWith('Head-A')).toBe(true);
    expect(got.pages.filter((p) => p.startsWith('Head-A'))).toHaveLength(got.pages.length - 1);
    const printed = got.pages.join(' ').match(/row-\d+/g)!;
    expect(printed).toEqual(Array.from({ length: 150 }, (_, i) => `row-${i}`));
    expect(got.pages.at(-1)).toContain('After the table');
  });

  it('pages nested thousands deep convert (MuPDF overflows past ~30 levels), and the engine still works after', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const plain = await convert(acct, `${'<div>'.repeat(3000)}plain deep text${'</div>'.repeat(3000)}`);
    expect(plain.text).toContain('plain deep text');
    const styled = await convert(acct, `<style>.x { color: #333 }</style>${'<div class="x">'.repeat(80)}styled deep text${'</div>'.repeat(80)}<p>after the boxes</p>`);
    expect(styled.text).toContain('styled deep text');
    expect(styled.text).toContain('after the boxes');
    const list = await convert(acct, `<ul>${'<li>item<ul>'.repeat(40)}<li>leaf</li>${'</ul></li>'.repeat(40)}</ul>`);
    expect(list.text).toContain('leaf');
    expect((await convert(acct, '<p>an ordinary page</p>')).text).toContain('an ordinary page');
  });

  it('@media rules are answered for print: print-only rules apply, screen-only ones and wide-screen breakpoints do not', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const got = await convert(acct, `<style>
      @media print { .no-print { display: none } }
      @media screen { .screen-hidden { display: none } }
      @media (min-width: 1200px) { .wide-only { display: none } }
      @media (max-width: 2000px) { .narrow { text-transform: uppercase } }
      @supports (display: grid) { .supported { text-transform: uppercase } }
    </style><style media="screen">.screen-sheet { display: none }</style>
    <p class="no-print">navigation bar</p><p class="screen-hidden">shown on paper</p><p class="wide-only">kept on a page</p>
    <p class="narrow">loud</p><p class="supported">grid era</p><p class="screen-sheet">screen sheet ignored</p>`);
    expect(got.text).not.toContain('navigation bar');
    for (const shown of ['shown on paper', 'kept on a page', 'LOUD', 'GRID ERA', 'screen sheet ignored']) expect(got.text).toContain(shown);
  });

  it('colours with alpha and hsl() are drawn (MuPDF drew rgba text not at all), rem is 12 pt, counter() is not printed as a word', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const html = `<style>h2::before { content: counter(section) ". " } .big { font-size: 2rem }</style>
      <p style="color: rgba(0, 0, 0, .87); font-size: 40pt">MMMM</p><p style="color: hsl(0 100% 50%); font-size: 40pt">MMMM</p><p class="big">Big</p><h2>Heading</h2>`;
    const up = await uploadOk(acct, new TextEncoder().encode(html), 'colours.html');
    const rec = await runOp(acct, 'html-to-pdf', { file_id: up.file_id, page_size: 'Letter', margin: 'none' });
    const mupdf = await loadMupdf();
    const doc = mupdf.Document.openDocument(await download(rec), 'application/pdf');
    const page = doc.loadPage(0);
    const lines = (JSON.parse(page.toStructuredText('').asJSON()).blocks as { lines: { text: string; bbox: { y: number; h: number }; font: { size: number } }[] }[]).flatMap((b) => b.lines);
    expect(lines.find((l) => l.text.includes('Big'))!.font.size).toBeCloseTo(24, 0);
    expect(page.toStructuredText('').asText()).not.toContain('counter');
    const pix = page.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
    const [w, px] = [pix.getWidth(), pix.getPixels()];
    const inkIn = (line: { bbox: { y: number; h: number } }) => {
      let [dark, red] = [0, 0];
      for (let y = Math.round(line.bbox.y); y < line.bbox.y + line.bbox.h; y++) {
        for (let x = 0; x < w; x++) {
          const [r, g, b] = [px[3 * (y * w + x)]!, px[3 * (y * w + x) + 1]!, px[3 * (y * w + x) + 2]!];
          if (r < 80 && g < 80 && b < 80) dark++;
          if (r > 200 && g < 60 && b < 60) red++;
        }
      }
      return { dark, red };
    };
    const [translucent, hsl] = lines.filter((l) => l.text.includes('MMMM'));
    expect(inkIn(translucent!).dark).toBeGreaterThan(500);
    expect(inkIn(hsl!).red).toBeGreaterThan(500);
    doc.destroy();
  });

  it('a multi-column box sets its paragraphs in columns side by side, and floats with a width sit beside each other', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const para = (word: string) => `<p>${`${word} `.repeat(60)}</p>`;
    const got = await convert(acct, `<section style="columns: 2">${para('alpha')}${para('beta')}</section>
      <div><div style="float: left; width: 40%">Left float</div><div style="float: right; width: 40%">Right float</div></div>`, { margin: 'none' });
    const first = (word: string) => got.lines.find((l) => l.text.includes(word))!.bbox;
    expect(first('beta').y).toBeCloseTo(first('alpha').y, 0);
    expect(first('beta').x).toBeGreaterThan(first('alpha').x + 200);
    expect(first('Right float').y).toBeCloseTo(first('Left float').y, 0);
    expect(first('Right float').x).toBeGreaterThan(first('Left float').x + 200);
    // A picture floated right at the start of a paragraph sits beside its text, at the right.
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const up = await uploadOk(acct, new TextEncoder().encode(`<p><img style="float: right; width: 100px; height: 60px" src="data:image/png;base64,${png}">Text beside the picture</p>`), 'float.html');
    const mupdf = await loadMupdf();
    const doc = mupdf.Document.openDocument(await download(await runOp(acct, 'html-to-pdf', { file_id: up.file_id, margin: 'none' })), 'application/pdf');
    const blocks = JSON.parse(doc.loadPage(0).toStructuredText('preserve-images').asJSON()).blocks as { type: string; bbox: { x: number; y: number } }[];
    const [picture, text] = [blocks.find((b) => b.type === 'image')!, blocks.find((b) => b.type === 'text')!];
    expect(picture.bbox.x).toBeGreaterThan(450);
    expect(text.bbox.y).toBeLessThan(picture.bbox.y + 20);
    doc.destroy();
  });

  it('a data: WebP picture is drawn (MuPDF reads no WebP: it is decoded and embedded as PNG)', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const webp = 'UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA/vuUAAA='; // 1 × 1, lossy
    const up = await uploadOk(acct, new TextEncoder().encode(`<p>picture:</p><img style="width:200px;height:100px" src="data:image/webp;base64,${webp}">`), 'webp.html');
    const rec = await runOp(acct, 'html-to-pdf', { file_id: up.file_id });
    const mupdf = await loadMupdf();
    const doc = mupdf.Document.openDocument(await download(rec), 'application/pdf');
    const blocks = JSON.parse(doc.loadPage(0).toStructuredText('preserve-images').asJSON()).blocks as { type: string; bbox: { w: number; h: number } }[];
    const picture = blocks.find((b) => b.type === 'image');
    expect(picture?.bbox.w).toBeCloseTo(150, 0);
    expect(picture?.bbox.h).toBeCloseTo(75, 0);
    doc.destroy();
  });

  it('counters in generated content are worked out as CSS nests them (MuPDF printed the word "counter")', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const got = await convert(acct, `<style>body { counter-reset: chapter } h2 { counter-increment: chapter; counter-reset: section }
      h2::before { content: counter(chapter, upper-roman) ". " } h3::before { counter-increment: section; content: counter(chapter) "." counter(section) " " }
      .fig::after { content: " (Figure " counter(chapter) ")" } ol.x { counter-reset: item } ol.x li { list-style: none; counter-increment: item }
      ol.x li::before { content: counters(item, ".") ") " }</style>
      <h2>Intro</h2><h3>Scope</h3><h3>Terms</h3><p class="fig">A picture</p><h2>Method</h2><h3>Data</h3>
      <ol class="x"><li>one<ol class="x"><li>nested</li></ol></li><li>two</li></ol>`);
    const text = got.text.replace(/\s+/g, ' ');
    for (const shown of ['I. Intro', '1.1 Scope', '1.2 Terms', 'A picture (Figure 1)', 'II. Method', '2.1 Data', '1) one', '1.1) nested', '2) two']) expect(text).toContain(shown);
    expect(text).not.toContain('counter');
  });

  it('no trailing page of nothing but blank lines; an inline rule placed absolutely off the page shrinks it as Chromium does', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const blank = await convert(acct, `<p>${'Line of text. '.repeat(30)}</p>${'<p style="margin:0;line-height:40pt">&nbsp;</p>'.repeat(24)}`);
    expect(blank.pages).toHaveLength(1);
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const ruled = await convert(acct, `<p style="font-size:12pt">Signature text</p><p style="text-align:center"><span>&nbsp;</span><img src="data:image/png;base64,${png}" width="279" height="1" style="margin-left:150pt; position:absolute"></p>`, { margin: 'none' });
    const plain = await convert(acct, '<p style="font-size:12pt">Signature text</p>', { margin: 'none' });
    expect(ruled.lines[0]!.bbox.h).toBeLessThan(plain.lines[0]!.bbox.h * 0.95); // drawn smaller: the page was shrunk to reach the rule
  });

  it('a data: SVG picture is drawn at its own size (MuPDF reads no SVG): shapes, paths with arcs, transforms, fills and strokes', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 100 50"><rect width="100" height="50" fill="#ff0000"/>
      <g transform="translate(50 25) scale(0.5)"><circle r="20" fill="rgb(0,0,255)"/></g><path d="M10 40 a 10 10 0 0 1 20 0 z" stroke="black" stroke-width="2" fill="none"/></svg>`;
    const html = `<p>before</p><img src="data:image/svg+xml;base64,${btoa(svg)}"><img src="data:image/svg+xml;utf8,${encodeURIComponent(svg)}" width="100" height="50">`;
    const up = await uploadOk(acct, new TextEncoder().encode(html), 'svg.html');
    const mupdf = await loadMupdf();
    const doc = mupdf.Document.openDocument(await download(await runOp(acct, 'html-to-pdf', { file_id: up.file_id, margin: 'none' })), 'application/pdf');
    const page = doc.loadPage(0);
    const images = (JSON.parse(page.toStructuredText('preserve-images').asJSON()).blocks as { type: string; bbox: { x: number; y: number; w: number; h: number } }[]).filter((b) => b.type === 'image');
    // 200 × 100 and 100 × 50 CSS px, at 0.75 pt each
    expect(images).toHaveLength(2);
    [[150, 75], [75, 37.5]].forEach(([w, h], i) => {
      expect(Math.abs(images[i]!.bbox.w - w!)).toBeLessThanOrEqual(1);
      expect(Math.abs(images[i]!.bbox.h - h!)).toBeLessThanOrEqual(1);
    });
    const pix = page.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
    const at = (x: number, y: number) => Array.from(pix.getPixels().subarray(3 * (Math.round(y) * pix.getWidth() + Math.round(x)), 3 * (Math.round(y) * pix.getWidth() + Math.round(x)) + 3));
    const first = images[0]!.bbox;
    expect(at(first.x + 10, first.y + 10)).toEqual([255, 0, 0]); // the red rectangle
    const blue = at(first.x + first.w / 2, first.y + first.h / 2);
    expect(blue[2]).toBeGreaterThan(200);
    expect(blue[0]).toBeLessThan(60); // the circle, moved to the middle by the group's transform
    doc.destroy();
  });

  it('break-inside: avoid keeps a box whole on the next page where a page end would cut it; break-after: avoid keeps a heading with what follows', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const filler = Array.from({ length: 53 }, (_, i) => `<p style="margin:0">filler ${i}</p>`).join('');
    const box = Array.from({ length: 6 }, (_, i) => `<p style="margin:0">box line ${i}</p>`).join('');
    const cut = await convert(acct, `${filler}<div>${box}</div>`);
    const kept = await convert(acct, `<style>.card { break-inside: avoid }</style>${filler}<div class="card">${box}</div>`);
    const page = (got: typeof cut, text: string) => got.pages.findIndex((p) => p.includes(text));
    expect(page(cut, 'box line 0')).not.toBe(page(cut, 'box line 5')); // MuPDF alone cuts it
    expect(page(kept, 'box line 0')).toBe(page(kept, 'box line 5'));
    expect(page(kept, 'box line 0')).toBe(page(kept, 'filler 52') + 1);
    // break-after: avoid keeps a heading with the paragraph after it.
    const lines = Array.from({ length: 55 }, (_, i) => `<p style="margin:0">line ${i}</p>`).join('');
    const heading = `<h3 style="margin:0">Section title</h3><p style="margin:0">${'Section text. '.repeat(80)}</p>`;
    const alone = await convert(acct, `${lines}${heading}`);
    const together = await convert(acct, `<style>h3 { break-after: avoid }</style>${lines}${heading}`);
    expect(page(alone, 'Section title')).not.toBe(page(alone, 'Section text.')); // MuPDF alone leaves it at the foot of the page
    expect(page(together, 'Section title')).toBe(page(together, 'Section text.'));
  });

  it('a box with border-radius and a background colour is drawn with rounded corners, in its own colour', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const html = `<style>.badge { background: #2060c0; border-radius: 20px; padding: 30px; color: white; width: 200px }</style><div class="badge">Rounded</div><div style="background: #2060c0; padding: 30px; width: 200px; margin-top: 10px">Square</div>`;
    const up = await uploadOk(acct, new TextEncoder().encode(html), 'rounded.html');
    const mupdf = await loadMupdf();
    const doc = mupdf.Document.openDocument(await download(await runOp(acct, 'html-to-pdf', { file_id: up.file_id, margin: 'none' })), 'application/pdf');
    const page = doc.loadPage(0);
    const boxOf = (word: string) => (JSON.parse(page.toStructuredText('').asJSON()).blocks as { lines: { text: string; bbox: { x: number; y: number } }[] }[]).flatMap((b) => b.lines).find((l) => l.text.includes(word))!.bbox;
    const pix = page.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
    const at = (x: number, y: number) => Array.from(pix.getPixels().subarray(3 * (Math.round(y) * pix.getWidth() + Math.round(x)), 3 * (Math.round(y) * pix.getWidth() + Math.round(x)) + 3));
    const [rounded, square] = [boxOf('Rounded'), boxOf('Square')];
    // Each box's corner sits 22.5 pt (30px padding) up and left of its text; 2 pt inside it.
    expect(at(square.x - 20.5, square.y - 20.5)).toEqual([0x20, 0x60, 0xc0]);
    expect(at(rounded.x - 20.5, rounded.y - 20.5)).toEqual([255, 255, 255]); // cut off by the radius
    expect(at(rounded.x, rounded.y - 10)).toEqual([0x20, 0x60, 0xc0]); // inside: its own colour, not the marker
    doc.destroy();
  });

  it('XHTML (XML declaration, doctype, namespaces, self-closed tags) reads as HTML; a data: GIF is drawn', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const gif = 'R0lGODlhAQABAIAAAAUEBAAAACwAAAAAAQABAAACAkQBADs=';
    const xhtml = `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
      <html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head><body><p>XHTML paragraph<br/>next line</p><img style="width:100px;height:50px" src="data:image/gif;base64,${gif}"/></body></html>`;
    const up = await uploadOk(acct, new TextEncoder().encode(xhtml), 'page.xhtml');
    const mupdf = await loadMupdf();
    const doc = mupdf.Document.openDocument(await download(await runOp(acct, 'html-to-pdf', { file_id: up.file_id })), 'application/pdf');
    const page = doc.loadPage(0);
    expect(page.toStructuredText('').asText()).toMatch(/XHTML paragraph\s+next line/);
    const picture = (JSON.parse(page.toStructuredText('preserve-images').asJSON()).blocks as { type: string; bbox: { w: number; h: number } }[]).find((b) => b.type === 'image');
    expect(picture?.bbox.w).toBeCloseTo(75, 0);
    doc.destroy();
  });

  it('fixed boxes (running headers and footers) are printed on every page, where their offsets put them', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const body = Array.from({ length: 150 }, (_, i) => `<p>Body paragraph ${i}</p>`).join('');
    const got = await convert(acct, `<style>header { position: fixed; top: 0 } footer { position: fixed; bottom: 0 }</style><header>Running head</header>${body}<footer>Running foot</footer>`);
    expect(got.pages.length).toBeGreaterThan(2);
    for (const page of got.pages) {
      expect(page).toContain('Running head');
      expect(page).toContain('Running foot');
    }
    expect(got.pages.join(' ').match(/Body paragraph \d+/g)).toHaveLength(150);
    const foot = got.lines.find((l) => l.text.includes('Running foot'))!.bbox;
    expect(foot.y).toBeGreaterThan(700); // at the bottom of the A4 page
  });

  it('pageBox reads CSS page sizes; gridTracks writes out repeat(); specificity ranks ids over classes over types', () => {
    const params = { page_size: 'A4', orientation: 'portrait', margin: 'standard' } as const;
    expect(pageBox(printRules('@page { size: letter landscape }'), params)).toMatchObject({ w: 792, h: 612, margin: 'margin: 10mm' });
    expect(pageBox(printRules('@page { size: 100mm 50mm; margin: 1cm 2cm }'), params)).toMatchObject({ h: expect.closeTo(141.73, 1), margin: 'margin: 1cm 2cm' });
    expect(pageBox(printRules('@page :first { size: A3 } @media screen { @page { size: A5 } }'), params)).toMatchObject({ w: 595.28 });
    expect(gridTracks('[a] repeat(3, minmax(0, 1fr)) 200px')).toEqual(['minmax(0, 1fr)', 'minmax(0, 1fr)', 'minmax(0, 1fr)', '200px']);
    const media = { width: 700, height: 1000 };
    expect(resolveViewportAndCalc('margin: calc(10px + 2rem) 0; width: calc(100% - 20px); height: calc(2 * 10px)', media)).toBe('margin: 31.5pt 0; width: 100%; height: 15pt');
    expect(resolveViewportAndCalc('font-size: 5vw; top: calc(calc(10px + 5px) * 2); left: calc(1px + 2)', media)).toBe('font-size: 26.25pt; top: 22.5pt; left: unresolved(1px + 2)');
    expect(matchesPrint('screen and (min-width: 768px), print and (max-width: 800px)', media)).toBe(true);
    expect(matchesPrint('only screen, (min-width: 701px), not print', media)).toBe(false);
    expect(specificityOf('#a .b p')).toBeGreaterThan(specificityOf('.a .b .c p'));
    expect(specificityOf('.a')).toBeGreaterThan(specificityOf('div p span'));
    expect(prepareHtml('<p style="font-family: Source Sans Pro">x</p>').html).toContain("font-family: 'Source Sans Pro'");
    const vars = prepareHtml('<style>:root { --brand: #123456 }</style><p style="color: var(--brand)">a</p><p style="--own: 3px; margin-left: var(--own)">b</p>').html;
    expect(vars).toContain('color: #123456');
    expect(vars).toContain('margin-left: 2.25pt');
  });
});

/** A WOFF 1.0 wrapping of a TrueType font, every table zlib-compressed (the inverse of woffToSfnt). */
function woff(ttf: Uint8Array): Uint8Array {
  const view = new DataView(ttf.buffer, ttf.byteOffset, ttf.byteLength);
  const n = view.getUint16(4);
  const tables = Array.from({ length: n }, (_, i) => {
    const at = 12 + 16 * i;
    const [tag, checksum, offset, length] = [view.getUint32(at), view.getUint32(at + 4), view.getUint32(at + 8), view.getUint32(at + 12)];
    const raw = ttf.subarray(offset, offset + length);
    const packed = zlibSync(raw);
    return { tag, checksum, raw, data: packed.length < raw.length ? packed : raw };
  });
  let size = 44 + 20 * n;
  const offsets = tables.map((t) => ((size = (size + 3) & ~3), (size += t.data.length) - t.data.length));
  const out = new Uint8Array(size);
  const o = new DataView(out.buffer);
  o.setUint32(0, 0x774f4646);
  o.setUint32(4, view.getUint32(0));
  o.setUint32(8, size);
  o.setUint16(12, n);
  tables.forEach((t, i) => {
    const at = 44 + 20 * i;
    [t.tag, offsets[i]!, t.data.length, t.raw.length, t.checksum].forEach((v, k) => o.setUint32(at + 4 * k, v));
    out.set(t.data, offsets[i]!);
  });
  expect(woffToSfnt(out).byteLength).toBeGreaterThan(ttf.byteLength * 0.9);
  return out;
}
