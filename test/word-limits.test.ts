import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { convertWordToPdf, readWordDocument } from '../src/convert/word';
import { withinWordLimits } from '../src/convert/word/model/limits';
import type { Paragraph } from '../src/convert/word/model/index';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const docx = (body: string) =>
  zipSync({
    '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    '_rels/.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`),
    'word/document.xml': strToU8(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`),
  });

describe('Word limits', () => {
  it('absurd values from a damaged file are brought within what Word allows, and the document converts', async () => {
    // A line spacing of 99,999,999 (found by mutating a corpus file) made MuPDF's layout run without end.
    const body =
      '<w:p><w:pPr><w:spacing w:line="99999999" w:lineRule="auto" w:before="99999999"/></w:pPr><w:r><w:rPr><w:sz w:val="99999999"/></w:rPr><w:t>Huge</w:t></w:r></w:p>' +
      '<w:p><w:pPr><w:pBdr><w:top w:val="single" w:sz="99999999" w:space="99999999" w:color="000000"/></w:pBdr><w:spacing w:line="99999999" w:lineRule="exact"/><w:ind w:left="99999999"/></w:pPr><w:r><w:t>Exact</w:t></w:r></w:p>' +
      '<w:p><w:pPr><w:rPr><w:sz w:val="99999999"/></w:rPr></w:pPr></w:p>' + // an empty paragraph in its mark's size (another mutant that hung)
      '<w:p><w:r><w:t>After</w:t></w:r></w:p>' +
      '<w:sectPr><w:pgSz w:w="99999999" w:h="99999999"/><w:pgMar w:top="99999999" w:left="99999999" w:right="0" w:bottom="0"/></w:sectPr>';
    const model = withinWordLimits(readWordDocument(docx(body)));
    const [huge, exact, empty] = model.sections[0]!.blocks as Paragraph[];
    expect(empty!.props.markStyle?.size).toBe(1638);
    expect(huge!.props.line).toEqual({ rule: 'auto', value: 132 });
    expect(huge!.props.spaceBefore).toBe(1584);
    expect(huge!.inlines[0]).toMatchObject({ style: { size: 1638 } });
    expect(exact!.props.line).toEqual({ rule: 'exact', value: 1584 });
    expect(exact!.props.indentLeft).toBe(1584);
    // A border 12.5 million points wide took minutes to lay out: 6 pt at most, 31 pt from the text.
    expect(exact!.props.borders?.top).toMatchObject({ width: 6, space: 31 });
    const page = model.sections[0]!.page;
    expect([page.width, page.height]).toEqual([1584, 1584]);
    expect(page.width - page.marginLeft - page.marginRight).toBeGreaterThanOrEqual(36);
    expect(page.height - page.marginTop - page.marginBottom).toBeGreaterThanOrEqual(36);

    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(convertWordToPdf(docx(body), { mupdf, fonts: bundledFonts }), 'application/pdf');
    let text = '';
    for (let i = 0; i < pdf.countPages(); i++) text += pdf.loadPage(i).toStructuredText('').asText();
    expect(text).toContain('After');
    pdf.destroy();
  });
});
