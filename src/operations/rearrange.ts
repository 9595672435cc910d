import { PDF_MIME, requirePages, saveBytes, withPdf } from '../engines/pdf';
import type { OperationResult } from './define';

/**
 * Keeps the given 1-based pages in the given order and drops the rest with everything only they
 * used (garbage collection), which is what delete, extract and reorder all are.
 */
export async function rearrange(bytes: Uint8Array, order: (pageCount: number) => number[]): Promise<OperationResult> {
  return withPdf(bytes, (doc) => {
    const count = doc.countPages();
    const pages = order(count);
    requirePages(pages, count);
    doc.rearrangePages(pages.map((n) => n - 1));
    return { chunks: [saveBytes(doc, 'garbage=compact,compress=yes')], ext: 'pdf', contentType: PDF_MIME };
  });
}
