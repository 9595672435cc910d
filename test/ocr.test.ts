/**
 * OCR through the service and both Workers (test/setup/all-workers.ts): the API Worker draws the
 * pages without text, the OCR Worker's code recognises them from its own queue, the API Worker
 * writes the invisible text layer. Scans are made here: lines of text drawn by MuPDF, rendered grey
 * at 200 dpi, the picture alone placed on a page.
 */
import { describe, expect, it } from 'vitest';
import type * as Mupdf from 'mupdf';
import { PDFDocument as PdfLib } from 'pdf-lib';
import { loadMupdf } from '../src/pdf/mupdf';
import { SANS, StampFont, appendToPage, textAt, visiblePage } from '../src/pdf/stamp';
import { bundledFonts } from '../src/fonts/bundled';
import { balanceOf, download, newAccount, runOp, uploadOk, waitTask } from './helpers';
import { env } from 'cloudflare:test';
import { handleQueue } from '../src/service/tasks/consumer';
import { operationByPath } from '../src/operations';

const EN = ['The quick brown fox jumps over the lazy dog', 'Pack my box with five dozen liquor jugs', 'Searchable layers hold recognised words'];
const RU = ['Съешь же ещё этих мягких', 'французских булок да выпей чаю', 'Проверка распознавания текста'];

/**
 * An A5 page showing `lines` as a grey 200-dpi picture only (no text); with `keepText`, a real text
 * page instead; with `turn`, the picture scanned turned that many degrees (90: on a landscape page; 3: askew).
 */
async function page(lines: string[], keepText = false, turn: 0 | 3 | 90 | 180 = 0): Promise<Uint8Array> {
  const mupdf = await loadMupdf();
  const doc = new mupdf.PDFDocument();
  const font = new StampFont(mupdf, SANS, bundledFonts);
  try {
    doc.insertPage(-1, doc.addPage([0, 0, 420, 595], 0, doc.newDictionary(), ''));
    const p = doc.loadPage(0) as Mupdf.PDFPage;
    const content = lines.map((line, i) => textAt(font, 'F', line, 16, 40, 80 + 30 * i)).join('\n');
    appendToPage(doc, p, visiblePage(p), content, { Font: { F: font.reference(doc) } });
    const text = doc.saveToBuffer('').asUint8Array().slice();
    if (keepText) return text;
    const pix = p.toPixmap(mupdf.Matrix.concat(mupdf.Matrix.rotate(turn), mupdf.Matrix.scale(200 / 72, 200 / 72)), mupdf.ColorSpace.DeviceGray, false, true);
    const png = pix.asPNG().slice();
    pix.destroy();
    const scan = await PdfLib.create();
    const image = await scan.embedPng(png);
    const [w, h] = turn === 90 ? [595, 420] : [420, 595];
    scan.addPage([w, h]).drawImage(image, { x: 0, y: 0, width: w, height: h });
    return scan.save();
  } finally {
    font.destroy();
    doc.destroy();
  }
}

async function merged(parts: Uint8Array[]): Promise<Uint8Array> {
  const out = await PdfLib.create();
  for (const part of parts) {
    const doc = await PdfLib.load(part);
    for (const p of await out.copyPages(doc, doc.getPageIndices())) out.addPage(p);
  }
  return out.save();
}

/** Each page's text and a grey rendering at 50 dpi. */
async function inspect(pdf: Uint8Array): Promise<{ text: string; pixels: Uint8Array }[]> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    return Array.from({ length: doc.countPages() }, (_, i) => {
      const p = doc.loadPage(i);
      const text = p.toStructuredText('').asText();
      const pix = p.toPixmap(mupdf.Matrix.scale(50 / 72, 50 / 72), mupdf.ColorSpace.DeviceGray, false, true);
      const pixels = pix.getPixels().slice();
      pix.destroy();
      p.destroy();
      return { text, pixels: Uint8Array.from(pixels) };
    });
  } finally {
    doc.destroy();
  }
}

/** Page 1's text lines: their text, box (points, y down) and where each starts (MuPDF's line origin). */
async function textLines(pdf: Uint8Array): Promise<{ text: string; x: number; y: number; w: number; h: number; startX: number }[]> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    const page = doc.loadPage(0);
    const json = JSON.parse(page.toStructuredText('preserve-whitespace').asJSON(1)) as { blocks: { lines?: { text: string; x: number; bbox: { x: number; y: number; w: number; h: number } }[] }[] };
    page.destroy();
    return json.blocks.flatMap((b) => b.lines ?? []).map((l) => ({ text: l.text.trim(), ...l.bbox, startX: l.x }));
  } finally {
    doc.destroy();
  }
}

