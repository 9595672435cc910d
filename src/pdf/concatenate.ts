/**
 * PDFs joined into one, in order: the pages of every other input appended to the largest as one
 * incremental update (the base never re-written or copied), or, for inputs that cannot take an
 * update (repaired or encrypted), grafted into the first and saved. The merge operation and the
 * spreadsheet converter's last step (its pages printed over several invocations) both end here.
 */
import { PDF_MIME, openPdf, saveBytes, type PDFDocument } from './pdf';
import { appendUpdate, canAppend, objectId, type ObjectId } from './incremental';
import type { OperationResult } from '../contracts/operation';

type PDFObject = ReturnType<PDFDocument['getTrailer']>;
type GraftMap = ReturnType<PDFDocument['newGraftMap']>;

/** Page attributes a page may inherit from its tree (ISO 32000-1, 7.7.3.4): resolved so the copy stands alone. */
const INHERITABLE = ['Resources', 'MediaBox', 'CropBox', 'Rotate'];
const OWN = ['Contents', 'BleedBox', 'TrimBox', 'ArtBox', 'UserUnit', 'Group', 'Tabs', 'Annots'];

/** A copy of a source page inside `target`, without its /Parent (the caller hangs it in the tree). */
function copyPage(target: PDFDocument, map: GraftMap, page: PDFObject): PDFObject {
  const dict = target.newDictionary();
  dict.put('Type', target.newName('Page'));
  for (const key of [...INHERITABLE, ...OWN]) {
    const value = INHERITABLE.includes(key) ? page.getInheritable(key) : page.get(key);
    if (!value.isNull()) dict.put(key, map.graftObject(value));
  }
  const ref = target.addObject(dict);
  // Annotations point back at their page (/P): aim them at the copy, not at the source page.
  const annots = ref.get('Annots');
  if (annots.isArray()) for (let i = 0; i < annots.length; i++) if (annots.get(i).isDictionary()) annots.get(i).put('P', ref);
  return ref;
}

/**
 * Appends the pages of every other input to the largest input as one incremental update: a new
 * page-tree root whose kids are, in `file_ids` order, the base's old root and the copied pages.
 * The base file is never re-written or copied, so memory holds it once. The base's catalog
 * (outline, metadata, forms) is kept.
 */
async function mergeByAppending(inputs: { bytes: Uint8Array }[], progress: (d: number, t: number) => void): Promise<OperationResult | null> {
  const baseIndex = inputs.reduce((best, input, i) => (input.bytes.length > inputs[best]!.bytes.length ? i : best), 0);
  const { doc: base } = await openPdf(inputs[baseIndex]!.bytes);
  try {
    const catalog = base.getTrailer().get('Root');
    const oldRoot = catalog.get('Pages');
    if (!canAppend(base, inputs[baseIndex]!.bytes) || !catalog.isIndirect() || !oldRoot.isIndirect()) return null;
    const firstNew = base.countObjects();
    const kids: PDFObject[] = [];
    let total = 0;
    for (const [i, input] of inputs.entries()) {
      if (i === baseIndex) {
        kids.push(oldRoot);
        total += base.countPages();
      } else {
        const { doc: source } = await openPdf(input.bytes);
        try {
          const map = base.newGraftMap(); // one map per source: shared resources are copied once
          const count = source.countPages();
          for (let p = 0; p < count; p++) kids.push(copyPage(base, map, source.findPage(p)));
          total += count;
          map.destroy();
        } finally {
          source.destroy();
        }
      }
      progress(i + 1, inputs.length);
    }
    const root = base.addObject(base.newDictionary());
    root.put('Type', base.newName('Pages'));
    const kidsArray = base.newArray();
    for (const kid of kids) {
      kidsArray.push(kid);
      kid.put('Parent', root);
    }
    root.put('Kids', kidsArray);
    root.put('Count', total);
    catalog.put('Pages', root);
    const created: ObjectId[] = Array.from({ length: base.countObjects() - firstNew }, (_, k) => ({ num: firstNew + k, gen: 0 }));
    const chunks = appendUpdate(base, inputs[baseIndex]!.bytes, [objectId(catalog), objectId(oldRoot), ...created]);
    return { chunks, ext: 'pdf', contentType: PDF_MIME };
  } finally {
    base.destroy();
  }
}

/** Fallback for inputs that cannot take an appended update (repaired or encrypted): graft into the first and save. */
async function mergeBySaving(inputs: { bytes: Uint8Array }[]): Promise<OperationResult> {
  const { doc: target } = await openPdf(inputs[0]!.bytes);
  try {
    for (const input of inputs.slice(1)) {
      const { doc: source } = await openPdf(input.bytes);
      try {
        const map = target.newGraftMap();
        for (let i = 0; i < source.countPages(); i++) map.graftPage(-1, source, i);
        map.destroy();
      } finally {
        source.destroy();
      }
    }
    return { chunks: [saveBytes(target, 'compress=yes')], ext: 'pdf', contentType: PDF_MIME };
  } finally {
    target.destroy();
  }
}

/** The inputs' pages in order, as one PDF. */
export async function concatenatePdfs(inputs: { bytes: Uint8Array }[], progress: (done: number, total: number) => void = () => {}): Promise<OperationResult> {
  return (await mergeByAppending(inputs, progress)) ?? mergeBySaving(inputs);
}
