/**
 * pptx-to-pdf through the service (upload, the office Worker's queue consumer, R2): a deck printed
 * a page per visible slide with its text, one 10 MB unit charged; an encrypted deck fails with
 * what to do, refunded.
 */
import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { balanceOf, download, newAccount, runOp, uploadOk } from './helpers';
import { box, pptx, titleOnSlide } from './pptx-fixtures';

async function pdfPages(bytes: Uint8Array): Promise<{ size: number[]; text: string }[]> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  try {
    return Array.from({ length: doc.countPages() }, (_, i) => {
      const page = doc.loadPage(i);
      const [x0, y0, x1, y1] = page.getBounds();
      const text = page.toStructuredText('preserve-whitespace').asText().replace(/\s+/g, ' ').trim();
      page.destroy();
      return { size: [Math.round(x1 - x0), Math.round(y1 - y0)], text };
    });
  } finally {
    doc.destroy();
  }
}

describe('pptx-to-pdf', () => {
  it('PPTX → PDF: a page per visible slide at the slide size with its text; one 10 MB unit charged', async () => {
    const acct = await newAccount();
    const deck = pptx([{ body: titleOnSlide('Результаты года') + box(60, 150, 300, 120, 'ED7D31', 'Revenue up') }, { body: titleOnSlide('Skipped'), hidden: true }, { body: titleOnSlide('Questions') }]);
    const before = await balanceOf(acct);
    const up = await uploadOk(acct, deck, 'talk.pptx');
    const rec = await runOp(acct, 'pptx-to-pdf', { file_id: up.file_id });
    expect(rec.status).toBe('done');
    expect(rec.operation_type).toBe('pptx_to_pdf');
    expect(rec.charge).toBe('1.25');
    const pages = await pdfPages(await download(rec));
    expect(pages.map((p) => p.size)).toEqual([[720, 405], [720, 405]]);
    expect(pages[0]!.text).toContain('Результаты года');
    expect(pages[0]!.text).toContain('Revenue up');
    expect(pages[1]!.text).toBe('Questions');
    expect(Number(before) - Number(await balanceOf(acct))).toBeCloseTo(1.25, 2);
  });
});
