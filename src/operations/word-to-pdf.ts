import { z } from 'zod';
import { defineOperation } from './define';

/**
 * Word (DOC, DOCX; DOTX and DOCM read as DOCX) → PDF through our own Word layout path. This is the
 * request side, in the API Worker; the conversion runs in the convert Worker (src/operations/runs/word-to-pdf.ts), which
 * alone bundles the converter and its font faces.
 */
export default defineOperation({
  path: 'word-to-pdf',
  type: 'word_to_pdf',
  summary: 'Convert a Word document (DOC, DOCX) to PDF',
  accepts: ['doc', 'docx'],
  inputs: { kind: 'file_id' },
  params: z.object({}),
  engine: 'convert',
  run: () => Promise.reject(new Error('word-to-pdf runs in the convert Worker (src/operations/runs/word-to-pdf.ts)')),
});
