import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { loadMupdf } from '../src/engines/mupdf';
import { bundledFonts } from '../src/converters/fonts/bundled';
import { convertWordToPdf, readWordDocument } from '../src/converters/word';
import { NESTING_MAX, withinWordLimits } from '../src/converters/word/limits';
import { LimitExceeded } from '../src/lib/limits';
import type { Block, Inline, WordDocument } from '../src/converters/word/model';

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
    // Alternating: tables and text boxes each take a level (14 of them trapped MuPDF).
    const mixed = docx(nested(63, (inner, word, i) => (i % 2 ? table(inner, word) : textBox(inner, word))) + '<w:p/>');
    expect(depthOf(withinWordLimits(readWordDocument(mixed)))).toBeLessThanOrEqual(NESTING_MAX);
    expect(missing(await pdfText(mixed), words(63))).toEqual([]);
    await stillConverts();
  });
});
