/**
 * A zip archive's directory and its entries' data, inflated by the runtime's zlib (node:zlib,
 * native in workerd and Node). fflate reads zips too, but keeps entry offsets to itself and
 * inflates in JavaScript: GASU.docx's 3.7 MB of XML took 25 ms warm and 107 ms cold that way,
 * 8-11 ms natively. Only what reading OOXML needs: stored and deflated entries, ZIP64 sizes and
 * offsets; no encryption, no spanning.
 */
import { Inflate } from 'fflate';
import { inflateRawKnownSize } from './native-zlib';
import { LimitExceeded, requireAtMost } from '../lib/limits';

export interface ZipEntry {
  /** 0 stored, 8 deflated (others cannot be read). */
  method: number;
  compressedSize: number;
  size: number;
  /** Offset of the entry's local header. */
  headerOffset: number;
  /** The entry's name, for messages (set by readZipDirectory). */
  name?: string;
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

/*
 * Limits on what an archive may make us inflate, checked on the sizes its central directory
 * declares, before anything is inflated, and again by the inflate itself (which stops at the
 * declared size: see native-zlib.ts). Past one, LimitExceeded; damage stays ZipError.
 *
 * The Worker has 128 MB. A DOCX upload is at most 50 MB, and that archive is held while it is read;
 * an entry is inflated into one buffer of its size, plus workerd's zlib's growth room. 64 MB per
 * entry is more than any picture a 50 MB upload can hold (pictures barely compress) and more XML
 * than a document whose pages could be laid out in the rest of the isolate; it also keeps the
 * inflate's bound (twice the size plus 64 KiB, native-zlib.ts) under workerd's 128 MB ceiling.
 * 192 MB in all: parts are inflated on demand and XML parts dropped once parsed, so the sum may be
 * larger than the isolate; it bounds the work one archive can ask for (a bomb of many 60 MB
 * entries). A real DOCX declares about its own size in pictures and a few times its size in XML.
 */
/** The most one deflated entry may declare it unpacks to. */
export const MAX_ZIP_ENTRY_BYTES = 64_000_000;
/** The most all the deflated entries of an archive may declare together. */
export const MAX_ZIP_TOTAL_BYTES = 192_000_000;
/** The most entries a directory may list: a DOCX has tens, one with a thousand pictures about a thousand. */
export const MAX_ZIP_ENTRIES = 10_000;
/**
 * Unpacked-to-packed ratio past which a big entry is a zip bomb: deflate's own limit is about
 * 1032:1, reached only by long runs of one byte; XML packs 10-50:1, pictures about 1:1.
 */
export const MAX_ZIP_RATIO = 1000;
/** Entries declaring less than this are not judged by their ratio: inflating them costs little. */
const RATIO_FROM_BYTES = 8_000_000;

const mb = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(1)} GB` : `${Math.max(0.1, Math.round(n / 1e5) / 10)} MB`);
const entryName = (entry: ZipEntry) => (entry.name === undefined ? 'an entry of the archive' : `the archive's part ${entry.name}`);

/** LimitExceeded when a deflated entry declares more than an entry may unpack to, or a bomb's ratio. */
function checkEntry(entry: ZipEntry): void {
  if (entry.method === 0) return; // stored: a view of the archive, never inflated
  requireAtMost(entry.size, MAX_ZIP_ENTRY_BYTES, 'zip_entry_size', () => `${entryName(entry)} unpacks to ${mb(entry.size)}; at most ${mb(MAX_ZIP_ENTRY_BYTES)} is unpacked from one part`);
  if (entry.size >= RATIO_FROM_BYTES && entry.size > MAX_ZIP_RATIO * entry.compressedSize) {
    throw new LimitExceeded(
      'zip_ratio',
      `${entryName(entry)} unpacks from ${mb(entry.compressedSize)} to ${mb(entry.size)}, more than ${MAX_ZIP_RATIO} times its packed size (a zip bomb); no real document packs that tight`,
    );
  }
}

