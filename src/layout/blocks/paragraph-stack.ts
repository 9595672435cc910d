/** Paragraphs stacked one under another with Office's spacing between them (a header, footer, cell or notes area), without pages. */
import type { ParagraphBlock } from './model';
import { paragraphLines, type Line, type LineContext } from './paragraph-lines';
import type { BorderBox } from './borders';

/** A line on its page: `y` its top below the frame's top; `opens` the paragraph it starts (for bookmarks). */
export interface PlacedLine {
  line: Line;
  y: number;
  /** Its left edge from the text area's (a table cell's text); 0 when absent. */
  x?: number;
  opens?: ParagraphBlock;
  /** The borders of its paragraph, when it has any (borders.ts draws them per page). */
  framed?: BorderBox;
  /** In a table cell: the cell's text width (floating objects anchored in the cell are placed in it). */
  cellWidth?: number;
}

/**
 * The space above a paragraph (and below the last of a stretch): between two paragraphs the larger
 * of the space after and before (or their sum, where the format adds them: ctx.sum), none between
 * paragraphs of one style with contextual spacing; as Word's HTML path writes it for MuPDF.
 */
export function spaceAbove(p: ParagraphBlock, prev: ParagraphBlock | undefined, sum: boolean): number {
  const sameStyle = (b: ParagraphBlock | undefined) => b?.props.styleId === p.props.styleId;
  const before = p.props.contextualSpacing && sameStyle(prev) ? 0 : (p.props.spaceBefore ?? 0);
  const prevAfter = prev && !(prev.props.contextualSpacing && sameStyle(prev)) ? (prev.props.spaceAfter ?? 0) : 0;
  return sum ? before + prevAfter : Math.max(before, prevAfter);
}

/** Lines of paragraphs laid out one after another from y = 0, spacing included (a note's body, a notes area). */
export function stackParagraphs(blocks: ParagraphBlock[], width: number, ctx: LineContext & { sum: boolean; firstSpaceBefore?: false }, lines = new Map<ParagraphBlock, Line[]>()): { lines: PlacedLine[]; height: number } {
  const out: PlacedLine[] = [];
  let y = 0;
  blocks.forEach((p, k) => {
    // A text frame's first paragraph starts at the frame's top in Office's drawing text (its space before is not applied).
    if (k > 0 || ctx.firstSpaceBefore !== false) y += spaceAbove(p, blocks[k - 1], ctx.sum);
    let laid = lines.get(p);
    if (!laid) lines.set(p, (laid = paragraphLines(p, width, ctx)));
    laid.forEach((line, n) => {
      out.push({ line, y, opens: n === 0 ? p : undefined });
      y += line.height;
    });
  });
  const last = blocks.at(-1);
  return { lines: out, height: y + (last?.props.spaceAfter ?? 0) };
}

