/**
 * A document written out by us, object by object, instead of MuPDF's saveToBuffer: only the
 * objects reachable from the trailer (what a garbage-collecting save keeps), each stream with its
 * raw encoded bytes as the input has them. MuPDF's save builds the whole output in one buffer in
 * its heap that grows by doubling (the old and the new buffer alive at once), then it is copied
 * out: a 48 MB reorder took its heap from 23 to 110 MB. Here each object is serialised and its
 * stream read one at a time, the heap stays near its start, and the output is JS chunks that are
 * never joined. Object numbers are kept, so the cross-reference table lists the unused ones as free.
 */
import type { PDFDocument } from './pdf';
import { inflateAtMost, reflateStreaming } from '../codecs/flate-rows';
import { deflateSmall } from '../codecs/deflate-small';
import { latin1Bytes as latin1 } from '../lib/latin1';
import { encryptData, importFileKey, type Aes256Security } from './aes256';

type PDFObject = ReturnType<PDFDocument['getTrailer']>;

/** Whether this writer can write the document: not an encrypted one (its strings and streams would need encrypting again). */
export function canRewrite(doc: PDFDocument): boolean {
  return doc.getTrailer().get('Encrypt').isNull();
}

export interface RewriteOptions {
  /**
   * Encoded stream data by object number, written in place of what the document holds for that
   * stream: data kept out of MuPDF's heap (a Word document's photos) goes straight from the
   * caller's bytes into the output.
   */
  rawStreams?: ReadonlyMap<number, Uint8Array>;
}

/** The reachable objects of `doc` as a complete PDF, in chunks. */
export function writeReachable(doc: PDFDocument, options: RewriteOptions = {}): Uint8Array[] {
  const trailer = doc.getTrailer();
  return writeObjects(doc, reachableObjects(doc, ['Root', 'Info'].map((k) => trailer.get(k))), options);
}

/**
 * The reachable objects written to `write` as they are made, never held whole: a stream is read,
 * written and let go before the next, so a 48 MB file costs the isolate its input and one stream.
 * With `security` every string and stream is encrypted with AES-256 (revision 6, ./aes256.ts) on
 * the way, the /Encrypt dictionary added unencrypted and an /ID given to a file that had none.
 * Returns the bytes written.
 */
export interface StreamOptions {
  /** Unfiltered streams (content, fonts) deflated on the way, Flate streams deflated again when that is smaller. */
  deflate?: boolean;
  /**
   * A stream written otherwise, made when its turn comes (so one at a time is in memory): its new
   * data, and dictionary entries (numbers, or names as /Name) written in place of the document's.
   */
  replace?: (num: number) => { data: Uint8Array; entries: Record<string, number | string | null> } | undefined;
  /**
   * Objects that are not streams packed, deflated, into object streams of up to 100, and a
   * cross-reference stream for the table (PDF 1.5; ISO 32000-1, 7.5.7–7.5.8): what makes qpdf's
   * output smaller than a plain rewrite. Ignored when encrypting.
   */
  objectStreams?: boolean;
}