/**
 * The entries by name; throws ZipError when the archive's directory is damaged or missing, and
 * LimitExceeded when it lists more entries, or declares more to unpack, than is read.
 */
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
  // Each entry takes at least 46 bytes: a count the archive cannot hold is damage, not a limit.
  if (offset > bytes.length || count * 46 > bytes.length - offset) throw new ZipError(`the directory claims ${count} entries, more than the archive can hold`);
  requireAtMost(count, MAX_ZIP_ENTRIES, 'zip_entries', () => `the archive has ${count} parts; at most ${MAX_ZIP_ENTRIES} are read`);
  const entries = new Map<string, ZipEntry>();
  let total = 0;
  for (let i = 0, p = offset; i < count; i++) {
    if (p + 46 > bytes.length || u32(p) !== CENTRAL) throw new ZipError(`central directory entry ${i} is damaged`);
    const nameLength = u16(p + 28), extraLength = u16(p + 30), commentLength = u16(p + 32);
    if (p + 46 + nameLength + extraLength + commentLength > bytes.length) throw new ZipError(`central directory entry ${i} is truncated`);
    const entry: ZipEntry = { method: u16(p + 10), compressedSize: u32(p + 20), size: u32(p + 24), headerOffset: u32(p + 42) };
    // ZIP64 extra field (id 1): the 64-bit values of the fields that are 0xffffffff, in order.
    for (let x = p + 46 + nameLength, end = x + extraLength; x + 4 <= end; x += 4 + u16(x + 2)) {
      if (u16(x) !== 1) continue;
      let v = x + 4;
      const need = (entry.size === 0xffffffff ? 8 : 0) + (entry.compressedSize === 0xffffffff ? 8 : 0) + (entry.headerOffset === 0xffffffff ? 8 : 0);
      if (v + need > Math.min(end, bytes.length)) throw new ZipError(`central directory entry ${i} has a truncated ZIP64 field`);
      if (entry.size === 0xffffffff) (entry.size = u64(v)), (v += 8);
      if (entry.compressedSize === 0xffffffff) (entry.compressedSize = u64(v)), (v += 8);
      if (entry.headerOffset === 0xffffffff) entry.headerOffset = u64(v);
    }
    entry.name = utf8.decode(bytes.subarray(p + 46, p + 46 + nameLength));
    checkEntry(entry);
    if (entry.method !== 0) total += entry.size;
    requireAtMost(total, MAX_ZIP_TOTAL_BYTES, 'zip_total_size', () => `the archive's parts unpack to more than ${mb(MAX_ZIP_TOTAL_BYTES)} together (${mb(total)} by the first ${i + 1}); at most ${mb(MAX_ZIP_TOTAL_BYTES)} is unpacked from one file`);
    entries.set(entry.name, entry);
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * An entry's bytes; throws ZipError when its data is damaged (inflating past its declared size
 * included: a lying header is stopped there) or its method unknown, and LimitExceeded, before
 * inflating, when it declares more than an entry may unpack to.
 */
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
  checkEntry(entry);
  try {
    return inflateRawKnownSize(data, entry.size);
  } catch (e) {
    throw new ZipError(`entry data is damaged (${(e as Error).message})`);
  }
}

/** Compressed bytes pushed to the inflater at a time: about a megabyte of XML comes out of each. */
const PUSH_BYTES = 64 * 1024;

/**
 * An entry's bytes in pieces as they inflate, so a large part (a big sheet's XML) is never held
 * whole: the same checks as readZipEntry, the declared size enforced as the pieces come.
 */
export function readZipEntryPieces(bytes: Uint8Array, entry: ZipEntry, onPiece: (piece: Uint8Array) => void): void {
  if (entry.method !== 8) return onPiece(readZipEntry(bytes, entry));
  const at = entry.headerOffset;
  if (at + 30 > bytes.length || new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, true) !== LOCAL) throw new ZipError('local header is damaged');
  const start = at + 30 + (bytes[at + 26]! | (bytes[at + 27]! << 8)) + (bytes[at + 28]! | (bytes[at + 29]! << 8));
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw new ZipError('entry data is truncated');
  checkEntry(entry);
  let total = 0;
  const inflater = new Inflate((piece) => {
    total += piece.length;
    if (total > entry.size) throw new ZipError('entry data inflates past its declared size');
    onPiece(piece);
  });
  try {
    for (let p = start; p < end; p += PUSH_BYTES) inflater.push(bytes.subarray(p, Math.min(end, p + PUSH_BYTES)), p + PUSH_BYTES >= end);
  } catch (e) {
    if (e instanceof ZipError || e instanceof LimitExceeded) throw e;
    throw new ZipError(`entry data is damaged (${(e as Error).message})`);
  }
}
