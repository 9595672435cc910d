import { describe, expect, it } from 'vitest';
import * as CFB from 'cfb';
import { readDoc } from '../src/convert/word/read/doc';
import { ConversionError } from '../src/convert/errors';
import type { Block, Inline, Paragraph, Shape, Table } from '../src/convert/word/model/index';
import { applyPapx, defaultPap, paragraphProps } from '../src/convert/word/read/doc/pap';
import { applyChpx, complexRunStyle, defaultChp, runStyle } from '../src/convert/word/read/doc/chp';
import { floatingShape } from '../src/convert/word/read/doc/shapes';
import { readTap, TableAssembler } from '../src/convert/word/read/doc/tables';
import tableMergesUrl from './fixtures/word/poi__table-merges.doc?inline';
import numberedListUrl from './fixtures/word/tika__testWORD_numbered_list.doc?inline';
import firstPageUrl from './fixtures/word/poi__DiffFirstPageHeadFoot.doc?inline';
import word95Url from './fixtures/word/poi__Word95.doc?inline';
import passwordUrl from './fixtures/word/poi__password_password_cryptoapi.doc?inline';
import rtlTableUrl from './fixtures/word/lo__rtl-table.doc?inline';
import pageBorderUrl from './fixtures/word/lo__page-border.doc?inline';
import pageColourUrl from './fixtures/word/lo__page-colour.doc?inline';
import continuousSectionsUrl from './fixtures/word/lo__continuous-sections.doc?inline';
import noLeadingUrl from './fixtures/word/lo__no-leading.doc?inline';
import trackedChangesUrl from './fixtures/word/lo__tracked-changes.doc?inline';
import damagedSectionsUrl from './fixtures/word/damaged__section-table-page-colour.doc?inline';
import damagedSections2Url from './fixtures/word/damaged__section-table-no-leading.doc?inline';

function bytes(dataUrl: string): Uint8Array {
  return Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(',') + 1)), (c) => c.charCodeAt(0));
}

function inlineText(inlines: Inline[]): string {
  return inlines.map((i) => (i.kind === 'text' ? i.text : i.kind === 'tab' ? '\t' : i.kind === 'field' ? `{${i.field}}` : '')).join('');
}

const paragraphs = (blocks: Block[]): Paragraph[] =>
  blocks.flatMap((b) => (b.kind === 'paragraph' ? [b] : b.rows.flatMap((r) => r.cells.flatMap((c) => paragraphs(c.blocks)))));

const texts = (blocks: Block[]) => paragraphs(blocks).map((p) => inlineText(p.inlines));

function problem(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    if (e instanceof ConversionError) return e.problem;
    throw e;
  }
  return undefined;
}

