import { z } from 'zod';
import { defineSpec, type RunOf } from './define';
import { PagesOrAll, pagesOutside, selectedPages } from './params';
import { requirePages } from '../pdf/pdf';
import { streamedPdf } from './streamed-pdf';
import { SANS, StampFont, appendToPage, textAt, visiblePage } from '../pdf/stamp';
import type * as Mupdf from 'mupdf';

/** Space between the number and the edge of the page, in points (about 8.5 mm, where word processors put footers). */
const MARGIN = 24;

/**
 * Page numbers as real text, where a reader sees the page: at the chosen edge of the visible page
 * whatever its rotation or boxes. Page n of the document shows `prefix` + (start_from + n - 1):
 * numbering counts every page, and `pages` only chooses which of them show it.
 */
export const spec = defineSpec({
  path: 'add-page-numbers',
  type: 'add_page_numbers',
  summary: 'Add page numbers to a PDF',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z.object({
    position: z.enum(['bottom-center', 'bottom-right', 'top-center', 'top-right']).default('bottom-center'),
    start_from: z.number().int().min(1).max(1_000_000).default(1),
    prefix: z.string().max(100).default(''),
    font_size: z.number().int().min(6).max(72).default(12),
    pages: PagesOrAll.default('all'),
  }),
  check: ([input], p) => (p.pages === 'all' ? [] : pagesOutside('pages', p.pages, input!.pages)),
  engine: 'pdf',
});

export async function run({ inputs, params, progress, faces }: RunOf<typeof spec>) {
  const fonts = await faces.load([SANS]);
  return streamedPdf(inputs[0]!.bytes, (doc, mupdf) => {
    const count = doc.countPages();
    const pages = [...new Set(selectedPages(params.pages, count))].sort((a, b) => a - b);
    requirePages(pages, count);
    const font = new StampFont(mupdf, SANS, fonts);
    try {
      const drawn: [Mupdf.PDFPage, ReturnType<typeof visiblePage>, string][] = [];
      for (const n of pages) {
        const page = doc.loadPage(n - 1) as Mupdf.PDFPage;
        const visible = visiblePage(page);
        const label = `${params.prefix}${params.start_from + n - 1}`;
        const width = font.width(label, params.font_size);
        const x = params.position.endsWith('right') ? visible.width - MARGIN - width : (visible.width - width) / 2;
        // Baselines: the number's top MARGIN below the top edge, or its descent MARGIN above the bottom.
        const y = params.position.startsWith('top') ? MARGIN + params.font_size * 0.8 : visible.height - MARGIN;
        drawn.push([page, visible, textAt(font, 'PEPageNo', label, params.font_size, x, y)]);
        progress(drawn.length, pages.length);
      }
      const fontRef = font.reference(doc);
      for (const [page, visible, content] of drawn) {
        appendToPage(doc, page, visible, content, { Font: { PEPageNo: fontRef } });
        page.destroy();
      }
    } finally {
      font.destroy();
    }
  });
}

