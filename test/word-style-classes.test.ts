import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { FontBook } from '../src/layout/text/font-book';
import { htmlDocument, openHtml, styleClasses } from '../src/convert/word/layout/html-doc';

// Repeated inline styles go to the style sheet as classes (MuPDF lexes each style attribute
// anew); the layout must not change: a class outranks the sheet's tag rules as an inline style does.
const para = (style: string, text: string) => `<p style="${style}"><span style="font-family:Tinos;font-size:12pt">${text}</span></p>`;
const spaced = 'margin:18pt 0 0pt 0;line-height:20pt'; // against p{margin:0}
const raised = 'font-family:Tinos;font-size:7pt;vertical-align:super'; // against span{vertical-align:inherit}
const body = [1, 2, 3].map((n) => para(spaced, `Line ${n}<span style="${raised}">${n}</span>`)).join('') + para('line-height:30pt', 'Once') + para('line-height:30pt', 'Twice');

/** Every character's origin and size on the first frame, as MuPDF lays the document out. */
async function characters(html: string): Promise<string[]> {
  const mupdf = await loadMupdf();
  FontBook.shared(mupdf, bundledFonts).install();
  const doc = openHtml(mupdf, html, 400, 600, 12);
  try {
    const found: string[] = [];
    doc.loadPage(0)
      .toStructuredText('')
      .walk({ onChar: (c: string, origin: [number, number], _font: unknown, size: number) => void found.push(`${c} ${origin[0].toFixed(2)} ${origin[1].toFixed(2)} ${size}`) });
    return found;
  } finally {
    doc.destroy();
  }
}

describe('Word HTML: repeated inline styles as classes', () => {
  it('styles used three times or more become classes, most used first; rarer ones stay inline', () => {
    const { body: classed, css } = styleClasses(body);
    expect(css).toBe(`.z0{font-family:Tinos;font-size:12pt}.z1{${spaced}}.z2{${raised}}`);
    expect(classed.match(/class="z0"/g)).toHaveLength(5);
    expect(classed.match(/class="z1"/g)).toHaveLength(3);
    expect(classed).toContain('<p style="line-height:30pt">');
    expect(classed).not.toContain(spaced);
  });

  it('lays out exactly as the inline styles do: margins over p{margin:0}, superscripts over the inherited alignment', async () => {
    const html = htmlDocument(400, 600, [0, 0, 0, 0], body);
    expect(html).toContain('class="z1"');
    // The same document with every class written back inline.
    const rules = new Map([...html.matchAll(/\.(z\d+)\{([^}]*)\}/g)].map((m) => [m[1]!, m[2]!]));
    const inline = html.replace(/ class="(z\d+)"/g, (_m, name: string) => ` style="${rules.get(name)}"`).replace(/\.z\d+\{[^}]*\}/g, '');
    expect(inline).not.toContain('class=');
    const [classedChars, inlineChars] = [await characters(html), await characters(inline)];
    expect(classedChars).toEqual(inlineChars);
    // And the styles took: the second line 38 pt (18 + 20) below the first, its "2" raised above its baseline.
    const lines = classedChars.filter((s) => s.startsWith('L ')).map((s) => Number(s.split(' ')[2]));
    expect(lines[1]! - lines[0]!).toBeCloseTo(38, 1);
    const superscript = classedChars.find((s) => s.startsWith('2 ') && s.endsWith(' 7'))!;
    expect(Number(superscript.split(' ')[2])).toBeLessThan(lines[1]! - 2);
  });
});
