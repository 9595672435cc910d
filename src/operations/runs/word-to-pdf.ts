import { loadMupdf } from '../../pdf/mupdf';
import { bundledFonts } from '../../fonts/bundled';
import { convertWordToPdfChunks, ConversionError } from '../../convert/word';
import { TaskError } from '../../contracts/failures';
import { isResourceExhaustion } from '../../pdf/classify';
import { findLimitExceeded } from '../../lib/limits';
import type { PartProblem } from '../../convert/word';
import type { OperationDef, RunContext, OperationResult } from '../define';
import wordToPdf from '../word-to-pdf';

const CONVERTER_FAILED =
  'Our converter could not handle something in this document (the file itself did not look damaged): the failure was logged for a fix and the payment returned. ' +
  'Saving it again from Word as .docx may avoid the part that failed.';

/** word-to-pdf as the convert Worker runs it: the definition of operations/word-to-pdf.ts with the conversion. */
export const wordToPdfWithConverter = { ...wordToPdf, run: convertWord } as unknown as OperationDef;

async function convertWord({ inputs, log }: RunContext<Record<string, never>>): Promise<OperationResult> {
  const mupdf = await loadMupdf();
  try {
    // A part the document converts without (styles, a header, a picture) is logged, never dropped silently.
    const onProblem = (p: PartProblem) => log('word_part_unreadable', { part: p.part, reason: p.reason });
    // In the chunks it was written in: large photos are views of the input, not copies.
    const chunks = convertWordToPdfChunks(inputs[0]!.bytes, { mupdf, fonts: bundledFonts, onProblem });
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
