import { z } from 'zod';
import { zipSync } from 'fflate';
import { defineOperation } from './define';
import { PageNumber } from './params';
import { requirePages, saveBytes, withPdf } from '../engines/pdf';
import type { FieldProblem } from '../lib/errors';

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

export default defineOperation({
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
  async run({ inputs, params, progress }) {
    return withPdf(inputs[0]!.bytes, (source, mupdf) => {
      const count = source.countPages();
      const parts = partsOf(params.mode, params.ranges, count);
      const members: Record<string, [Uint8Array, { level: 0 }]> = {};
      parts.forEach((part, index) => {
        requirePages([part.first, part.last], count);
        const out = new mupdf.PDFDocument();
        try {
          const map = out.newGraftMap();
          for (let n = part.first; n <= part.last; n++) map.graftPage(-1, source, n - 1);
          map.destroy();
          // PDFs are compressed already: store them in the ZIP as they are.
          members[part.name] = [saveBytes(out, 'compress=yes'), { level: 0 }];
        } finally {
          out.destroy();
        }
        progress(index + 1, parts.length);
      });
      return { chunks: [zipSync(members)], ext: 'zip', contentType: 'application/zip' };
    });
  },
});
