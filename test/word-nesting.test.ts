import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { convertWordToPdf, readWordDocument } from '../src/convert/word';
import { NESTING_MAX, withinWordLimits } from '../src/convert/word/model/limits';
import { LimitExceeded } from '../src/lib/limits';
import { parseXml, XML_DEPTH_MAX } from '../src/codecs/xml';
import { run as wordToPdf } from '../src/operations/word-to-pdf';
import type { Block, Inline, Paragraph, WordDocument } from '../src/convert/word/model/index';
import { readTap, TableAssembler } from '../src/convert/word/read/doc/tables';
import { renderWordDocument } from '../src/convert/word/layout/render';

const NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" ' +
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:wpg="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
export const docx = (body: string, parts: Record<string, string> = {}, rels = '') =>
  zipSync({
    '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    '_rels/.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`),
    'word/_rels/document.xml.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`),
    'word/document.xml': strToU8(`<w:document ${NS}><w:body>${body}</w:body></w:document>`),
    ...Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, strToU8(v)])),
  });

const words = (n: number, prefix = 'word') => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}x`);
const para = (text: string, inner = '') => `<w:p><w:r><w:t>${text}</w:t></w:r>${inner}</w:p>`;

/** `n` levels of `wrap`, word i at level i (outermost 1). */
function nested(n: number, wrap: (inner: string, word: string, i: number) => string, prefix = 'word'): string {
  let s = '';
  for (let i = n; i >= 1; i--) s = wrap(s, `${prefix}${i}x`, i);
  return s;
}
const table = (inner: string, word: string) => `<w:tbl><w:tr><w:tc>${para(word)}${inner}<w:p/></w:tc></w:tr></w:tbl>`;
const vmlBox = (inner: string) => `<w:r><w:pict><v:rect style="width:300pt;height:40pt"><v:textbox style="mso-fit-shape-to-text:t"><w:txbxContent>${inner || '<w:p/>'}</w:txbxContent></v:textbox></v:rect></w:pict></w:r>`;
const textBox = (inner: string, word: string) => para(word, vmlBox(inner));

async function pdfText(bytes: Uint8Array): Promise<string> {
  const mupdf = await loadMupdf();
  const pdf = mupdf.Document.openDocument(convertWordToPdf(bytes, { mupdf, fonts: bundledFonts }), 'application/pdf');
  try {
    let text = '';
    for (let i = 0; i < pdf.countPages(); i++) text += pdf.loadPage(i).toStructuredText('').asText() + '\n';
    return text;
  } finally {
    pdf.destroy();
  }
}

const missing = (text: string, expected: string[]) => expected.filter((w) => !new RegExp(`(^|[^\\w])${w}([^\\w]|$)`).test(text));

/** How deep tables, text boxes and shapes' text nest in the model (1: a table in the body). */
function depthOf(doc: WordDocument): number {
  const blocks = (list: Block[] | undefined): number => Math.max(0, ...(list ?? []).map((b) => (b.kind === 'paragraph' ? Math.max(0, ...b.inlines.map(inline)) : 1 + Math.max(0, ...b.rows.flatMap((r) => r.cells.map((c) => blocks(c.blocks)))))));
  const inline = (it: Inline): number => (it.kind === 'textbox' ? 1 + blocks(it.blocks) : it.kind === 'shape' ? 1 + Math.max(blocks(it.blocks), ...(it.members ?? []).map((m) => 1 + blocks(m.blocks))) : 0);
  return Math.max(...doc.sections.map((s) => blocks(s.blocks)));
}

/** The MuPDF instance is shared by the isolate: after each deep document a plain one must still convert. */
async function stillConverts(): Promise<void> {
  expect(await pdfText(docx(para('Plain after deep')))).toContain('Plain after deep');
}

describe('Word nesting limits', () => {
  it('tables nested 5, 12, 63 and 300 deep convert with every word, those past the limit laid out flat', async () => {
    // 12 nested tables (1.1 KB of DOCX) trapped MuPDF's layout, which poisoned it for the isolate.
    for (const n of [5, 12, 63, 300]) {
      const bytes = docx(nested(n, table) + '<w:p/>');
      const model = withinWordLimits(readWordDocument(bytes));
      expect(depthOf(model)).toBe(Math.min(n, NESTING_MAX));
      expect(missing(await pdfText(bytes), words(n))).toEqual([]);
      await stillConverts();
    }
  });

  it('tables nested deeper than the XML reader reads are refused with the limit, naming the tables', async () => {
    const bytes = docx(nested(1000, table) + '<w:p/>');
    let err: unknown;
    try {
      readWordDocument(bytes);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LimitExceeded);
    expect((err as LimitExceeded).limit).toBe('xml_depth');
    expect((err as Error).message).toMatch(/word\/document\.xml nests tables in tables \d+ deep \(Word opens at most 63\)/);
    await stillConverts();
  });

  it('text boxes in text boxes, and in tables in text boxes, convert with every word', async () => {
    // 150 text boxes are 900 levels of XML (w:p, w:r, w:pict, v:rect, v:textbox, w:txbxContent each): within what is read.
    for (const n of [12, 63, 150]) {
      const bytes = docx(nested(n, textBox) + '<w:p/>');
      expect(depthOf(withinWordLimits(readWordDocument(bytes)))).toBeLessThanOrEqual(NESTING_MAX);
      expect(missing(await pdfText(bytes), words(n))).toEqual([]);
      await stillConverts();
    }
    // DrawingML shapes with text in shapes with text, growing to it (past the limit a shape is its text).
    const wsp = (inner: string) =>
      `<w:r><w:drawing><wp:inline><wp:extent cx="${300 * 12700}" cy="${20 * 12700}"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:spPr><a:prstGeom prst="rect"/></wps:spPr>` +
      `<wps:txbx><w:txbxContent>${inner}</w:txbxContent></wps:txbx><wps:bodyPr><a:spAutoFit/></wps:bodyPr></wps:wsp></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
    const shapes = docx(nested(63, (inner, word) => para(word, inner ? wsp(inner) : '')));
    expect(depthOf(withinWordLimits(readWordDocument(shapes)))).toBeLessThanOrEqual(NESTING_MAX);
    expect(missing(await pdfText(shapes), words(63))).toEqual([]);
    await stillConverts();
    // Alternating: tables and text boxes each take a level (14 of them trapped MuPDF).
    const mixed = docx(nested(63, (inner, word, i) => (i % 2 ? table(inner, word) : textBox(inner, word))) + '<w:p/>');
    expect(depthOf(withinWordLimits(readWordDocument(mixed)))).toBeLessThanOrEqual(NESTING_MAX);
    expect(missing(await pdfText(mixed), words(63))).toEqual([]);
    await stillConverts();
  });

  it('groups in groups, fields in fields, content controls and links nested hundreds deep convert with every word', async () => {
    // Groups 40 deep, a text shape in each, 15 pt apart down the group's box.
    const EMU = 12700;
    const wsp = (word: string, i: number) =>
      `<wps:wsp><wps:spPr><a:xfrm><a:off x="0" y="${i * 15 * EMU}"/><a:ext cx="${200 * EMU}" cy="${15 * EMU}"/></a:xfrm><a:prstGeom prst="rect"/></wps:spPr>` +
      `<wps:txbx><w:txbxContent>${para(word)}</w:txbxContent></wps:txbx><wps:bodyPr lIns="0" tIns="0" rIns="0" bIns="0"/></wps:wsp>`;
    const groupXfrm = `<a:xfrm><a:off x="0" y="0"/><a:ext cx="${300 * EMU}" cy="${640 * EMU}"/><a:chOff x="0" y="0"/><a:chExt cx="${300 * EMU}" cy="${640 * EMU}"/></a:xfrm>`;
    const groups = nested(40, (inner, word, i) => `<wpg:grpSp><wpg:grpSpPr>${groupXfrm}</wpg:grpSpPr>${wsp(word, i)}${inner}</wpg:grpSp>`, 'group');
    const drawing = `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="${300 * EMU}" cy="${640 * EMU}"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup"><wpg:wgp><wpg:grpSpPr>${groupXfrm}</wpg:grpSpPr>${groups}</wpg:wgp></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
    expect(missing(await pdfText(docx(drawing + '<w:p/>')), words(40, 'group'))).toEqual([]);
    await stillConverts();

    // Fields in fields: 300 in one paragraph, each an IF showing its word, and 10,000 more (the
    // nesting costs no XML depth: every run stepped over every open field before the limit).
    const fields = (n: number, prefix: string) =>
      '<w:p>' +
      words(n, prefix).map((w) => `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> IF 1 = 1 "${w}" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t xml:space="preserve">${w} </w:t></w:r>`).join('') +
      '<w:r><w:fldChar w:fldCharType="end"/></w:r>'.repeat(n) +
      '</w:p>';
    const fieldText = await pdfText(docx(fields(300, 'field')));
    expect(missing(fieldText, words(300, 'field'))).toEqual([]);
    expect(fieldText).not.toContain('IF 1 = 1');
    const many = readWordDocument(docx(fields(10_000, 'f')));
    const shown = (many.sections[0]!.blocks[0] as { inlines: Inline[] }).inlines.map((it) => (it.kind === 'text' ? it.text : '')).join('');
    expect(missing(shown, words(10_000, 'f'))).toEqual([]);

    // Content controls 300 deep around a table, hyperlinks 300 deep around a run.
    const sdts = nested(300, (inner, word) => `<w:sdt><w:sdtContent>${para(word)}${inner}</w:sdtContent></w:sdt>`, 'sdt');
    const links = `<w:p>${'<w:hyperlink w:anchor="x">'.repeat(300)}<w:r><w:t>linked</w:t></w:r>${'</w:hyperlink>'.repeat(300)}</w:p>`;
    const text = await pdfText(docx(sdts + links));
    expect(missing(text, [...words(300, 'sdt'), 'linked'])).toEqual([]);
    await stillConverts();
  });

  it('a deep list (levels past Word\'s 9) and notes referring to notes convert', async () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<w:lvl w:ilvl="${i}"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="${Array.from({ length: i + 1 }, (_, k) => `%${k + 1}.`).join('')}"/><w:pPr><w:ind w:left="${720 * (i + 1)}" w:hanging="360"/></w:pPr></w:lvl>`).join('');
    const numbering = `<w:numbering ${NS}><w:abstractNum w:abstractNumId="0">${levels}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`;
    const item = (ilvl: number, word: string) => `<w:p><w:pPr><w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>${word}</w:t></w:r></w:p>`;
    // Level 0 to 8 and back, and levels Word never writes (9, 1000, 2^31), ten times over.
    const ilvls = Array.from({ length: 10 }, () => [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1000, 2147483647, 8, 4, 0]).flat();
    const body = ilvls.map((l, i) => item(l, `item${i + 1}x`)).join('');
    const rel = `<Relationship Id="rIdN" Type="${REL}/numbering" Target="numbering.xml"/>`;
    const listText = await pdfText(docx(body, { 'word/numbering.xml': numbering }, rel));
    expect(missing(listText, words(ilvls.length, 'item'))).toEqual([]);
    expect(listText).toContain('1.1.1.1.1.1.1.1.1.');

    // 5,000 footnotes, each referring to the next: read one after another, not inside each other.
    const n = 5000;
    const note = (i: number) => `<w:footnote w:id="${i}"><w:p><w:r><w:t>note${i}x</w:t></w:r>${i < n ? `<w:r><w:footnoteReference w:id="${i + 1}"/></w:r>` : ''}</w:p></w:footnote>`;
    const footnotes = `<w:footnotes ${NS}>${Array.from({ length: n }, (_, i) => note(i + 1)).join('')}</w:footnotes>`;
    const noteRel = `<Relationship Id="rIdF" Type="${REL}/footnotes" Target="footnotes.xml"/>`;
    const doc = readWordDocument(docx('<w:p><w:r><w:t>Text</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p>', { 'word/footnotes.xml': footnotes }, noteRel));
    expect(doc.notes.size).toBe(n);
    expect(JSON.stringify(doc.notes.get(`footnote:${n}`))).toContain(`note${n}x`);
  });

  it('a document of too many paragraphs is refused with a LimitExceeded naming the count and the limit', async () => {
    // The 199 KB DOCX of 2 million empty paragraphs took 2 GB.
    const bytes = docx('<w:p/>'.repeat(2_000_000));
    expect(bytes.length).toBeLessThan(300_000);
    let err: unknown;
    try {
      readWordDocument(bytes);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LimitExceeded);
    expect((err as LimitExceeded).limit).toBe('word_paragraphs');
    expect((err as Error).message).toBe('The document holds more than 200,000 paragraphs; at most 200,000 are converted.');
    // The operation lets the limit through unchanged: the task runner fails the task with its message.
    const logged: string[] = [];
    const run = wordToPdf as unknown as (ctx: unknown) => Promise<unknown>;
    await expect(run({ inputs: [{ file: {}, bytes }], params: {}, step: 0, log: (event: string) => logged.push(event), progress() {} })).rejects.toBeInstanceOf(LimitExceeded);
    expect(logged).not.toContain('word_converter_failed');
    // Table rows and cells are counted too (empty cells hold no paragraph).
    const cells = `<w:tbl>${'<w:tr>' + '<w:tc/>'.repeat(1000) + '</w:tr>'}</w:tbl>`.replace('<w:tr>', '<w:tr>'.repeat(1)).repeat(600);
    expect(() => readWordDocument(docx(cells))).toThrow(/more than 500,000 table cells/);
  });

  it('XML nested 100,000 deep is refused by the XML reader without overflowing the stack', () => {
    const deep = '<a>'.repeat(100_000) + '</a>'.repeat(100_000);
    expect(() => parseXml(deep)).toThrow(LimitExceeded);
    expect(() => parseXml('<a>'.repeat(XML_DEPTH_MAX) + '</a>'.repeat(XML_DEPTH_MAX))).not.toThrow();
    expect(() => parseXml('<a>'.repeat(XML_DEPTH_MAX) + '<b/>' + '</a>'.repeat(XML_DEPTH_MAX))).toThrow(LimitExceeded);
    // In a DOCX: the limit, not damage (and not a stack overflow).
    const bytes = docx('<w:p>' + '<w:hyperlink>'.repeat(100_000) + '</w:p>');
    expect(() => readWordDocument(bytes)).toThrow(/word\/document\.xml nests its XML too deep to read/);
    // In a secondary part (styles) too.
    const styles = `<w:styles ${NS}>${'<w:style>'.repeat(100_000)}</w:styles>`;
    expect(() => readWordDocument(docx('<w:p/>', { 'word/styles.xml': styles }, `<Relationship Id="rIdS" Type="${REL}/styles" Target="styles.xml"/>`))).toThrow(LimitExceeded);
  });

  it('.doc tables nested as deep as sprmPItap reads (64) are laid out flat past the limit, every word kept', async () => {
    // A .doc has no table object: paragraphs carry their depth, and the reader assembles the tables.
    const n = 64;
    const blocks: Block[] = [];
    const tables = new TableAssembler(blocks);
    const p = (text: string): Paragraph => ({ kind: 'paragraph', props: {}, inlines: text ? [{ kind: 'text', text, style: { font: 'Times New Roman', size: 10 } }] : [] });
    words(n).forEach((w, i) => tables.paragraph(i + 1, p(w), false));
    for (let d = n; d >= 1; d--) {
      tables.paragraph(d, p(''), true);
      tables.endRow(d, readTap([], false));
    }
    tables.finish();
    const page = { width: 612, height: 792, marginTop: 72, marginRight: 72, marginBottom: 72, marginLeft: 72, header: 36, footer: 36 };
    const doc = withinWordLimits({ sections: [{ page, headers: {}, footers: {}, blocks }], notes: new Map(), defaultFont: 'Times New Roman', defaultSize: 10 });
    expect(depthOf(doc)).toBe(NESTING_MAX);
    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(renderWordDocument(doc, mupdf, bundledFonts), 'application/pdf');
    let text = '';
    for (let i = 0; i < pdf.countPages(); i++) text += pdf.loadPage(i).toStructuredText('').asText() + '\n';
    pdf.destroy();
    expect(missing(text, words(n))).toEqual([]);
    await stillConverts();
  });
});
