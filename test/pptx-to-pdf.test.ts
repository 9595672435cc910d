/**
 * pptx-to-pdf through the service (upload, the office Worker's queue consumer, R2): a deck printed
 * a page per visible slide with its text, one 10 MB unit charged; an encrypted deck fails with
 * what to do, refunded.
 */
import { describe, expect, it } from 'vitest';
import { pageTexts } from './pdf-pages';
import { balanceOf, download, newAccount, runOp, uploadOk } from './helpers';
import { box, pptx, titleOnSlide } from './pptx-fixtures';
import { odp, page, title } from './odp-fixtures';

const pdfPages = (bytes: Uint8Array) => pageTexts(bytes, (t) => t.replace(/\s+/g, ' ').trim());

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

  it('ODP → PDF: uploaded as an OpenDocument presentation, a page per slide at its page size with the master\'s rule under the slide\'s text', async () => {
    const acct = await newAccount();
    const up = await acct.upload(odp(page(title('Из Impress')) + page(title('Second'))), 'impress.odp');
    expect(up.status).toBe(201);
    const record = await up.json<{ file_id: string; content_type: string }>();
    expect(record.content_type).toBe('application/vnd.oasis.opendocument.presentation');
    const rec = await runOp(acct, 'pptx-to-pdf', { file_id: record.file_id });
    expect(rec.status).toBe('done');
    expect(rec.charge).toBe('1.25');
    const pages = await pdfPages(await download(rec));
    // 10 × 5.625 in.
    expect(pages.map((p) => p.size)).toEqual([[720, 405], [720, 405]]);
    expect(pages.map((p) => p.text)).toEqual(['Из Impress', 'Second']);
  });

  it('prints a 600-slide deck a slice per invocation (250 slides each) and joins them: every slide once, in order, one charge', async () => {
    const acct = await newAccount();
    const slides = Array.from({ length: 600 }, (_, i) => ({ body: titleOnSlide(`Slide ${i + 1}`) }));
    const up = await uploadOk(acct, pptx(slides), 'long.pptx');
    const before = await balanceOf(acct);
    const rec = await runOp(acct, 'pptx-to-pdf', { file_id: up.file_id });
    expect(rec.status).toBe('done');
    const pages = await pdfPages(await download(rec));
    expect(pages.map((p) => p.text)).toEqual(slides.map((_, i) => `Slide ${i + 1}`));
    expect(Number(before) - Number(await balanceOf(acct))).toBeCloseTo(Number(rec.charge), 2);
  });

  it('PPT (PowerPoint 97-2003) uploads, then is refused at request time with 422 saying to save it as .pptx; nothing charged', async () => {
    const acct = await newAccount();
    const utf16 = (s: string) => Array.from(s).flatMap((c) => [c.charCodeAt(0), 0]);
    const ppt = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array(504).fill(0), ...utf16('PowerPoint Document'), ...new Array(64).fill(0)]);
    const up = await acct.upload(ppt, 'old talk.ppt');
    expect(up.status).toBe(201);
    const record = await up.json<{ file_id: string; content_type: string }>();
    expect(record.content_type).toBe('application/vnd.ms-powerpoint');
    const before = await balanceOf(acct);
    const res = await acct.json('/v1/pdf/pptx-to-pdf', { file_id: record.file_id });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const problem = await res.json<{ errors?: { path: string; message: string }[]; detail?: string }>();
    const said = JSON.stringify(problem);
    expect(said).toContain('old talk.ppt is PPT');
    expect(said).toContain('save it as .pptx');
    expect(await balanceOf(acct)).toBe(before);
    // Another operation that takes no presentations names what it takes, as for any other kind.
    const other = await acct.json('/v1/pdf/word-to-pdf', { file_id: record.file_id });
    expect(other.status).toBe(422);
    expect(JSON.stringify(await other.json())).toContain('takes DOC, DOCX');
  });
});
