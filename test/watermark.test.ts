/** watermark: text (Cyrillic) or a logo, placed where a reader sees the page; exactly one of the two. */
import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { assemblePng } from '../src/codecs/png';
import { balanceOf, download, markerPdf, newAccount, runOp, uploadOk } from './helpers';
import { expectProblem } from './fixtures';
import { linesByPage } from './stamped-text';

/** RGB samples of page `index` at 72 dpi, and a reader for them. */
async function pixelsOf(bytes: Uint8Array, index = 0) {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  try {
    const page = doc.loadPage(index);
    const pix = page.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false, true);
    const samples = pix.getPixels().slice();
    const stride = pix.getStride();
    pix.destroy();
    page.destroy();
    return (x: number, y: number) => Array.from(samples.subarray(Math.round(y) * stride + Math.round(x) * 3, Math.round(y) * stride + Math.round(x) * 3 + 3));
  } finally {
    doc.destroy();
  }
}

/** A 40 × 20 logo: opaque blue on the left half, fully transparent on the right. */
function halfTransparentLogo(): Uint8Array {
  const raw = new Uint8Array(20 * (1 + 40 * 4));
  for (let y = 0; y < 20; y++) for (let x = 0; x < 40; x++) raw.set(x < 20 ? [0, 0, 255, 255] : [0, 255, 0, 0], y * (1 + 40 * 4) + 1 + x * 4);
  return assemblePng(40, 20, 6, raw);
}

describe('watermark', () => {
  it('text with the defaults: light red in the centre of every page, readable as text, on a rotated page too', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(2, 'W', { rotate: [0, 90] }), 'w.pdf');
    const rec = await runOp(acct, 'watermark', { file_id: up.file_id, text: 'CONFIDENTIAL' });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    expect(rec.operation_type).toBe('watermark_pdf');
    const out = await download(rec);
    for (const [i, page] of (await linesByPage(out)).entries()) {
      const line = page.lines.find((l) => l.text === 'CONFIDENTIAL');
      expect(line, `page ${i + 1}: ${JSON.stringify(page.lines)}`).toBeDefined();
      expect(Math.abs(line!.x + line!.w / 2 - page.width / 2)).toBeLessThan(10);
      expect(Math.abs(line!.y + line!.h / 2 - page.height / 2)).toBeLessThan(10);
    }
    // Somewhere along the text's diagonal through the centre the page is light red: #FF0000 at 0.3 over white.
    const at = await pixelsOf(out);
    const reddish = [...Array(60).keys()].map((k) => at(150 - 30 + k, 200 + 30 - k)).some(([r, g, b]) => r! > 240 && g! > 150 && g! < 215 && b! > 150 && b! < 215);
    expect(reddish).toBe(true);
    expect(await balanceOf(acct)).toBe('8.75');
  });

  it('Cyrillic text, colour, opacity 1, angle 0 at the top left; tile repeats it over the page', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(1, 'C'), 'c.pdf');
    const corner = await runOp(acct, 'watermark', { file_id: up.file_id, text: 'Черновик', color: '#0000FF', opacity: 1, angle: 0, position: 'top-left', font_size: 20 });
    const [page] = await linesByPage(await download(corner));
    const line = page!.lines.find((l) => l.text === 'Черновик');
    expect(line, JSON.stringify(page!.lines)).toBeDefined();
    expect(line!.dir).toEqual([1, 0]);
    expect(line!.x).toBeGreaterThan(30);
    expect(line!.x).toBeLessThan(45);
    expect(line!.y).toBeLessThan(60);
    const tiled = await runOp(acct, 'watermark', { file_id: up.file_id, text: 'DRAFT', font_size: 12, position: 'tile' });
    const [tiles] = await linesByPage(await download(tiled));
    expect(tiles!.lines.filter((l) => l.text === 'DRAFT').length).toBeGreaterThanOrEqual(6);
  });

  it('a PNG logo keeps its transparency: its opaque half is drawn, its transparent half shows the page', async () => {
    const acct = await newAccount();
    const pdf = await uploadOk(acct, await markerPdf(1, 'L'), 'l.pdf');
    const logo = await uploadOk(acct, halfTransparentLogo(), 'logo.png');
    const rec = await runOp(acct, 'watermark', { file_id: pdf.file_id, image_file_id: logo.file_id, opacity: 1, angle: 0, scale: 0.5 });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    expect(rec.charge).toBe('1.25');
    const at = await pixelsOf(await download(rec));
    // 150 pt wide, 75 high, centred on the 300 × 400 page: x 75..225, y 162.5..237.5.
    expect(at(110, 200)).toEqual([0, 0, 255]);
    expect(at(190, 200)).toEqual([255, 255, 255]);
  });

  it('exactly one of text and image_file_id, and a logo that is an image: otherwise 422, nothing charged', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const pdf = await uploadOk(acct, await markerPdf(1, 'X'), 'x.pdf');
    const post = (body: Record<string, unknown>) => acct.json('/v1/pdf/watermark', { file_id: pdf.file_id, ...body });
    const neither = await expectProblem(await post({}), 422, 'validation_error');
    expect(neither.errors).toContainEqual({ path: 'text', message: 'give exactly one of text and image_file_id' });
    await expectProblem(await post({ text: 'A', image_file_id: pdf.file_id }), 422, 'validation_error');
    const notImage = await expectProblem(await post({ image_file_id: pdf.file_id }), 422, 'validation_error');
    expect(notImage.errors![0]).toMatchObject({ path: 'image_file_id', message: expect.stringMatching(/takes PNG, JPG, WEBP/) });
    await expectProblem(await post({ text: 'A', color: 'red' }), 422, 'validation_error');
    await expectProblem(await post({ text: 'A', font_size: 7 }), 422, 'validation_error');
    expect(await balanceOf(acct)).toBe('5.00');
  });

  it('a WEBP logo (decoded by @jsquash/webp) keeps its transparency too', async () => {
    const acct = await newAccount();
    const pdf = await uploadOk(acct, await markerPdf(1, 'P'), 'p.pdf');
    // 40 × 20, lossless: opaque blue on the left half, transparent on the right (made with @jsquash/webp's encoder).
    const webp = Uint8Array.from(atob('UklGRiYAAABXRUJQVlA4TBkAAAAvJ8AEEA8QMf/zHwyBAOHAf60BARH9jxL2AA=='), (c) => c.charCodeAt(0));
    const logo = await uploadOk(acct, webp, 'logo.webp');
    const rec = await runOp(acct, 'watermark', { file_id: pdf.file_id, image_file_id: logo.file_id, opacity: 1, angle: 0, scale: 0.5 });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    const at = await pixelsOf(await download(rec));
    expect(at(110, 200)).toEqual([0, 0, 255]);
    expect(at(190, 200)).toEqual([255, 255, 255]);
  });
});
