import { z } from 'zod';

/** Shared parameter schemas: one definition per kind of value, reused by every operation. */

export const PageNumber = z.number().int().min(1, 'page numbers start at 1').describe('a page number (1 for the first page)');
/** Longest page list taken: more entries than any document this service can hold has pages, and checked before charging. */
export const MAX_PAGE_LIST = 10_000;
export const PageList = z
  .array(PageNumber)
  .min(1, 'list at least one page')
  .max(MAX_PAGE_LIST, `list at most ${MAX_PAGE_LIST.toLocaleString('en')} pages`)
  .describe(`a list of page numbers (1 to ${MAX_PAGE_LIST.toLocaleString('en')} entries)`);
/** `integer[] or all` of SPEC. */
export const PagesOrAll = z.union([z.literal('all'), PageList]).describe(`a list of page numbers or "all"`);

export type PagesOrAllValue = z.infer<typeof PagesOrAll>;

/** Problems for page numbers past the end of a document whose page count is known. */
export function pagesOutside(path: string, pages: readonly number[], pageCount: number | null): { path: string; message: string }[] {
  if (pageCount == null) return [];
  return pages.flatMap((p, i) =>
    p > pageCount ? [{ path: `${path}[${i}]`, message: `page ${p} does not exist: the document has ${pageCount} page${pageCount === 1 ? '' : 's'}` }] : [],
  );
}

export function duplicates(path: string, pages: readonly number[]): { path: string; message: string }[] {
  const seen = new Set<number>();
  return pages.flatMap((p, i) => {
    if (seen.has(p)) return [{ path: `${path}[${i}]`, message: `page ${p} is listed twice` }];
    seen.add(p);
    return [];
  });
}

export const selectedPages = (pages: PagesOrAllValue, pageCount: number): number[] =>
  pages === 'all' ? Array.from({ length: pageCount }, (_, i) => i + 1) : [...pages];
