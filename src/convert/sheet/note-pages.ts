/**
 * The pages a sheet adds after its own when it prints its comments at the end (Excel's "At end of
 * sheet"): each comment as "Cell: B2" and "Comment: its text", a blank line between them, in the
 * workbook's default font at the sheet's zoom, laid by layout's line breaker across the room
 * between the margins and cut into pages where the room ends. Their header and footer are the
 * sheet's, and their page numbers run on from its pages.
 */
import type { DisplayItem } from '../../contracts/display';
import type { ParagraphBlock } from '../../layout/blocks/model';
import type { LineContext } from '../../layout/blocks/paragraph-lines';
import { stackParagraphs, type PlacedLine } from '../../layout/blocks/paragraph-stack';
import { displayLines } from '../../layout/display/draw-lines';
import { substituteFamily } from '../../fonts/catalog';
import { columnName } from './draw-headings';
import { textItems } from './cell-text';
import type { Font, SheetNote } from './model';
import { cellsRoom, type SheetPrint } from './sheet-pages';

function paragraphOf(text: string, font: Font, zoom: number): ParagraphBlock {
  const family = substituteFamily(font.name);
  const size = font.size * zoom;
  const style = { face: { family, bold: false, italic: false, size, kern: false }, look: { rise: 0, color: '000000' }, sizes: { family, size } };
  return { kind: 'paragraph', props: { align: 'left', markFace: { family, size } }, items: textItems(text, style) };
}

/** The lines of each note page, `y` from the page's first line. */
export function notePages(plan: SheetPrint, notes: SheetNote[], font: Font, ctx: LineContext): PlacedLine[][] {
  const zoom = plan.laid.zoom / 100;
  const blocks = notes.flatMap((n, k) => [
    ...(k ? [paragraphOf('', font, zoom)] : []),
    paragraphOf(`Cell: ${columnName(n.col)}${n.row + 1}`, font, zoom),
    paragraphOf(`Comment: ${n.text}`, font, zoom),
  ]);
  const room = cellsRoom(plan, plan.laid.zoom);
  const { lines } = stackParagraphs(blocks, room.width, { ...ctx, sum: false });
  const pages: PlacedLine[][] = [];
  let top = 0;
  for (const placed of lines) {
    // A line that does not fit under the last starts the next page.
    if (!pages.length || placed.y + placed.line.height - top > room.height + 0.01) {
      pages.push([]);
      top = placed.y;
    }
    pages.at(-1)!.push({ ...placed, y: placed.y - top });
  }
  return pages;
}

/** A note page's lines where the sheet's cells would start: below the header's band, from the left margin. */
export function notePageItems(plan: SheetPrint, lines: PlacedLine[]): DisplayItem[] {
  const zoom = plan.laid.zoom / 100;
  return displayLines(lines, plan.sheet.print.margins.left, plan.bands.top + plan.bands.header * zoom, () => {});
}
