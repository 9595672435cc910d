import { z } from 'zod';
import { defineSpec, type OperationResult, type RunOf } from './define';
import { loadMupdf } from '../pdf/mupdf';
import { convertWordToPdfChunksLoadingFaces, type PartProblem } from '../convert/word';
import { converterFailure } from './converter-failure';

/**
 * Word (DOC, DOCX; DOTX and DOCM read as DOCX) → PDF through our own Word layout path
 * (src/convert/word/), in the convert Worker. The converter's errors become task failures here.
 */
export const spec = defineSpec({
  path: 'word-to-pdf',
  type: 'word_to_pdf',
  summary: 'Convert a Word document (DOC, DOCX) to PDF',
  accepts: ['doc', 'docx'],
  inputs: { kind: 'file_id' },
  params: z.object({}),
  engine: 'office',
});

const CONVERTER_FAILED =
  'Our converter could not handle something in this document (the file itself did not look damaged): the failure was logged for a fix and the payment returned. ' +
  'Saving it again from Word as .docx may avoid the part that failed.';

export async function run({ inputs, log, faces }: RunOf<typeof spec>): Promise<OperationResult> {
  const mupdf = await loadMupdf();
  try {
    // A part the document converts without (styles, a header, a picture) is logged, never dropped silently.
    const onProblem = (p: PartProblem) => log('word_part_unreadable', { part: p.part, reason: p.reason });
    // In the chunks it was written in: large photos are views of the input, not copies.
    const chunks = await convertWordToPdfChunksLoadingFaces(inputs[0]!.bytes, { mupdf, faces, onProblem });
    return { chunks, ext: 'pdf', contentType: 'application/pdf' };
  } catch (err) {
    // A document past a reader's limit (tables nested 300 deep, 2 million paragraphs) fails with the limit's message, refunded.
    converterFailure(err, log, { event: 'word_converter_failed', failed: CONVERTER_FAILED });
  }
}
