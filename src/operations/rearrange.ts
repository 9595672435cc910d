import { PDF_MIME, inspectPdf, openPdf, requirePages, saveBytes, withPdf } from '../engines/pdf';
import type { OperationResult } from './define';

/**
 * Keeps the given 1-based pages in the given order and drops the rest with everything only they
 * used (garbage collection), which is what delete, extract and reorder all are.
 */
export async function rearrange(bytes: Uint8Array, order: (pageCount: number) => number[]): Promise<OperationResult> {
  const { out, pages, repairedOnSave } = await withPdf(bytes, (doc) => {
    const count = doc.countPages();
    const pages = order(count);
    requirePages(pages, count);
    // MuPDF's rearrangePages refuses some lists longer than the document ("Invalid number of
    // pages": 6 entries of a 3-page file): pages listed more often than that are grafted instead.
    if (pages.length > count) return { out: undefined, pages, repairedOnSave: false };
    const repairedBefore = doc.wasRepaired();
    doc.rearrangePages(pages.map((n) => n - 1));
    const out = saveBytes(doc, 'garbage=compact,compress=yes');
    return { out, pages, repairedOnSave: !repairedBefore && doc.wasRepaired() };
  });
  // A damaged stream met while saving makes MuPDF repair the file, and the repair reloads the old
  // page tree: the rearrangement is silently lost. Then copy the pages into a new document instead.
  if (out && !repairedOnSave && (await inspectPdf(out)).pages === pages.length) return { chunks: [out], ext: 'pdf', contentType: PDF_MIME };
  return { chunks: [await copyPages(bytes, pages)], ext: 'pdf', contentType: PDF_MIME };
}

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
