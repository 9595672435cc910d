/**
 * Incremental updates written by us (ISO 32000-1, 7.5.6): the original bytes stay untouched and
 * the changed objects are appended with a new cross-reference section whose /Prev points to the
 * old one. MuPDF's own incremental save would copy the whole original into its heap and back out;
 * appending keeps one copy of the input in memory, which is what lets a 50 MB file fit an isolate.
 */
import type { PDFDocument } from './pdf';
import { saveBytes } from './pdf';

type PDFObject = ReturnType<PDFDocument['getTrailer']>;

const latin1 = (s: string): Uint8Array => {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
};

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

/**
 * The document saved as original + appended changes. `changed` are indirect references to the
 * (non-stream) objects that were modified. Falls back to a full save when an incremental update
 * is not safe: repaired files (their xref cannot be trusted) and encrypted ones.
 */
export function savePreservingOriginal(doc: PDFDocument, original: Uint8Array, changed: PDFObject[]): Uint8Array[] {
  const trailer = doc.getTrailer();
  const prev = lastStartxref(original);
  const unsafe = doc.wasRepaired() || prev === null || !trailer.get('Encrypt').isNull() || changed.some((o) => !o.isIndirect() || o.resolve().isStream());
  if (unsafe) return [saveBytes(doc, 'compress=yes')];

  const objects = new Map<number, { gen: number; text: string }>();
  for (const obj of changed) {
    const { num, gen } = refOf(obj);
    objects.set(num, { gen, text: obj.resolve().toString(false, true) });
  }

  const start = original.length + (original[original.length - 1] === 0x0a || original[original.length - 1] === 0x0d ? 0 : 1);
  let body = start === original.length ? '' : '\n';
  const offsets = new Map<number, { gen: number; offset: number }>();
  for (const [num, { gen, text }] of [...objects].sort((a, b) => a[0] - b[0])) {
    offsets.set(num, { gen, offset: original.length + body.length });
    body += `${num} ${gen} obj\n${text}\nendobj\n`;
  }

  const size = doc.countObjects();
  const keep = ['Root', 'Info', 'ID'].map((k) => [k, trailer.get(k)] as const).filter(([, v]) => !v.isNull());
  const trailerEntries = keep.map(([k, v]) => `/${k} ${v.toString(false, true)}`).join(' ');
  const xrefOffset = original.length + body.length;

  if (isClassicXref(original, prev)) {
    body += 'xref\n';
    for (const [num, { gen, offset }] of [...offsets].sort((a, b) => a[0] - b[0])) {
      body += `${num} 1\n${String(offset).padStart(10, '0')} ${String(gen).padStart(5, '0')} n\r\n`;
    }
    body += `trailer\n<< /Size ${size} ${trailerEntries} /Prev ${prev} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
    return [original, latin1(body)];
  }

  // The original uses cross-reference streams: the update must be one too.
  const xrefNum = size;
  const rows = [...offsets, [xrefNum, { gen: 0, offset: xrefOffset }] as const].sort((a, b) => a[0] - b[0]);
  const data = new Uint8Array(rows.length * 7);
  rows.forEach(([, { gen, offset }], i) => {
    const at = i * 7;
    data[at] = 1;
    data[at + 1] = (offset >>> 24) & 0xff;
    data[at + 2] = (offset >>> 16) & 0xff;
    data[at + 3] = (offset >>> 8) & 0xff;
    data[at + 4] = offset & 0xff;
    data[at + 5] = (gen >>> 8) & 0xff;
    data[at + 6] = gen & 0xff;
  });
  const index = rows.map(([num]) => `${num} 1`).join(' ');
  body += `${xrefNum} 0 obj\n<< /Type /XRef /Size ${size + 1} /Index [${index}] /W [1 4 2] ${trailerEntries} /Prev ${prev} /Length ${data.length} >>\nstream\n`;
  const head = latin1(body);
  const tail = latin1(`\nendstream\nendobj\nstartxref\n${xrefOffset}\n%%EOF\n`);
  return [original, head, data, tail];
}

/**
 * Indirect references of the leaf pages in document order, from the page tree's /Kids arrays
 * (MuPDF's findPage returns the resolved dictionary, which carries no object number).
 * Null when the tree is not a clean tree of indirect objects.
 */
export function pageRefs(doc: PDFDocument): PDFObject[] | null {
  const root = doc.getTrailer().get('Root', 'Pages');
  const out: PDFObject[] = [];
  const seen = new Set<string>();
  const walk = (node: PDFObject, depth: number): boolean => {
    if (depth > 64) return false;
    const kids = node.get('Kids');
    if (!kids.isArray()) return false;
    for (let i = 0; i < kids.length; i++) {
      const kid = kids.get(i);
      if (!kid.isIndirect()) return false;
      const key = kid.toString();
      if (seen.has(key)) return false;
      seen.add(key);
      const type = kid.get('Type');
      if (type.isName() && type.asName() === 'Pages') {
        if (!walk(kid, depth + 1)) return false;
      } else out.push(kid);
    }
    return true;
  };
  if (!root.isDictionary() || !walk(root, 0)) return null;
  return out.length === doc.countPages() ? out : null;
}
