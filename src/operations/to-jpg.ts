import { z } from 'zod';
import { defineOperation, type Scratch, type StreamedOperationResult } from './define';
import { PageList, pagesOutside } from './params';
import { requirePages, withPdf } from '../engines/pdf';
import { renderPageJpeg } from '../engines/page-jpeg';
import { toJpgPrice } from '../billing/pricing';
import { joinChunks } from '../lib/bytes';
import { streamedZip } from '../lib/streamed-zip';

/** JPEG quality of the pages: text stays clean at 150 dpi, files stay small. */
const QUALITY = 85;
/** MuPDF's store (fonts, decoded images) is emptied every this many pages: WASM memory never shrinks. */
const EMPTY_STORE_EVERY = 8;
/**
 * Pages rendered in one invocation, by dpi: under about a minute of CPU (measured through the
 * service: ~0.3 s a page at 150 dpi), far from the Worker's limits. More pages run in steps,
 * each its own queue message, their JPEGs kept in the task's scratch space; a last step zips them.
 */
const PAGES_PER_STEP = { 72: 400, 150: 120, 300: 40 } as const;

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
  async run({ inputs, params, progress, step, scratch }) {
    const { bytes, file } = inputs[0]!;
    const perStep = PAGES_PER_STEP[params.dpi];
    const wanted = params.pages ? [...new Set(params.pages)] : file.pages ? Array.from({ length: file.pages }, (_, i) => i + 1) : null;
    const steps = wanted ? Math.ceil(wanted.length / perStep) : 1;
    if (steps <= 1) return zipRendered(bytes, params.dpi, params.pages, progress);
    if (step === steps) return zipScratch(wanted!, scratch);
    const part = wanted!.slice(step * perStep, (step + 1) * perStep);
    await withPdf(bytes, async (doc, mupdf) => {
      requirePages(part, doc.countPages());
      for (const [i, n] of part.entries()) {
        const chunks: Uint8Array[] = [];
        await renderPageJpeg(mupdf, doc, n - 1, params.dpi, QUALITY, async (chunk) => void chunks.push(chunk));
        await scratch.put(`page-${n}.jpg`, joinChunks(chunks));
        if ((i + 1) % EMPTY_STORE_EVERY === 0) mupdf.emptyStore();
        progress(step * perStep + i + 1, wanted!.length);
      }
    });
    return { next: true };
  },
});

/** The ZIP written while the pages are rendered, in one invocation. */
function zipRendered(bytes: Uint8Array, dpi: 72 | 150 | 300, selected: number[] | undefined, progress: (done: number, total: number) => void): StreamedOperationResult {
  return {
    ext: 'zip',
    contentType: 'application/zip',
    produce: (write) =>
      withPdf(bytes, async (doc, mupdf) => {
        const count = doc.countPages();
        const pages = selected ? [...new Set(selected)] : Array.from({ length: count }, (_, i) => i + 1);
        requirePages(pages, count);
        let rendered = 0;
        await writeZip(write, pages, async (n, entry) => {
          await renderPageJpeg(mupdf, doc, n - 1, dpi, QUALITY, async (chunk) => entry(chunk));
          if (++rendered % EMPTY_STORE_EVERY === 0) mupdf.emptyStore();
        }, progress);
      }),
  };
}

/** The ZIP of the pages the earlier steps left in scratch, each streamed from R2 into it (progress already shows every page done). */
function zipScratch(pages: number[], scratch: Scratch): StreamedOperationResult {
  return {
    ext: 'zip',
    contentType: 'application/zip',
    produce: (write) =>
      writeZip(write, pages, async (n, entry) => {
        const stream = await scratch.get(`page-${n}.jpg`);
        // A step's page gone missing is a storage fault: thrown, the step is retried.
        if (!stream) throw new Error(`the rendered page ${n} is missing from the task's scratch space`);
        const reader = stream.getReader();
        for (let part = await reader.read(); !part.done; part = await reader.read()) await entry(part.value);
      }, () => {}),
  };
}

/** A stored ZIP of `page-<n>.jpg` entries, each filled by `fill`, written out as it grows. */
async function writeZip(
  write: (chunk: Uint8Array) => Promise<void>,
  pages: number[],
  fill: (n: number, entry: (chunk: Uint8Array) => Promise<void>) => Promise<void>,
  progress: (done: number, total: number) => void,
): Promise<void> {
  const zip = streamedZip(write);
  for (const [i, n] of pages.entries()) {
    const entry = zip.entry(`page-${n}.jpg`);
    await fill(n, entry.push);
    await entry.end();
    progress(i + 1, pages.length);
    // A turn of the event loop per page: the API shares the isolate (zipping 500 pages at 300 dpi
    // from scratch kept a GET waiting 19 s without it).
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  await zip.end();
}
