/** jpg-to-pdf through the service: JPEGs byte for byte and upright, CMYK right, PNG transparency, fit and size rules. */
import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { download, newAccount, runOp, uploadOk, type TestAccount } from './helpers';
import { makePng } from './fixtures';
import { assemblePng } from '../src/codecs/png';
import { BLUE, GREEN, RED, WHITE, adobeCmykJpeg, halfTransparentPng, near, quadrantJpeg, renderedPage, withOrientation } from './image-fixtures';

async function pdfOf(acct: TestAccount, files: [Uint8Array, string][], params: Record<string, unknown> = {}): Promise<Uint8Array> {
  const ids = [];
  for (const [bytes, name] of files) ids.push((await uploadOk(acct, bytes, name)).file_id);
  const rec = await runOp(acct, 'jpg-to-pdf', { file_ids: ids, ...params });
  expect(rec.status, rec.error_message ?? '').toBe('done');
  return download(rec);
}

/** Each page's size in points and its one image's raw stream and dictionary entries. */
async function pagesOf(pdf: Uint8Array): Promise<{ size: number[]; raw: Uint8Array; filter: string; smask: boolean }[]> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf').asPDF()!;
  try {
    return Array.from({ length: doc.countPages() }, (_, i) => {
      const page = doc.findPage(i);
      const image = page.get('Resources').get('XObject').get('Im0');
      const box = page.get('MediaBox');
      const buf = image.readRawStream();
      const out = { size: [box.get(2).asNumber(), box.get(3).asNumber()], raw: buf.asUint8Array().slice(), filter: image.get('Filter').toString(), smask: !image.get('SMask').isNull() };
      buf.destroy();
      return out;
    });
  } finally {
    doc.destroy();
  }
}

