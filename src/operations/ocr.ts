import { z } from 'zod';
import type * as Mupdf from 'mupdf';
import { defineSpec, type RunOf, type FanOut, type Scratch } from './define';
import { withPdf, type PDFDocument } from '../pdf/pdf';
import { SANS, StampFont, appendToPage, matrix, n, visiblePage } from '../pdf/stamp';
import type { FontFiles } from '../fonts/catalog';
import { streamedPdf } from './streamed-pdf';
import { PAGE_RATES, ocrPageLimit, sizeOrPages } from '../service/billing/pricing';
import { assemblePng } from '../codecs/png';
import { joinChunks } from '../lib/bytes';
import type { OcrLanguage } from '../ocr/tesseract';
import { unturn, type PageReading } from '../ocr/orientation';
import { checkPageBudget } from '../pdf/page-budget';

/** Kept in step with src/ocr/tesseract.ts, which the API Worker must not import. */
const LANGUAGES = ['rus', 'eng', 'deu', 'fra'] as const satisfies readonly OcrLanguage[];
/** Pages are drawn for Tesseract at up to 300 dpi (a scan at its own resolution, never enlarged). */
const OCR_DPI = 300;
/**
 * A page is drawn for recognition with at most this many pixels: Tesseract holds several copies of
 * it (an 8.4-megapixel page took its WASM heap to 48.5 MB). A4 at 300 dpi is 8.7 million; A3 is read at 250 dpi.
 */
const MAX_OCR_PIXELS = 12_000_000;

type Plan = { page: number; dpi: number }[];

/**
 * Searchable PDF (SPEC ocr): pages without text get an invisible text layer of what Tesseract
 * reads on them; pages that carry text are kept as they are (DECISIONS). Three steps:
 * 0. here (MuPDF): each page without text is drawn grey at about 300 dpi into the task's scratch
 *    space, and the pages fan out to the OCR Worker, a message each (src/workers/ocr.ts);
 * 1. the OCR Worker recognises the pages and leaves their words in scratch; the task object
 *    counts them and sends step 2 when the last is in;
 * 2. here again: every word is written over its place on the page, invisible (text render mode
 *    3), scaled to its box, in reading order; the page's own content is not touched.
 */
export const spec = defineSpec({
  path: 'ocr',
  type: 'ocr_pdf',
  summary: 'Searchable PDF: an invisible text layer recognised on the pages that have no text (rus, eng, deu, fra; up to 100 pages)',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z.object({
    languages: z
      .array(z.enum(LANGUAGES, { error: `languages are from ${LANGUAGES.join(', ')}` }), { error: 'languages must be an array such as ["rus", "eng"]' })
      .min(1, { error: 'give at least one language' })
      .max(4, { error: 'give at most 4 languages' })
      .default(['rus', 'eng']),
  }),
  unit: '10 MB or 10 pages',
  price: sizeOrPages(PAGE_RATES.ocr_pdf),
  check: ([input]) => ocrPageLimit(input!),
  engine: 'pdf',
});

export async function run({ inputs, params, step, scratch, progress, faces }: RunOf<typeof spec>) {
  const { bytes } = inputs[0]!;
  if (step === 0) {
    const plan = await drawPagesWithoutText(bytes, scratch, progress);
    if (!plan.length) return { chunks: [bytes], ext: 'pdf', contentType: 'application/pdf' }; // every page has text
    await scratch.put('ocr-plan.json', new TextEncoder().encode(JSON.stringify(plan)));
    const languages = [...new Set(params.languages)];
    return { next: true, fanOut: plan.map(({ page }) => ({ part: page, languages })) } satisfies FanOut;
  }
  const plan = JSON.parse(await text(scratch, 'ocr-plan.json')) as Plan;
  const words = new Map<number, PageReading>();
  for (const { page } of plan) words.set(page, JSON.parse(await text(scratch, `ocr-words-${page}.json`)) as PageReading);
  const fonts = await faces.load([SANS]);
  return streamedPdf(bytes, (doc, mupdf) => addTextLayers(doc, mupdf, plan, words, fonts));
}


/** Draws every page without text grey into scratch as `ocr-page-<n>.png`; returns them with their dpi. */
async function drawPagesWithoutText(bytes: Uint8Array, scratch: Scratch, progress: (done: number, total: number) => void): Promise<Plan> {
  return withPdf(bytes, async (doc, mupdf) => {
    const plan: Plan = [];
    const count = doc.countPages();
    for (let i = 0; i < count; i++) {
      // Finding text and drawing run the page: its forms and operators are budgeted first.
      checkPageBudget(doc, i);
      const page = doc.loadPage(i);
      try {
        if (hasText(page)) continue;
        const [x0, y0, x1, y1] = page.getBounds();
        const dpi = Math.min(pictureDpi(mupdf, page) ?? OCR_DPI, OCR_DPI, 72 * Math.sqrt(MAX_OCR_PIXELS / Math.max(1, (x1 - x0) * (y1 - y0))));
        const pix = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false, true);
        try {
          await scratch.put(`ocr-page-${i + 1}.png`, greyPng(pix));
        } finally {
          pix.destroy();
        }
        plan.push({ page: i + 1, dpi });
      } finally {
        page.destroy();
      }
      progress(i + 1, count);
      // A turn of the event loop per page: the API shares this isolate (a status poll waited 3.6 s
      // while 100 pages were drawn).
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return plan;
  });
}

