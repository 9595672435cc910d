import { z } from 'zod';
import { defineSpec, type RunOf } from './define';
import { streamedPdf } from './streamed-pdf';

/**
 * Burns form fields and annotations into the page content (MuPDF's bake: each appearance becomes
 * part of the page it is drawn on) and drops the interactive form: no widgets, no /AcroForm, the
 * pages look as they did, links stay links. An XFA form goes with its AcroForm: what the AcroForm
 * showed is what stays, as every reader that is not Adobe's shows it anyway.
 */
export const spec = defineSpec({
  path: 'flatten',
  type: 'flatten_pdf',
  summary: 'Flatten form fields and annotations into the page content',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z.object({}),
  engine: 'pdf',
});

export async function run({ inputs, progress }: RunOf<typeof spec>) {
  return streamedPdf(inputs[0]!.bytes, (doc) => {
    doc.bake(true, true);
    const root = doc.getTrailer().get('Root');
    root.delete('AcroForm');
    root.delete('NeedsRendering');
    progress(1, 1);
  });
}

