/**
 * A workbook's PDF: every visible sheet planned (sheet-pages.ts), then each page drawn in turn
 * with MuPDF's DocumentWriter: its blocks of cells (draw-page.ts) and its header and footer
 * (header-footer-lines.ts) as layout's display list, painted by paint's display painter, the text
 * written straight into the content streams (paint/page-text.ts) and the PDF finished by the one
 * finisher (pdf/finish/). Page numbers run on across sheets and &N counts the workbook's pages,
 * as LibreOffice prints a whole workbook.
 */
import type * as Mupdf from 'mupdf';
import type { FontFiles } from '../../fonts/catalog';
import { FontBook } from '../../layout/text/font-book';
import type { LineContext } from '../../layout/blocks/paragraph-lines';
import { LimitExceeded } from '../../lib/limits';
import type { DisplayItem } from '../../contracts/display';
import type { HeaderFields } from './header-footer';
import { maxDigitWidth } from './grid-sizes';
import type { Workbook } from './model';
import { planSheet, sheetPageBlocks, type SheetPrint } from './sheet-pages';
import { printedPages } from './printed-pages';
import { sheetPageItems } from './draw-page';
import { headerFooterItems } from './header-footer-lines';
import { drawingItems } from './draw-drawings';
import { headingItems } from './draw-headings';
import { mirrorX } from '../../layout/display/mirror';
import { writeDisplayPdf, type DisplayPage } from '../../paint/display-document';
import type { PlacedLine } from '../../layout/blocks/paragraph-stack';
import { notePageItems, notePages } from './note-pages';

/** Pages a workbook prints at most, over however many invocations (SLICE_PAGES in each). */
export const PAGES_MAX = 20_000;
/** Pages one invocation writes: 486 pages took the engine's heap to 55 MB, and a slice is joined to the others at the end. */
export const SLICE_PAGES = 400;

export interface RenderOptions {
  /** The file's name, for &F. */
  fileName?: string;
  /** The moment &D and &T print (now, when not given). */
  now?: Date;
}

const two = (n: number) => String(n).padStart(2, '0');

/** &D and &T as LibreOffice prints them in an English locale. */
function dateFields(now: Date): Pick<HeaderFields, 'date' | 'time'> {
  return { date: `${two(now.getUTCMonth() + 1)}/${two(now.getUTCDate())}/${now.getUTCFullYear()}`, time: `${two(now.getUTCHours())}:${two(now.getUTCMinutes())}:${two(now.getUTCSeconds())}` };
}

/** A page of a sheet's print: one of its pages of cells (by index), or one of the pages listing its comments after them. */
type PrintedPage = number | { notes: PlacedLine[] };

/**
 * The display lists of one page: its blocks of cells (or its comments) with its header and footer,
 * and the drawings over them (painted as a second layer, over the cells' text).
 */
function pageItems(workbook: Workbook, plan: SheetPrint, shown: PrintedPage, numbers: { ofSheet: number; number: number; pages: number }, fields: Omit<HeaderFields, 'page' | 'pages' | 'sheet'>, ctx: LineContext): { cells: DisplayItem[]; drawings: DisplayItem[] } {
  const headerFields = { ...fields, page: numbers.number, pages: numbers.pages, sheet: plan.sheet.name };
  const headerFooter = () => headerFooterItems(plan.sheet.print, plan.paper, plan.laid.zoom, numbers, headerFields, workbook.defaultFont, ctx);
  if (typeof shown !== 'number') return { cells: [...notePageItems(plan, shown.notes), ...headerFooter()], drawings: [] };
  const page = plan.laid.page(shown);
  const items: DisplayItem[] = [];
  const gridLines = !!plan.sheet.print.gridLines;
  const blocks = sheetPageBlocks(plan, page);
  // A right-to-left sheet prints turned over the middle of the room between the margins.
  const mirror = plan.sheet.rightToLeft && !plan.sheet.chartSheet ? 2 * plan.sheet.print.margins.left + plan.room.width : undefined;
  if (!plan.sheet.chartSheet) {
    for (const block of blocks) {
      const spill = block.spillTo !== undefined && mirror === undefined ? { spillTo: block.spillTo } : {};
      items.push(...sheetPageItems(workbook, plan.sheet, block.page, block.at, ctx, { gridLines, ...spill, ...(mirror !== undefined ? { mirror } : {}) }));
    }
    const headings = plan.headings ? headingItems(blocks, plan.headings, ctx) : [];
    items.push(...(mirror === undefined ? headings : mirrorX(headings, mirror)));
  }
  items.push(...headerFooter());
  // Pictures, charts and shapes over the body's cells (the last block), not over repeated titles.
  return { cells: items, drawings: drawingItems(plan, blocks.at(-1)!, ctx, mirror) };
}

