/**
 * Incremental updates written by us (ISO 32000-1, 7.5.6): the original bytes stay untouched and
 * the changed objects are appended with a new cross-reference section whose /Prev points to the
 * old one. MuPDF's own incremental save would copy the whole original into its heap and back out;
 * appending keeps one copy of the input in memory, which is what lets a 50 MB file fit an isolate.
 */
import type { PDFDocument } from './pdf';
import { saveBytes } from './pdf';
import { latin1Bytes as latin1 } from '../lib/latin1';
import { trailerEntries } from './rewrite';

type PDFObject = ReturnType<PDFDocument['getTrailer']>;

/** Offset of the last cross-reference section, or null when the file has none we can trust. */
function lastStartxref(bytes: Uint8Array): number | null {
  const tailStart = Math.max(0, bytes.length - 2048);
  let tail = '';
  for (let i = tailStart; i < bytes.length; i++) tail += String.fromCharCode(bytes[i]!);
  const m = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail) ?? /startxref\s+(\d+)\s*%%EOF/.exec(tail);
  if (!m) return null;
  const offset = Number(m[1]);
  return offset > 0 && offset < bytes.length ? offset : null;
}

function isClassicXref(bytes: Uint8Array, offset: number): boolean {
  let i = offset;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return bytes[i] === 0x78 && bytes[i + 1] === 0x72 && bytes[i + 2] === 0x65 && bytes[i + 3] === 0x66; // "xref"
}

function refOf(obj: PDFObject): { num: number; gen: number } {
  const m = /^(\d+) (\d+) R$/.exec(obj.toString());
  if (!m) throw new Error('incremental update: object is not indirect');
  return { num: Number(m[1]), gen: Number(m[2]) };
}

/** Whether appending to `original` is safe: not for repaired files (their xref cannot be trusted) or encrypted ones. */
export function canAppend(doc: PDFDocument, original: Uint8Array): boolean {
  return !doc.wasRepaired() && lastStartxref(original) !== null && doc.getTrailer().get('Encrypt').isNull();
}

export type ObjectId = { num: number; gen: number };
export const objectId = (ref: PDFObject): ObjectId => refOf(ref);

/**
 * The document saved as original + appended changes. `changed` are indirect references to the
 * (non-stream) objects that were modified. Falls back to a full save when appending is not safe.
 */
export function savePreservingOriginal(doc: PDFDocument, original: Uint8Array, changed: PDFObject[]): Uint8Array[] {
  if (!canAppend(doc, original) || changed.some((o) => !o.isIndirect() || o.isStream())) return [saveBytes(doc, 'compress=yes')];
  return appendUpdate(doc, original, changed.map(objectId));
}

/**
 * Appends the objects `ids` (changed or new, streams included with their raw encoded
 * data) and a cross-reference section of the same kind as the original's last one.
 */
export function appendUpdate(doc: PDFDocument, original: Uint8Array, ids: ObjectId[]): Uint8Array[] {
  const prev = lastStartxref(original)!;
  const chunks: Uint8Array[] = [original];
  let length = original.length;
  const emit = (chunk: Uint8Array) => {
    chunks.push(chunk);
    length += chunk.length;
  };
  const last = original[original.length - 1];
  if (last !== 0x0a && last !== 0x0d) emit(latin1('\n'));

  const offsets = new Map<number, { gen: number; offset: number }>();
  const unique = new Map(ids.map((id) => [id.num, id.gen]));
  for (const [num, gen] of [...unique].sort((a, b) => a[0] - b[0])) {
    // Stream-ness belongs to the indirect object, not to its resolved dictionary.
    const ref = doc.newIndirect(num);
    const obj = ref.resolve();
    offsets.set(num, { gen, offset: length });
    if (ref.isStream()) {
      const raw = ref.readRawStream();
      const data = raw.asUint8Array().slice();
      raw.destroy();
      obj.put('Length', data.length);
      emit(latin1(`${num} ${gen} obj\n${obj.toString(false, true)}\nstream\n`));
      emit(data);
      emit(latin1('\nendstream\nendobj\n'));
    } else {
      emit(latin1(`${num} ${gen} obj\n${obj.toString(false, true)}\nendobj\n`));
    }
  }

  const size = doc.countObjects();
  const entries = trailerEntries(doc).join(' ');
  const xrefOffset = length;

  if (isClassicXref(original, prev)) {
    let table = 'xref\n';
    for (const [num, { gen, offset }] of [...offsets].sort((a, b) => a[0] - b[0])) {
      table += `${num} 1\n${String(offset).padStart(10, '0')} ${String(gen).padStart(5, '0')} n\r\n`;
    }
    table += `trailer\n<< /Size ${size} ${entries} /Prev ${prev} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
    emit(latin1(table));
    return chunks;
  }

  // The original uses cross-reference streams: the update must be one too.
  const xrefNum = size;
  const rows = [...offsets, [xrefNum, { gen: 0, offset: xrefOffset }] as const].sort((a, b) => a[0] - b[0]);
  const data = new Uint8Array(rows.length * 7);
  rows.forEach(([, { gen, offset }], i) => {
    data.set([1, (offset >>> 24) & 0xff, (offset >>> 16) & 0xff, (offset >>> 8) & 0xff, offset & 0xff, (gen >>> 8) & 0xff, gen & 0xff], i * 7);
  });
  const index = rows.map(([num]) => `${num} 1`).join(' ');
  emit(latin1(`${xrefNum} 0 obj\n<< /Type /XRef /Size ${size + 1} /Index [${index}] /W [1 4 2] ${entries} /Prev ${prev} /Length ${data.length} >>\nstream\n`));
  emit(data);
  emit(latin1(`\nendstream\nendobj\nstartxref\n${xrefOffset}\n%%EOF\n`));
  return chunks;
}

/**
 * Indirect references of the leaf pages in document order, from the page tree's /Kids arrays
 * (MuPDF's findPage returns the resolved dictionary, which carries no object number). A page
 * object listed twice (seen in real files) appears twice. Null when the tree is not a clean tree
 * of indirect objects.
 */
export function pageRefs(doc: PDFDocument): PDFObject[] | null {
  const root = doc.getTrailer().get('Root', 'Pages');
  const out: PDFObject[] = [];
  const visitedNodes = new Set<string>();
  const walk = (node: PDFObject, depth: number): boolean => {
    if (depth > 64) return false;
    const kids = node.get('Kids');
    if (!kids.isArray()) return false;
    for (let i = 0; i < kids.length; i++) {
      const kid = kids.get(i);
      if (!kid.isIndirect()) return false;
      const type = kid.get('Type');
      if (type.isName() && type.asName() === 'Pages') {
        const key = kid.toString();
        if (visitedNodes.has(key)) return false; // a cycle
        visitedNodes.add(key);
        if (!walk(kid, depth + 1)) return false;
      } else out.push(kid);
    }
    return true;
  };
  if (!root.isDictionary() || !walk(root, 0)) return null;
  return out.length === doc.countPages() ? out : null;
}