export async function streamReachable(doc: PDFDocument, write: (chunk: Uint8Array) => Promise<void>, security?: Aes256Security, options: StreamOptions = {}): Promise<number> {
  const trailer = doc.getTrailer();
  const reachable = reachableObjects(doc, ['Root', 'Info'].map((k) => trailer.get(k)));
  const key = security ? await importFileKey(security.key) : undefined;
  // The first number neither the document nor a reachable object uses: for what is added here.
  const firstUnused = Math.max(doc.countObjects(), ...[...reachable.keys()].map((n) => n + 1));
  const extra = security ? { num: firstUnused, body: security.dictionary } : undefined;
  if (security && trailer.get('ID').isNull()) {
    const id = doc.newArray();
    const first = crypto.getRandomValues(new Uint8Array(16));
    id.push(doc.newByteString(first));
    id.push(doc.newByteString(first));
    trailer.put('ID', id);
  }
  let length = 0;
  const emit = async (chunk: Uint8Array) => {
    length += chunk.length;
    await write(chunk);
  };
  await emit(HEADER);
  const offsets = new Map<number, { gen: number; offset: number }>();
  const packer = options.objectStreams && !security ? new ObjectStreamPacker(firstUnused) : undefined;
  const flushPacked = async () => {
    for (let packed = packer?.flush(length); packed; packed = packer?.flush(length)) for (const part of packed) await emit(part);
  };
  for (const [num, gen] of [...reachable].sort((a, b) => a[0] - b[0])) {
    const ref = doc.newIndirect(num);
    if (packer && gen === 0 && !ref.isStream()) {
      if (packer.add(num, ref.resolve().toString(true, true), kindOf(ref))) await flushPacked();
      continue;
    }
    offsets.set(num, { gen, offset: length });
    let replacement: Uint8Array | undefined;
    const replaced = ref.isStream() ? options.replace?.(num) : undefined;
    const deflate = !replaced && options.deflate && ref.isStream() && ref.get('Filter').isNull();
    if (replaced) replacement = replaced.data;
    if (deflate) {
      const raw = ref.readRawStream();
      replacement = deflateSmall(raw.asUint8Array());
      raw.destroy();
    } else if (!replaced && options.deflate && ref.isStream() && plainFlate(ref)) {
      replacement = await reflated(ref);
    }
    if (key) {
      await encryptStrings(doc, ref.resolve(), key);
      if (ref.isStream()) {
        if (!replacement) {
          const raw = ref.readRawStream();
          replacement = raw.asUint8Array().slice();
          raw.destroy();
        }
        replacement = await encryptData(key, replacement);
      }
    }
    const entries = replaced ? replaced.entries : deflate ? { Filter: '/FlateDecode' } : undefined;
    for (const part of serialiseObject(doc, num, gen, replacement, entries)) await emit(part);
  }
  if (extra) {
    offsets.set(extra.num, { gen: 0, offset: length });
    await emit(latin1(`${extra.num} 0 obj\n${extra.body}\nendobj\n`));
  }
  if (packer) {
    await flushPacked();
    for (const part of packer.crossReferenceStream(doc, offsets, length)) await emit(part);
  } else await emit(xrefAndTrailer(doc, reachable, offsets, length, extra?.num));
  return length;
}

/** What sort of object this is, for grouping like with like: its /Type and /Subtype or /S, else its shape. */
function kindOf(ref: PDFObject): string {
  const name = (key: string) => {
    const value = ref.get(key);
    return value.isName() ? value.asName() : '';
  };
  if (ref.isDictionary()) return `${name('Type')}/${name('Subtype') || name('S')}`;
  return ref.isArray() ? '[]' : '';
}

/**
 * Collects objects' serialised bodies into object streams as the writer meets them, and writes the
 * cross-reference stream that finds them. Object streams are numbered after every number the
 * document uses, so no object is renumbered and no reference rewritten.
 */
class ObjectStreamPacker {
  private static readonly PER_STREAM = 100;
  /**
   * Objects are gathered this many at a time and sorted by kind before being packed: like objects
   * side by side deflate smaller (compress low on the Xerox manual: 2,109,394 bytes in number
   * order, 2,033,490 sorted), while a small file still gets one stream, not one per kind. The
   * window bounds what is held: the serialised bodies of 5000 dictionaries and arrays.
   */
  private static readonly WINDOW = 5000;
  private pending: { num: number; body: string; kind: string }[] = [];
  private sorted = false;
  private readonly packed = new Map<number, { stream: number; index: number }>();
  private readonly streams = new Map<number, number>();

  constructor(private nextNum: number) {}

  /** Queues an object of `kind`; true when the window is full and its streams are ready to flush. */
  add(num: number, body: string, kind: string): boolean {
    this.pending.push({ num, body, kind });
    return this.pending.length >= ObjectStreamPacker.WINDOW;
  }

