/** The languages the OCR Worker bundles a Tesseract model for (what the API may accept without loading Tesseract). */
export const OCR_LANGUAGES = ['rus', 'eng', 'deu', 'fra'] as const;
export type OcrLanguage = (typeof OCR_LANGUAGES)[number];
