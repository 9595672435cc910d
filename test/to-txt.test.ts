import { describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { download, newAccount, runOp, uploadOk } from './helpers';

/** Page 1: two blocks far apart; page 2: one line. Helvetica keeps the fixture free of font files. */
async function twoPagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const p1 = doc.addPage([612, 792]);
  p1.drawText('Hello world', { x: 72, y: 700, size: 20, font });
  p1.drawText('Second block here', { x: 72, y: 300, size: 12, font });
  doc.addPage([612, 792]).drawText('Page two text', { x: 72, y: 700, size: 12, font });
  return doc.save();
}

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

describe('to-txt', () => {
  it('text: each page text, pages separated by a form feed; UTF-8 TXT named <base>_service.txt', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await twoPagePdf(), 'notes.pdf');
    const rec = await runOp(acct, 'to-txt', { file_id: up.file_id });
    expect(rec.status).toBe('done');
    expect(rec.operation_type).toBe('pdf_to_txt');
    expect(rec.filename).toBe('notes_service.txt');
    const pages = decode(await download(rec)).split('\f');
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('Hello world');
    expect(pages[0]).toContain('Second block here');
    expect(pages[1]).toContain('Page two text');
    expect(pages[1]).not.toContain('Hello');
  });

  it('blocks: a blank line between blocks', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await twoPagePdf(), 'notes.pdf');
    const text = decode(await download(await runOp(acct, 'to-txt', { file_id: up.file_id, mode: 'blocks' })));
    expect(text.split('\f')[0]).toBe('Hello world\n\nSecond block here');
  });

  it('words: TSV with a header and top-left coordinates in points', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await twoPagePdf(), 'notes.pdf');
    const lines = decode(await download(await runOp(acct, 'to-txt', { file_id: up.file_id, mode: 'words' }))).trim().split('\n');
    expect(lines[0]).toBe('page\tx0\ty0\tx1\ty1\ttext');
    const rows = lines.slice(1).map((l) => l.split('\t'));
    expect(rows.map((r) => r[5])).toEqual(['Hello', 'world', 'Second', 'block', 'here', 'Page', 'two', 'text']);
    const hello = rows[0]!;
    expect(hello[0]).toBe('1');
    expect(Number(hello[1])).toBeCloseTo(72, 0);
    // Baseline at y = 792 - 700 = 92 from the top; the glyph box ends near it.
    expect(Number(hello[4])).toBeGreaterThan(85);
    expect(Number(hello[4])).toBeLessThan(100);
    for (const r of rows) expect(r.slice(1, 5).every((v) => /^\d+\.\d{2}$/.test(v))).toBe(true);
    expect(rows.at(-1)![0]).toBe('2');
  });

  it('refuses an unknown mode with 422', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await twoPagePdf(), 'notes.pdf');
    expect((await acct.json('/v1/pdf/to-txt', { file_id: up.file_id, mode: 'html' })).status).toBe(422);
  });
});
