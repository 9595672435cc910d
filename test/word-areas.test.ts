import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { FontBook } from '../src/layout/text/font-book';
import { AreaLayouts } from '../src/convert/word/layout/areas';

/** An area of one paragraph with space before it (a header's, say), in a Tinos 11 pt line. */
const paragraph = (text: string, before: number, align = 'left') => ({
  body: `<p style="margin:${before}pt 0 0 0;line-height:13pt;text-align:${align}"><span style="font-family:Tinos;font-size:11pt">${text}</span></p>`,
  placeholders: 0,
});

/** The first text line of an area drawn at the origin: its text, x and y (1/100 pt). */
async function firstLine(areas: AreaLayouts, area: ReturnType<AreaLayouts['get']>) {
  const mupdf = await loadMupdf();
  const out = new mupdf.Buffer();
  const writer = new mupdf.DocumentWriter(out, 'pdf', '');
  const device = writer.beginPage([0, 0, 400, 200]);
  areas.draw(area, device, mupdf.Matrix.translate(10, 20));
  writer.endPage();
  writer.close();
  const pdf = mupdf.Document.openDocument(out, 'application/pdf');
  const json = JSON.parse(pdf.loadPage(0).toStructuredText("preserve-whitespace").asJSON(100)) as { blocks: { lines: { text: string; bbox: { x: number; y: number } }[] }[] };
  const line = json.blocks[0]!.lines[0]!;
  return { text: line.text, x: line.bbox.x / 100, y: line.bbox.y / 100 };
}

describe('header, footer and shape text areas', () => {
  it('are laid out many to a document, each on a page of its own, in the same place and height as alone', async () => {
    const mupdf = await loadMupdf();
    FontBook.shared(mupdf, bundledFonts).install();
    const batched = new AreaLayouts(mupdf, 11);
    // Queued areas go into the document of the next one needed, with their own widths.
    batched.want('b', { width: 300, html: () => paragraph('Second area', 12, 'right') });
    batched.want('c', { width: 200, html: () => paragraph('Third area', 0), height: { add: 2 } });
    const a = batched.get('a', { width: 250, html: () => paragraph('First area', 6) });
    expect(batched.has('b') && batched.has('c')).toBe(true);
    const b = batched.get('b', { width: 300, html: () => paragraph('never asked', 0) });
    const c = batched.get('c', { width: 200, html: () => paragraph('never asked', 0) });
    expect(b.doc).toBe(a.doc);
    expect(c.doc).toBe(a.doc);
    expect([a.page, b.page, c.page]).toEqual([0, 1, 2]);

    // Each the same as when laid out alone: MuPDF drops the space before a block at the top of a
    // page after a page break, which would have moved the second area's line up by 12 pt.
    for (const [key, width, html, area, add] of [
      ['a', 250, paragraph('First area', 6), a, 0],
      ['b', 300, paragraph('Second area', 12, 'right'), b, 0],
      ['c', 200, paragraph('Third area', 0), c, 2],
    ] as const) {
      const alone = new AreaLayouts(mupdf, 11);
      const single = alone.get(key, { width, html: () => html, height: { add } });
      expect(area.height).toBeCloseTo(single.height, 2);
      const [mine, theirs] = [await firstLine(batched, area), await firstLine(alone, single)];
      expect(mine.text).toBe(theirs.text);
      expect(mine.x).toBeCloseTo(theirs.x, 1);
      expect(mine.y).toBeCloseTo(theirs.y, 1);
      alone.destroy();
    }
    // The second area's line sits 12 pt down from its top (its space before), right-aligned in 300 pt.
    const second = await firstLine(batched, b);
    expect(second.y).toBeGreaterThan(20 + 12 - 1);
    expect(second.x).toBeGreaterThan(10 + 200);
    batched.destroy();
  });
});
