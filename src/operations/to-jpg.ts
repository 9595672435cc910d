import { z } from 'zod';
import type * as Mupdf from 'mupdf';
import { defineSpec, type RunOf, type Scratch, type StreamedOperationResult } from './define';
import { PageList, pagesOutside } from './params';
import { requirePages, withPdf, type PDFDocument } from '../pdf/pdf';
import { renderPageJpeg } from '../pdf/page-jpeg';
import { toJpgPrice } from '../service/billing/pricing';
import { joinChunks } from '../lib/bytes';
import { streamedZip } from '../lib/streamed-zip';

/** JPEG quality of the pages: text stays clean at 150 dpi, files stay small. */
const QUALITY = 85;
/** MuPDF's store (fonts, decoded images) is emptied every this many pages: WASM memory never shrinks. */
const EMPTY_STORE_EVERY = 8;
/**
 * Pixels one invocation draws and encodes: about 30 s of Worker time at the ~25 ns a pixel measured
 * through the service on the bench PDF's pages (0.19 s for an A4 page at 300 dpi, 0.06 s at 150),
 * far from the 300 s CPU limit even for pages several times as heavy. That is 137 A4 pages at 300
 * dpi, 551 at 150. A task over it runs in steps, each its own queue message, its JPEGs kept in the
 * task's scratch space; the last step zips them. A task within it runs in one invocation and its
 * ZIP is written while the pages are drawn (no scratch, no second pass over the JPEGs).
 */
export const STEP_PIXELS = 1_200_000_000;
/** Pages one step takes at most, however small: each costs a store put and a progress update. */
export const STEP_PAGES = 500;

/**
 * PDF pages to JPEG pictures (SPEC to-jpg): a ZIP of `page-<n>.jpg`, n the page's number in the
 * document, at 72, 150 or 300 dpi. Each page is drawn as a viewer shows it (crop box, rotation,
 * annotations, transparency, colours converted to RGB by MuPDF) and encoded in bands
 * (engines/page-jpeg.ts); the ZIP goes to R2 as it is made.
 */
export const spec = defineSpec({
  path: 'to-jpg',
  type: 'pdf_to_jpg',
  summary: 'PDF pages to JPEG pictures (a ZIP of page-<n>.jpg) at 72, 150 or 300 dpi',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z.object({
    dpi: z.union([z.literal(72), z.literal(150), z.literal(300)], { error: 'dpi must be 72, 150 or 300' }).default(150),
    pages: PageList.optional(),
  }),
  unit: '10 MB or 50 pages (300 dpi: 25)',
  price: toJpgPrice,
  check: ([input], p) => (p.pages ? pagesOutside('pages', p.pages, input!.pages) : []),
  engine: 'pdf',
});

export async function run({ inputs, params, progress, step, scratch }: RunOf<typeof spec>) {
  const { bytes } = inputs[0]!;
  const dpi = params.dpi;
  return withPdf(bytes, async (doc, mupdf) => {
    const count = doc.countPages();
    const wanted = params.pages ? [...new Set(params.pages)] : Array.from({ length: count }, (_, i) => i + 1);
    requirePages(wanted, count);
    const steps = planSteps(wanted.map((n) => pagePixels(mupdf, doc, n - 1, dpi)));
    if (steps.length === 1) return zipRendered(bytes, dpi, wanted, progress);
    const [first, end] = steps[step]!;
    for (let i = first; i < end; i++) {
      const chunks: Uint8Array[] = [];
      await renderPageJpeg(mupdf, doc, wanted[i]! - 1, dpi, QUALITY, async (chunk) => void chunks.push(chunk));
      await scratch.put(`page-${wanted[i]}.jpg`, joinChunks(chunks));
      if ((i - first + 1) % EMPTY_STORE_EVERY === 0) mupdf.emptyStore();
      progress(i + 1, wanted.length);
    }
    // The last step zips what every step drew, in the same invocation.
    return step < steps.length - 1 ? { next: true as const } : zipScratch(wanted, scratch);
  });
}


/**
 * Consecutive runs of pages, as [first, end) indexes, each within STEP_PIXELS and STEP_PAGES (a
 * page larger than STEP_PIXELS alone makes one step).
 */
export function planSteps(pixels: readonly number[]): [number, number][] {
  const steps: [number, number][] = [];
  let [first, sum] = [0, 0];
  for (let i = 0; i < pixels.length; i++) {
    if (i > first && (sum + pixels[i]! > STEP_PIXELS || i - first === STEP_PAGES)) {
      steps.push([first, i]);
      [first, sum] = [i, 0];
    }
    sum += pixels[i]!;
  }
  steps.push([first, pixels.length]);
  return steps;
}

/** The pixels of page `index` at `dpi` (its crop box as shown, rotation applied). */
function pagePixels(mupdf: typeof Mupdf, doc: PDFDocument, index: number, dpi: number): number {
  const page = doc.loadPage(index);
  try {
    const [x0, y0, x1, y1] = page.getBounds();
    return Math.ceil(((x1 - x0) * dpi) / 72) * Math.ceil(((y1 - y0) * dpi) / 72);
  } finally {
    page.destroy();
  }
}

/** The ZIP written while `pages` are rendered, in one invocation. */
function zipRendered(bytes: Uint8Array, dpi: 72 | 150 | 300, pages: number[], progress: (done: number, total: number) => void): StreamedOperationResult {
  return {
    ext: 'zip',
    contentType: 'application/zip',
    produce: (write) =>
      withPdf(bytes, async (doc, mupdf) => {
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
