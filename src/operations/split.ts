import { z } from 'zod';
import { defineSpec, type RunOf, type StreamedOperationResult } from './define';
import { PageNumber } from './params';
import { requirePages, withPdf, type PDFDocument } from '../pdf/pdf';
import { canRewrite, writeReachable } from '../pdf/rewrite';
import type { FieldProblem } from '../lib/errors';
import { streamedZip } from '../lib/streamed-zip';

/** Each range is a PDF of its own in the ZIP: as many as every-page mode makes of a 1,000-page file. */
const MAX_RANGES = 1000;

interface Part {
  name: string;
  first: number;
  last: number;
}

/** ZIP member names of DECISIONS.md: page-<n>.pdf, pages-<a>-<b>.pdf, part-1.pdf and part-2.pdf. */
function partsOf(mode: 'every-page' | 'ranges' | 'half', ranges: [number, number][] | undefined, count: number): Part[] {
  if (mode === 'ranges') return (ranges ?? []).map(([a, b]) => ({ name: `pages-${a}-${b}.pdf`, first: a, last: b }));
  if (mode === 'half') {
    const firstHalf = Math.ceil(count / 2);
    return [
      { name: 'part-1.pdf', first: 1, last: firstHalf },
      { name: 'part-2.pdf', first: firstHalf + 1, last: count },
    ];
  }
  return Array.from({ length: count }, (_, i) => ({ name: `page-${i + 1}.pdf`, first: i + 1, last: i + 1 }));
}

export const spec = defineSpec({
  path: 'split',
  type: 'split_pdf',
  summary: 'Split a PDF into a ZIP of PDFs: every page, page ranges, or two halves',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z
    .object({
      mode: z.enum(['every-page', 'ranges', 'half']).default('every-page'),
      ranges: z
        .array(z.tuple([PageNumber, PageNumber]).describe('a range [first page, last page]'))
        .min(1, 'give at least one range')
        .max(MAX_RANGES, `give at most ${MAX_RANGES} ranges`)
        .describe(`a list of 1 to ${MAX_RANGES} ranges [first page, last page]`)
        .optional(),
    })
    .superRefine((p, ctx) => {
      if (p.mode === 'ranges' && !p.ranges) ctx.addIssue({ code: 'custom', path: ['ranges'], message: 'ranges is required when mode is "ranges"' });
      p.ranges?.forEach(([a, b], i) => {
        if (a > b) ctx.addIssue({ code: 'custom', path: ['ranges', i], message: `range [${a}, ${b}] ends before it starts` });
      });
    }),
  check: ([input], p): FieldProblem[] => {
    const count = input!.pages;
    if (count == null) return [];
    if (p.mode === 'half' && count < 2) return [{ path: 'mode', message: 'a 1-page document cannot be split in half' }];
    if (p.mode !== 'ranges') return [];
    return (p.ranges ?? []).flatMap(([, b], i) =>
      b > count ? [{ path: `ranges[${i}]`, message: `page ${b} does not exist: the document has ${count} page${count === 1 ? '' : 's'}` }] : [],
    );
  },
  engine: 'pdf',
});

export async function run({ inputs, params, progress }: RunOf<typeof spec>): Promise<StreamedOperationResult> {
  // The ZIP goes to R2 while it is made, one PDF after another: a 48 MB file split in pages or
  // halves never has its parts, or its ZIP, in memory at once.
  return {
    ext: 'zip',
    contentType: 'application/zip',
    produce: (write) =>
      withPdf(inputs[0]!.bytes, async (source, mupdf) => {
        const count = source.countPages();
        const parts = partsOf(params.mode, params.ranges, count);
        for (const part of parts) requirePages([part.first, part.last], count);
        const zip = streamedZip(write);
        for (const [index, part] of parts.entries()) {
          const pdf = await partPdf(mupdf, source, inputs[0]!.bytes, part);
          // PDFs are compressed already: stored in the ZIP as they are.
          const entry = zip.entry(part.name);
          for (const chunk of pdf) await entry.push(chunk);
          await entry.end();
          progress(index + 1, parts.length);
        }
        await zip.end();
      }),
  };
}


/**
 * One part as its own PDF, in chunks. A few pages are grafted into a new document; more are cut
 * from a fresh copy of the source instead (its other pages dropped, the rest written by our writer
 * straight from the input's bytes): grafting copies every stream into MuPDF's heap, which took it
 * from 23 to 40 MB for half of a 48 MB file, and WASM memory never shrinks.
 */
async function partPdf(mupdf: typeof import('mupdf'), source: PDFDocument, bytes: Uint8Array, part: Part): Promise<Uint8Array[]> {
  const pages = part.last - part.first + 1;
  if (pages > GRAFT_PAGES) {
    const cut = await withPdf(bytes, (doc) => {
      // A file MuPDF had to repair, or repairs while its streams are read, may reload its old page
      // tree under the cut: such files are grafted instead.
      if (!canRewrite(doc) || doc.wasRepaired()) return null;
      doc.rearrangePages(Array.from({ length: pages }, (_, i) => part.first - 1 + i));
      const written = writeReachable(doc);
      return doc.wasRepaired() ? null : written;
    });
    if (cut) return cut;
  }
  const out = new mupdf.PDFDocument();
  try {
    const map = out.newGraftMap();
    for (let n = part.first; n <= part.last; n++) map.graftPage(-1, source, n - 1);
    map.destroy();
    return writeReachable(out);
  } finally {
    out.destroy();
  }
}

/** Parts of up to this many pages are grafted (see partPdf). */
const GRAFT_PAGES = 8;