  /** The next object stream of the queued objects, written at `offset`, or nothing when none is queued. */
  flush(offset: number): Uint8Array[] | undefined {
    if (this.pending.length === 0) return undefined;
    if (!this.sorted) this.pending.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.num - b.num));
    this.sorted = true;
    const batch = this.pending.splice(0, ObjectStreamPacker.PER_STREAM);
    if (this.pending.length === 0) this.sorted = false;
    const stream = this.nextNum++;
    const header: string[] = [];
    const bodies: string[] = [];
    let at = 0;
    batch.forEach(({ num, body }, index) => {
      header.push(`${num} ${at}`);
      bodies.push(body);
      at += body.length + 1; // one byte per character: MuPDF writes PDF syntax as a byte string
      this.packed.set(num, { stream, index });
    });
    const head = header.join(' ') + '\n';
    const data = deflateSmall(latin1(head + bodies.join('\n') + '\n'));
    const dict = `<</Type/ObjStm/N ${batch.length}/First ${head.length}/Filter/FlateDecode/Length ${data.length}>>`;
    this.streams.set(stream, offset);
    return [latin1(`${stream} 0 obj\n${dict}\nstream\n`), data, latin1('\nendstream\nendobj\n')];
  }

  /** The cross-reference stream (with the trailer's entries) for objects at `offsets` and those packed here. */
  crossReferenceStream(doc: PDFDocument, offsets: Map<number, { gen: number; offset: number }>, xrefOffset: number): Uint8Array[] {
    const self = this.nextNum++;
    const table = new Uint8Array((self + 1) * 7);
    const view = new DataView(table.buffer);
    const row = (num: number, type: number, field2: number, field3: number) => {
      view.setUint8(num * 7, type);
      view.setUint32(num * 7 + 1, field2);
      view.setUint16(num * 7 + 5, field3);
    };
    row(0, 0, 0, 65535);
    for (let num = 1; num <= self; num++) {
      const direct = offsets.get(num);
      const packed = this.packed.get(num);
      const stream = this.streams.get(num);
      if (num === self) row(num, 1, xrefOffset, 0);
      else if (stream !== undefined) row(num, 1, stream, 0);
      else if (direct) row(num, 1, direct.offset, direct.gen);
      else if (packed) row(num, 2, packed.stream, packed.index);
      else row(num, 0, 0, 1);
    }
    const data = deflateSmall(table);
    const dict = `<</Type/XRef/Size ${self + 1}/W[1 4 2]${trailerEntries(doc).join('')}/Filter/FlateDecode/Length ${data.length}>>`;
    return [latin1(`${self} 0 obj\n${dict}\nstream\n`), data, latin1(`\nendstream\nendobj\nstartxref\n${xrefOffset}\n%%EOF\n`)];
  }
}

/** A stream whose only filter is Flate without a predictor: its data can be deflated again losslessly. */
function plainFlate(ref: PDFObject): boolean {
  const filter = ref.get('Filter');
  const only = filter.isArray() && filter.length === 1 ? filter.get(0) : filter;
  return only.isName() && only.asName() === 'FlateDecode' && ref.get('DecodeParms').isNull();
}

/** The most a Flate stream is inflated to in memory for deflating again; larger ones are re-deflated as a stream. */
const REFLATE_CAP_BYTES = 16 * 1024 * 1024;
/** The most a Flate stream is inflated to at all when re-deflated as a stream (time, and zlib bombs). */
const REFLATE_STREAMING_CAP_BYTES = 128 * 1024 * 1024;

/** The stream deflated again when that is smaller (qpdf's --recompress-flate), else undefined. */
async function reflated(ref: PDFObject): Promise<Uint8Array | undefined> {
  const raw = ref.readRawStream();
  try {
    const data = raw.asUint8Array().slice();
    const decoded = inflateAtMost(data, REFLATE_CAP_BYTES);
    // Damaged or too big to hold decoded: streamed, and kept as the input has it if that fails.
    if (!decoded) return await reflateStreaming(data, REFLATE_STREAMING_CAP_BYTES);
    const again = deflateSmall(decoded);
    return again.length < data.length ? again : undefined;
  } catch {
    return undefined;
  } finally {
    raw.destroy();
  }
}

/** Every string inside `obj` (not behind references: those are objects of their own) replaced by its encryption. */
async function encryptStrings(doc: PDFDocument, obj: PDFObject, key: CryptoKey): Promise<void> {
  if (!obj.isDictionary() && !obj.isArray()) return;
  const found: [PDFObject, string | number][] = [];
  const nested: PDFObject[] = [];
  obj.forEach((value, at) => {
    if (value.isIndirect()) return;
    if (value.isString()) found.push([value, at]);
    else if (value.isDictionary() || value.isArray()) nested.push(value);
  });
  for (const [value, at] of found) obj.put(at, doc.newByteString(await encryptData(key, value.asByteString())));
  for (const child of nested) await encryptStrings(doc, child, key);
}

/** The comment's four bytes above 127 tell transfer programs the file is binary (ISO 32000-1, 7.5.2). */
const HEADER = Uint8Array.of(...latin1('%PDF-1.7\n%'), 0xe2, 0xe3, 0xcf, 0xd3, 0x0a);

/** The objects `reachable` as a complete PDF, in chunks. */
function writeObjects(doc: PDFDocument, reachable: Map<number, number>, options: RewriteOptions): Uint8Array[] {
  const chunks: Uint8Array[] = [HEADER];
  let length = HEADER.length;
  const offsets = new Map<number, { gen: number; offset: number }>();
  for (const [num, gen] of [...reachable].sort((a, b) => a[0] - b[0])) {
    offsets.set(num, { gen, offset: length });
    for (const part of serialiseObject(doc, num, gen, options.rawStreams?.get(num))) {
      chunks.push(part);
      length += part.length;
    }
  }
  chunks.push(xrefAndTrailer(doc, reachable, offsets, length));
  return chunks;
}

