import { z } from 'zod';
import { defineSpec, type OperationResult, type RunOf } from './define';
import { loadMupdf } from '../pdf/mupdf';
import { PDF_MIME } from '../pdf/pdf';
import { convertHtmlToPdfLoadingFaces } from '../convert/html';
import { TaskError } from '../contracts/failures';
import { findLimitExceeded } from '../lib/limits';

/**
 * HTML → PDF (SPEC html-to-pdf), laid out as Chromium prints it by the HTML converter
 * (src/convert/html/) in the convert Worker. `page_size`, `orientation` and `margin` are defaults:
 * what the document's own CSS asks for (@page size and margins) wins over them.
 */
export const spec = defineSpec({
  path: 'html-to-pdf',
  type: 'html_to_pdf',
  summary: 'Convert an HTML file to PDF (external resources are never loaded; the document\'s own @page rules win over page_size, orientation and margin)',
  accepts: ['html'],
  inputs: { kind: 'file_id' },
  params: z.object({
    page_size: z.enum(['A4', 'A3', 'Letter'], { error: 'page_size must be A4, A3 or Letter' }).default('A4'),
    orientation: z.enum(['portrait', 'landscape'], { error: 'orientation must be portrait or landscape' }).default('portrait'),
    margin: z.enum(['standard', 'narrow', 'none'], { error: 'margin must be standard, narrow or none' }).default('standard'),
  }),
  engine: 'html',
});

export async function run({ inputs, params, log, faces }: RunOf<typeof spec>): Promise<OperationResult> {
  const mupdf = await loadMupdf();
  try {
    const chunks = await convertHtmlToPdfLoadingFaces(inputs[0]!.bytes, { mupdf, faces, page: params, onNote: log });
    return { chunks, ext: 'pdf', contentType: PDF_MIME };
  } catch (err) {
    // A page past a limit: the consumer fails the task with the limit's message and refunds it.
    if (err instanceof TaskError || findLimitExceeded(err)) throw err;
    log('html_layout_failed', { error: String(err) });
    throw new TaskError({ reason: 'document_unreadable', message: 'The HTML could not be laid out: save the page again from a browser and upload it again (the payment was returned).' });
  }
}
