import { z } from 'zod';
import { defineSpec, type RunOf } from './define';
import { bytesStream, loadMupdf } from '../pdf/mupdf';
import { PDF_MIME, type PDFDocument } from '../pdf/pdf';
import { streamReachable } from '../pdf/rewrite';
import { TaskError } from '../contracts/failures';

/**
 * Removes the password when it is known: the user's password or the owner's opens the document,
 * which is then written without encryption. MuPDF decrypts strings and streams as it reads them
 * once authenticated, so our writer (../engines/rewrite.ts) writes them out in the clear and leaves
 * the /Encrypt dictionary behind; it never holds the whole output in MuPDF's heap.
 */
export const spec = defineSpec({
  path: 'unlock',
  type: 'unlock_pdf',
  summary: 'Remove the password from a PDF whose password you know',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z.object({
    // DECISIONS: needed only when the document asks for one to open; a PDF with an owner password
    // alone (it opens freely, restrictions set) is unlocked without it, as `qpdf --decrypt` does.
    password: z
      .string()
      .min(1, 'password must not be empty')
      .max(1024)
      .optional()
      .describe("the document's password (the one that opens it, or the owner password); not needed when the PDF opens without one"),
  }),
  engine: 'pdf',
});

export async function run({ inputs, params }: RunOf<typeof spec>) {
  return {
    ext: 'pdf',
    contentType: PDF_MIME,
    // Written to R2 as it is made (our writer, object by object): the input is the only copy held.
    produce: async (write: (chunk: Uint8Array) => Promise<void>) => {
      const doc = await openLocked(inputs[0]!.bytes);
      try {
        if (doc.getTrailer().get('Encrypt').isNull()) throw new TaskError({ reason: 'not_encrypted' });
        // 0: wrong; otherwise it opened as the user (2) or the owner (4).
        if (params.password === undefined) {
          if (doc.needsPassword()) throw new TaskError({ reason: 'document_unreadable', message: 'The PDF asks for a password to open: send it as password to unlock the file (the payment was returned).' });
        } else if (doc.authenticatePassword(params.password) === 0) throw new TaskError({ reason: 'wrong_password' });
        if (doc.countPages() === 0) throw new TaskError({ reason: 'corrupt' });
        await streamReachable(doc, write);
      } finally {
        doc.destroy();
      }
    },
  };
}


/** The PDF opened without its password (openPdf refuses locked files; this is the one that takes them). */
async function openLocked(bytes: Uint8Array): Promise<PDFDocument> {
  const mupdf = await loadMupdf();
  const stream = bytesStream(mupdf, bytes);
  try {
    const doc = mupdf.Document.openDocument(stream, 'application/pdf').asPDF();
    if (!doc) throw new TaskError({ reason: 'corrupt' });
    return doc;
  } catch (err) {
    if (err instanceof TaskError) throw err;
    throw new TaskError({ reason: 'corrupt' });
  } finally {
    stream.destroy();
  }
}