describe('jpg-to-pdf', () => {
  it('a JPEG is embedded byte for byte; EXIF orientation 6 turns the page and the picture upright', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const jpeg = withOrientation(await quadrantJpeg(400, 300), 6);
    const pdf = await pdfOf(acct, [[jpeg, 'turned.jpg']]);
    const [page] = await pagesOf(pdf);
    expect(page!.filter).toBe('/DCTDecode');
    expect(page!.raw).toEqual(jpeg);
    expect(page!.size).toEqual([225, 300]); // 300 × 400 px upright at 96 dpi
    // Turned a quarter clockwise: the stored bottom-left (blue) is now top-left, the top-left (red) top-right.
    const shown = await renderedPage(pdf);
    expect([shown.at(0.25, 0.25), shown.at(0.75, 0.25), shown.at(0.25, 0.75), shown.at(0.75, 0.75)].map((c, i) => near(c, [BLUE, RED, WHITE, GREEN][i]!))).toEqual([true, true, true, true]);
  });

  it('every EXIF orientation shows the picture the same way round', async () => {
    const acct = await newAccount({ balance: '50.00' });
    // What each orientation's stored picture is, so that turning it back gives the upright one.
    const stored: Record<number, number[][]> = { 1: [RED, GREEN, BLUE, WHITE], 2: [GREEN, RED, WHITE, BLUE], 3: [WHITE, BLUE, GREEN, RED], 4: [BLUE, WHITE, RED, GREEN], 5: [RED, BLUE, GREEN, WHITE], 6: [GREEN, WHITE, RED, BLUE], 7: [WHITE, GREEN, BLUE, RED], 8: [BLUE, RED, WHITE, GREEN] };
    for (let o = 1; o <= 8; o++) {
      const jpeg = withOrientation(await storedAs(stored[o]!), o);
      const shown = await renderedPage(await pdfOf(acct, [[jpeg, `o${o}.jpg`]]));
      const got = [shown.at(0.25, 0.25), shown.at(0.75, 0.25), shown.at(0.25, 0.75), shown.at(0.75, 0.75)];
      expect(got.map((c, i) => near(c, [RED, GREEN, BLUE, WHITE][i]!)), `orientation ${o}: ${JSON.stringify(got)}`).toEqual([true, true, true, true]);
    }
  });

  it('an Adobe CMYK JPEG (inverted samples) shows its ink, not the inverse', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const shown = await renderedPage(await pdfOf(acct, [[await adobeCmykJpeg([255, 0, 0, 0]), 'cyan.jpg']]));
    const [r, g, b] = shown.at(0.5, 0.5);
    expect(r!, `cyan expected, got ${[r, g, b]}`).toBeLessThan(80);
    expect(Math.min(g!, b!)).toBeGreaterThan(140);
  });

  it('a PNG keeps its transparency as a soft mask; fit portrait puts it inside A4 margins', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const pdf = await pdfOf(acct, [[await halfTransparentPng(200, 100, [0, 0, 255]), 'half.png']], { fit: 'portrait' });
    const [page] = await pagesOf(pdf);
    expect(page!.smask).toBe(true);
    expect(page!.size.map(Math.round)).toEqual([595, 842]);
    const shown = await renderedPage(pdf);
    expect(shown.at(0.3, 0.5)).toEqual(WHITE); // the transparent half shows the page
    expect(near(shown.at(0.7, 0.5), BLUE)).toBe(true);
    expect(shown.at(0.01, 0.5)).toEqual(WHITE); // the margin
  });

  it('an opaque 8-bit PNG keeps its own compressed rows (never decoded): the stream is its IDAT, the colours right', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const png = makePng(300, 200, [20, 160, 90]);
    const pdf = await pdfOf(acct, [[png, 'flat.png']]);
    const [page] = await pagesOf(pdf);
    expect(page!.filter).toBe('/FlateDecode');
    const idat = png.subarray(8 + 25 + 8, png.length - 12 - 4); // after the signature and IHDR, before the IDAT CRC and IEND
    expect(page!.raw).toEqual(idat);
    expect(near((await renderedPage(pdf)).at(0.5, 0.5), [20, 160, 90], 2)).toBe(true);
  });

  it('a palette PNG shows its palette colours', async () => {
    const acct = await newAccount({ balance: '20.00' });
    // 40 × 20, left half palette entry 0 (orange), right half entry 1 (teal).
    const rows = new Uint8Array(20 * 41);
    for (let y = 0; y < 20; y++) for (let x = 0; x < 40; x++) rows[y * 41 + 1 + x] = x < 20 ? 0 : 1;
    const png = assemblePng(40, 20, 3, rows, Uint8Array.from([255, 128, 0, 0, 128, 128]));
    const shown = await renderedPage(await pdfOf(acct, [[png, 'palette.png']]));
    expect(near(shown.at(0.25, 0.5), [255, 128, 0], 8) && near(shown.at(0.75, 0.5), [0, 128, 128], 8), `${shown.at(0.25, 0.5)} / ${shown.at(0.75, 0.5)}`).toBe(true);
  });

  it('a JPEG that declares 300 dpi gets a page of its size at 300 dpi', async () => {
    const acct = await newAccount({ balance: '20.00' });
    const jpeg = await quadrantJpeg(600, 300);
    // JFIF APP0 with density 300 × 300 dots per inch.
    const jfif = Uint8Array.from([0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 1, 1, 44, 1, 44, 0, 0]);
    const withDpi = Uint8Array.from([...jpeg.subarray(0, 2), ...jfif, ...jpeg.subarray(2)]);
    const [page] = await pagesOf(await pdfOf(acct, [[withDpi, 'dense.jpg']]));
    expect(page!.size).toEqual([144, 72]);
  });

  it('a transparent PNG too large to decode fails the task with a message saying so, refunded', async () => {
    const acct = await newAccount({ balance: '20.00' });
    // RGBA, its alpha must be decoded: 5000 × 4000, 20 Mpx, all transparent (its rows deflate to about 80 KB).
    // Made whole: a header patched over a 2 × 2 picture's data is refused as unreadable before any limit (test/codec-limits.test.ts).
    const png = assemblePng(5000, 4000, 6, new Uint8Array(4000 * (1 + 5000 * 4)));
    const up = await uploadOk(acct, png, 'huge.png');
    const rec = await runOp(acct, 'jpg-to-pdf', { file_ids: [up.file_id] });
    expect(rec.status).toBe('failed');
    expect(rec.refunded).toBe(true);
    expect(rec.error_message).toMatch(/5000 × 4000 pixels.*12 million.*save it as JPEG/);
  });
});

/** A 200 × 200 JPEG whose quadrants (top-left, top-right, bottom-left, bottom-right) are these colours. */
async function storedAs(colours: number[][]): Promise<Uint8Array> {
  const mupdf = await loadMupdf();
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 200, 200], false);
  const [px, stride] = [pix.getPixels(), pix.getStride()];
  for (let y = 0; y < 200; y++) for (let x = 0; x < 200; x++) px.set(colours[(y < 100 ? 0 : 2) + (x < 100 ? 0 : 1)]!, y * stride + x * 3);
  const jpeg = pix.asJPEG(95).slice();
  pix.destroy();
  return jpeg;
}
