import { z } from 'zod';
import { defineSpec, type RunOf } from './define';
import { PageList, duplicates, pagesOutside } from './params';
import { rearrange } from './rearrange';

/** Listed pages first, in the listed order; pages not listed follow in their original order. */
export const spec = defineSpec({
  path: 'reorder-pages',
  type: 'reorder_pages',
  summary: 'Reorder pages',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z.object({ new_order: PageList }),
  check: ([input], p) => [...duplicates('new_order', p.new_order), ...pagesOutside('new_order', p.new_order, input!.pages)],
  engine: 'pdf',
});

export function run({ inputs, params }: RunOf<typeof spec>) {
return rearrange(inputs[0]!.bytes, (count) => {
    const listed = new Set(params.new_order);
    const rest = Array.from({ length: count }, (_, i) => i + 1).filter((n) => !listed.has(n));
    return [...params.new_order, ...rest];
  });
}

