import { z } from 'zod';
import { defineSpec, type RunOf } from './define';
import { concatenatePdfs } from '../pdf/concatenate';

/** Concatenates 2 to 20 PDFs in the order of `file_ids`. */
export const spec = defineSpec({
  path: 'merge',
  type: 'merge_pdfs',
  summary: 'Merge 2 to 20 PDFs into one, in the given order',
  accepts: ['pdf'],
  inputs: { kind: 'file_ids', min: 2, max: 20 },
  params: z.object({}),
  engine: 'pdf',
});

export async function run({ inputs, progress }: RunOf<typeof spec>) {
  return concatenatePdfs(inputs, progress);
}

