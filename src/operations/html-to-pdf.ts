import { z } from 'zod';
import { defineOperation } from './define';

/**
 * HTML → PDF (SPEC html-to-pdf): the request side, in the API Worker; the page is laid out in the
 * convert Worker (src/operations/runs/html-to-pdf.ts). `page_size`, `orientation` and `margin` are defaults:
 * what the document's own CSS asks for (@page size and margins) wins over them.
 */
export default defineOperation({
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
  engine: 'convert',
  run: () => Promise.reject(new Error('html-to-pdf runs in the convert Worker (src/operations/runs/html-to-pdf.ts)')),
});