/** The share of `lines`' words found in `text` (case and punctuation ignored). */
function wordsFound(lines: string[], text: string): number {
  const words = lines.join(' ').toLowerCase().split(/\s+/);
  const got = new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  return words.filter((w) => got.has(w)).length / words.length;
}

describe('ocr', () => {
  it('an English scan gets an invisible, extractable text layer; the page looks the same; progress counts pages', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const input = await page(EN);
    expect((await inspect(input))[0]!.text.trim()).toBe('');
    const up = await uploadOk(acct, input, 'scan.pdf');
    const rec = await runOp(acct, 'ocr', { file_id: up.file_id, languages: ['eng'] });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    expect(rec.operation_type).toBe('ocr_pdf');
    expect(rec.progress).toEqual({ done: 1, total: 1 });
    const [before, after] = [(await inspect(input))[0]!, (await inspect(await download(rec)))[0]!];
    expect(wordsFound(EN, after.text)).toBeGreaterThanOrEqual(0.9);
    expect(after.pixels).toEqual(before.pixels);
  });

  it('Russian with the default languages; a page that has text is kept as it is', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const input = await merged([await page(['Original text layer ALPHA'], true), await page(RU)]);
    const up = await uploadOk(acct, input, 'mixed.pdf');
    const rec = await runOp(acct, 'ocr', { file_id: up.file_id });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    const pages = await inspect(await download(rec));
    expect(pages[0]!.text.trim()).toBe('Original text layer ALPHA');
    expect(wordsFound(RU, pages[1]!.text)).toBeGreaterThanOrEqual(0.8);
  });

  it('pages scanned sideways or upside down are read turned upright; their words lie along the text', async () => {
    const acct = await newAccount({ balance: '20.00' });
    for (const turn of [90, 180] as const) {
      const up = await uploadOk(acct, await page(EN, false, turn), `turned-${turn}.pdf`);
      const rec = await runOp(acct, 'ocr', { file_id: up.file_id, languages: ['eng'] });
      expect(rec.status, rec.error_message ?? '').toBe('done');
      const out = await download(rec);
      expect(wordsFound(EN, (await inspect(out))[0]!.text)).toBeGreaterThanOrEqual(0.9);
      const lines = (await textLines(out)).filter((l) => l.text.length > 10);
      expect(lines.length).toBeGreaterThanOrEqual(3);
      // Sideways text makes tall lines; upside-down text starts at the right of its line.
      const shapes = lines.map((l) => (l.h > l.w ? 'tall' : l.startX > l.x + l.w / 2 ? 'from-right' : 'from-left'));
      expect(shapes.every((shape) => shape === (turn === 90 ? 'tall' : 'from-right')), shapes.join(' ')).toBe(true);
    }
  });

  it('a page scanned 3 degrees askew is read', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const up = await uploadOk(acct, await page(EN, false, 3), 'askew.pdf');
    const rec = await runOp(acct, 'ocr', { file_id: up.file_id, languages: ['eng'] });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    expect(wordsFound(EN, (await inspect(await download(rec)))[0]!.text)).toBeGreaterThanOrEqual(0.9);
  });

  it('a PDF whose pages all carry text comes back as it was, byte for byte', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const input = await page(EN, true);
    const up = await uploadOk(acct, input, 'text.pdf');
    const rec = await runOp(acct, 'ocr', { file_id: up.file_id, languages: ['eng'] });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    expect(await download(rec)).toEqual(input);
  });

  it('a page whose retries are spent (its message dead-lettered) fails the task naming that page, and the payment comes back', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const up = await uploadOk(acct, await merged([await page(EN), await page(EN), await page(EN)]), 'three.pdf');
    const res = await acct.json('/v1/pdf/ocr', { file_id: up.file_id, languages: ['eng'] });
    const { task_id } = await res.json<{ task_id: string }>();
    expect(await balanceOf(acct)).toBe('18.75');
    // What the dead-letter queue delivers once the OCR Worker has failed page 2 on every attempt.
    const message = { id: 'm1', timestamp: new Date(), attempts: 1, body: { task_id, step: 1, part: 2, languages: ['eng'] }, ack() {}, retry() {} };
    await handleQueue({ queue: 'pdf-edge-tasks-dead', messages: [message], ackAll() {}, retryAll() {} } as unknown as MessageBatch<unknown>, env, operationByPath);
    const rec = await waitTask(acct, task_id);
    expect(rec.status).toBe('failed');
    expect(rec.error_message).toMatch(/^Page 2 could not be recognised/);
    expect(rec.refunded).toBe(true);
    expect(await balanceOf(acct)).toBe('20.00');
  });
});
