import { z } from 'zod';
import { defineOperation } from './define';
import { PDF_MIME, openPdf, saveBytes } from '../engines/pdf';

/** Concatenates 2 to 20 PDFs in the order of `file_ids`; the first one's catalog (outline, metadata) is kept. */
export default defineOperation({
  path: 'merge',
  type: 'merge_pdfs',
  summary: 'Merge 2 to 20 PDFs into one, in the given order',
  accepts: ['pdf'],
  inputs: { kind: 'file_ids', min: 2, max: 20 },
  params: z.object({}),
  engine: 'pdf',
  async run({ inputs, progress }) {
    const { doc: target } = await openPdf(inputs[0]!.bytes);
    try {
      let done = 0;
      const total = inputs.length;
      for (const input of inputs.slice(1)) {
        const { doc: source } = await openPdf(input.bytes);
        try {
          // One graft map per source: resources shared by its pages are copied once.
          const map = target.newGraftMap();
          const count = source.countPages();
          for (let i = 0; i < count; i++) map.graftPage(-1, source, i);
          map.destroy();
        } finally {
          source.destroy();
        }
        progress(++done, total);
      }
      return { chunks: [saveBytes(target, 'compress=yes')], ext: 'pdf', contentType: PDF_MIME };
    } finally {
      target.destroy();
    }
  },
});
