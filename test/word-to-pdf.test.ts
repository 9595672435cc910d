import { describe, expect, it } from 'vitest';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { pageTexts } from './pdf-pages';
import { balanceOf, download, newAccount, runOp, uploadOk } from './helpers';
import { expectProblem } from './fixtures';
import firstPageDocUrl from './fixtures/word/poi__DiffFirstPageHeadFoot.doc?inline';
import passwordDocUrl from './fixtures/word/poi__password_password_cryptoapi.doc?inline';

const fixture = (dataUrl: string) => Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(',') + 1)), (c) => c.charCodeAt(0));

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

/** A DOCX made from parts: two sections (A4 portrait, then A4 landscape) and a footer with PAGE of NUMPAGES. */
function makeDocx(bodyXml: string, extraParts: Record<string, string> = {}): Uint8Array {
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/footer1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/></Types>',
    ),
    '_rels/.rels': strToU8('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
    'word/_rels/document.xml.rels': strToU8('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdF" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" Target="footer1.xml"/></Relationships>'),
    'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${bodyXml}</w:body></w:document>`),
    'word/footer1.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><w:ftr ${W}><w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:t xml:space="preserve">Footer page </w:t></w:r><w:fldSimple w:instr=" PAGE "><w:r><w:t>9</w:t></w:r></w:fldSimple><w:r><w:t xml:space="preserve"> of </w:t></w:r><w:fldSimple w:instr=" NUMPAGES "><w:r><w:t>9</w:t></w:r></w:fldSimple></w:p></w:ftr>`,
    ),
  };
  for (const [name, xml] of Object.entries(extraParts)) files[name] = strToU8(xml);
  return zipSync(files);
}

const para = (text: string, props = '') => `<w:p>${props ? `<w:pPr>${props}</w:pPr>` : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
const sectPr = (w: number, h: number, orient = '') =>
  `<w:sectPr><w:footerReference w:type="default" r:id="rIdF"/><w:pgSz w:w="${w}" w:h="${h}"${orient}/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708"/></w:sectPr>`;

const twoSections = makeDocx(
  para('Conversion heading Заголовок', '<w:jc w:val="center"/>') +
    para('Body paragraph that must survive, with Cyrillic: Кириллица в документе.') +
    `<w:tbl><w:tblPr><w:tblBorders><w:top w:val="single" w:sz="4"/><w:left w:val="single" w:sz="4"/><w:bottom w:val="single" w:sz="4"/><w:right w:val="single" w:sz="4"/><w:insideH w:val="single" w:sz="4"/><w:insideV w:val="single" w:sz="4"/></w:tblBorders></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid><w:tr><w:tc>${para('CellA1')}</w:tc><w:tc>${para('CellB1')}</w:tc></w:tr></w:tbl>` +
    `<w:p><w:pPr>${sectPr(11906, 16838)}</w:pPr></w:p>` +
    para('Landscape section text') +
    `<w:p><w:r><w:br w:type="page"/></w:r><w:r><w:t>After the page break</w:t></w:r></w:p>` +
    sectPr(16838, 11906, ' w:orient="landscape"'),
);

/** twoSections as pages: A4 portrait, then the landscape section over two pages. */
const TWO_SECTION_PAGE_SIZES = [
  [595, 842],
  [842, 595],
  [842, 595],
];

// Spaces may come out as U+00A0 (the faces map both to one glyph): compare words, not space characters.
const pdfPages = (bytes: Uint8Array) => pageTexts(bytes);

