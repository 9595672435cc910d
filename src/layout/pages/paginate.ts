/** The pager's entry: a one-column stretch of paragraphs and tables paged into frames, footnotes at each page's foot. */
import type { Block, ParagraphBlock } from '../blocks/model';
import type { LineContext } from '../blocks/paragraph-lines';
import type { FlowPage } from './flow-page';
import { Pager } from './pager';

/**
 * Pages a one-column stretch of paragraphs into frames `frameHeight` tall, each page's footnotes at
 * its foot: a line goes to the next page when it and the notes it calls do not fit above them.
 * A paragraph kept with the next moves to the next page with it (when it did not start its page),
 * and one kept together moves there whole.
 */
export function paginate(blocks: Block[], width: number, frameHeight: number, ctx: LineContext & { sum: boolean }, noteBody: (id: string) => ParagraphBlock[] | undefined): FlowPage[] {
  const pager = new Pager(blocks, width, frameHeight, ctx, noteBody);
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    // Laid out again from the first paragraph kept with this block when they moved, at the new page's top.
    const again = block.kind === 'table' ? pager.placeTable(block, b) : pager.placeParagraph(block, b);
    if (again !== undefined) b = again - 1;
  }
  return pager.finish();
}
