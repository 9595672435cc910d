import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { renderWordDocument } from '../src/convert/word/layout/render';
import type { Block, Paragraph, RunStyle, WordDocument } from '../src/convert/word/model/index';

const style: RunStyle = { font: 'Calibri', size: 11 };
const page = { width: 612, height: 792, marginTop: 72, marginRight: 72, marginBottom: 72, marginLeft: 72, header: 36, footer: 36 };
const para = (text: string, props: Paragraph['props'] = {}): Paragraph => ({ kind: 'paragraph', props, inlines: [{ kind: 'text', text, style }] });
const heading = (text: string, level: number, props: Paragraph['props'] = {}) => para(text, { outlineLevel: level, ...props });

describe('PDF bookmarks from Word headings', () => {
  it('headings become a nested outline, each opening its page at the heading; text without an outline level does not', async () => {
    const filler = (n: number) => Array.from({ length: n }, (_, i) => para(`Body paragraph ${i} with some words in it.`));
    const blocks: Block[] = [
      heading('Chapter One', 0),
      heading('Section 1.1', 1),
      ...filler(3),
      heading('Section 1.2', 1),
      ...filler(60), // runs onto page 2
      heading('Chapter Two', 0, { pageBreakBefore: true }),
      para('Not a heading', { spaceBefore: 12 }),
      heading('Section 2.1', 1),
      heading('   ', 1), // no title: left out
    ];
    const model: WordDocument = { sections: [{ page, headers: {}, footers: {}, blocks }], notes: new Map(), defaultFont: 'Calibri', defaultSize: 11 };
    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf');
    try {
      const outline = pdf.loadOutline()!;
      const shape = outline.map((item) => ({ title: item.title, page: item.page, down: (item.down ?? []).map((d) => ({ title: d.title, page: d.page })) }));
      const chapterTwoPage = shape[1]?.page ?? -1;
      expect(chapterTwoPage).toBeGreaterThanOrEqual(2);
      expect(shape).toEqual([
        { title: 'Chapter One', page: 0, down: [{ title: 'Section 1.1', page: 0 }, { title: 'Section 1.2', page: 0 }] },
        { title: 'Chapter Two', page: chapterTwoPage, down: [{ title: 'Section 2.1', page: chapterTwoPage }] },
      ]);
      // The bookmark opens the page at the heading: its destination is at the heading's line.
      const dest = pdf.resolveLinkDestination(outline[1]!.uri!);
      const lines = JSON.parse(pdf.loadPage(chapterTwoPage).toStructuredText('').asJSON()).blocks.flatMap((b: { lines?: { text: string; bbox: { y: number } }[] }) => b.lines ?? []);
      const line = lines.find((l: { text: string }) => l.text.includes('Chapter Two'));
      expect(Math.abs(dest.y - line.bbox.y)).toBeLessThan(14);
    } finally {
      pdf.destroy();
    }
  });
});
