/**
 * Image limits, checked on what a file declares before anything is decoded: one pixel limit
 * (MAX_DECODED_PIXELS, src/codecs/image-header.ts) for the watermark's logo, WebP, and the Word
 * converter's PNG paths; PNG data that cannot hold the pixels its header declares refused.
 */
import { describe, expect, it } from 'vitest';
import * as zlib from 'node:zlib';
import { zlibSync } from 'fflate';
import { assemblePng } from '../src/codecs/png';
import { MAX_ICC_BYTES, readPng } from '../src/codecs/png-parts';
import { MAX_DECODED_PIXELS, pngHeader, pngProblem } from '../src/codecs/image-header';
import { MAX_DECODED_PIXELS as IMAGE_PAGES_PIXELS } from '../src/pdf/image-pages';
import { MAX_WEBP_PIXELS, webpToPng } from '../src/codecs/webp';
import { pngAlpha } from '../src/codecs/png-alpha';
import { deinterlace } from '../src/codecs/png-interlace';
import { LimitExceeded } from '../src/lib/limits';
import { balanceOf, markerPdf, newAccount, runOp, uploadOk } from './helpers';

const { deflateRawSync, constants } = zlib as unknown as {
  deflateRawSync: (data: Uint8Array, options: { finishFlush: number }) => Uint8Array;
  constants: { Z_FULL_FLUSH: number };
};

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  let c = 0xffffffff;
  for (let i = 4; i < 8 + data.length; i++) c = crcTable[(c ^ out[i]!) & 0xff]! ^ (c >>> 8);
  v.setUint32(8 + data.length, (c ^ 0xffffffff) >>> 0);
  return out;
}
const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
};

/** A PNG of `width` × `height` (8-bit, `colorType`) whose IDAT is `idat` as given, and `extra` chunks before it. */
function pngWith(width: number, height: number, colorType: number, idat: Uint8Array, extra: Uint8Array[] = []): Uint8Array {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, colorType, 0, 0, 0], 8);
  return concat([Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), chunk('IHDR', ihdr), ...extra, chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))]);
}

/**
 * An honest 30000 × 30000 grey PNG, all black, in about 875 KB: its 900,030,000 bytes of rows (a
 * filter byte and 30000 zeros each) deflated a slice at a time with full flushes, never held.
 */
function hugeGreyPng(): Uint8Array {
  const slice = deflateRawSync(new Uint8Array(900_030), { finishFlush: constants.Z_FULL_FLUSH });
  const total = 900_030_000;
  const adler = ((total % 65521) << 16) | 1; // Adler-32 of zeros: a = 1, b = n mod 65521
  const z = new Uint8Array(2 + slice.length * 1000 + 2 + 4);
  z.set([0x78, 0x01]);
  for (let i = 0; i < 1000; i++) z.set(slice, 2 + i * slice.length);
  z.set([0x03, 0x00], 2 + slice.length * 1000);
  new DataView(z.buffer).setUint32(z.length - 4, adler >>> 0);
  return pngWith(30000, 30000, 0, z);
}

const limitOf = (f: () => unknown): LimitExceeded => {
  try {
    f();
  } catch (e) {
    if (e instanceof LimitExceeded) return e;
    throw e;
  }
  throw new Error('no LimitExceeded');
};

