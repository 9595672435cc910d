/** sign: handwriting text fitted into the box, or an image in it with its proportions; the box must lie on the page. */
import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { assemblePng } from '../src/codecs/png';
import { balanceOf, download, markerPdf, newAccount, runOp, uploadOk } from './helpers';
import { expectProblem } from './fixtures';
import { linesByPage } from './stamped-text';

const toBase64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));

describe('sign', () => {
  it('Cyrillic text in the default box of page 1 (x 0.1, y 0.85, 0.2 × 0.05), in the box and as text', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(2, 'S'), 's.pdf');
    const rec = await runOp(acct, 'sign', { file_id: up.file_id, signature_data: 'Иван Петров' });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    expect(rec.operation_type).toBe('sign_pdf');
    const [first, second] = await linesByPage(await download(rec));
    const line = first!.lines.find((l) => l.text === 'Иван Петров');
    expect(line, JSON.stringify(first!.lines)).toBeDefined();
    // The box: x 30..90, y 340..360 on the 300 × 400 page.
    expect(line!.x).toBeGreaterThanOrEqual(29);
    expect(line!.x + line!.w).toBeLessThanOrEqual(91);
    expect(line!.y + line!.h / 2).toBeGreaterThan(340);
    expect(line!.y + line!.h / 2).toBeLessThan(360);
    expect(second!.lines.some((l) => l.text === 'Иван Петров')).toBe(false);
    expect(await balanceOf(acct)).toBe('8.75');
  });

  it('a data:image/png signature on page 2, contained in the box with its proportions', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(2, 'I'), 'i.pdf');
    const raw = new Uint8Array(10 * (1 + 40 * 3)).map((_, i) => (i % (1 + 40 * 3) === 0 ? 0 : 200));
    const png = assemblePng(40, 10, 2, raw.map((v, i) => (i % (1 + 40 * 3) === 0 ? 0 : (i % 3 === 0 ? 255 : 0))));
    const rec = await runOp(acct, 'sign', { file_id: up.file_id, page: 2, x: 0.5, y: 0.5, width: 0.4, height: 0.2, signature_data: `data:image/png;base64,${toBase64(png)}` });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    const mupdf = await loadMupdf();
    const doc = mupdf.Document.openDocument(await download(rec), 'application/pdf');
    const page = doc.loadPage(1);
    // The box is 120 × 80 at (150, 200); a 4:1 image fills its width: 120 × 30, centred at y 240.
    const boxes: number[][] = [];
    page.run(new mupdf.Device({ fillImage: (_image: unknown, ctm: number[]) => boxes.push(ctm) } as never), mupdf.Matrix.identity);
    page.destroy();
    doc.destroy();
    expect(boxes).toHaveLength(1);
    const [a, , , d, e, f] = boxes[0]!;
    expect(Math.round(a!)).toBe(120);
    expect(Math.round(Math.abs(d!))).toBe(30);
    expect(Math.round(e!)).toBe(150);
    expect(Math.round(Math.min(f!, f! + d!))).toBe(225);
  });

  it('a box off the page, a page past the end, a bad data URL: 422, nothing charged', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'B'), 'b.pdf');
    const post = (body: Record<string, unknown>) => acct.json('/v1/pdf/sign', { file_id: up.file_id, signature_data: 'A', ...body });
    const off = await expectProblem(await post({ x: 0.9, width: 0.2 }), 422, 'validation_error');
    expect(off.errors![0]).toMatchObject({ path: 'width', message: expect.stringMatching(/runs off the page/) });
    expect((await expectProblem(await post({ page: 2 }), 422, 'validation_error')).errors![0]!.path).toBe('page');
    await expectProblem(await post({ signature_data: 'data:image/gif;base64,R0lGOD' }), 422, 'validation_error');
    await expectProblem(await post({ height: 0 }), 422, 'validation_error');
    expect(await balanceOf(acct)).toBe('5.00');
  });

  it('a data:image/webp signature is read too (decoded by @jsquash/webp)', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(1, 'V'), 'v.pdf');
    const webp = 'UklGRiYAAABXRUJQVlA4TBkAAAAvJ8AEEA8QMf/zHwyBAOHAf60BARH9jxL2AA=='; // 40 × 20, lossless
    const rec = await runOp(acct, 'sign', { file_id: up.file_id, signature_data: `data:image/webp;base64,${webp}` });
    expect(rec.status, rec.error_message ?? '').toBe('done');
  });

  it('a PNG signature past the decoding limit, or whose data cannot hold its declared size, fails naming why and is refunded', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'S'), 's.pdf');
    // 5000 × 4000 grey: 20 million pixels, a few KB compressed (MuPDF would decode all of it).
    const big = assemblePng(5000, 4000, 0, new Uint8Array(4000 * 5001));
    const rec = await runOp(acct, 'sign', { file_id: up.file_id, signature_data: `data:image/png;base64,${toBase64(big)}` });
    expect(rec.status).toBe('failed');
    expect(rec.error_message).toMatch(/5000 × 4000 pixels: more than the 12 million/);
    // The same header claiming 100000 × 100000 over those few KB.
    const lying = big.slice();
    new DataView(lying.buffer).setUint32(16, 100000);
    new DataView(lying.buffer).setUint32(20, 100000);
    const rec2 = await runOp(acct, 'sign', { file_id: up.file_id, signature_data: `data:image/png;base64,${toBase64(lying)}` });
    expect(rec2.status).toBe('failed');
    expect(rec2.error_message).toMatch(/declares 100000 × 100000 pixels/);
    expect(await balanceOf(acct)).toBe('5.00');
  });
});