/** The cross-reference table (unused numbers free) and the trailer, for objects written at `offsets`. */
function xrefAndTrailer(doc: PDFDocument, reachable: Map<number, number>, offsets: Map<number, { gen: number; offset: number }>, xrefOffset: number, encryptNum?: number): Uint8Array {
  const size = Math.max(doc.countObjects(), encryptNum !== undefined ? encryptNum + 1 : 0, ...[...reachable.keys()].map((n) => n + 1));
  const rows: string[] = [`xref\n0 ${size}\n0000000000 65535 f\r\n`];
  for (let num = 1; num < size; num++) {
    const at = offsets.get(num);
    rows.push(at ? `${String(at.offset).padStart(10, '0')} ${String(at.gen).padStart(5, '0')} n\r\n` : '0000000000 00001 f\r\n');
  }
  const entries = trailerEntries(doc)
    .concat(encryptNum !== undefined ? [`/Encrypt ${encryptNum} 0 R`] : [])
    .join(' ');
  rows.push(`trailer\n<< /Size ${size} ${entries} >>\nstartxref\n${xrefOffset}\n%%EOF\n`);
  return latin1(rows.join(''));
}

/** The trailer's /Root, /Info and /ID as the document has them, each `/Key value`, for a new trailer or cross-reference stream. */
export function trailerEntries(doc: PDFDocument): string[] {
  const trailer = doc.getTrailer();
  return ['Root', 'Info', 'ID']
    .map((k) => [k, trailer.get(k)] as const)
    .filter(([, v]) => !v.isNull())
    .map(([k, v]) => `/${k} ${v.toString(true, true)}`);
}

/** One indirect object as `num gen obj … endobj`, a stream with its raw (still encoded) bytes. */
export function serialiseObject(doc: PDFDocument, num: number, gen: number, replacement?: Uint8Array, entries?: Record<string, number | string | null>): Uint8Array[] {
  // Stream-ness belongs to the indirect object, not to its resolved dictionary.
  const ref = doc.newIndirect(num);
  const obj = ref.resolve();
  if (!ref.isStream()) return [latin1(`${num} ${gen} obj\n${obj.toString(true, true)}\nendobj\n`)];
  let data = replacement;
  if (!data) {
    const raw = ref.readRawStream();
    data = raw.asUint8Array().slice();
    raw.destroy();
  }
  // /Length and the entries of data changed on the way are written, not kept: the document's own
  // stream stays as it was (a changed /Length made MuPDF read a stream short when written again).
  const written: Record<string, number | string | null> = { ...entries, Length: data.length };
  const saved = Object.keys(written).map((k) => [k, obj.get(k)] as const);
  for (const [k, v] of Object.entries(written)) {
    if (v === null) obj.delete(k);
    else obj.put(k, typeof v === 'string' && v.startsWith('/') ? doc.newName(v.slice(1)) : v);
  }
  const dict = obj.toString(true, true);
  for (const [k, v] of saved) {
    if (v.isNull()) obj.delete(k);
    else obj.put(k, v);
  }
  return [latin1(`${num} ${gen} obj\n${dict}\nstream\n`), data, latin1('\nendstream\nendobj\n')];
}

/** Object number → generation of every indirect object reachable from `roots`. */
function reachableObjects(doc: PDFDocument, roots: PDFObject[]): Map<number, number> {
  const seen = new Map<number, number>();
  const pending: PDFObject[] = [...roots];
  const visit = (value: PDFObject) => {
    if (value.isIndirect()) {
      const num = value.asIndirect();
      if (num <= 0 || seen.has(num)) return;
      seen.set(num, generationOf(value));
      pending.push(value.resolve());
      return;
    }
    if (value.isDictionary() || value.isArray()) pending.push(value);
  };
  for (let obj = pending.pop(); obj; obj = pending.pop()) {
    if (obj.isIndirect()) {
      visit(obj);
      continue;
    }
    if (obj.isDictionary() || obj.isArray()) obj.forEach((child) => visit(child));
  }
  return seen;
}

function generationOf(ref: PDFObject): number {
  const m = /^\d+ (\d+) R$/.exec(ref.toString());
  return m ? Number(m[1]) : 0;
}
