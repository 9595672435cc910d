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
import { paintDisplay, type DisplaySinks, type DrawPicture, type UnderSink } from '../../paint/display-painter';
import { PageText } from '../../paint/page-text';
import { PageGraphics } from '../../paint/page-graphics';
import { finishPdf } from '../../pdf/finish';
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
import { METAFILE } from '../../paint/metafile';
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

/** Pictures as MuPDF reads them (PNG, JPEG, GIF, BMP, TIFF); metafiles are not drawn yet, a picture that does not decode is left out. */
const drawPictureWith = (mupdf: typeof Mupdf): DrawPicture => (device, data, contentType, ctm) => {
  if (METAFILE.test(contentType)) return;
  let image: Mupdf.Image;
  try {
    image = new mupdf.Image(data);
  } catch {
    return;
  }
  device.fillImage(image, ctm, 1);
  image.destroy();
};

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
    const { mupdf, workbook, ctx, fonts, fields, pages } = this;
    const out = new mupdf.Buffer();
    const writer = new mupdf.DocumentWriter(out, 'pdf', '');
    const text = new PageText();
    const graphics = new PageGraphics();
    const drawPicture = drawPictureWith(mupdf);
    let number = 0;
    let written = 0;
    this.plans.forEach((plan, p) => {
      this.printed[p]!.forEach((i, k) => {
        if (++number <= from || number > to) return;
        const items = pageItems(workbook, plan, i, { ofSheet: k + 1, number, pages }, fields, ctx);
        const device = writer.beginPage([0, 0, plan.paper.width, plan.paper.height]);
        const index = written++;
        const height = plan.paper.height;
        const under: UnderSink = {
          fill: (box) => graphics.fill(index, height, box),
          shape: (shape) => graphics.shape(index, height, shape),
          takes: (picture) => graphics.takes(picture),
          picture: (picture) => graphics.picture(index, height, picture),
          clip: (rect) => graphics.clip(index, height, rect),
          unclip: () => graphics.unclip(index),
        };
        const sinks: DisplaySinks = { text: (t, x, baseline, angle) => text.show(index, height, t, x, baseline, angle), link: () => {}, clip: (rect) => text.clip(index, height, rect), unclip: () => text.unclip(index), under };
        paintDisplay(mupdf, device, items.cells, drawPicture, sinks);
        if (items.drawings.length) {
          // Drawings cover the cells' text under them, as Excel and LibreOffice print a text box or a note over cells.
          text.over(index);
          graphics.over(index);
          paintDisplay(mupdf, device, items.drawings, drawPicture, sinks);
        }
        writer.endPage();
        text.seal(index);
        graphics.seal(index);
        device.destroy();
      });
    });
    // A workbook with nothing to print is one blank page, as Excel and LibreOffice give it.
    if (!written) {
      const blank = writer.beginPage([0, 0, 612, 792]);
      writer.endPage();
      blank.destroy();
    }
    writer.close();
    writer.destroy();
    try {
      return finishPdf(mupdf, out, {
        write: (pdf) => {
          // The boxes go first, so that the text's q/Q takes them in with the device's content.
          const over = new Map<number, Mupdf.PDFObject[]>();
          const boxes = graphics.writeInto(pdf, over);
          const own = text.writeInto(pdf, (font) => fonts.bytesOf(font), over);
          return { fonts: own.fonts, streams: new Set([...own.streams, ...boxes]) };
        },
      });
    } finally {
      out.destroy();
    }
  }
}

/** The workbook's whole PDF in the chunks it is written in. */
export function renderWorkbookChunks(workbook: Workbook, mupdf: typeof Mupdf, files: FontFiles, options: RenderOptions = {}): Uint8Array[] {
  return new WorkbookPrint(workbook, mupdf, files, options).write();
}
