import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { readDocx } from '../src/convert/word/read/docx';
import { renderWordDocument } from '../src/convert/word/layout/render';
import type { Paragraph } from '../src/convert/word/model/index';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A table of contents entry linking to a bookmarked heading on page 2, a link to a bookmark that does not exist, and an external link. */
function docx(): Uint8Array {
  const body =
    '<w:p><w:hyperlink w:anchor="_Toc100"><w:r><w:t>Go to the chapter</w:t></w:r></w:hyperlink></w:p>' +
    '<w:p><w:hyperlink w:anchor="_Missing"><w:r><w:t>Go nowhere</w:t></w:r></w:hyperlink></w:p>' +
    '<w:p><w:hyperlink r:id="rX"><w:r><w:t>Go outside</w:t></w:r></w:hyperlink></w:p>' +
    '<w:p><w:r><w:br w:type="page"/></w:r></w:p>' +
    '<w:p><w:r><w:t>Filler before the chapter</w:t></w:r></w:p>' +
    '<w:p><w:bookmarkStart w:id="0" w:name="_Toc100"/><w:r><w:t>The chapter</w:t></w:r><w:bookmarkEnd w:id="0"/></w:p>';
  return zipSync({
    '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    '_rels/.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`),
    'word/document.xml': strToU8(`<w:document ${W}><w:body>${body}</w:body></w:document>`),
    'word/_rels/document.xml.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rX" Type="${REL}/hyperlink" Target="https://example.com/" TargetMode="External"/></Relationships>`),
  });
}

describe('links within a Word document', () => {
  it('reads where bookmarks start', () => {
    const blocks = readDocx(docx()).sections[0]!.blocks as Paragraph[];
    expect(blocks.at(-1)!.props.bookmarks).toEqual(['_Toc100']);
  });

  it("a table of contents entry goes to its bookmark's page and line; a link to no bookmark is left out; external links stay", async () => {
    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(renderWordDocument(readDocx(docx()), mupdf, bundledFonts), 'application/pdf');
    try {
      expect(pdf.countPages()).toBe(2);
      const page = pdf.loadPage(0);
      const stext = page.toStructuredText('');
      const links = page.getLinks().map((l) => {
        const [x0, y0, x1, y1] = l.getBounds();
        return { text: stext.copy([x0, (y0 + y1) / 2], [x1, (y0 + y1) / 2]).trim(), external: l.isExternal(), uri: l.getURI() };
      });
      expect(links.map((l) => l.text).sort()).toEqual(['Go outside', 'Go to the chapter']);
      expect(links.find((l) => l.external)!.uri).toBe('https://example.com/');
      const inner = links.find((l) => !l.external)!;
      const dest = pdf.resolveLinkDestination(inner.uri);
      expect(dest.page).toBe(1);
      const chapter = JSON.parse(pdf.loadPage(1).toStructuredText('').asJSON()).blocks.flatMap((b: { lines?: { text: string; bbox: { y: number } }[] }) => b.lines ?? []).find((l: { text: string }) => l.text.includes('The chapter'));
      expect(Math.abs(dest.y - chapter.bbox.y)).toBeLessThan(14);
    } finally {
      pdf.destroy();
    }
  });
});
