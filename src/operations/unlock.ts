import { z } from 'zod';
import { defineOperation } from './define';
import { bytesStream, loadMupdf } from '../engines/mupdf';
import { PDF_MIME, type PDFDocument } from '../engines/pdf';
import { writeReachable } from '../engines/rewrite';
import { TaskError } from '../tasks/failures';

/**
 * Removes the password when it is known: the user's password or the owner's opens the document,
 * which is then written without encryption. MuPDF decrypts strings and streams as it reads them
 * once authenticated, so our writer (../engines/rewrite.ts) writes them out in the clear and leaves
 * the /Encrypt dictionary behind; it never holds the whole output in MuPDF's heap.
 */
export default defineOperation({
  path: 'unlock',
  type: 'unlock_pdf',
  summary: 'Remove the password from a PDF whose password you know',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z.object({
    password: z.string().min(1, 'password must not be empty').max(1024).describe("the document's password (the one that opens it, or the owner password)"),
  }),
  engine: 'pdf',
  async run({ inputs, params }) {
    const mupdf = await loadMupdf();
    const stream = bytesStream(mupdf, inputs[0]!.bytes);
    let doc: PDFDocument | null = null;
    try {
      doc = mupdf.Document.openDocument(stream, 'application/pdf').asPDF();
    } catch {
      throw new TaskError({ reason: 'corrupt' });
    } finally {
      stream.destroy();
    }
    if (!doc) throw new TaskError({ reason: 'corrupt' });
    try {
      if (doc.getTrailer().get('Encrypt').isNull()) throw new TaskError({ reason: 'not_encrypted' });
      // 0: wrong; otherwise it opened as the user (2) or the owner (4).
      if (doc.authenticatePassword(params.password) === 0) throw new TaskError({ reason: 'wrong_password' });
      if (doc.countPages() === 0) throw new TaskError({ reason: 'corrupt' });
      return { chunks: writeReachable(doc), ext: 'pdf', contentType: PDF_MIME };
    } finally {
      doc.destroy();
    }
  },
});