describe('readDoc', () => {
  it('a section table whose positions do not increase reads each character once (two 9 KB files kept the reader busy for minutes)', () => {
    for (const [damaged, original] of [[damagedSectionsUrl, pageColourUrl], [damagedSections2Url, noLeadingUrl]] as const) {
      const doc = readDoc(bytes(damaged));
      const text = (d: ReturnType<typeof readDoc>) => d.sections.flatMap((s) => s.blocks).map((b) => (b.kind === 'paragraph' ? b.inlines.map((i) => (i.kind === 'text' ? i.text : '')).join('') : '')).join('\n');
      expect(doc.sections).toHaveLength(1);
      expect(text(doc)).toBe(text(readDoc(bytes(original))));
    }
  });

  it('table with merges: grid from the union of cell edges, horizontal spans, vertical restart', () => {
    const doc = readDoc(bytes(tableMergesUrl));
    const [section] = doc.sections;
    expect(section!.page.width).toBeCloseTo(595.3, 1);
    expect(section!.page.height).toBeCloseTo(841.9, 1);
    const table = section!.blocks.find((b): b is Table => b.kind === 'table')!;
    expect(table.grid).toHaveLength(5);
    expect(table.rows.map((r) => r.cells.length)).toEqual([2, 4, 4, 1]);
    expect(table.rows[0]!.cells.map((c) => c.gridSpan)).toEqual([3, 2]);
    expect(table.rows[1]!.cells.map((c) => c.gridSpan)).toEqual([1, 1, 2, 1]);
    expect(table.rows[3]!.cells[0]!.gridSpan).toBe(5);
    expect(table.rows[1]!.cells[0]!.vMerge).toBe('restart');
    const cellText = table.rows.map((r) => r.cells.map((c) => texts(c.blocks).join('|')));
    expect(cellText).toEqual([['A', 'B'], ['C', 'D', 'E', 'F'], ['', 'G', 'H', 'I|J'], ['K']]);
  });

  it('numbered lists: labels counted per list and level like Word, with start-at overrides', () => {
    const doc = readDoc(bytes(numberedListUrl));
    const labelled = paragraphs(doc.sections[0]!.blocks)
      .filter((p) => p.props.list)
      .map((p) => `${p.props.list!.label} ${inlineText(p.inlines)}`);
    expect(labelled.slice(0, 4)).toEqual(['1) This', 'a) Is', 'i) A multi', 'ii) Level']);
    expect(labelled).toContain('1. Within cell 1');
    expect(labelled).toContain('iii) List');
    expect(labelled).toContain('2) foo');
    expect(labelled).toContain('II. bar');
    expect(labelled).toContain('(1) baq');
    // "A new list that starts at 6, with a custom change of b. -> e."
    expect(labelled).toEqual(expect.arrayContaining(['6. six', '7. seven', 'a. seven a', 'e. seven e', 'f. seven f']));
    // A level used after deeper ones continues; a "start new list" restart keeps the levels above going.
    expect(labelled).toEqual(expect.arrayContaining(['2. A ii 2', '1.1. 1.2->1.1  //set the value to 1 and “start new list”', '2. 2.', '2.1. 2.1']));
    // The text box is a floating shape (a rectangle, outlined as Word's default) with its own numbered paragraphs.
    const box = paragraphs(doc.sections[0]!.blocks)
      .flatMap((p) => p.inlines)
      .find((i): i is Shape => i.kind === 'shape' && !!i.blocks)!;
    expect(box.floating).toBeDefined();
    expect([box.geometry, box.line?.color]).toEqual(['rect', '000000']);
    expect(paragraphs(box.blocks!).map((p) => (p.props.list ? `${p.props.list.label} ` : '') + inlineText(p.inlines))).toEqual([
      'I’m a little text box', '1. Short', '2. Stout', 'a. 2 a', 'i. 2 a i',
    ]);
    const first = paragraphs(doc.sections[0]!.blocks).find((p) => p.props.list)!;
    expect(first.props.list!.suffix).toBe('tab');
    // The footnote's body is in notes, referenced from the text.
    expect([...doc.notes.keys()]).toEqual(['fn1']);
    expect(texts(doc.notes.get('fn1')!)[0]).toContain('Footnote list');
  });

  it("a page colour is read from the drawing's background shape (fBackground)", async () => {
    const model = readDoc(Uint8Array.from(atob(pageColourUrl.slice(pageColourUrl.indexOf(',') + 1)), (c) => c.charCodeAt(0)));
    expect(model.pageColor).toBe('FFE0A0');
    // A document without one has none.
    expect(readDoc(Uint8Array.from(atob(pageBorderUrl.slice(pageBorderUrl.indexOf(',') + 1)), (c) => c.charCodeAt(0))).pageColor).toBeUndefined();
  });

  it('sprmPFDyaBeforeAuto / AfterAuto make the space auto spacing (14 pt), whatever dyaBefore says', () => {
    const props = (...sprms: number[][]) => {
      const pap = defaultPap();
      applyPapx(pap, Uint8Array.from(sprms.flat()), false);
      return paragraphProps(pap);
    };
    // sprmPDyaBefore (0xA413) = 100 twips, then sprmPFDyaBeforeAuto (0x245C) = 1; sprmPFDyaAfterAuto (0x245D) = 1.
    expect(props([0x13, 0xa4, 100, 0], [0x5c, 0x24, 1], [0x5d, 0x24, 1])).toMatchObject({ spaceBefore: 14, autoSpaceBefore: true, spaceAfter: 14, autoSpaceAfter: true });
    expect(props([0x13, 0xa4, 100, 0], [0x5c, 0x24, 0])).toEqual({ spaceBefore: 5 });
  });

  it('sprmPFWidowControl turns widow and orphan control on (the model carries it to our pager), and off again', () => {
    const props = (...sprms: number[][]) => {
      const pap = defaultPap();
      applyPapx(pap, Uint8Array.from(sprms.flat()), false);
      return paragraphProps(pap);
    };
    // sprmPFWidowControl (0x2431) = 1, then = 0 (a paragraph turning off what its style turned on).
    expect(props([0x31, 0x24, 1])).toEqual({ widowControl: true });
    expect(props([0x31, 0x24, 1], [0x31, 0x24, 0])).toEqual({});
    expect(props()).toEqual({});
  });

  it('sprmPFBiDi makes a right-to-left paragraph; its physical sprmPJc80 is turned into the logical side, sprmPJc is kept', () => {
    const props = (...sprms: number[][]) => {
      const pap = defaultPap();
      applyPapx(pap, Uint8Array.from(sprms.flat()), false);
      return paragraphProps(pap);
    };
    // sprmPFBiDi (0x2441) = 1, then sprmPJc80 (0x2403) = 0: physically left, which is the end side.
    expect(props([0x41, 0x24, 1], [0x03, 0x24, 0])).toMatchObject({ bidi: true, align: 'right' });
    // sprmPJc (0x2461) = 0: logically left, the start side (the model's default).
    const logical = props([0x41, 0x24, 1], [0x61, 0x24, 0]);
    expect(logical.bidi).toBe(true);
    expect(logical.align).toBeUndefined();
    // Not right-to-left: sprmPJc80 = 2 is plain right.
    expect(props([0x03, 0x24, 2])).toEqual({ align: 'right' });
  });

  it('sprmTFBiDi makes a right-to-left table: logical column order, and its physical sprmTJc80 right is its start', () => {
    // LibreOffice draws FirstCell in the right column (440-540 pt) and SecondCell left of it (240-440 pt).
    const table = readDoc(bytes(rtlTableUrl)).sections[0]!.blocks.find((b): b is Table => b.kind === 'table')!;
    expect(table.bidiVisual).toBe(true);
    expect(table.grid).toEqual([100, 200]);
    expect(table.rows[0]!.cells.map((c) => texts(c.blocks).join(''))).toEqual(['FirstCell', 'SecondCell']);
    expect(table.align).toBeUndefined();
  });

  it('tracked changes: sprmCFRMarkIns underlined, sprmCFRMarkDel struck, each in the colour of its author index (sprmCIbstRMark*)', () => {
    // LibreOffice renders this .doc with Added in #0646A2 and Gone in #579D1C: Ann and Bob are entries 1 and 2 of SttbfRMark.
    const para = readDoc(bytes(trackedChangesUrl)).sections[0]!.blocks[0] as Paragraph;
    const runs = para.inlines.flatMap((i) => (i.kind === 'text' ? [{ text: i.text, underline: i.style.underline, strike: i.style.strike, color: i.style.color }] : []));
    expect(runs).toEqual([
      { text: 'Kept ', underline: undefined, strike: undefined, color: undefined },
      { text: 'Added', underline: 'single', strike: undefined, color: '0646A2' },
      { text: ' ', underline: undefined, strike: undefined, color: undefined },
      { text: 'Gone', underline: undefined, strike: true, color: '579D1C' },
      { text: 'End', underline: undefined, strike: undefined, color: undefined },
    ]);
  });

  it('in-table paragraphs with no row mark are plain paragraphs; cells after the last row mark still form a row', () => {
    // o_kurs.doc's title-page sample: 29 paragraphs flagged in-table and not one row mark. LibreOffice
    // lays them out the width of the text; as a table without a row definition they were 72 pt wide.
    const para = (text: string): Paragraph => ({ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text, style: {} }] });
    const loose: Block[] = [];
    const assembler = new TableAssembler(loose);
    assembler.paragraph(0, para('Before'), false);
    assembler.paragraph(1, para('Ministry'), false);
    assembler.paragraph(1, para('Moscow'), false);
    assembler.paragraph(0, para('After'), false);
    assembler.finish();
    expect(loose.map((b) => (b.kind === 'table' ? 'table' : inlineText(b.inlines)))).toEqual(['Before', 'Ministry', 'Moscow', 'After']);

    const rows: Block[] = [];
    const table = new TableAssembler(rows);
    table.paragraph(1, para('A'), true);
    table.endRow(1, readTap([], false));
    table.paragraph(1, para('B'), true);
    table.finish();
    expect(rows).toHaveLength(1);
    expect((rows[0] as Table).rows.map((r) => r.cells.map((c) => texts(c.blocks).join('')))).toEqual([['A'], ['B']]);
  });

  it('an empty paragraph that only holds the break before a continuous section is left out, after a table too', () => {
    // LibreOffice lays out FirstSection, InTable and After a line apart: the break's own paragraph after the table takes no line.
    const sections = readDoc(bytes(continuousSectionsUrl)).sections.filter((s) => s.blocks.length);
    expect(sections.map((s) => s.start)).toEqual(['continuous', 'continuous', 'continuous']);
    expect(sections.map((s) => s.blocks.map((b) => (b.kind === 'table' ? 'table' : inlineText(b.inlines))))).toEqual([['FirstSection'], ['table'], ['After']]);
  });

  it('page borders from the section sprms (sprmSBrc*, sprmSPgbProp)', () => {
    const red = { width: 1.5, style: 'single', color: 'FF0000', space: 10 };
    expect(readDoc(bytes(pageBorderUrl)).sections[0]!.pageBorders).toEqual({ top: red, left: red, bottom: red, right: red, offsetFrom: 'text', display: 'allPages' });
  });

  it('OfficeArt shape properties: fill and line booleans with their fUse bits, gradients, scheme colours, position', () => {
    const anchor = { spid: 1, left: 0, top: 0, right: 2000, bottom: 1000, placement: { x: 0, y: 0, relativeX: 'margin' as const, relativeY: 'margin' as const, wrap: 'inFront' as const } };
    const shape = (type: number, props: [number, number][]) => floatingShape(anchor, { type, props: new Map(props), order: 0 }, undefined, 0);
    // Escher's defaults: filled white, a black 0.75 pt outline.
    expect(shape(1, [])).toMatchObject({ geometry: 'rect', width: 100, height: 50, fill: 'FFFFFF', line: { color: '000000', width: 0.75 } });
    // fFilled and fLine off, each with its fUse bit set; without the fUse bit the defaults stand.
    expect(shape(3, [[0x1bf, 0x100000], [0x1ff, 0x80000]])).not.toHaveProperty('fill');
    expect(shape(3, [[0x1bf, 0x100000], [0x1ff, 0x80000]])).not.toHaveProperty('line');
    expect(shape(3, [[0x1bf, 0x600000]])!.fill).toBe('FFFFFF');
    // COLORREF is red, green, blue from the low byte; a shade fill is its colours' average; a scheme colour is no RGB.
    expect(shape(1, [[0x181, 0x0000ff]])!.fill).toBe('FF0000');
    expect(shape(1, [[0x180, 7], [0x181, 0x00c8b5], [0x183, 0xffffff]])!.fill).toBe('DAE480'); // B5C800 and white
    expect(shape(1, [[0x181, 0x08000004]])).not.toHaveProperty('fill');
    // posh/posrelh (right of the page) and posv/posrelv (centre of the margin) override the FSPA's frame.
    expect(shape(2, [[0x38f, 3], [0x390, 1], [0x391, 2], [0x392, 0]])!.floating).toMatchObject({ relativeX: 'page', alignX: 'right', relativeY: 'margin', alignY: 'center' });
    // A line has no fill; an arrow (type 13) without text is not drawn; with text it is a text box.
    expect(shape(20, [])).not.toHaveProperty('fill');
    expect(shape(13, [])).toBeUndefined();
    const text: Paragraph = { kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text: 'In the box', style: { font: 'Arial', size: 10 } }] };
    expect(floatingShape(anchor, { type: 13, props: new Map([[0x87, 1]]), order: 0 }, [text], 0)).toMatchObject({ geometry: 'rect', textAnchor: 'center', textInsets: { left: 7.2, top: 3.6 } });
  });

  it('the "Bi" sprms give complex-script text its own size, bold and italic', () => {
    const chp = defaultChp();
    // sprmCFBold 1, sprmCHps 24 (12 pt), sprmCHpsBi 28 (14 pt), sprmCFItalicBi 1.
    const grpprl = Uint8Array.from([0x35, 0x08, 1, 0x43, 0x4a, 24, 0, 0x61, 0x4a, 28, 0, 0x5d, 0x08, 1]);
    applyChpx(chp, grpprl, { word6: false, styleBase: defaultChp(), charStyleGrpprls: () => [] });
    expect(runStyle(chp, [])).toMatchObject({ size: 12, bold: true });
    expect(runStyle(chp, []).italic).toBeUndefined();
    const complex = complexRunStyle(chp, []);
    expect(complex).toMatchObject({ size: 14, italic: true });
    expect(complex.bold).toBeUndefined();
  });

  it('the DOP compatibility option "no leading between rows of text" (Copts80.fNoLeading) reaches the model', () => {
    expect(readDoc(bytes(noLeadingUrl)).noLeading).toBe(true);
    expect(readDoc(bytes(continuousSectionsUrl)).noLeading).toBeUndefined();
  });

  it('sprmCHpsKern asks for pair kerning from a size up; 0 turns it off again', () => {
    const chp = defaultChp();
    const ctx = { word6: false, styleBase: defaultChp(), charStyleGrpprls: () => [] };
    // sprmCHpsKern 32 half-points: kerning from 16 pt.
    applyChpx(chp, Uint8Array.from([0x4b, 0x48, 32, 0]), ctx);
    expect(runStyle(chp, []).kern).toBe(16);
    applyChpx(chp, Uint8Array.from([0x4b, 0x48, 0, 0]), ctx);
    expect(runStyle(chp, []).kern).toBeUndefined();
    // Word 6: sprm 107, the same operand.
    const word6 = defaultChp();
    applyChpx(word6, Uint8Array.from([107, 24, 0]), { ...ctx, word6: true });
    expect(runStyle(word6, []).kern).toBe(12);
  });

  it('first-page header and footer differ from the default ones', () => {
    const doc = readDoc(bytes(firstPageUrl));
    const [section] = doc.sections;
    expect(section!.titlePage).toBe(true);
    expect(section!.page).toMatchObject({ width: 612, height: 792, marginTop: 72, marginLeft: 72 });
    expect(texts(section!.headers.first!)).toEqual(['I am the header on the first page, and I’m nice and simple']);
    expect(texts(section!.headers.default!)).toEqual(['First header column!\tMid header Right header!']);
    expect(texts(section!.footers.first!)).toEqual(['The footer of the first page']);
    expect(texts(section!.footers.default!)[0]).toContain('Footer Left');
    const body = texts(section!.blocks).filter(Boolean);
    expect(body[0]).toBe(
      'This is a sample word document. It has two pages. It has a simple header and footer, which is different to all the other pages.',
    );
    expect(body).toContain('HEADING TEXT');
    expect(body.at(-1)).toBe('This is page two. It also has a three column heading, and a three column footer.');
  });

  it('Word 95: 8-bit text, paragraphs and character formatting', () => {
    const doc = readDoc(bytes(word95Url));
    const body = paragraphs(doc.sections[0]!.blocks);
    expect(texts(doc.sections[0]!.blocks).filter(Boolean)).toEqual([
      'The quick brown fox jumps over the lazy dog',
      'Paragraph 2',
      'Paragraph 3. Has some RED text and some BLUE BOLD text in it.',
      'Last (4th) paragraph.',
    ]);
    const runs = body.flatMap((p) => p.inlines).filter((i) => i.kind === 'text');
    expect(runs.find((r) => r.text === 'RED')!.style).toMatchObject({ color: 'FF0000' });
    expect(runs.find((r) => r.text === 'BLUE BOLD')!.style).toMatchObject({ color: '0000FF', bold: true });
    expect(doc.defaultFont).toBe('Times New Roman');
    expect(doc.sections[0]!.page).toMatchObject({ width: 612, height: 792 });
  });

  it('password-protected .doc → password', () => {
    expect(problem(() => readDoc(bytes(passwordUrl)))).toBe('password');
  });

  it('not a Word document → not_word; a damaged one → corrupt', () => {
    expect(problem(() => readDoc(new TextEncoder().encode('just some text, not a document')))).toBe('not_word');
    expect(problem(() => readDoc(new TextEncoder().encode('{\\rtf1\\ansi hello}')))).toBe('not_word');
    // A compound file without a WordDocument stream (an .xls, say).
    const xls = CFB.utils.cfb_new();
    CFB.utils.cfb_add(xls, 'Workbook', new Uint8Array(600));
    expect(problem(() => readDoc(new Uint8Array(CFB.write(xls, { type: 'array' }) as ArrayLike<number>)))).toBe('not_word');
    // The first 4 KB of a real document: the header survives, the streams do not.
    expect(problem(() => readDoc(bytes(tableMergesUrl).subarray(0, 4096)))).toBe('corrupt');
  });
});
