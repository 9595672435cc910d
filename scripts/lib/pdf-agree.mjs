// Whether two PDFs of one document say the same thing: the same page count and, page by page, the
// same text as MuPDF (node_modules/mupdf) extracts it. npm run fidelity --node and npm run heldout
// --node use it to check that the Node bundle of the converter and the Worker give the same result,
// so that the Node path's numbers can stand in for the service's where only Node can measure.
import { loadMupdf } from './word-converter.mjs';

/** The text of each page, as MuPDF's structured text gives it. */
export async function pageTexts(pdf) {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    const out = [];
    for (let i = 0; i < doc.countPages(); i++) {
      const page = doc.loadPage(i);
      const text = page.toStructuredText('preserve-whitespace');
      out.push(text.asText());
      text.destroy?.();
      page.destroy?.();
    }
    return out;
  } finally {
    doc.destroy?.();
  }
}

/**
 * { agree, why } for two conversions of one document, each { ok, pdf?, problem? }: agree when
 * both converted to the same pages of text, or both refused it with the same problem.
 */
export async function agreement(a, b) {
  if (!a.ok || !b.ok) {
    if (!a.ok && !b.ok) return a.problem === b.problem ? { agree: true } : { agree: false, why: `refused as ${a.problem ?? 'error'} / ${b.problem ?? 'error'}` };
    return { agree: false, why: a.ok ? 'only the first converted it' : 'only the second converted it' };
  }
  const [ta, tb] = [await pageTexts(a.pdf), await pageTexts(b.pdf)];
  if (ta.length !== tb.length) return { agree: false, why: `${ta.length} against ${tb.length} pages` };
  const differ = ta.map((t, i) => (t === tb[i] ? 0 : i + 1)).filter(Boolean);
  if (differ.length) return { agree: false, why: `text differs on page${differ.length > 1 ? 's' : ''} ${differ.slice(0, 5).join(', ')}${differ.length > 5 ? '…' : ''}` };
  return { agree: true };
}
