import { z } from 'zod';
import { Zip, ZipPassThrough } from 'fflate';
import { defineOperation } from './define';
import { PageList, pagesOutside } from './params';
import { requirePages, withPdf } from '../engines/pdf';
import { renderPageJpeg } from '../engines/page-jpeg';
import { toJpgPrice } from '../billing/pricing';

/** JPEG quality of the pages: text stays clean at 150 dpi, files stay small. */
const QUALITY = 85;
/** MuPDF's store (fonts, decoded images) is emptied every this many pages: WASM memory never shrinks. */
const EMPTY_STORE_EVERY = 8;

/**
 * PDF pages to JPEG pictures (SPEC to-jpg): a ZIP of `page-<n>.jpg`, n the page's number in the
 * document, at 72, 150 or 300 dpi. Each page is drawn as a viewer shows it (crop box, rotation,
 * annotations, transparency, colours converted to RGB by MuPDF) and encoded in bands
 * (engines/page-jpeg.ts); the ZIP goes to R2 as it is made.
 */
export default defineOperation({
  path: 'to-jpg',
  type: 'pdf_to_jpg',
  summary: 'PDF pages to JPEG pictures (a ZIP of page-<n>.jpg) at 72, 150 or 300 dpi',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z.object({
    dpi: z.union([z.literal(72), z.literal(150), z.literal(300)], { error: 'dpi must be 72, 150 or 300' }).default(150),
    pages: PageList.optional(),
  }),
  price: toJpgPrice,
  check: ([input], p) => (p.pages ? pagesOutside('pages', p.pages, input!.pages) : []),
  engine: 'pdf',
  async run({ inputs, params, progress }) {
    return {
      ext: 'zip',
      contentType: 'application/zip',
      produce: (write) =>
        withPdf(inputs[0]!.bytes, async (doc, mupdf) => {
          const count = doc.countPages();
          const pages = params.pages ? [...new Set(params.pages)] : Array.from({ length: count }, (_, i) => i + 1);
          requirePages(pages, count);
          const pending: Uint8Array[] = [];
          let failure: Error | null = null;
          const zip = new Zip((err, data) => (err ? (failure = err) : pending.push(data)));
          const drain = async () => {
            if (failure) throw failure;
            while (pending.length) await write(pending.shift()!);
          };
          for (const [i, n] of pages.entries()) {
            // JPEGs are compressed already: stored in the ZIP as they are.
            const entry = new ZipPassThrough(`page-${n}.jpg`);
            zip.add(entry);
            await renderPageJpeg(mupdf, doc, n - 1, params.dpi, QUALITY, async (chunk) => {
              entry.push(chunk);
              await drain();
            });
            entry.push(new Uint8Array(0), true);
            await drain();
            if ((i + 1) % EMPTY_STORE_EVERY === 0) mupdf.emptyStore();
            progress(i + 1, pages.length);
          }
          zip.end();
          await drain();
        }),
    };
  },
});
