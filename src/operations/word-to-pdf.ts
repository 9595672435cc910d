import { z } from 'zod';
import { defineOperation } from './define';
import { loadMupdf } from '../engines/mupdf';
import { bundledFonts } from '../converters/fonts/bundled';
import { convertWordToPdf, WordConversionError } from '../converters/word';
import { TaskError } from '../tasks/failures';

/** Word (DOC, DOCX; DOTX and DOCM read as DOCX) → PDF through our own Word layout path. */
export default defineOperation({
  path: 'word-to-pdf',
  type: 'word_to_pdf',
  summary: 'Convert a Word document (DOC, DOCX) to PDF',
  accepts: ['doc', 'docx'],
  inputs: { kind: 'file_id' },
  params: z.object({}),
  engine: 'pdf',
  async run({ inputs }) {
    const mupdf = await loadMupdf();
    try {
      const pdf = convertWordToPdf(inputs[0]!.bytes, { mupdf, fonts: bundledFonts });
      return { chunks: [pdf], ext: 'pdf', contentType: 'application/pdf' };
    } catch (err) {
      if (!(err instanceof WordConversionError)) throw err;
      if (err.problem === 'password') throw new TaskError({ reason: 'document_password' });
      if (err.problem === 'corrupt') throw new TaskError({ reason: 'document_corrupt' });
      throw new TaskError({ reason: 'document_unreadable', message: err.message });
    }
  },
});
