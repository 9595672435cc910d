import { z } from 'zod';
import { defineSpec, type RunOf } from './define';
import { PagesOrAll, pagesOutside, selectedPages } from './params';
import { PDF_MIME, requirePages, withPdf } from '../pdf/pdf';
import { pageRefs, savePreservingOriginal } from '../pdf/incremental';

/** Turns pages clockwise; the angle adds to any rotation the page already has. */
export const spec = defineSpec({
  path: 'rotate',
  type: 'rotate_pdf',
  summary: 'Rotate pages clockwise by 90, 180 or 270 degrees',
  accepts: ['pdf'],
  inputs: { kind: 'file_id' },
  params: z.object({
    pages: PagesOrAll.default('all'),
    angle: z.union([z.literal(90), z.literal(180), z.literal(270)]).default(90),
  }),
  check: ([input], p) => (p.pages === 'all' ? [] : pagesOutside('pages', p.pages, input!.pages)),
  engine: 'pdf',
});

export async function run({ inputs, params }: RunOf<typeof spec>) {
  const original = inputs[0]!.bytes;
  return withPdf(original, (doc) => {
    const count = doc.countPages();
    const pages = [...new Set(selectedPages(params.pages, count))];
    requirePages(pages, count);
    // Indirect references let the change be appended; a broken page tree gets a full save instead.
    const refs = pageRefs(doc);
    // A page object listed twice in the tree is one object: turn it once, not once per listing.
    const unique = new Map<string | number, ReturnType<typeof doc.findPage>>();
    for (const n of pages) {
      const page = refs ? refs[n - 1]! : doc.findPage(n - 1);
      unique.set(refs ? page.toString() : (page as unknown as { pointer: number }).pointer, page);
    }
    const changed = [...unique.values()];
    for (const page of changed) {
      const current = page.getInheritable('Rotate');
      const degrees = current.isNumber() ? current.asNumber() : 0;
      // /Rotate may be inherited from a Pages node: writing it on the page overrides only this page.
      page.put('Rotate', (((Math.round(degrees / 90) * 90 + params.angle) % 360) + 360) % 360);
    }
    // Only the page dictionaries change: append them as an incremental update to the original bytes.
    const chunks = savePreservingOriginal(doc, original, changed);
    return { chunks, ext: 'pdf', contentType: PDF_MIME };
  });
}

