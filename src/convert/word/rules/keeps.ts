/** What Word keeps together across a page's foot: paragraphs kept with the next block, and tables kept whole (both pagers). */
import type { Block } from '../model/index';

/** A paragraph Word keeps on the page of the block after it (w:keepNext). */
export const keepsWithNext = (b: Block | undefined): boolean => b?.kind === 'paragraph' && !!b.props.keepNext;

/**
 * A table whose every row but the last keeps with the next (a paragraph in it has w:keepNext, how
 * Word users keep a table on one page, and how LibreOffice writes its "keep together" tables): it
 * is not split across pages when it fits on one, as in Word and LibreOffice.
 */
export const holdsTogether = (b: Block | undefined): boolean =>
  b?.kind === 'table' && b.rows.length > 1 && b.rows.slice(0, -1).every((r) => r.cells.some((c) => c.blocks.some(keepsWithNext)));
