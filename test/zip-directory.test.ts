import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { deflateSync } from 'node:zlib';
import { readZipDirectory, readZipEntry, ZipError } from '../src/codecs/zip-directory';
import { inflateKnownSize } from '../src/codecs/native-zlib';
import { LimitExceeded } from '../src/lib/limits';

const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('zip directory', () => {
  const long = 'word '.repeat(5000);
  const zip = zipSync({
    'word/document.xml': [strToU8(long), { level: 6 }],
    'stored.txt': [strToU8('kept as it is'), { level: 0 }],
    'Ünïcode/名前.xml': strToU8('<x/>'),
  });

  it('lists every entry with its method and sizes, and reads stored and deflated data', () => {
    const entries = readZipDirectory(zip);
    expect([...entries.keys()].sort()).toEqual(['stored.txt', 'word/document.xml', 'Ünïcode/名前.xml']);
    const doc = entries.get('word/document.xml')!;
    expect(doc.method).toBe(8);
    expect(doc.size).toBe(long.length);
    expect(doc.compressedSize).toBeLessThan(doc.size / 10);
    expect(entries.get('stored.txt')!.method).toBe(0);
    expect(text(readZipEntry(zip, doc))).toBe(long);
    expect(text(readZipEntry(zip, entries.get('stored.txt')!))).toBe('kept as it is');
    expect(text(readZipEntry(zip, entries.get('Ünïcode/名前.xml')!))).toBe('<x/>');
  });

  it('a truncated archive has no directory; a damaged entry or an unknown method fails only that entry', () => {
    expect(() => readZipDirectory(zip.subarray(0, zip.length - 30))).toThrow(ZipError);
    const entries = readZipDirectory(zip);
    const doc = entries.get('word/document.xml')!;
    expect(() => readZipEntry(zip, { ...doc, headerOffset: doc.headerOffset + 1 })).toThrow(/local header/);
    expect(() => readZipEntry(zip, { ...doc, method: 12 })).toThrow(/method 12/);
    const damaged = zip.slice();
    damaged.fill(0xff, doc.headerOffset + 60, doc.headerOffset + 80);
    expect(() => readZipEntry(damaged, doc)).toThrow(ZipError);
  });

  it('a larger declared size is not allocated up front, a smaller one stops the inflate, one past the limit is refused (test/zip-limits.test.ts)', () => {
    const doc = readZipDirectory(zip).get('word/document.xml')!;
    expect(text(readZipEntry(zip, { ...doc, size: 5_000_000 }))).toBe(long);
    expect(() => readZipEntry(zip, { ...doc, size: 100 })).toThrow(ZipError);
    // 4 GiB declared: past the 64 MB an entry may unpack to (src/codecs/zip-directory.ts).
    expect(() => readZipEntry(zip, { ...doc, size: 0xfffffff0 })).toThrow(LimitExceeded);
  });

  // workerd (not Node) threw "Memory limit exceeded" for entries of about 32-128 KB inflated with
  // their exact size as the bound: real DOCX files lost their styles.xml or were called damaged.
  it('entries of every size from 1 KB to 4 MB read in full inside workerd', () => {
    const files: Record<string, [Uint8Array, { level: 6 }]> = {};
    const sizes: number[] = [];
    for (let n = 1000; n < 4_000_000; n = Math.ceil(n * 1.3)) sizes.push(n);
    for (const n of sizes) {
      const xml = '<w:p><w:r><w:t>styles ' + 'x'.repeat(n % 97) + '</w:t></w:r></w:p>';
      files[`part${n}.xml`] = [strToU8(xml.repeat(Math.ceil(n / xml.length)).slice(0, n)), { level: 6 }];
    }
    const archive = zipSync(files);
    const entries = readZipDirectory(archive);
    for (const n of sizes) expect(readZipEntry(archive, entries.get(`part${n}.xml`)!).length).toBe(n);
  });

  it('zlib data inflates to its known size, and not past it', () => {
    for (const n of [40_000, 65_536, 100_000, 1_000_000]) {
      const data = new Uint8Array(n).map((_, i) => (i % 4096 === 0 ? i & 255 : 0));
      const packed = deflateSync(data);
      expect(new Uint8Array(inflateKnownSize(packed, n))).toEqual(data);
      expect(() => inflateKnownSize(packed, n - 1)).toThrow(/more than/);
    }
  });
});