describe('image limits before decoding', () => {
  it('one pixel limit: the image operations, WebP and the header reader agree', () => {
    expect(MAX_DECODED_PIXELS).toBe(12_000_000);
    expect(IMAGE_PAGES_PIXELS).toBe(MAX_DECODED_PIXELS);
    expect(MAX_WEBP_PIXELS).toBe(MAX_DECODED_PIXELS);
  });

  it('a PNG header claiming 100000 × 100000 over 1 KB of data is refused; real PNGs read', () => {
    const lying = pngWith(100_000, 100_000, 2, zlibSync(new Uint8Array(1_000_000)).subarray(0, 1024));
    expect(pngHeader(lying)).toBeUndefined();
    expect(pngProblem(lying)).toMatch(/^its header declares 100000 × 100000 pixels, 30\.0 GB of rows, which its \d+ bytes of compressed data cannot hold$/);
    const real = assemblePng(300, 200, 2, new Uint8Array(200 * 901));
    expect(pngProblem(real)).toBeUndefined();
    expect(pngHeader(real)).toMatchObject({ width: 300, height: 200 });
    // The honest 30000 × 30000 grey PNG: its data does hold its pixels (it is refused by the pixel limit instead).
    const huge = hugeGreyPng();
    expect(huge.length).toBeLessThan(900_000);
    expect(pngProblem(huge)).toBeUndefined();
  });

  it("the Word converter's PNG paths refuse more than the limit before inflating anything", () => {
    const idat = new Uint8Array(16); // never inflated: the header's size decides
    const alpha = limitOf(() => pngAlpha(idat, 30000, 30000, 3));
    expect(alpha.limit).toBe('image_pixels');
    expect(alpha.message).toBe('a picture with transparency is 30000 × 30000 pixels: more than the 12 million this service decodes');
    expect(limitOf(() => deinterlace(idat, 20000, 20000, 3, true)).limit).toBe('image_pixels');
    // Within the limit, nothing changes: short data is still "undefined" (decoded the slow way).
    expect(pngAlpha(idat, 100, 100, 3)).toBeUndefined();
    expect(deinterlace(idat, 100, 100, 3, false)).toBeUndefined();
  });

  it('a WebP declaring more than the limit is refused before the codec starts; one with no size header is not decoded', async () => {
    // VP8X: canvas 16384 × 16384 (stored minus one, 24 bits little-endian).
    const vp8x = new Uint8Array(30);
    vp8x.set([...'RIFF'].map((c) => c.charCodeAt(0)), 0);
    vp8x.set([...'WEBPVP8X'].map((c) => c.charCodeAt(0)), 8);
    vp8x.set([0xff, 0x3f, 0x00, 0xff, 0x3f, 0x00], 24);
    const e = await webpToPng(vp8x, 'the WEBP logo').catch((err: unknown) => err);
    expect(e).toBeInstanceOf(LimitExceeded);
    expect((e as Error).message).toBe('the WEBP logo is 16384 × 16384 pixels: more than the 12 million this service decodes');
    await expect(webpToPng(new Uint8Array(40))).rejects.toThrow(/header does not read/);
  });

  it('an ICC profile larger than 1 MB is left out of the PNG parts', () => {
    const rows = zlibSync(new Uint8Array(4 * 5));
    const icc = (n: number) => chunk('iCCP', concat([new TextEncoder().encode('big'), Uint8Array.of(0, 0), new Uint8Array(n)]));
    expect(readPng(pngWith(4, 4, 2, rows, [icc(1000)]))!.icc!.length).toBe(1000);
    expect(readPng(pngWith(4, 4, 2, rows, [icc(MAX_ICC_BYTES + 1)]))!.icc).toBeUndefined();
  });
});

describe('image limits in the operations', () => {
  it('watermark: a 30000 × 30000 PNG logo (875 KB) is refused naming the pixel limit, refunded, MuPDF never given it', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const pdf = await uploadOk(acct, await markerPdf(1, 'L'), 'doc.pdf');
    const logo = await uploadOk(acct, hugeGreyPng(), 'logo.png');
    const before = await balanceOf(acct);
    const started = Date.now();
    const rec = await runOp(acct, 'watermark', { file_id: pdf.file_id, image_file_id: logo.file_id });
    expect(rec.status).toBe('failed');
    expect(rec.refunded).toBe(true);
    expect(rec.error_message).toMatch(/^The logo is 30000 × 30000 pixels: more than the 12 million this service decodes \(scale it down, or upload it as JPG/);
    expect(await balanceOf(acct)).toBe(before);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('watermark: a logo whose header claims 100000 × 100000 over 1 KB is refused as unreadable, refunded', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const pdf = await uploadOk(acct, await markerPdf(1, 'L'), 'doc.pdf');
    const logo = await uploadOk(acct, pngWith(100_000, 100_000, 0, zlibSync(new Uint8Array(1_000_000)).subarray(0, 1024)), 'logo.png');
    const rec = await runOp(acct, 'watermark', { file_id: pdf.file_id, image_file_id: logo.file_id });
    expect(rec.status).toBe('failed');
    expect(rec.refunded).toBe(true);
    expect(rec.error_message).toMatch(/^The logo could not be read as a PNG \(its header declares 100000 × 100000 pixels.*cannot hold\)/);
  });

  it('jpg-to-pdf and photo-to-pdf: a PNG whose header claims 100000 × 100000 over 1 KB of data is refused, not converted and charged', async () => {
    const acct = await newAccount({ balance: '10.00' });
    // Opaque 8-bit RGB: the kind whose rows went into the PDF as they were, never decoded.
    const lying = await uploadOk(acct, pngWith(100_000, 100_000, 2, zlibSync(new Uint8Array(1_000_000)).subarray(0, 1024)), 'lying.png');
    const before = await balanceOf(acct);
    for (const op of ['jpg-to-pdf', 'photo-to-pdf']) {
      const rec = await runOp(acct, op, { file_ids: [lying.file_id] });
      expect(rec.status, op).toBe('failed');
      expect(rec.refunded, op).toBe(true);
      expect(rec.error_message, op).toMatch(/could not be read as an image/);
    }
    expect(await balanceOf(acct)).toBe(before);
  });
});