/**
 * The resolution of the page's sharpest picture as drawn (its pixels per inch of page), if it has
 * one: a scan is read at its own resolution up to 300 dpi, never enlarged. Enlarging a 96-dpi
 * table scan 2.5 times had Tesseract's CER go from 0.08 (the scan itself) to 0.27.
 */
function pictureDpi(mupdf: typeof Mupdf, page: Mupdf.Page): number | undefined {
  let best: number | undefined;
  const note = (image: Mupdf.Image, ctm: Mupdf.Matrix) => {
    // The unit square the picture fills, mapped by ctm: its longer side in points.
    const across = Math.hypot(ctm[0], ctm[1]);
    const down = Math.hypot(ctm[2], ctm[3]);
    if (across < 1 || down < 1) return;
    const dpi = Math.max((image.getWidth() * 72) / across, (image.getHeight() * 72) / down);
    best = Math.max(best ?? 0, dpi);
  };
  const device = new mupdf.Device({ fillImage: (image, ctm) => note(image, ctm), fillImageMask: (image, ctm) => note(image, ctm) });
  try {
    page.run(device, mupdf.Matrix.identity);
    device.close();
  } finally {
    device.destroy();
  }
  return best;
}

function hasText(page: Mupdf.Page): boolean {
  const text = page.toStructuredText('');
  try {
    return text.asText().trim().length > 0;
  } finally {
    text.destroy();
  }
}

/** A grey pixmap as PNG (rows unfiltered: scans compress well enough, and Tesseract's reader is quick on them). */
function greyPng(pix: Mupdf.Pixmap): Uint8Array {
  const [w, h, stride, px] = [pix.getWidth(), pix.getHeight(), pix.getStride(), pix.getPixels()];
  const rows = new Uint8Array(h * (w + 1));
  for (let y = 0; y < h; y++) rows.set(px.subarray(y * stride, y * stride + w), y * (w + 1) + 1);
  return assemblePng(w, h, 0, rows);
}

type Matrix = [number, number, number, number, number, number];

/** `first` then `then`, as PDF matrices concatenate. */
function concat([a, b, c, d, e, f]: Matrix, [a2, b2, c2, d2, e2, f2]: Matrix): Matrix {
  return [a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, e * a2 + f * c2 + e2, e * b2 + f * d2 + f2];
}

async function text(scratch: Scratch, name: string): Promise<string> {
  const stream = await scratch.get(name);
  // What an earlier step left is gone: a storage fault, thrown so the step is retried.
  if (!stream) throw new Error(`${name} is missing from the task's scratch space`);
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) chunks.push(part.value);
  return new TextDecoder().decode(joinChunks(chunks));
}

/**
 * Each recognised word drawn invisibly over where it was read: on its line's baseline (the line's
 * bottom less a fifth, the usual descent), at the line's height, stretched (Tz) to the word's width.
 */
function addTextLayers(doc: PDFDocument, mupdf: typeof Mupdf, plan: Plan, readings: Map<number, PageReading>, fonts: FontFiles): void {
  const font = new StampFont(mupdf, SANS, fonts);
  try {
    const drawn: [Mupdf.PDFPage, ReturnType<typeof visiblePage>, string][] = [];
    for (const { page: number, dpi } of plan) {
      const reading = readings.get(number);
      if (!reading?.words.length) continue;
      const page = doc.loadPage(number - 1) as Mupdf.PDFPage;
      const visible = visiblePage(page);
      const scale = 72 / dpi;
      // A page read turned (scanned sideways or upside down): its words are turned back onto it.
      const back = unturn(reading.turn, visible.width, visible.height);
      const ops = ['BT 3 Tr'];
      for (const word of reading.words) {
        // The words of a line share its baseline and size, so text tools see one line of words.
        const [x, w, size] = [word.x0 * scale, (word.x1 - word.x0) * scale, Math.max(1, (word.lineBottom - word.lineTop) * scale)];
        const baseline = word.lineBottom * scale - size * 0.2;
        const natural = font.width(word.text, size);
        const stretch = natural > 0 ? (100 * w) / natural : 100;
        // The visible frame is y-down: the text matrix flips y back so the glyphs stand upright.
        ops.push(`/PEOcr ${n(size)} Tf ${n(stretch)} Tz ${matrix(concat([1, 0, 0, -1, x, baseline], back))} Tm ${font.glyphs(word.text)} Tj`);
      }
      ops.push('ET');
      drawn.push([page, visible, ops.join('\n')]);
    }
    const fontRef = font.reference(doc);
    for (const [page, visible, content] of drawn) {
      appendToPage(doc, page, visible, content, { Font: { PEOcr: fontRef } });
      page.destroy();
    }
  } finally {
    font.destroy();
  }
}
