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
import { paintDisplay, type DrawPicture } from '../../paint/display-painter';
import { PageText } from '../../paint/page-text';
import { finishPdf } from '../../pdf/finish';
import { LimitExceeded } from '../../lib/limits';
import type { DisplayItem } from '../../contracts/display';
import type { HeaderFields } from './header-footer';
import { maxDigitWidth } from './grid-sizes';
import type { Workbook } from './model';
import { planSheet, sheetPageBlocks, type SheetPrint } from './sheet-pages';
import { sheetPageItems } from './draw-page';
import { headerFooterItems } from './header-footer-lines';
import { drawingItems } from './draw-drawings';
import { METAFILE } from '../../paint/metafile';

/** Pages one conversion prints at most. */
export const PAGES_MAX = 1_000;

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

/** The display list of one page: its blocks of cells, then its header and footer. */
function pageItems(workbook: Workbook, plan: SheetPrint, index: number, numbers: { ofSheet: number; number: number; pages: number }, fields: Omit<HeaderFields, 'page' | 'pages' | 'sheet'>, ctx: LineContext): DisplayItem[] {
  const page = plan.laid.pages[index]!;
  const items: DisplayItem[] = [];
  const gridLines = !!plan.sheet.print.gridLines;
  const blocks = sheetPageBlocks(plan, page);
  if (!plan.sheet.chartSheet) for (const block of blocks) items.push(...sheetPageItems(workbook, plan.sheet, block.page, block.at, ctx, { gridLines, ...(block.spillTo !== undefined ? { spillTo: block.spillTo } : {}) }));
  // Pictures and charts over the body's cells (the last block), not over repeated titles.
  items.push(...drawingItems(plan, blocks.at(-1)!, ctx));
  const headerFields = { ...fields, page: numbers.number, pages: numbers.pages, sheet: plan.sheet.name };
  items.push(...headerFooterItems(plan.sheet.print, plan.paper, numbers, headerFields, workbook.defaultFont, ctx));
  return items;
}

/** The workbook's PDF in the chunks it is written in. */
export function renderWorkbookChunks(workbook: Workbook, mupdf: typeof Mupdf, files: FontFiles, options: RenderOptions = {}): Uint8Array[] {
  const fonts = FontBook.shared(mupdf, files);
  fonts.install();
  const ctx: LineContext = { fonts, fields: {} };
  const digit = maxDigitWidth(fonts, workbook.defaultFont);
  const plans = workbook.sheets.flatMap((sheet) => planSheet(workbook, sheet, digit, ctx) ?? []);
  const pages = plans.reduce((n, p) => n + p.laid.pages.length, 0);
  // One task writes the whole PDF in one engine: past this many pages its heap would outgrow the isolate (486 pages took 55 MB).
  if (pages > PAGES_MAX) throw new LimitExceeded('sheet_pages', `the workbook prints to ${pages.toLocaleString('en')} pages; at most ${PAGES_MAX.toLocaleString('en')} are printed in one task (set a print area, or split the workbook)`);
  const fields = { file: options.fileName ?? '', ...dateFields(options.now ?? new Date()) };
  const out = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(out, 'pdf', 'compress-images');
  const text = new PageText();
  const drawPicture = drawPictureWith(mupdf);
  let number = 0;
  for (const plan of plans) {
    for (let i = 0; i < plan.laid.pages.length; i++) {
      number++;
      const items = pageItems(workbook, plan, i, { ofSheet: i + 1, number, pages }, fields, ctx);
      const device = writer.beginPage([0, 0, plan.paper.width, plan.paper.height]);
      const pageIndex = number - 1;
      paintDisplay(mupdf, device, items, drawPicture, { text: (t, x, baseline) => text.show(pageIndex, plan.paper.height, t, x, baseline), link: () => {} });
      writer.endPage();
      text.seal(pageIndex);
      device.destroy();
    }
  }
  // A workbook with nothing to print is one blank page, as Excel and LibreOffice give it.
  if (!number) {
    const blank = writer.beginPage([0, 0, 612, 792]);
    writer.endPage();
    blank.destroy();
  }
  writer.close();
  writer.destroy();
  try {
    return finishPdf(mupdf, out, { write: (pdf) => text.writeInto(pdf, (font) => fonts.bytesOf(font)) });
  } finally {
    out.destroy();
  }
}
