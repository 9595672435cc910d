/**
 * A page's header and footer as layout's display list: the codes of the page's kind (first, even,
 * odd: Excel's differentFirst and differentOddEven) cut into their left, centre and right sections
 * (header-footer.ts), each laid out by layout's line breaker in the workbook's default font with
 * the codes' changes, the header's top at the header margin and the footer's foot at the footer
 * margin, between the left and right page margins, at the sheet's scale as LibreOffice prints them
 * (its header band scales with the cells: sheet-pages.ts headerBands).
 */
import type { DisplayItem } from '../../contracts/display';
import { substituteFamily } from '../../fonts/catalog';
import type { InlineItem, ParagraphBlock } from '../../layout/blocks/model';
import { paragraphLines, type LineContext } from '../../layout/blocks/paragraph-lines';
import type { PlacedLine } from '../../layout/blocks/paragraph-stack';
import { displayLines } from '../../layout/display/draw-lines';
import { headerSections, type HeaderFields, type HeaderRun } from './header-footer';
import type { Font, HeaderFooter, PrintSettings } from './model';

/** The codes a page prints: the first page's, an even page's, or the odd pages' (which every page uses when the others are not set). */
export function codesFor(hf: HeaderFooter | undefined, pageOfSheet: number, pageNumber: number): string | undefined {
  if (!hf) return undefined;
  if (pageOfSheet === 1 && hf.first !== undefined) return hf.first;
  if (pageNumber % 2 === 0 && hf.even !== undefined) return hf.even;
  return hf.odd;
}

function section(runs: HeaderRun[], align: 'left' | 'center' | 'right', font: Font, scale: number): ParagraphBlock | undefined {
  if (!runs.some((r) => r.text.trim())) return undefined;
  const items: InlineItem[] = [];
  for (const run of runs) {
    const family = substituteFamily(run.font ?? font.name);
    const size = (run.size ?? font.size) * scale;
    // Line ends within a section are new lines, as Excel prints them.
    run.text.split(/\r?\n/).forEach((piece, i) => {
      if (i > 0) items.push({ kind: 'break' });
      if (!piece) return;
      const look = { rise: 0, ...(run.color ? { color: run.color } : {}), ...(run.underline ? { underline: true } : {}), ...(run.strike ? { strike: true } : {}) };
      items.push({ kind: 'text', text: piece, style: { face: { family, bold: !!run.bold, italic: !!run.italic, size, kern: false }, look, sizes: { family, size } } });
    });
  }
  const first = runs[0];
  const family = substituteFamily(first?.font ?? font.name);
  return { kind: 'paragraph', props: { align, markFace: { family, size: (first?.size ?? font.size) * scale } }, items };
}

/** The lines of one header or footer, placed across the width between the margins, top at 0. */
function areaLines(codes: string, fields: HeaderFields, font: Font, width: number, scale: number, ctx: LineContext): { lines: PlacedLine[]; height: number } {
  const sections = headerSections(codes, fields);
  const lines: PlacedLine[] = [];
  let height = 0;
  for (const [runs, align] of [[sections.left, 'left'], [sections.center, 'center'], [sections.right, 'right']] as const) {
    const block = section(runs, align, font, scale);
    if (!block) continue;
    let y = 0;
    for (const line of paragraphLines(block, width, ctx)) {
      lines.push({ line, y, x: 0 });
      y += line.height;
    }
    height = Math.max(height, y);
  }
  return { lines, height };
}

/** The header and footer of one page, on paper `paper` wide and tall, the sheet printed at `zoom` percent. */
export function headerFooterItems(print: PrintSettings, paper: { width: number; height: number }, zoom: number, page: { ofSheet: number; number: number }, fields: HeaderFields, font: Font, ctx: LineContext): DisplayItem[] {
  const width = Math.max(36, paper.width - print.margins.left - print.margins.right);
  const items: DisplayItem[] = [];
  const header = codesFor(print.header, page.ofSheet, page.number);
  if (header) {
    const { lines } = areaLines(header, fields, font, width, zoom / 100, ctx);
    items.push(...displayLines(lines, print.margins.left, print.margins.header, () => {}));
  }
  const footer = codesFor(print.footer, page.ofSheet, page.number);
  if (footer) {
    const { lines, height } = areaLines(footer, fields, font, width, zoom / 100, ctx);
    items.push(...displayLines(lines, print.margins.left, paper.height - print.margins.footer - height, () => {}));
  }
  return items;
}
