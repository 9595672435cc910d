import { z } from 'zod';
import { defineSpec, type NextStep, type OperationResult, type RunOf } from './define';
import { loadMupdf } from '../pdf/mupdf';
import { printDeckLoadingFaces } from '../convert/slides';
import { concatenatePdfs } from '../pdf/concatenate';
import { joinChunks } from '../lib/bytes';
import { converterFailure } from './converter-failure';
import { keepSlice, slicesBefore } from './slices';

/**
 * Presentations (PPTX) → PDF through our own slide converter (src/convert/slides/) on the shared
 * Office shape layout, in the office Worker: a page per visible slide at the slide's size. The
 * converter's errors become task failures here.
 */
export const spec = defineSpec({
  path: 'pptx-to-pdf',
  type: 'pptx_to_pdf',
  summary: 'Convert a presentation (PPTX, ODP) to PDF, a page per visible slide at the slide size',
  accepts: ['pptx', 'odp'],
  refuses: { ppt: 'PowerPoint 97-2003 presentations (.ppt) are not converted here: open it in PowerPoint or LibreOffice Impress, save it as .pptx (File → Save As → PowerPoint Presentation) and upload that' },
  inputs: { kind: 'file_id' },
  params: z.object({}),
  engine: 'office',
});

const CONVERTER_FAILED =
  'Our converter could not handle something in this presentation (the file itself did not look damaged): the failure was logged for a fix and the payment returned. ' +
  'Saving it again from PowerPoint as .pptx may avoid the part that failed.';

const DECK_DAMAGED = 'The presentation is damaged or incomplete (for example a download that was cut off): open it in PowerPoint or LibreOffice Impress, save it again as .pptx and upload it again.';

/**
 * A deck past one slice (render.ts deckSlices: 250 slides, or fewer holding 24 MB of pictures)
 * prints a slice per step, each step reading the deck again and keeping its slice in the task's
 * scratch space; the last joins them.
 */
export async function run({ inputs, log, faces, step, scratch, progress }: RunOf<typeof spec>): Promise<OperationResult | NextStep> {
  const mupdf = await loadMupdf();
  const input = inputs[0]!;
  try {
    const onProblem = (p: { part: string; reason: string }) => log('slide_part_unreadable', { part: p.part, reason: p.reason });
    const print = await printDeckLoadingFaces(input.bytes, { mupdf, faces, onProblem });
    if (print.slices.length === 1) return { chunks: print.write(), ext: 'pdf', contentType: 'application/pdf' };
    const range = print.slices[Math.min(step, print.slices.length - 1)]!;
    const slice = joinChunks(print.write(range));
    progress(range[1], print.slides);
    if (step < print.slices.length - 1) {
      await keepSlice(scratch, step, slice);
      return { next: true };
    }
    return concatenatePdfs([...(await slicesBefore(scratch, step)), { bytes: slice }]);
  } catch (err) {
    converterFailure(err, log, { event: 'slides_converter_failed', failed: CONVERTER_FAILED, damaged: DECK_DAMAGED, passwordMessage: true });
  }
}
