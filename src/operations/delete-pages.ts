import { z } from 'zod';
import { defineSpec, type RunOf } from './define';
import { PageList, pagesOutside } from './params';
import { rearrange } from './rearrange';
import { TaskError } from '../contracts/failures';

/** Removes pages completely, with the content only they used. */
export const spec = defineSpec({
  path: 'delete-pages',
  type: 'delete_pages',
  summary: 'Delete pages',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z.object({ pages: PageList }),
  check: ([input], p) => {
    const problems = pagesOutside('pages', p.pages, input!.pages);
    if (input!.pages != null && problems.length === 0 && new Set(p.pages).size >= input!.pages) {
      problems.push({ path: 'pages', message: `deleting all ${input!.pages} pages would leave an empty document: keep at least one page` });
    }
    return problems;
  },
  engine: 'pdf',
});

export function run({ inputs, params }: RunOf<typeof spec>) {
return rearrange(inputs[0]!.bytes, (count) => {
    const doomed = new Set(params.pages);
    const bad = params.pages.find((p) => p > count);
    if (bad !== undefined) throw new TaskError({ reason: 'page_out_of_range', page: bad, pages: count });
    const kept = Array.from({ length: count }, (_, i) => i + 1).filter((n) => !doomed.has(n));
    // Request-time checks stop this unless the page count was unknown at upload (a repaired file).
    if (kept.length === 0) throw new TaskError({ reason: 'page_out_of_range', page: count + 1, pages: count });
    return kept;
  });
}

