import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { renderWordDocument } from '../src/convert/word/layout/render';
import type { Paragraph, WordDocument } from '../src/convert/word/model/index';

// Where the text sits in its line, as LibreOffice 7.4 draws DOCX files (the fidelity references):
// baselines measured on its PDFs of 60-line documents in Times New Roman 14 pt on a page with a
// 72 pt top margin. Tinos (Times New Roman's stand-in) has an hhea ascender of 0.8911 em and a
// line gap of 0.0425 em: a single line is 16.1 pt with its baseline 13.07 pt below the top.
const page = { width: 612, height: 792, marginTop: 72, marginRight: 72, marginBottom: 72, marginLeft: 72, header: 36, footer: 36 };
const lines = (line?: Paragraph['props']['line']): Paragraph[] =>
  ['First', 'Second'].map((word) => ({ kind: 'paragraph', props: line ? { line } : {}, inlines: [{ kind: 'text', text: `${word} Hxg`, style: { font: 'Times New Roman', size: 14 } }] }));
const doc = (blocks: Paragraph[]): WordDocument => ({ sections: [{ page, headers: {}, footers: {}, blocks }], notes: new Map(), defaultFont: 'Times New Roman', defaultSize: 14 });

/** The baseline of each line's first character on page 1. */
async function baselines(model: WordDocument): Promise<number[]> {
  const mupdf = await loadMupdf();
  const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf');
  try {
    const found: number[] = [];
    let first = false;
    const text = pdf.loadPage(0).toStructuredText('');
    text.walk({
      beginLine: () => void (first = true),
      onChar: (_c: string, origin: [number, number]) => {
        if (first) found.push(origin[1]);
        first = false;
      },
    });
    return found;
  } finally {
    pdf.destroy();
  }
}

describe('Word line box: the text where LibreOffice puts it in its line', () => {
  it('single spacing: the baseline at the ascender below the line gap', async () => {
    const [a, b] = await baselines(doc(lines()));
    expect(a).toBeCloseTo(72 + 13.07, 1);
    expect(b! - a!).toBeCloseTo(16.1, 1);
  });

  it('1.5 and double spacing: the text at the top of its line, as at single spacing, the extra below', async () => {
    const [a, b] = await baselines(doc(lines({ rule: 'auto', value: 1.5 })));
    expect(a).toBeCloseTo(72 + 13.07, 1); // MuPDF alone centres it: 4 pt lower
    expect(b! - a!).toBeCloseTo(24.15, 1);
    const [c] = await baselines(doc(lines({ rule: 'auto', value: 2 })));
    expect(c).toBeCloseTo(72 + 13.07, 1);
  });

  it('"at least" taller than the font: the extra above the text; "exact": the baseline at 0.8 of the line', async () => {
    const [least] = await baselines(doc(lines({ rule: 'atLeast', value: 30 })));
    expect(least).toBeCloseTo(72 + (30 - 16.1) + 13.07, 1);
    const [exact, next] = await baselines(doc(lines({ rule: 'exact', value: 20 })));
    expect(exact).toBeCloseTo(72 + 16, 1);
    expect(next! - exact!).toBeCloseTo(20, 1);
  });

  it('line heights in whole twips, as Writer counts them: Calibri 11 pt single 13.45 pt (the face gives 13.43), 1.5 lines 20.15 pt', async () => {
    const calibri = (line?: Paragraph['props']['line']): Paragraph[] =>
      ['First', 'Second'].map((word) => ({ kind: 'paragraph', props: line ? { line } : {}, inlines: [{ kind: 'text', text: `${word} Hxg`, style: { font: 'Calibri', size: 11 } }] }));
    const [a, b] = await baselines(doc(calibri()));
    expect(b! - a!).toBeCloseTo(13.45, 2);
    const [c, d] = await baselines(doc(calibri({ rule: 'auto', value: 1.5 })));
    expect(d! - c!).toBeCloseTo(20.15, 2);
  });

  it('the text\'s height and the line gap each in whole twips: Arial 10.5 pt 12.10 pt, Times New Roman 11.5 pt 13.25 pt (LibreOffice 7.4; one rounding of the sum gives 12.05 and 13.20)', async () => {
    const lines = (font: string, size: number): Paragraph[] => ['First', 'Second'].map((word) => ({ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: `${word} Hxg`, style: { font, size } }] }));
    const [a, b] = await baselines(doc(lines('Arial', 10.5)));
    expect(b! - a!).toBeCloseTo(12.1, 2);
    const [c, d] = await baselines(doc(lines('Times New Roman', 11.5)));
    expect(d! - c!).toBeCloseTo(13.25, 2);
    // Cambria (Caladea) 9.5 pt: exactly 218.5 twips of text, rounded up as LibreOffice does (10.95 pt).
    const [e, f] = await baselines(doc(lines('Cambria', 9.5)));
    expect(f! - e!).toBeCloseTo(10.95, 2);
  });

  it('runs in spans and links move with their paragraph', async () => {
    const p: Paragraph = {
      kind: 'paragraph',
      props: { line: { rule: 'auto', value: 1.5 } },
      inlines: [
        { kind: 'text', text: 'Plain ', style: { font: 'Times New Roman', size: 14 } },
        { kind: 'text', text: 'Bold', style: { font: 'Times New Roman', size: 14, bold: true } },
        { kind: 'text', text: ' linked', style: { font: 'Times New Roman', size: 14, link: 'https://example.com/' } },
      ],
    };
    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(renderWordDocument(doc([p]), mupdf, bundledFonts), 'application/pdf');
    try {
      const ys = new Set<number>();
      pdf.loadPage(0).toStructuredText('').walk({ onChar: (c: string, origin: [number, number]) => void (c.trim() && ys.add(Math.round(origin[1] * 100) / 100)) });
      expect([...ys]).toHaveLength(1);
      expect([...ys][0]).toBeCloseTo(72 + 13.07, 1);
    } finally {
      pdf.destroy();
    }
  });
});
