import type { Block } from './index';

/**
 * Word leaves auto spacing (ParagraphProps.autoSpaceBefore / autoSpaceAfter: the HTML-like 14 pt
 * of documents saved from web pages) out at the top of a table cell or of the document, and at the
 * bottom of a cell, as a web page's cell and body have no margin there (measured on LibreOffice's
 * renderings, which do the same). DOCX and DOC readers alike.
 */
export function withoutEdgeAutoSpacing(blocks: Block[], top: boolean, bottom: boolean): void {
  const first = blocks[0];
  if (top && first?.kind === 'paragraph' && first.props.autoSpaceBefore) first.props = { ...first.props, spaceBefore: 0 };
  const last = blocks[blocks.length - 1];
  if (bottom && last?.kind === 'paragraph' && last.props.autoSpaceAfter) last.props = { ...last.props, spaceAfter: 0 };
}
