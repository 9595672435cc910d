import { z } from 'zod';
import { defineSpec, type RunOf } from './define';
import { PageList, pagesOutside } from './params';
import { rearrange } from './rearrange';

/**
 * A page list may repeat pages, but at most this many times the document's length (and 1,000 entries
 * whatever its length): 10,000 × page 1 of a one-page file cost 15 s of work for one unit.
 */
export const MAX_COPIES_PER_PAGE = 10;

function repeatsTooMuch(pages: readonly number[], pageCount: number | null): { path: string; message: string }[] {
  if (pageCount == null) return [];
  const max = Math.max(1000, MAX_COPIES_PER_PAGE * pageCount);
  if (pages.length <= max) return [];
  return [{ path: 'pages', message: `pages lists ${pages.length} pages of a ${pageCount}-page document; at most ${max} (${MAX_COPIES_PER_PAGE} per page of the document, or 1,000) may be listed` }];
}

/** A new document of the listed pages, in the listed order. */
export const spec = defineSpec({
  path: 'extract-pages',
  type: 'extract_pages',
  summary: 'Extract pages into a new PDF, in the given order',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z.object({ pages: PageList }),
  check: ([input], p) => [...pagesOutside('pages', p.pages, input!.pages), ...repeatsTooMuch(p.pages, input!.pages)],
  engine: 'pdf',
});

export function run({ inputs, params }: RunOf<typeof spec>) {
return rearrange(inputs[0]!.bytes, () => params.pages);
}

