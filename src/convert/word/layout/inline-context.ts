/** The context the HTML writers (inline-html.ts, block-html.ts) carry, and the ids they mark for the pagination. */
import type { FontBook } from '../../../layout/text/font-book';
import type { Block, Inline, Paragraph, PictureCrop, Shape, Table } from '../model/index';

/** What inline rendering needs from the paragraph and the page around it. */
export interface InlineContext {
  fonts: FontBook;
  defaultFont: string;
  defaultSize: number;
  /** Width available to the paragraph's lines, points (text column minus nothing: indents are applied here). */
  columnWidth: number;
  /** The font and size the paragraph's <p> is given (inline-html.ts paragraphCss): runs in it need no span. */
  paragraphCss?: string;
  /** Field values known when this HTML is made (page numbers in headers and footers). */
  fields: { PAGE?: string; NUMPAGES?: string; SECTIONPAGES?: string };
  /** How space after and space before combine between paragraphs (WordDocument.paragraphSpacing). */
  paragraphSpacing?: 'larger' | 'sum';
  /** Single line height without the font's line gap (WordDocument.noLeading). */
  noLeading?: boolean;
  /** Tables whose rows carry anchors named `<id>-<row>`, so the pages they fall on can be found after layout. */
  rowAnchors?: Map<Table, string>;
  /** Distance of the text column's left edge from the page's left edge (places page-relative floats). */
  columnLeft?: number;
  /** Footnote references met, in order (their bodies go to the end of the page chunk). */
  noteRefs: string[];
  /** Counts external links: each gets the id `xl<n>`, by which the page it lands on is found after layout. */
  linkIds?: { count: number };
  /** Counts the stand-ins the page device draws itself (metafiles, shapes): each gets the id `ph<n>`, to find their pages. */
  placeholderIds?: { count: number };
  /** Ids by which the footnote pagination finds where blocks, words and note references landed (footnote-pages.ts). */
  marks?: PageMarks;
  /**
   * Column breaks of a multi-column stretch: before each paragraph that starts a column, a spacer
   * `cb<n>` as tall as `spacers[n]` (0 until render.ts has measured the room left above it).
   */
  columnBreaks?: { depth: number; count: number; spacers: number[] };
  /** Stand-in pictures for EMF/WMF, drawn as vectors by the page device (metafile/device.ts). */
  metafiles?: { placeholder(data: Uint8Array, contentType: string): string | undefined };
  /** Pictures put into the PDF after it is written (picture-passthrough.ts): a placeholder (undefined past 2^24 pictures). */
  pictures: { placeholder(data: Uint8Array, crop?: PictureCrop): string | undefined };
  /** Stand-in pictures for shapes, drawn by the page device (shape-pictures.ts); `pictureShape` is a floating picture as one. */
  shapes?: { placeholder(shape: Shape, cellWidth?: number): string; pictureShape(image: Extract<Inline, { kind: 'image' }>): Shape };
  /** Header and footer areas: floating pictures float there, out of the text's flow (a logo beside the header text). */
  floatsOutOfFlow?: boolean;
  /** Inside a table cell: shapes placed from the column with layoutInCell are placed from the cell, as Word lays them out in it. */
  inCell?: boolean;
  /**
   * Keep-with-next (render.ts): top-level paragraphs that keep with the next block, and the blocks
   * after them, get the id `k<i>`. The rows of a table that holds together get `k<i>-<row>`
   * (`block`: the top-level block being written). `breakAt`: where in the HTML written a
   * page-break-after goes for each top-level block, so that the blocks in `breakBefore` can be
   * moved to a new page without writing the HTML again (keep-with-next.ts, withPageBreaks).
   */
  keeps?: { depth: number; breakBefore: Set<number>; block?: number; breakAt: Map<number, number> };
  /**
   * Links within the document (link-targets.ts): paragraphs with bookmarks get an empty element
   * `an<n>` (`found` lists those written), and links to "#name" are written as links (ids xl<n>).
   */
  linkTargets?: { index(p: Paragraph): number; found: number[] };
  /** Headings for the PDF's bookmarks (outline.ts): each gets an empty element `hd<n>`; `found` lists those written. */
  headings?: { index(p: Paragraph): number; found: number[] };
  /** Renders a text box's blocks (given by the block renderer, which owns paragraphs and tables). */
  /** `height`: only the blocks that start within it (estimated), for a box that does not grow to its text. */
  renderBlocks(blocks: Block[], width: number, height?: number): string;
}

/**
 * Ids for the footnote pagination: top-level blocks are `b<i>`, words of top-level paragraphs
 * `w<n>` (where each starts is kept), note references `fr<n>` in order. MuPDF resolves an id to
 * the page and line it landed on.
 */
export interface PageMarks {
  /** Nesting of block lists being written: 1 is the stretch itself. */
  depth: number;
  /** The top-level block being written. */
  block: number;
  /**
   * Every word of top-level paragraphs is listed (where it starts), but only some get an id: each
   * span costs MuPDF a style match, and an id on every word was most of a footnoted page's elements
   * (stress008: 36,107 of 45,059). A paragraph's first and last word and every MARK_EVERY-th get
   * one (`marked`); the words of block `fine` all do (when the text could not tell, see
   * footnote-pages.ts paragraphRemainder).
   */
  words: { block: number; inline: number; offset: number; marked: boolean }[];
  fine?: number;
  /** Words of the current block listed before the last one. */
  blockWords?: number;
  refs: number;
}
