import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { facesFrom } from '../src/fonts/face-shelf';
import { run as htmlToPdf } from '../src/operations/html-to-pdf';
import { HTML_ELEMENTS_MAX } from '../src/convert/html';
import { loadMupdf } from '../src/pdf/mupdf';
import { LimitExceeded } from '../src/lib/limits';

const run = htmlToPdf as unknown as (ctx: unknown) => Promise<{ chunks: Uint8Array[] }>;
const params = { page_size: 'A4', orientation: 'portrait', margin: 'standard' };
const logged: string[] = [];
const faces = facesFrom(env.FONTS);
const convert = (html: string) => run({ inputs: [{ file: {}, bytes: new TextEncoder().encode(html) }], params, step: 0, log: (event: string) => logged.push(event), progress() {}, faces });

async function text(html: string): Promise<string> {
  const { chunks } = await convert(html);
  const bytes = new Uint8Array(chunks.reduce((a, c) => a + c.length, 0));
  let at = 0;
  for (const c of chunks) (bytes.set(c, at), (at += c.length));
  const mupdf = await loadMupdf();
  const pdf = mupdf.Document.openDocument(bytes, 'application/pdf');
  try {
    let all = '';
    for (let i = 0; i < pdf.countPages(); i++) all += pdf.loadPage(i).toStructuredText('').asText() + '\n';
    return all;
  } finally {
    pdf.destroy();
  }
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}x`);
const missing = (all: string, expected: string[]) => {
  const found = new Set(all.split(/[^\w]+/));
  return expected.filter((w) => !found.has(w));
};

describe('HTML nesting and element limits', () => {
  it('pages nested 1,000 and 10,000 deep (boxes, tables, lists) convert with every word, each box on its own line', async () => {
    const kinds: [string, string][] = [
      ['<div>', '</div>'],
      ['<table><tr><td>', '</td></tr></table>'],
      ['<ul><li>', '</li></ul>'],
    ];
    for (const [open, close] of kinds) {
      for (const n of [1000, 10_000]) {
        const html = words(n).map((w) => `${open}${w}`).join('') + close.repeat(n);
        const t0 = Date.now();
        const all = await text(html);
        expect(missing(all, words(n))).toEqual([]);
        // Flattened past the depth MuPDF survives, the boxes' words stay apart (not one word 60,000 letters long).
        expect(all).not.toMatch(/w\d+xw\d+x/);
        expect(Date.now() - t0).toBeLessThan(30_000);
      }
    }
    expect(await text('<p>Plain after deep</p>')).toContain('Plain after deep');
  });

  it('a page of more elements than the limit is refused with a LimitExceeded naming the count', async () => {
    const rows = Math.ceil(HTML_ELEMENTS_MAX / 3) + 1;
    const html = `<table>${'<tr><td>a</td><td>b</td></tr>'.repeat(rows)}</table>`;
    let err: unknown;
    try {
      await convert(html);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LimitExceeded);
    expect((err as LimitExceeded).limit).toBe('html_elements');
    expect((err as Error).message).toBe(`The page holds ${(rows * 3 + 1).toLocaleString('en-US')} elements; at most 100,000 are laid out.`);
    expect(logged).not.toContain('html_layout_failed');
  });
});
