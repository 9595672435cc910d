import { z } from 'zod';
import { defineSpec, type RunOf } from './define';
import { ImagePages, imagePagesResult, type PlacedImage } from '../pdf/image-pages';
import { A4, MARGIN_PT, fitCentred, swapsSides } from '../pdf/image-placement';
import type { FieldProblem } from '../lib/errors';

/** Resolution assumed for an image that declares none (what browsers and office programs assume). */
const DEFAULT_DPI = 96;
/** PDF's largest page side (ISO 32000-1, Annex C: 14,400 units); an image larger at its resolution is scaled down to it. */
const MAX_PAGE_PT = 14_400;

/**
 * JPG, PNG and WEBP images to a PDF, one image per page (SPEC jpg-to-pdf). JPEGs are embedded as
 * they are: their bytes in the PDF equal the file's, nothing decoded or re-encoded; their EXIF
 * orientation is applied by how the page draws them; Adobe CMYK JPEGs get the /Decode that undoes
 * their inverted samples. PNGs (transparency as a soft mask, palettes, 16-bit, grey) and WEBPs are
 * decoded by MuPDF (WEBP through @jsquash/webp first) within a pixel budget.
 * `fit`: `auto` makes the page the image's size at its declared resolution (96 dpi when it has
 * none); `portrait` and `landscape` put it on an A4 sheet, fitted and centred inside 10 mm margins.
 */
export const spec = defineSpec({
  path: 'jpg-to-pdf',
  type: 'jpg_to_pdf',
  summary: 'Images (JPG, PNG, WEBP) to a PDF, one image per page',
  accepts: ['jpg', 'png', 'webp'],
  inputs: { kind: 'file_ids', min: 1, max: 10 },
  params: z.object({
    order: z.array(z.number().int().min(0)).optional(),
    fit: z.enum(['auto', 'portrait', 'landscape']).default('auto'),
  }),
  check: (inputs, p) => orderProblems(p.order, inputs.length),
  engine: 'pdf',
});

export function run({ inputs, params, progress }: RunOf<typeof spec>) {
  const ordered = (params.order ?? inputs.map((_, i) => i)).map((i) => inputs[i]!);
  return imagePagesResult(async (pages) => {
    for (const [i, input] of ordered.entries()) {
      const image = await pages.add(input.bytes, input.file.kind, `Image ${i + 1} (${input.file.filename})`);
      placeImage(pages, image, params.fit);
      progress(i + 1, ordered.length);
    }
  });
}


function placeImage(pages: ImagePages, image: PlacedImage, fit: 'auto' | 'portrait' | 'landscape'): void {
  const [w, h] = swapsSides(image.orientation) ? [image.height, image.width] : [image.width, image.height];
  if (fit === 'auto') {
    const scale = Math.min(72 / (image.dpi ?? DEFAULT_DPI), MAX_PAGE_PT / Math.max(w, h));
    const size = [Math.max(1, w * scale), Math.max(1, h * scale)] as const;
    pages.addPage(image, size, { x: 0, y: 0, w: size[0], h: size[1] });
    return;
  }
  const size = fit === 'portrait' ? A4 : ([A4[1], A4[0]] as const);
  pages.addPage(image, size, fitCentred(w, h, MARGIN_PT, MARGIN_PT, size[0] - 2 * MARGIN_PT, size[1] - 2 * MARGIN_PT));
}

/** `order` must name every index of `file_ids` exactly once. */
export function orderProblems(order: number[] | undefined, count: number): FieldProblem[] {
  if (!order) return [];
  if (order.length !== count) return [{ path: 'order', message: `order must list each of the ${count} indexes of file_ids (0 to ${count - 1}) exactly once; it has ${order.length}` }];
  const problems: FieldProblem[] = [];
  const seen = new Set<number>();
  order.forEach((index, at) => {
    if (index >= count) problems.push({ path: `order[${at}]`, message: `index ${index} is past the last file: file_ids has ${count} (0 to ${count - 1})` });
    else if (seen.has(index)) problems.push({ path: `order[${at}]`, message: `index ${index} appears twice: each file is used exactly once` });
    seen.add(index);
  });
  return problems;
}
