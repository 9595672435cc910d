/** Zip limits (src/codecs/zip-directory.ts): checked on the declared sizes before inflating, and by the inflate itself. */
import { describe, expect, it } from 'vitest';
import * as zlib from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { MAX_ZIP_ENTRIES, readZipDirectory, readZipEntry, ZipError } from '../src/codecs/zip-directory';
import { LimitExceeded } from '../src/lib/limits';
import { balanceOf, newAccount, runOp, uploadOk } from './helpers';

// Beyond the part of node:zlib that src/node-zlib.d.ts declares (workerd has all of it).
const { deflateRawSync, constants } = zlib as unknown as {
  deflateRawSync: (data: Uint8Array, options: { finishFlush: number }) => Uint8Array;
  constants: { Z_FULL_FLUSH: number };
};

/**
 * Raw deflate data of `chunks` MB of zeros, made without holding them: one megabyte deflated with
 * a full flush (not final, byte-aligned, no reference back past it) repeated, then an empty final block.
 */
export function deflatedZeros(chunks: number): Uint8Array {
  const one = new Uint8Array(deflateRawSync(new Uint8Array(1 << 20), { finishFlush: constants.Z_FULL_FLUSH }));
  const out = new Uint8Array(one.length * chunks + 2);
  for (let i = 0; i < chunks; i++) out.set(one, i * one.length);
  out.set([0x03, 0x00], one.length * chunks);
  return out;
}

interface RawEntry {
  name: string;
  data: Uint8Array;
  /** What the headers declare it unpacks to. */
  size: number;
  method?: number;
}