describe('word-to-pdf', () => {
  it('DOCX → PDF: sections keep their page size and orientation, text and table cells survive, footers number the pages', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, twoSections, 'report.docx');
    const rec = await runOp(acct, 'word-to-pdf', { file_id: up.file_id });
    expect(rec.status).toBe('done');
    expect(rec.operation_type).toBe('word_to_pdf');
    expect(rec.filename).toBe('report_service.pdf');
    expect(rec.charge).toBe('1.25'); // one started 10 MB of input
    expect(await balanceOf(acct)).toBe('98.75');
    const pages = await pdfPages(await download(rec));
    expect(pages.map((p) => p.size)).toEqual(TWO_SECTION_PAGE_SIZES);
    expect(pages[0]!.text).toContain('Conversion heading Заголовок');
    expect(pages[0]!.text).toContain('Кириллица в документе');
    expect(pages[0]!.text).toMatch(/CellA1[\s\S]*CellB1/);
    expect(pages[1]!.text).toContain('Landscape section text');
    expect(pages[2]!.text).toContain('After the page break');
    expect(pages[2]!.text).not.toContain('Landscape section text');
    pages.forEach((p, i) => expect(p.text).toContain(`Footer page ${i + 1} of 3`));
  });

  it('DOC (Word 97) → PDF: a first-page header and footer on page 1, the default ones after', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, fixture(firstPageDocUrl), 'headers.doc');
    const rec = await runOp(acct, 'word-to-pdf', { file_id: up.file_id });
    expect(rec.status).toBe('done');
    const pages = await pdfPages(await download(rec));
    expect(pages).toHaveLength(2);
    expect(pages[0]!.size).toEqual([612, 792]);
    expect(pages[0]!.text).toContain('I am the header on the first page');
    expect(pages[0]!.text).toContain('The footer of the first page');
    expect(pages[0]!.text).not.toContain('Footer Left');
    expect(pages[1]!.text).toContain('This is page two');
    expect(pages[1]!.text).toMatch(/First header column!/);
    expect(pages[1]!.text).toMatch(/Footer Left/);
    expect(pages[1]!.text).not.toContain('I am the header on the first page');
  });

  it('a password-protected DOC fails with what to do, and the charge is refunded', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, fixture(passwordDocUrl), 'locked.doc');
    const rec = await runOp(acct, 'word-to-pdf', { file_id: up.file_id });
    expect(rec.status).toBe('failed');
    expect(rec.refunded).toBe(true);
    expect(rec.error_message).toMatch(/password-protected: open it in Word, remove the password/);
    expect(await balanceOf(acct)).toBe('10.00');
  });

  it('Strict OOXML (purl.oclc.org namespaces and relationship types) converts like Transitional', async () => {
    // The same package with every Transitional namespace and relationship URI swapped for Strict's.
    const strict = unzipSync(twoSections);
    const swap = (xml: string) =>
      xml
        .replaceAll('http://schemas.openxmlformats.org/wordprocessingml/2006/main', 'http://purl.oclc.org/ooxml/wordprocessingml/main')
        .replaceAll('http://schemas.openxmlformats.org/officeDocument/2006/relationships', 'http://purl.oclc.org/ooxml/officeDocument/relationships')
        // Strict may state lengths as universal measures instead of twips.
        .replaceAll('w:w="11906" w:h="16838"', 'w:w="210mm" w:h="297mm"')
        .replaceAll('w:top="1440"', 'w:top="1in"');
    for (const name of Object.keys(strict)) if (name.endsWith('.xml') || name.endsWith('.rels')) strict[name] = strToU8(swap(strFromU8(strict[name]!)));
    expect(strFromU8(strict['word/document.xml']!)).toContain('purl.oclc.org/ooxml/wordprocessingml/main');
    const acct = await newAccount();
    const up = await uploadOk(acct, zipSync(strict), 'strict.docx');
    const rec = await runOp(acct, 'word-to-pdf', { file_id: up.file_id });
    expect(rec.status).toBe('done');
    const pages = await pdfPages(await download(rec));
    expect(pages.map((p) => p.size)).toEqual(TWO_SECTION_PAGE_SIZES);
    expect(pages[0]!.text).toContain('Conversion heading Заголовок');
    expect(pages[2]!.text).toContain('Footer page 3 of 3');
  });

  it('a DOCX named .doc is read by its content', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, twoSections, 'old-name.doc');
    const rec = await runOp(acct, 'word-to-pdf', { file_id: up.file_id });
    expect(rec.status).toBe('done');
    expect(rec.filename).toBe('old-name_service.pdf');
  });

  it('a truncated DOCX fails with a message that says what to do, and the charge is refunded', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const broken = makeDocx(para('x'.repeat(5000))).slice(0, 600);
    const up = await uploadOk(acct, broken, 'cut.docx');
    const rec = await runOp(acct, 'word-to-pdf', { file_id: up.file_id });
    expect(rec.status).toBe('failed');
    expect(rec.refunded).toBe(true);
    expect(rec.error_message).toMatch(/damaged or incomplete.*save it again as \.docx/);
    expect(await balanceOf(acct)).toBe('10.00');
  });

  it('a PDF is refused with 422 naming what the operation takes', async () => {
    const acct = await newAccount();
    const { PDFDocument } = await import('pdf-lib');
    const doc = await PDFDocument.create();
    doc.addPage();
    const up = await uploadOk(acct, await doc.save(), 'a.pdf');
    const res = await acct.json('/v1/pdf/word-to-pdf', { file_id: up.file_id });
    const problem = await expectProblem(res, 422, 'validation_error');
    expect(JSON.stringify(problem.errors)).toMatch(/DOC|DOCX/);
  });

  it('a password-protected DOCX (OLE EncryptedPackage) is refused at upload with what to do', async () => {
    const acct = await newAccount();
    const CFB = await import('cfb');
    const cfb = CFB.utils.cfb_new();
    CFB.utils.cfb_add(cfb, '/EncryptionInfo', new Uint8Array(64));
    CFB.utils.cfb_add(cfb, '/EncryptedPackage', new Uint8Array(4096));
    const bytes = new Uint8Array(CFB.write(cfb, { type: 'array' }) as number[]);
    const res = await acct.upload(bytes, 'secret.docx');
    const problem = await expectProblem(res, 422, 'validation_error');
    expect(JSON.stringify(problem)).toMatch(/password-protected Office document.*remove the password/);
  });
});
