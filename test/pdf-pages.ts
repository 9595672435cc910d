/** A PDF's pages read one by one through MuPDF (opened, each page loaded and let go, the document closed), for tests that check what each page shows. */
import type * as Mupdf from 'mupdf';
import { loadMupdf } from '../src/pdf/mupdf';

export async function eachPage<T>(bytes: Uint8Array, read: (page: Mupdf.Page, size: [number, number]) => T): Promise<T[]> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  try {
    return Array.from({ length: doc.countPages() }, (_, i) => {
      const page = doc.loadPage(i);
      try {
        const [x0, y0, x1, y1] = page.getBounds();
        return read(page, [x1 - x0, y1 - y0]);
      } finally {
        page.destroy();
      }
    });
  } finally {
    doc.destroy();
  }
}

/** Each page's size (whole points) and its text, runs of spaces (U+00A0 too) made one space. */
export const pageTexts = (bytes: Uint8Array, clean: (text: string) => string = (t) => t.replace(/[^\S\n]+/g, ' ')): Promise<{ size: [number, number]; text: string }[]> =>
  eachPage(bytes, (page, [w, h]) => ({ size: [Math.round(w), Math.round(h)], text: clean(page.toStructuredText('preserve-whitespace').asText()) }));
