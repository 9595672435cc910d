import { z } from 'zod';
import { defineSpec, type OperationResult, type RunOf } from './define';
import { loadMupdf } from '../pdf/mupdf';
import { convertWordToPdfChunksLoadingFaces, ConversionError, type PartProblem } from '../convert/word';
import { TaskError } from '../contracts/failures';
import { isResourceExhaustion } from '../pdf/classify';
import { findLimitExceeded } from '../lib/limits';

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
    if (isResourceExhaustion(err)) throw err; // retried a bounded number of times by the consumer
    // A document past a reader's limit (tables nested 300 deep, 2 million paragraphs): the consumer
    // fails the task with the limit's message and refunds it, without retrying.
    if (findLimitExceeded(err)) throw err;
    if (!(err instanceof ConversionError)) {
      // Our converter failed on a file it did not find damaged: not the user's fault, and not "damaged".
      log('word_converter_failed', { error: String(err), stack: (err as Error)?.stack });
      throw new TaskError({ reason: 'document_unreadable', message: CONVERTER_FAILED });
    }
    if (err.problem === 'password') throw new TaskError({ reason: 'document_password' });
    if (err.problem === 'corrupt') throw new TaskError({ reason: 'document_corrupt' });
    throw new TaskError({ reason: 'document_unreadable', message: err.message });
  }
}
