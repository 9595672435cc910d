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
 * The same, encrypted with AES-256 (revision 6, ./aes256.ts): every string and stream of the
 * reachable objects encrypted with the file key, the /Encrypt dictionary added unencrypted, and an
 * /ID given to a file that had none (a file with /Encrypt must have one).
 */
export async function writeReachableEncrypted(doc: PDFDocument, security: Aes256Security): Promise<Uint8Array[]> {
  const trailer = doc.getTrailer();
  const reachable = reachableObjects(doc, ['Root', 'Info'].map((k) => trailer.get(k)));
  const key = await importFileKey(security.key);
  const rawStreams = new Map<number, Uint8Array>();
  for (const num of reachable.keys()) {
    const ref = doc.newIndirect(num);
    await encryptStrings(doc, ref.resolve(), key);
    if (ref.isStream()) {
      const raw = ref.readRawStream();
      const data = raw.asUint8Array().slice();
      raw.destroy();
      rawStreams.set(num, await encryptData(key, data));
    }
  }
  const encryptNum = Math.max(doc.countObjects(), ...[...reachable.keys()].map((n) => n + 1));
  if (trailer.get('ID').isNull()) {
    const id = doc.newArray();
    const first = crypto.getRandomValues(new Uint8Array(16));
    id.push(doc.newByteString(first));
    id.push(doc.newByteString(first));
    trailer.put('ID', id);
  }
  return writeObjects(doc, reachable, { rawStreams }, { num: encryptNum, body: security.dictionary });
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

/** The objects `reachable` (and an extra one, written as given) as a complete PDF, in chunks. */
function writeObjects(doc: PDFDocument, reachable: Map<number, number>, options: RewriteOptions, extra?: { num: number; body: string }): Uint8Array[] {
  const trailer = doc.getTrailer();
  const chunks: Uint8Array[] = [];
  let length = 0;
  const emit = (chunk: Uint8Array) => {
    chunks.push(chunk);
    length += chunk.length;
  };
  // The comment's four bytes above 127 tell transfer programs the file is binary (ISO 32000-1, 7.5.2).
  emit(Uint8Array.of(...latin1('%PDF-1.7\n%'), 0xe2, 0xe3, 0xcf, 0xd3, 0x0a));

  const offsets = new Map<number, { gen: number; offset: number }>();
  for (const [num, gen] of [...reachable].sort((a, b) => a[0] - b[0])) {
    offsets.set(num, { gen, offset: length });
    for (const part of serialiseObject(doc, num, gen, options.rawStreams?.get(num))) emit(part);
  }

  if (extra) {
    offsets.set(extra.num, { gen: 0, offset: length });
    emit(latin1(`${extra.num} 0 obj\n${extra.body}\nendobj\n`));
  }
  const size = Math.max(doc.countObjects(), extra ? extra.num + 1 : 0, ...[...reachable.keys()].map((n) => n + 1));
  const xrefOffset = length;
  const rows: string[] = [`xref\n0 ${size}\n0000000000 65535 f\r\n`];
  for (let num = 1; num < size; num++) {
    const at = offsets.get(num);
    rows.push(at ? `${String(at.offset).padStart(10, '0')} ${String(at.gen).padStart(5, '0')} n\r\n` : '0000000000 00001 f\r\n');
  }
  const entries = ['Root', 'Info', 'ID']
    .map((k) => [k, trailer.get(k)] as const)
    .filter(([, v]) => !v.isNull())
    .map(([k, v]) => `/${k} ${v.toString(true, true)}`)
    .concat(extra ? [`/Encrypt ${extra.num} 0 R`] : [])
    .join(' ');
  rows.push(`trailer\n<< /Size ${size} ${entries} >>\nstartxref\n${xrefOffset}\n%%EOF\n`);
  emit(latin1(rows.join('')));
  return chunks;
}

/** One indirect object as `num gen obj … endobj`, a stream with its raw (still encoded) bytes. */
export function serialiseObject(doc: PDFDocument, num: number, gen: number, replacement?: Uint8Array): Uint8Array[] {
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
  obj.put('Length', data.length);
  return [latin1(`${num} ${gen} obj\n${obj.toString(true, true)}\nstream\n`), data, latin1('\nendstream\nendobj\n')];
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
