/**
 * Price rules of SPEC "Pricing rules" and DECISIONS "Pricing", as functions an operation module
 * picks for its `price`: charge_units = max(size units, page units). A unit costs 1.25 RUB.
 */
import type { FieldProblem } from '../../lib/errors';
import { sizeUnitsOf } from '../../lib/money';
import type { InputFile } from '../../contracts/operation';

/** Page rates of the price list (`page_rates`), keyed by operation type. */
export const PAGE_RATES = { ocr_pdf: 10, pdf_to_word: 50, pdf_to_excel: 50, pdf_to_pptx: 50, pdf_to_jpg: 50, pdf_to_jpg_300dpi: 25 } as const;

export const OCR_MAX_PAGES = 100;

/** Size units of the summed input: merge, jpg-to-pdf and photo-to-pdf sum; single inputs are their own size. */
export const sizeUnits = (inputs: readonly Pick<InputFile, 'size'>[]): number => sizeUnitsOf(inputs.reduce((sum, f) => sum + f.size, 0));

export const pageUnits = (pages: number, rate: number): number => Math.ceil(pages / rate);

/** A price rule for operations priced "10 MB or N pages": the larger count wins. */
export function sizeOrPages(rate: number, pagesOf: (input: Pick<InputFile, 'pages'>, params: Record<string, unknown>) => number | null = (i) => i.pages) {
  return (inputs: readonly Pick<InputFile, 'size' | 'pages'>[], params: Record<string, unknown>): number => {
    const pages = pagesOf(inputs[0]!, params);
    return Math.max(sizeUnits(inputs), pages == null ? 0 : pageUnits(pages, rate));
  };
}

/** to-jpg: 50 pages a unit, 25 at 300 dpi; with `pages` only the selected pages are paid. */
export const toJpgPrice = (inputs: readonly Pick<InputFile, 'size' | 'pages'>[], params: { dpi?: number; pages?: number[] }): number =>
  sizeOrPages(params.dpi === 300 ? PAGE_RATES.pdf_to_jpg_300dpi : PAGE_RATES.pdf_to_jpg, (input) => (params.pages ? new Set(params.pages).size : input.pages))(inputs, params);

/** OCR takes at most 100 pages a call: more is a 422 at request time, with nothing charged. */
export function ocrPageLimit(input: Pick<InputFile, 'pages'>): FieldProblem[] {
  return input.pages != null && input.pages > OCR_MAX_PAGES
    ? [{ path: 'file_id', message: `OCR takes at most ${OCR_MAX_PAGES} pages per call; this document has ${input.pages}: split it first` }]
    : [];
}
