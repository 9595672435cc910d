import { PDF_MIME, inspectPdf, openPdf, requirePages, saveBytes, withPdf, type PDFDocument } from '../pdf/pdf';
import { appendUpdate, canAppend, objectId, pageRefs } from '../pdf/incremental';
import { canRewrite, writeReachable } from '../pdf/rewrite';
import type { OperationResult } from './define';

/**
 * Keeps the given 1-based pages in the given order and drops the rest with everything only they
 * used (garbage collection), which is what delete, extract and reorder all are. A list of every
 * page (a reorder) is appended to the original as a new page tree (nothing is dropped, so nothing
 * needs rewriting); other lists are written by our own writer (../engines/rewrite.ts), which keeps
 * MuPDF's heap near its start where its save doubled a buffer of the output's size.
 */
export async function rearrange(bytes: Uint8Array, order: (pageCount: number) => number[]): Promise<OperationResult> {
  const { out, pages, repairedOnSave } = await withPdf(bytes, (doc) => {
    const count = doc.countPages();
    const pages = order(count);
    requirePages(pages, count);
    // MuPDF's rearrangePages refuses some lists longer than the document ("Invalid number of
    // pages": 6 entries of a 3-page file): pages listed more often than that are grafted instead.
    if (pages.length > count) return { out: undefined, pages, repairedOnSave: false };
    const appended = isPermutation(pages, count) ? reorderByAppending(doc, bytes, pages) : null;
    if (appended) return { out: appended, pages, repairedOnSave: false };
    const repairedBefore = doc.wasRepaired();
    doc.rearrangePages(pages.map((n) => n - 1));
    const out = canRewrite(doc) ? writeReachable(doc) : [saveBytes(doc, 'garbage=compact,compress=yes')];
    return { out, pages, repairedOnSave: !repairedBefore && doc.wasRepaired() };
  });
  // A damaged stream met while saving makes MuPDF repair the file, and the repair reloads the old
  // page tree: the rearrangement is silently lost. Then copy the pages into a new document instead.
  if (out && !repairedOnSave && (await inspectPdf(out)).pages === pages.length) return { chunks: out, ext: 'pdf', contentType: PDF_MIME };
  return { chunks: [await copyPages(bytes, pages)], ext: 'pdf', contentType: PDF_MIME };
}

const isPermutation = (pages: readonly number[], count: number) => pages.length === count && new Set(pages).size === count;

/**
 * Every page in a new order, as an incremental update: the root page-tree node lists the pages
 * in the new order and each page names it as its parent, with what it inherited from the nodes
 * in between (resources, boxes, rotation) written on it. Null when the tree or file does not
 * allow appending (the caller rewrites instead).
 */
function reorderByAppending(doc: PDFDocument, original: Uint8Array, pages: readonly number[]): Uint8Array[] | null {
  const refs = pageRefs(doc);
  const root = doc.getTrailer().get('Root').get('Pages');
  if (!refs || !root.isIndirect() || !canAppend(doc, original) || new Set(refs.map((r) => r.toString())).size !== refs.length) return null;
  for (const page of refs) {
    for (const key of INHERITED) {
      if (!page.get(key).isNull()) continue;
      const inherited = page.getInheritable(key);
      if (!inherited.isNull()) page.put(key, inherited);
    }
    page.put('Parent', root);
  }
  const kids = doc.newArray();
  for (const n of pages) kids.push(refs[n - 1]!);
  root.put('Kids', kids);
  root.put('Count', pages.length);
  return appendUpdate(doc, original, [root, ...refs].map(objectId));
}

/** Page attributes a page may inherit from its ancestors in the page tree (ISO 32000-1, 7.7.3.4). */
const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate'];

/** The listed pages grafted into a fresh document (the catalog's outline and forms are not kept). */
async function copyPages(bytes: Uint8Array, pages: number[]): Promise<Uint8Array> {
  const { mupdf, doc: source } = await openPdf(bytes);
  const out = new mupdf.PDFDocument();
  try {
    const map = out.newGraftMap();
    for (const n of pages) map.graftPage(-1, source, n - 1);
    map.destroy();
    return saveBytes(out, 'compress=yes');
  } finally {
    out.destroy();
    source.destroy();
  }
}