/** A zip of entries whose headers say what the test wants (CRC left 0: not checked by the reader). */
export function rawZip(entries: RawEntry[]): Uint8Array {
  const enc = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(8, e.method ?? 8, true);
    lv.setUint32(18, e.data.length, true);
    lv.setUint32(22, Math.min(e.size, 0xffffffff), true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    const central = new Uint8Array(46 + name.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(10, e.method ?? 8, true);
    cv.setUint32(20, e.data.length, true);
    cv.setUint32(24, Math.min(e.size, 0xffffffff), true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(42, offset, true);
    central.set(name, 46);
    locals.push(local, e.data);
    centrals.push(central);
    offset += local.length + e.data.length;
  }
  const centralSize = centrals.reduce((n, c) => n + c.length, 0);
  const eocd = new Uint8Array(22);
  const ev = new DataView(eocd.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, centralSize, true);
  ev.setUint32(16, offset, true);
  const parts = [...locals, ...centrals, eocd];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
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

describe('zip limits', () => {
  // About 1 MB of deflate data for 1 GiB of zeros.
  const gigabyte = deflatedZeros(1024);

  it('a zip bomb (document.xml: 1 GiB of zeros deflated to about 1 MB) is refused from its directory, before inflating anything', () => {
    expect(gigabyte.length).toBeLessThan(1_200_000);
    const zip = rawZip([{ name: 'word/document.xml', data: gigabyte, size: 1 << 30 }]);
    const started = Date.now();
    const limit = limitOf(() => readZipDirectory(zip));
    expect(Date.now() - started).toBeLessThan(200); // nothing was inflated
    expect(limit.limit).toBe('zip_entry_size');
    expect(limit.message).toBe("the archive's part word/document.xml unpacks to 1.1 GB; at most 64 MB is unpacked from one part");
    // And readZipEntry alone refuses it too, given such an entry.
    const entry = { method: 8, compressedSize: gigabyte.length, size: 1 << 30, headerOffset: 0, name: 'word/document.xml' };
    expect(limitOf(() => readZipEntry(zip, entry)).limit).toBe('zip_entry_size');
  });

  it('the bomb whose header lies small is stopped once it passes the declared size: damage (ZipError), never "memory limit exceeded"', () => {
    const zip = rawZip([{ name: 'word/document.xml', data: gigabyte, size: 1_000_000 }]);
    const entry = readZipDirectory(zip).get('word/document.xml')!;
    const started = Date.now();
    let error: unknown;
    try {
      readZipEntry(zip, entry);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ZipError);
    expect((error as Error).message).toMatch(/inflates to more than the 1000000 bytes declared/);
    expect((error as Error).message).not.toMatch(/memory limit/i); // which the task runner takes for exhaustion and retries
    expect(Date.now() - started).toBeLessThan(1000); // about 2 MB inflated, not a gigabyte
  });

  it('an entry within the size limit that unpacks over 1000 times its packed size is a bomb', () => {
    const data = deflatedZeros(60); // 60 MiB of zeros in about 60 KB
    const zip = rawZip([{ name: 'word/media/image1.bmp', data, size: 60 << 20 }]);
    const limit = limitOf(() => readZipDirectory(zip));
    expect(limit.limit).toBe('zip_ratio');
    expect(limit.message).toMatch(/word\/media\/image1\.bmp unpacks from 0\.1 MB to 62\.9 MB, more than 1000 times/);
  });

  it('parts that each fit but together unpack past 192 MB are refused', () => {
    // Four parts of 60 MB declared, each packed at 100:1 (its data is not read: the directory decides).
    const filler = new Uint8Array(600_000);
    const zip = rawZip([1, 2, 3, 4].map((n) => ({ name: `word/media/image${n}.bmp`, data: filler, size: 60_000_000 })));
    const limit = limitOf(() => readZipDirectory(zip));
    expect(limit.limit).toBe('zip_total_size');
    expect(limit.message).toMatch(/more than 192 MB together \(240 MB by the first 4\)/);
  });

  it('stored parts are views of the archive: their size counts for no limit', () => {
    const big = new Uint8Array(2_000_000);
    const zip = rawZip([{ name: 'word/media/video.mp4', data: big, size: big.length, method: 0 }]);
    const entry = readZipDirectory(zip).get('word/media/video.mp4')!;
    expect(readZipEntry(zip, entry).length).toBe(big.length);
  });

  it(`more than ${MAX_ZIP_ENTRIES} entries are refused; a count the archive cannot hold is damage`, () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i <= MAX_ZIP_ENTRIES; i++) files[`p${i}`] = new Uint8Array(0);
    const many = zipSync(files, { level: 0 });
    expect(limitOf(() => readZipDirectory(many)).limit).toBe('zip_entries');
    // A two-entry zip whose directory claims 60000.
    const small = zipSync({ a: strToU8('a'), b: strToU8('b') });
    const lying = small.slice();
    new DataView(lying.buffer).setUint16(lying.length - 22 + 10, 60000, true);
    expect(() => readZipDirectory(lying)).toThrow(ZipError);
  });

  it('a directory entry cut short is damage, not a RangeError from past the end', () => {
    const zip = zipSync({ 'word/document.xml': strToU8('<w:document/>') });
    const damaged = zip.slice();
    const view = new DataView(damaged.buffer);
    const central = view.getUint32(damaged.length - 22 + 16, true);
    view.setUint16(central + 30, 0xffff, true); // an extra field running past the archive
    expect(() => readZipDirectory(damaged)).toThrow(ZipError);
  });

  it('word-to-pdf: a DOCX whose document.xml is a zip bomb (1 GiB of zeros in 1 MB) fails at once, refunded, nothing inflated', async () => {
    const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    const packageParts: Record<string, string> = {
      '[Content_Types].xml':
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    };
    const parts = Object.entries(packageParts).map(([name, text]) => ({ name, data: strToU8(text), size: strToU8(text).length, method: 0 }));
    const bomb = rawZip([...parts, { name: 'word/document.xml', data: gigabyte, size: 1 << 30 }]);
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, bomb, 'bomb.docx');
    const before = await balanceOf(acct);
    const started = Date.now();
    const rec = await runOp(acct, 'word-to-pdf', { file_id: up.file_id });
    console.log(JSON.stringify({ bomb: rec.status, error_message: rec.error_message, ms: Date.now() - started }));
    expect(rec.status).toBe('failed');
    expect(rec.refunded).toBe(true);
    expect(await balanceOf(acct)).toBe(before);
    // Refused from the directory, not retried: a retried task waits out the queue's backoff.
    expect(Date.now() - started).toBeLessThan(20_000);
    // The message names the limit once the DOCX reader lets the zip's LimitExceeded through
    // (src/convert/office/package.ts wraps what readZipDirectory throws as damage).
    expect(rec.error_message).toMatch(/word\/document\.xml unpacks to 1\.1 GB|damaged/);
  });
});
