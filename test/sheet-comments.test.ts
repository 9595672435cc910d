/**
 * Cell comments print only where the sheet says so: listed on pages after the sheet's ("atEnd",
 * XLS's fEndNotes, ODS's print="annotations"), or the shown ones drawn as note boxes where the file
 * puts them ("asDisplayed"); with no setting, not at all, shown or hidden.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Mupdf from 'mupdf';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { joinChunks } from '../src/lib/bytes';
import { readWorkbook } from '../src/convert/sheet/index';
import { renderWorkbookChunks } from '../src/convert/sheet/render';
import { NOTE_FILL } from '../src/convert/sheet/read/note-drawings';
import { xlsx } from './sheet-fixtures';

let mupdf: typeof Mupdf;
beforeAll(async () => {
  mupdf = await loadMupdf();
});

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';

/** A Note shape of the VML drawing for (row, col), shown or hidden, its box over D2:F6. */
const vmlNote = (row: number, col: number, shown: boolean) =>
  `<v:shape type="#_x0000_t202" style="position:absolute;visibility:${shown ? 'visible' : 'hidden'}" fillcolor="#ffffe1"><v:textbox/><x:ClientData ObjectType="Note"><x:Anchor>3, 0, 1, 0, 6, 0, 6, 0</x:Anchor><x:Row>${row}</x:Row><x:Column>${col}</x:Column>${shown ? '<x:Visible/>' : ''}</x:ClientData></v:shape>`;

/** A sheet of 11 numbered rows, a shown comment on B2 and a hidden one on D5, printing its comments as `mode` says. */
function book(mode?: 'atEnd' | 'asDisplayed'): Uint8Array {
  const rows = Array.from({ length: 11 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${i + 1}</v></c></row>`).join('');
  const setup = `<pageSetup paperSize="9"${mode ? ` cellComments="${mode}"` : ''}/>`;
  const comments = `<comments ${NS}><authors><author>Ann</author></authors><commentList>` +
    '<comment ref="B2" authorId="0"><text><r><rPr><b/><sz val="9"/><rFont val="Tahoma"/></rPr><t>Ann:</t></r><r><rPr><sz val="9"/></rPr><t xml:space="preserve">&#10;Shown on B2</t></r></text></comment>' +
    '<comment ref="D5" authorId="0"><text><t>Hidden on D5</t></text></comment></commentList></comments>';
  const vml = `<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:x="urn:schemas-microsoft-com:office:excel">${vmlNote(1, 1, true)}${vmlNote(4, 3, false)}</xml>`;
  return xlsx([`<sheetData>${rows}</sheetData><pageMargins left="1" right="1" top="1" bottom="1" header="0.3" footer="0.3"/>${setup}<headerFooter><oddFooter>&amp;CPage &amp;P of &amp;N</oddFooter></headerFooter><legacyDrawing r:id="rV"/>`], {
    styles: '<fonts><font><sz val="10"/><name val="Arial"/></font></fonts><cellXfs><xf/></cellXfs>',
    parts: {
      'xl/worksheets/_rels/sheet1.xml.rels': `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rC" Type="${REL}/comments" Target="../comments1.xml"/><Relationship Id="rV" Type="${REL}/vmlDrawing" Target="../drawings/vmlDrawing1.vml"/></Relationships>`,
      'xl/comments1.xml': comments,
      'xl/drawings/vmlDrawing1.vml': vml,
    },
  });
}

const hex = (c: number[]) => c.map((v) => Math.round(v * 255).toString(16).padStart(2, '0')).join('').toUpperCase();

/** Each page's text, and the fills drawn on the first page with their bounds. */
function printed(bytes: Uint8Array): { pages: string[]; fills: { color: string; x: number; y: number; after: number }[]; strokes: number } {
  const pdf = joinChunks(renderWorkbookChunks(readWorkbook(bytes), mupdf, bundledFonts));
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  const pages: string[] = [];
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.loadPage(i);
    pages.push(page.toStructuredText('preserve-whitespace').asText());
    page.destroy();
  }
  const fills: { color: string; x: number; y: number; after: number }[] = [];
  let strokes = 0;
  let texts = 0;
  const first = doc.loadPage(0);
  first.run(new mupdf.Device({
    fillPath: (path: Mupdf.Path, _e: boolean, ctm: Mupdf.Matrix, _cs: Mupdf.ColorSpace, color: number[]) => {
      const xs: number[] = [], ys: number[] = [];
      const put = (x: number, y: number) => (xs.push(ctm[0] * x + ctm[2] * y + ctm[4]), ys.push(ctm[1] * x + ctm[3] * y + ctm[5]));
      path.walk({ moveTo: put, lineTo: put, curveTo: (_a: number, _b: number, _c: number, _d: number, x: number, y: number) => put(x, y) });
      fills.push({ color: hex(color), x: Math.min(...xs), y: Math.min(...ys), after: texts });
    },
    strokePath: () => void strokes++,
    fillText: () => void texts++,
  }), mupdf.Matrix.identity);
  first.destroy();
  doc.destroy();
  return { pages, fills, strokes };
}

describe('sheet comments → PDF', () => {
  it('prints no comment, shown or hidden, when the sheet does not ask', () => {
    const { pages, fills } = printed(book());
    expect(pages.length).toBe(1);
    expect(pages[0]).not.toContain('Shown on B2');
    expect(fills.some((f) => f.color === NOTE_FILL)).toBe(false);
  });

  it('lists every comment on a page after the sheet\'s, its cell and text, numbered on from the sheet', () => {
    const { pages } = printed(book('atEnd'));
    expect(pages.length).toBe(2);
    expect(pages[0]).not.toContain('Shown on B2');
    const list = pages[1]!.split('\n').map((l) => l.trim()).filter(Boolean);
    expect(list.slice(0, 6)).toEqual(['Cell: B2', 'Comment: Ann:', 'Shown on B2', 'Cell: D5', 'Comment: Hidden on D5', 'Page 2 of 2']);
  });

  it('draws the shown comment as a note box over its anchor, with a line to its cell, and leaves the hidden one out', () => {
    const { pages, fills, strokes } = printed(book('asDisplayed'));
    expect(pages.length).toBe(1);
    expect(pages[0]).toContain('Shown on B2');
    expect(pages[0]).not.toContain('Hidden on D5');
    // The box starts at D2's corner: the left margin (72 pt) and three default columns, one row (15 pt) below the top margin.
    const box = fills.find((f) => f.color === NOTE_FILL)!;
    expect(box).toBeDefined();
    expect(box.x).toBeGreaterThan(72 + 3 * 40);
    expect(box.y).toBeCloseTo(72 + 15, 0);
    // Drawn over the cells' text it covers (D1…D4's numbers), not under it.
    expect(box.after).toBeGreaterThan(0);
    // Its shadow under it, its frame and the callout line.
    expect(fills.some((f) => f.color === '000000')).toBe(true);
    expect(strokes).toBeGreaterThanOrEqual(2);
  });
});

describe('the faces a workbook with shapes and comments asks for', () => {
  it('asks for the fonts of shown comments\' runs and the characters of listed comments', async () => {
    const { fontAsksOf } = await import('../src/convert/sheet/font-asks');
    const shown = fontAsksOf(readWorkbook(book('asDisplayed')));
    // The comment's runs are in Tahoma: its face is loaded before layout (the service loads only what is asked for).
    expect([...shown.names]).toContain('Tahoma');
    const listed = readWorkbook(book('atEnd'));
    listed.sheets[0]!.notes![0]!.text = 'Примечание';
    expect([...fontAsksOf(listed).codePoints]).toContain('П'.codePointAt(0)!);
  });
});
