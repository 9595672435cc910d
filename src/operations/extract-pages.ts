import { z } from 'zod';
import { defineOperation } from './define';
import { PageList, pagesOutside } from './params';
import { rearrange } from './rearrange';

/** A new document of the listed pages, in the listed order. */
export default defineOperation({
  path: 'extract-pages',
  type: 'extract_pages',
  summary: 'Extract pages into a new PDF, in the given order',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z.object({ pages: PageList }),
  check: ([input], p) => pagesOutside('pages', p.pages, input!.pages),
  engine: 'pdf',
  run: ({ inputs, params }) => rearrange(inputs[0]!.bytes, () => params.pages),
});
