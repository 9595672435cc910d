/** add-page-numbers: real text, where a reader sees the page's edge, on rotated pages and odd boxes too. */
import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { download, markerPdf, newAccount, runOp, uploadOk } from './helpers';
import { expectProblem } from './fixtures';
import { linesByPage } from './stamped-text';

/** markerPdf with page 2 turned 90° and page 3's boxes starting at (100, 200). */
async function awkwardPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await markerPdf(3, 'N', { rotate: [0, 90, 0] }));
  const third = doc.getPage(2);
  third.setMediaBox(100, 200, 300, 400);
  return doc.save();
}

describe('add-page-numbers', () => {
  it('defaults: every page numbered from 1 at the bottom centre, upright and readable whatever the rotation or box', async () => {
    const acct = await newAccount();
    const rec = await runOp(acct, 'add-page-numbers', { file_id: (await uploadOk(acct, await awkwardPdf(), 'a.pdf')).file_id });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    expect(rec.operation_type).toBe('add_page_numbers');
    const pages = await linesByPage(await download(rec));
    pages.forEach((page, i) => {
      const line = page.lines.find((l) => l.text === String(i + 1));
      expect(line, `page ${i + 1}: ${JSON.stringify(page.lines)}`).toBeDefined();
      expect(line!.dir).toEqual([1, 0]);
      expect(Math.abs(line!.x + line!.w / 2 - page.width / 2)).toBeLessThan(3);
      expect(page.height - (line!.y + line!.h)).toBeGreaterThan(10);
      expect(page.height - (line!.y + line!.h)).toBeLessThan(40);
    });
  });

  it('prefix in Cyrillic, start_from, font_size, top-right, and only the listed pages', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(3, 'T'), 't.pdf');
    const rec = await runOp(acct, 'add-page-numbers', { file_id: up.file_id, prefix: 'Стр. ', start_from: 5, font_size: 20, position: 'top-right', pages: [1, 3] });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    const pages = await linesByPage(await download(rec));
    const first = pages[0]!.lines.find((l) => l.text === 'Стр. 5');
    expect(first, JSON.stringify(pages[0]!.lines)).toBeDefined();
    expect(first!.h).toBeGreaterThan(18);
    expect(pages[0]!.width - (first!.x + first!.w)).toBeLessThan(40);
    expect(first!.y).toBeLessThan(40);
    expect(pages[1]!.lines.some((l) => l.text.startsWith('Стр.'))).toBe(false);
    expect(pages[2]!.lines.some((l) => l.text === 'Стр. 7')).toBe(true);
  });

  it('font_size out of 6..72, an unknown position, a page past the end: 422 saying what is allowed', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, await markerPdf(2, 'E'), 'e.pdf');
    const post = (body: Record<string, unknown>) => acct.json('/v1/pdf/add-page-numbers', { file_id: up.file_id, ...body });
    expect((await expectProblem(await post({ font_size: 80 }), 422, 'validation_error')).errors).toContainEqual({ path: 'font_size', message: 'font_size must be a whole number between 6 and 72' });
    await expectProblem(await post({ position: 'middle' }), 422, 'validation_error');
    await expectProblem(await post({ pages: [3] }), 422, 'validation_error');
  });
});