/**
 * A workbook planned for print: its sheets' pages counted, then written whole or a slice at a
 * time (a long workbook's pages over several invocations, joined at the end by the operation).
 */
export class WorkbookPrint {
  readonly pages: number;
  private readonly plans: SheetPrint[];
  /** For each plan, the pages it prints (its empty ones left out, printed-pages.ts), then those listing its comments. */
  private readonly printed: PrintedPage[][];
  private readonly ctx: LineContext;
  private readonly fonts: FontBook;
  private readonly fields: Omit<HeaderFields, 'page' | 'pages' | 'sheet'>;

  constructor(
    private readonly workbook: Workbook,
    private readonly mupdf: typeof Mupdf,
    files: FontFiles,
    options: RenderOptions = {},
  ) {
    const fonts = (this.fonts = FontBook.shared(mupdf, files));
    fonts.install();
    const ctx = (this.ctx = { fonts, fields: {} });
    const digit = maxDigitWidth(fonts, workbook.defaultFont);
    this.plans = workbook.sheets.flatMap((sheet) => planSheet(workbook, sheet, digit, ctx) ?? []);
    this.printed = this.plans.map((plan) => {
      const notes = plan.sheet.notes?.length ? notePages(plan, plan.sheet.notes, workbook.defaultFont, ctx).map((lines) => ({ notes: lines })) : [];
      return [...printedPages(workbook, plan, ctx), ...notes];
    });
    this.pages = this.printed.reduce((n, p) => n + p.length, 0);
    if (this.pages > PAGES_MAX) throw new LimitExceeded('sheet_pages', `the workbook prints to ${this.pages.toLocaleString('en')} pages; at most ${PAGES_MAX.toLocaleString('en')} are printed in one task (set a print area, or split the workbook)`);
    this.fields = { file: options.fileName ?? '', ...dateFields(options.now ?? new Date()) };
  }

  /** The PDF of the pages [from, to) of the print (all by default), in the chunks it is written in. */
  write([from, to]: [number, number] = [0, this.pages]): Uint8Array[] {
    return writeDisplayPdf(this.mupdf, this.fonts, this.displayPages(from, to));
  }

  /** The pages [from, to) as display pages, made one at a time: the cells, then the drawings over them. */
  private *displayPages(from: number, to: number): Generator<DisplayPage> {
    const { workbook, ctx, fields, pages } = this;
    let number = 0;
    for (const [p, plan] of this.plans.entries()) {
      for (const [k, i] of this.printed[p]!.entries()) {
        if (++number <= from || number > to) continue;
        const items = pageItems(workbook, plan, i, { ofSheet: k + 1, number, pages }, fields, ctx);
        yield { width: plan.paper.width, height: plan.paper.height, layers: [items.cells, items.drawings] };
      }
    }
  }
}

/** The workbook's whole PDF in the chunks it is written in. */
export function renderWorkbookChunks(workbook: Workbook, mupdf: typeof Mupdf, files: FontFiles, options: RenderOptions = {}): Uint8Array[] {
  return new WorkbookPrint(workbook, mupdf, files, options).write();
}
