import { z } from 'zod';

/** Shared parameter schemas: one definition per kind of value, reused by every operation. */

export const PageNumber = z.number().int().min(1, 'page numbers start at 1');
export const PageList = z.array(PageNumber).min(1, 'list at least one page');
/** `integer[] or all` of SPEC. */
export const PagesOrAll = z.union([z.literal('all'), PageList]);

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
