import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { readDocx } from '../src/convert/word/read/docx';
import { renderWordDocument } from '../src/convert/word/layout/render';

const NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function docx(body: string): Uint8Array {
  return zipSync({
    '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    '_rels/.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`),
    'word/document.xml': strToU8(`<w:document ${NS}><w:body>${body}</w:body></w:document>`),
  });
}

const lines = (prefix: string) => Array.from({ length: 20 }, (_, i) => `<w:p><w:r><w:t>${prefix} line ${i + 1}</w:t></w:r></w:p>`).join('');

/** A DrawingML text box 200 × 100 pt with an outline, inline or floating in front of the text, growing to its text or not. */
const box = (prefix: string, fit: 'spAutoFit' | 'noAutofit', floating: boolean) => {
  const place = floating
    ? `<wp:anchor behindDoc="0" relativeHeight="2"><wp:positionH relativeFrom="page"><wp:posOffset>${300 * 12700}</wp:posOffset></wp:positionH><wp:positionV relativeFrom="page"><wp:posOffset>${100 * 12700}</wp:posOffset></wp:positionV><wp:extent cx="${200 * 12700}" cy="${100 * 12700}"/><wp:wrapNone/>`
    : `<wp:inline><wp:extent cx="${200 * 12700}" cy="${100 * 12700}"/>`;
  return (
    `<w:p><w:r><w:drawing>${place}<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr><a:prstGeom prst="rect"/>` +
    `<a:ln w="12700"><a:solidFill><a:srgbClr val="000000"/></a:solidFill></a:ln></wps:spPr><wps:txbx><w:txbxContent>${lines(prefix)}</w:txbxContent></wps:txbx>` +
    `<wps:bodyPr><a:${fit}/></wps:bodyPr></wps:wsp></a:graphicData></a:graphic>${floating ? '</wp:anchor>' : '</wp:inline>'}</w:drawing></w:r></w:p>`
  );
};

async function text(bytes: Uint8Array): Promise<string> {
  const mupdf = await loadMupdf();
  const pdf = mupdf.Document.openDocument(renderWordDocument(readDocx(bytes), mupdf, bundledFonts), 'application/pdf');
  try {
    let all = '';
    for (let i = 0; i < pdf.countPages(); i++) all += pdf.loadPage(i).toStructuredText('').asText();
    return all;
  } finally {
    pdf.destroy();
  }
}

describe('text boxes that keep their size', () => {
  it('show only the paragraphs that start within the box, inline and floating; boxes that grow to their text show all', async () => {
    const shown = await text(docx(box('Inline', 'noAutofit', false) + box('Floating', 'noAutofit', true)));
    for (const prefix of ['Inline', 'Floating']) {
      // 100 pt less the box's 7.2 pt of insets, at Word's default 10 pt Times New Roman (lines about
      // 11.5 pt apart): lines 1-9 start within the box, line 10 below it.
      expect(shown).toContain(`${prefix} line 1\n`);
      expect(shown).toContain(`${prefix} line 8\n`);
      expect(shown).not.toContain(`${prefix} line 11\n`);
      expect(shown).not.toContain(`${prefix} line 20`);
    }
    const grown = await text(docx(box('Inline', 'spAutoFit', false) + box('Floating', 'spAutoFit', true)));
    for (const prefix of ['Inline', 'Floating']) expect(grown).toContain(`${prefix} line 20`);
  });
});
