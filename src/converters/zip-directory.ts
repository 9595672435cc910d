/**
 * A zip archive's directory and its entries' data, inflated by the runtime's zlib (node:zlib,
 * native in workerd and Node). fflate reads zips too, but keeps entry offsets to itself and
 * inflates in JavaScript: GASU.docx's 3.7 MB of XML took 25 ms warm and 107 ms cold that way,
 * 8-11 ms natively. Only what reading OOXML needs: stored and deflated entries, ZIP64 sizes and
 * offsets; no encryption, no spanning.
 */
import { inflateRawKnownSize } from './native-zlib';

export interface ZipEntry {
  /** 0 stored, 8 deflated (others cannot be read). */
  method: number;
  compressedSize: number;
  size: number;
  /** Offset of the entry's local header. */
  headerOffset: number;
}

export class ZipError extends Error {
  override name = 'ZipError';
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const utf8 = new TextDecoder();

/** The entries by name; throws ZipError when the archive's directory is damaged or missing. */
export function readZipDirectory(bytes: Uint8Array): Map<string, ZipEntry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  const u64 = (at: number) => u32(at) + u32(at + 4) * 2 ** 32;
  // The end-of-central-directory record: the last 22 bytes, or up to a 64 KB comment before them.
  let eocd = bytes.length - 22;
  const stop = Math.max(0, eocd - 0xffff);
  while (eocd >= stop && u32(eocd) !== EOCD) eocd--;
  if (eocd < stop) throw new ZipError('no end of central directory (truncated?)');
  let count = u16(eocd + 10);
  let offset = u32(eocd + 16);
  if (eocd >= 20 && u32(eocd - 20) === ZIP64_LOCATOR) {
    const z = u64(eocd - 12);
    if (z + 56 <= bytes.length && u32(z) === ZIP64_EOCD) {
      count = u64(z + 32);
      offset = u64(z + 48);
    }
  }
  const entries = new Map<string, ZipEntry>();
  for (let i = 0, p = offset; i < count; i++) {
    if (p + 46 > bytes.length || u32(p) !== CENTRAL) throw new ZipError(`central directory entry ${i} is damaged`);
    const nameLength = u16(p + 28), extraLength = u16(p + 30), commentLength = u16(p + 32);
    const entry: ZipEntry = { method: u16(p + 10), compressedSize: u32(p + 20), size: u32(p + 24), headerOffset: u32(p + 42) };
    // ZIP64 extra field (id 1): the 64-bit values of the fields that are 0xffffffff, in order.
    for (let x = p + 46 + nameLength, end = x + extraLength; x + 4 <= end; x += 4 + u16(x + 2)) {
      if (u16(x) !== 1) continue;
      let v = x + 4;
      if (entry.size === 0xffffffff) (entry.size = u64(v)), (v += 8);
      if (entry.compressedSize === 0xffffffff) (entry.compressedSize = u64(v)), (v += 8);
      if (entry.headerOffset === 0xffffffff) entry.headerOffset = u64(v);
    }
    entries.set(utf8.decode(bytes.subarray(p + 46, p + 46 + nameLength)), entry);
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** An entry's bytes; throws ZipError when its data is damaged or its method unknown. */
export function readZipEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const at = entry.headerOffset;
  if (at + 30 > bytes.length || bytes[at] !== 0x50 || bytes[at + 1] !== 0x4b || new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, true) !== LOCAL) {
    throw new ZipError('local header is damaged');
  }
  const start = at + 30 + (bytes[at + 26]! | (bytes[at + 27]! << 8)) + (bytes[at + 28]! | (bytes[at + 29]! << 8));
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw new ZipError('entry data is truncated');
  const data = bytes.subarray(start, end);
  // Stored data is a view of the archive (never written to): a DOCX of photos is not held twice.
  if (entry.method === 0) return data;
  if (entry.method !== 8) throw new ZipError(`compression method ${entry.method} is not supported`);
  try {
    return inflateRawKnownSize(data, entry.size);
  } catch (e) {
    throw new ZipError(`entry data is damaged (${(e as Error).message})`);
  }
}
