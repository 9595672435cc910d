import type * as Mupdf from 'mupdf';
import type { StreamedOperationResult } from './define';
import { PDF_MIME, saveBytes, withPdf, type PDFDocument } from '../pdf/pdf';
import { canRewrite, streamReachable } from '../pdf/rewrite';
import type { Aes256Security } from '../pdf/aes256';

/**
 * A PDF result written to R2 while it is made (tasks/result-writer.ts): the document opened,
 * changed by `change`, then written object by object by our writer (encrypted with `security`
 * when given), so a 50 MB input costs the isolate itself and one stream at a time, not a second
 * copy. A file our writer cannot write (an encrypted input without `security`) goes through
 * MuPDF's save instead.
 */
export function streamedPdf(bytes: Uint8Array, change: (doc: PDFDocument, mupdf: typeof Mupdf) => void | Promise<void>, security?: () => Promise<Aes256Security>): StreamedOperationResult {
  return {
    ext: 'pdf',
    contentType: PDF_MIME,
    produce: (write) =>
      withPdf(bytes, async (doc, mupdf) => {
        await change(doc, mupdf);
        if (security) await streamReachable(doc, write, await security());
        else if (canRewrite(doc)) await streamReachable(doc, write);
        else await write(saveBytes(doc, 'garbage=compact,compress=yes'));
      }),
  };
}
