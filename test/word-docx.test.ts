import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import * as CFB from 'cfb';
import { readDocx } from '../src/convert/word/read/docx';
import { ConversionError } from '../src/convert/errors';
import type { Block, Inline, Paragraph, Table, WordDocument } from '../src/convert/word/model/index';
import { parseXml } from '../src/codecs/xml';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

interface Fixture {
  body: string;
  /** Children of w:document before w:body (w:background). */
  beforeBody?: string;
  styles?: string;
  numbering?: string;
  settings?: string;
  theme?: string;
  /** Extra parts: path → XML, and relationships of document.xml: id → [type, target, external?]. */
  parts?: Record<string, string>;
  /** Parts of bytes (pictures). */
  media?: Record<string, Uint8Array>;
  rels?: Record<string, [string, string, boolean?]>;
}

function docx(f: Fixture): Uint8Array {
  const rels: Record<string, [string, string, boolean?]> = { ...f.rels };
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    '_rels/.rels': strToU8(
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}>${f.beforeBody ?? ''}<w:body>${f.body}</w:body></w:document>`),
  };
  const optional: [keyof Fixture, string, string][] = [
    ['styles', 'styles', 'styles.xml'],
    ['numbering', 'numbering', 'numbering.xml'],
    ['settings', 'settings', 'settings.xml'],
    ['theme', 'theme', 'theme/theme1.xml'],
  ];
  for (const [key, type, path] of optional) {
    const xml = f[key] as string | undefined;
    if (!xml) continue;
    files['word/' + path] = strToU8(xml);
    rels['rId_' + type] = [type, path];
  }
  for (const [path, xml] of Object.entries(f.parts ?? {})) files[path] = strToU8(xml);
  Object.assign(files, f.media);
  const relXml = Object.entries(rels)
    .map(([id, [type, target, ext]]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"${ext ? ' TargetMode="External"' : ''}/>`)
    .join('');
  files['word/_rels/document.xml.rels'] = strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relXml}</Relationships>`);
  return zipSync(files);
}

const styles = (inner: string, defaults = '') => `<w:styles ${W}><w:docDefaults>${defaults}</w:docDefaults>${inner}</w:styles>`;
const p = (inner: string, pPr = '') => `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ''}${inner}</w:p>`;
const r = (text: string, rPr = '') => `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ''}<w:t xml:space="preserve">${text}</w:t></w:r>`;

const paragraphs = (blocks: Block[]) => blocks.filter((b): b is Paragraph => b.kind === 'paragraph');
const texts = (para: Paragraph) => para.inlines.filter((i): i is Extract<Inline, { kind: 'text' }> => i.kind === 'text');
const plain = (para: Paragraph) => texts(para).map((t) => t.text).join('');
const body = (doc: WordDocument) => doc.sections.flatMap((s) => s.blocks);

describe('xml', () => {
  it('matches by local name, decodes entities, keeps whitespace-only leaf text, separates r:id from w:id', () => {
    const root = parseXml(
      `<?xml version="1.0"?><w:a ${W} xmlns:x="${REL}"><w:t> </w:t>\n  <w:b x:id="rel" w:id="7">a &amp; b &#x41;&#66;</w:b></w:a>`,
    );
    expect(root.name).toBe('a');
    const [t, b] = root.children as unknown as [{ children: string[] }, { attrs: Record<string, string>; children: string[] }];
    expect(t.children).toEqual([' ']);
    expect(b.attrs).toEqual({ 'r:id': 'rel', id: '7' });
    expect(b.children).toEqual(['a & b AB']);
  });
});

describe('readDocx: styles and runs', () => {
  it('stacks docDefaults, basedOn chain, character style and direct formatting', () => {
    const doc = readDocx(
      docx({
        styles: styles(
          `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:rPr><w:sz w:val="22"/></w:rPr></w:style>
           <w:style w:type="paragraph" w:styleId="Base"><w:pPr><w:spacing w:after="120" w:line="360" w:lineRule="auto"/></w:pPr><w:rPr><w:b/><w:sz w:val="28"/></w:rPr></w:style>
           <w:style w:type="paragraph" w:styleId="Child"><w:basedOn w:val="Base"/><w:pPr><w:jc w:val="both"/><w:ind w:left="720" w:hanging="360"/></w:pPr><w:rPr><w:i/></w:rPr></w:style>
           <w:style w:type="character" w:styleId="Red"><w:rPr><w:color w:val="FF0000"/><w:b w:val="0"/></w:rPr></w:style>`,
          `<w:rPrDefault><w:rPr><w:rFonts w:asciiTheme="minorHAnsi" w:hAnsiTheme="minorHAnsi"/><w:sz w:val="20"/></w:rPr></w:rPrDefault>`,
        ),
        theme: `<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:themeElements><a:clrScheme><a:accent1><a:srgbClr val="4472C4"/></a:accent1></a:clrScheme><a:fontScheme><a:majorFont><a:latin typeface="Cambria"/></a:majorFont><a:minorFont><a:latin typeface="Calibri"/></a:minorFont></a:fontScheme></a:themeElements></a:theme>`,
        body:
          p(r('plain')) +
          p(r('styled') + `<w:r><w:rPr><w:rStyle w:val="Red"/></w:rPr><w:t>red</w:t></w:r>` + r('direct', '<w:rFonts w:ascii="Arial" w:hAnsi="Arial Cyr"/><w:sz w:val="17"/><w:color w:val="1F3864" w:themeColor="accent1"/>'), '<w:pStyle w:val="Child"/>'),
      }),
    );
    const [first, second] = paragraphs(body(doc));
    expect(doc.defaultFont).toBe('Calibri');
    expect(doc.defaultSize).toBe(10);
    expect(texts(first!)[0]!.style).toEqual({ font: 'Calibri', size: 11 });
    const [styled, red, direct] = texts(second!);
    expect(styled!.style).toEqual({ font: 'Calibri', size: 14, bold: true, italic: true });
    expect(red!.style).toEqual({ font: 'Calibri', size: 14, italic: true, color: 'FF0000' });
    expect(direct!.style).toEqual({ font: 'Arial', fontOther: 'Arial Cyr', size: 8.5, bold: true, italic: true, color: '4472C4' });
    expect(second!.props).toMatchObject({ styleId: 'Child', align: 'justify', indentLeft: 36, firstLine: -18, spaceAfter: 6, line: { rule: 'auto', value: 1.5 } });
  });

  it('w:kern asks for pair kerning from a size up, inherited from styles; w:val 0 turns it off', () => {
    const doc = readDocx(
      docx({
        styles: styles(`<w:style w:type="paragraph" w:styleId="Heading1"><w:rPr><w:kern w:val="32"/></w:rPr></w:style>`, `<w:rPrDefault><w:rPr><w:kern w:val="2"/></w:rPr></w:rPrDefault>`),
        body: p(r('body')) + p(r('heading') + r('off', '<w:kern w:val="0"/>'), '<w:pStyle w:val="Heading1"/>'),
      }),
    );
    const [first, second] = paragraphs(body(doc));
    expect(texts(first!)[0]!.style.kern).toBe(1);
    expect(texts(second!).map((t) => t.style.kern)).toEqual([16, undefined]);
  });

  it('settings: w:noLeading (on unless w:val is off) and w:doNotUseHTMLParagraphAutoSpacing', () => {
    const withSettings = (compat: string) => readDocx(docx({ body: p(r('x')), settings: `<w:settings ${W}><w:compat>${compat}</w:compat></w:settings>` }));
    expect(withSettings('<w:noLeading/>').noLeading).toBe(true);
    expect(withSettings('<w:noLeading w:val="0"/>').noLeading).toBeUndefined();
    expect(withSettings('').noLeading).toBeUndefined();
    expect(withSettings('<w:doNotUseHTMLParagraphAutoSpacing/>').paragraphSpacing).toBe('sum');
    expect(withSettings('<w:doNotUseHTMLParagraphAutoSpacing w:val="false"/>').paragraphSpacing).toBe('larger');
  });

  it('page colour: w:background when the settings show it (w:displayBackgroundShape), theme colours resolved', () => {
    const shown = `<w:settings ${W}><w:displayBackgroundShape/></w:settings>`;
    const theme = `<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:themeElements><a:clrScheme name="x"><a:dk1><a:srgbClr val="000000"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="1F497D"/></a:dk2><a:lt2><a:srgbClr val="EEECE1"/></a:lt2><a:accent1><a:srgbClr val="4F81BD"/></a:accent1></a:clrScheme></a:themeElements></a:theme>`;
    const read = (background: string, settings?: string) => readDocx(docx({ body: p(r('x')), beforeBody: background, settings, theme })).pageColor;
    expect(read('<w:background w:color="FFFFCC"/>', shown)).toBe('FFFFCC');
    expect(read('<w:background w:color="FFFFCC"/>')).toBeUndefined(); // Word shows it only with the setting
    expect(read('<w:background w:color="FFFFFF"/>', shown)).toBeUndefined();
    expect(read('<w:background w:color="FFFFFF" w:themeColor="accent1"/>', shown)).toBe('4F81BD');
    expect(read('', shown)).toBeUndefined();
  });

  it('uses Times New Roman 10 pt when the document states no defaults', () => {
    const doc = readDocx(docx({ body: p(r('x')) }));
    expect([doc.defaultFont, doc.defaultSize]).toEqual(['Times New Roman', 10]);
    expect(texts(paragraphs(body(doc))[0]!)[0]!.style).toEqual({ font: 'Times New Roman', size: 10 });
  });

  it('reads tabs, breaks, symbols, hyperlinks, and keeps tracked deletions struck through', () => {
    const doc = readDocx(
      docx({
        rels: { rIdLink: ['hyperlink', 'https://example.com/x', true] },
        body: p(
          `<w:hyperlink w:history="1" r:id="rIdLink">${r('site')}</w:hyperlink><w:hyperlink w:anchor="top">${r('up')}</w:hyperlink>` +
            `<w:r><w:t>a</w:t><w:tab/><w:t>b</w:t><w:br/><w:br w:type="page"/><w:softHyphen/><w:noBreakHyphen/><w:sym w:font="Symbol" w:char="F0B7"/></w:r>` +
            `<w:del w:id="1" w:author="x"><w:r><w:delText>gone</w:delText></w:r></w:del><w:moveFrom><w:r><w:t>moved</w:t></w:r></w:moveFrom>`,
        ),
      }),
    );
    const para = paragraphs(body(doc))[0]!;
    const [site, up] = texts(para);
    expect(site).toMatchObject({ text: 'site', style: { link: 'https://example.com/x' } });
    expect(up).toMatchObject({ text: 'up', style: { link: '#top' } });
    expect(para.inlines.map((i) => (i.kind === 'text' ? i.text : i.kind === 'break' ? `[${i.type}]` : `[${i.kind}]`)).join('|')).toBe(
      'site|up|a|[tab]|b|[line]|[page]|\u2011•|gone',
    );
    expect(texts(para).at(-1)!.style.strike).toBe(true);
  });

  it('shows tracked changes as LibreOffice prints them: insertions underlined, deletions struck, in each author\u2019s colour', () => {
    // stress023.docx's reference PDF draws its one author's changes in #C69200; a second author gets the next colour.
    const doc = readDocx(
      docx({
        body: p(
          `<w:ins w:id="1" w:author="Ann"><w:r><w:rPr><w:color w:val="FF0000"/></w:rPr><w:t>added</w:t></w:r></w:ins>` +
            `<w:del w:id="2" w:author="Ann"><w:r><w:delText>gone</w:delText></w:r></w:del>` +
            `<w:del w:id="3" w:author="Bob"><w:r><w:rPr><w:u w:val="double"/></w:rPr><w:delText>cut</w:delText></w:r></w:del>` +
            `<w:ins w:id="4" w:author="Bob"><w:r><w:t>new</w:t></w:r></w:ins>${r('kept')}`,
        ),
      }),
    );
    const runs = texts(paragraphs(body(doc))[0]!).map((t) => ({ text: t.text, underline: t.style.underline, strike: t.style.strike, color: t.style.color }));
    expect(runs).toEqual([
      { text: 'added', underline: 'single', strike: undefined, color: 'C69200' },
      { text: 'gone', underline: undefined, strike: true, color: 'C69200' },
      { text: 'cut', underline: 'double', strike: true, color: '0646A2' },
      { text: 'new', underline: 'single', strike: undefined, color: '0646A2' },
      { text: 'kept', underline: undefined, strike: undefined, color: undefined },
    ]);
  });
});

describe('readDocx: fields and notes', () => {
  it('turns PAGE/NUMPAGES into field inlines and shows other fields’ cached results', () => {
    const fld = (instr: string, result: string) =>
      `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${instr} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>${r(result)}<w:r><w:fldChar w:fldCharType="end"/></w:r>`;
    const doc = readDocx(
      docx({
        body: p(r('Page ') + fld('PAGE \\* MERGEFORMAT', '9') + r(' of ') + fld('NUMPAGES', '99') + r(' ') + fld('DATE', '1/2/2024') + `<w:fldSimple w:instr=" PAGE ">${r('4')}</w:fldSimple>` + fld('HYPERLINK "https://a.example/"', 'here')),
      }),
    );
    const para = paragraphs(body(doc))[0]!;
    const shown = para.inlines.map((i) => (i.kind === 'text' ? i.text : i.kind === 'field' ? `{${i.field}}` : '?')).join('');
    expect(shown).toBe('Page {PAGE} of {NUMPAGES} 1/2/2024{PAGE}here');
    expect(texts(para).at(-1)!.style.link).toBe('https://a.example/');
  });

  it('numbers footnotes 1, 2 and endnotes i and stores their bodies', () => {
    const note = (kind: string, id: string, text: string) =>
      `<w:${kind} w:id="${id}"><w:p><w:r><w:${kind}Ref/></w:r>${r(' ' + text)}</w:p></w:${kind}>`;
    const doc = readDocx(
      docx({
        parts: {
          'word/footnotes.xml': `<w:footnotes ${W}><w:footnote w:type="separator" w:id="-1"><w:p/></w:footnote>${note('footnote', '5', 'five')}${note('footnote', '6', 'six')}</w:footnotes>`,
          'word/endnotes.xml': `<w:endnotes ${W}>${note('endnote', '5', 'end')}</w:endnotes>`,
        },
        rels: { f: ['footnotes', 'footnotes.xml'], e: ['endnotes', 'endnotes.xml'] },
        body: p(r('a') + '<w:r><w:footnoteReference w:id="5"/></w:r><w:r><w:endnoteReference w:id="5"/></w:r><w:r><w:footnoteReference w:id="6"/></w:r>'),
      }),
    );
    const refs = paragraphs(body(doc))[0]!.inlines.filter((i) => i.kind === 'noteRef');
    expect(refs.map((i) => i.kind === 'noteRef' && [i.id, i.label])).toEqual([
      ['footnote:5', '1'],
      ['endnote:5', 'i'],
      ['footnote:6', '2'],
    ]);
    expect(plain(paragraphs(doc.notes.get('footnote:6')!)[0]!)).toBe('2 six');
    expect(plain(paragraphs(doc.notes.get('endnote:5')!)[0]!)).toBe('i end');
  });
});

describe('readDocx: numbering', () => {
  const lvl = (ilvl: number, fmt: string, text: string, extra = '') =>
    `<w:lvl w:ilvl="${ilvl}"><w:start w:val="1"/><w:numFmt w:val="${fmt}"/><w:lvlText w:val="${text}"/>${extra}<w:pPr><w:ind w:left="${720 * (ilvl + 1)}" w:hanging="360"/></w:pPr></w:lvl>`;
  const numbering = `<w:numbering ${W}>
    <w:abstractNum w:abstractNumId="0">${lvl(0, 'decimal', '%1.')}${lvl(1, 'decimal', '%1.%2.')}${lvl(2, 'lowerLetter', '%3)')}</w:abstractNum>
    <w:abstractNum w:abstractNumId="1">${lvl(0, 'bullet', '\uF0B7', '<w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/></w:rPr>')}</w:abstractNum>
    <w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
    <w:num w:numId="2"><w:abstractNumId w:val="0"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>
    <w:num w:numId="3"><w:abstractNumId w:val="1"/></w:num>
  </w:numbering>`;
  const item = (numId: number, ilvl: number, text: string, extraPPr = '') =>
    p(r(text), `<w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${numId}"/></w:numPr>${extraPPr}`);

  it('produces 1. / 1.1. / a) labels, restarts lower levels, continues and restarts lists', () => {
    const doc = readDocx(
      docx({
        numbering,
        styles: styles(`<w:style w:type="paragraph" w:styleId="H1"><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr><w:ind w:left="100"/></w:pPr></w:style>`),
        body:
          item(1, 0, 'one') +
          item(1, 1, 'one.one') +
          item(1, 2, 'a') +
          item(1, 2, 'b') +
          item(1, 1, 'one.two') +
          item(1, 2, 'a again') +
          p(r('styled'), '<w:pStyle w:val="H1"/>') +
          item(1, 1, 'two.one', '<w:ind w:left="2000"/>') +
          item(2, 0, 'restarted') +
          item(3, 0, 'bullet'),
      }),
    );
    const paras = paragraphs(body(doc));
    expect(paras.map((x) => x.props.list?.label)).toEqual(['1.', '1.1.', 'a)', 'b)', '1.2.', 'a)', '2.', '2.1.', '1.', '•']);
    expect(paras[1]!.props).toMatchObject({ indentLeft: 72, firstLine: -18, list: { suffix: 'tab' } });
    // Numbering from the style: the style's own indent wins over the level's.
    expect(paras[6]!.props.indentLeft).toBe(5);
    // Direct indent wins over the level's.
    expect(paras[7]!.props.indentLeft).toBe(100);
    // Symbol-font bullet mapped to Unicode and shown in a text font.
    expect(paras[9]!.props.list!.style.font).toBe('Times New Roman');
  });
});

describe('readDocx: tables', () => {
  it('reads grid, gridSpan, vMerge, borders from the table and the cell, margins and row properties', () => {
    const tc = (text: string, tcPr = '') => `<w:tc><w:tcPr>${tcPr}</w:tcPr>${p(r(text))}</w:tc>`;
    const doc = readDocx(
      docx({
        body:
          `<w:tbl><w:tblPr><w:jc w:val="center"/><w:tblBorders><w:top w:val="single" w:sz="8" w:color="FF0000"/><w:insideH w:val="dashed" w:sz="4"/><w:insideV w:val="nil"/></w:tblBorders><w:tblCellMar><w:left w:w="0" w:type="dxa"/></w:tblCellMar></w:tblPr>` +
          `<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="3000"/><w:gridCol w:w="1000"/></w:tblGrid>` +
          `<w:tr><w:trPr><w:tblHeader/><w:trHeight w:val="400" w:hRule="exact"/></w:trPr>${tc('A', '<w:gridSpan w:val="2"/>')}${tc('B', '<w:vMerge w:val="restart"/><w:shd w:val="clear" w:fill="DDEEFF"/>')}</w:tr>` +
          `<w:tr>${tc('C', '<w:tcBorders><w:top w:val="double" w:sz="12"/></w:tcBorders>')}${tc('D')}${tc('', '<w:vMerge/>')}</w:tr>` +
          `</w:tbl>` +
          p(''),
      }),
    );
    const table = body(doc)[0] as Table;
    expect(table.kind).toBe('table');
    expect(table.grid).toEqual([100, 150, 50]);
    expect(table.align).toBe('center');
    const [row1, row2] = table.rows;
    expect(row1!.header).toBe(true);
    expect(row1!.height).toEqual({ rule: 'exact', value: 20 });
    expect(row1!.cells.map((c) => [c.gridSpan, c.vMerge])).toEqual([[2, undefined], [1, 'restart']]);
    expect(row1!.cells[1]!.shading).toBe('DDEEFF');
    expect(row2!.cells.map((c) => c.vMerge)).toEqual([undefined, undefined, 'continue']);
    expect(row1!.cells[0]!.borders.top).toEqual({ width: 1, style: 'single', color: 'FF0000' });
    expect(row2!.cells[1]!.borders.top).toMatchObject({ width: 0.5, style: 'dashed' });
    expect(row2!.cells[0]!.borders.top).toMatchObject({ width: 1.5, style: 'double' });
    expect(row2!.cells[1]!.borders.left).toBeUndefined();
    expect(row2!.cells[0]!.margins).toEqual({ top: 0, right: 5.4, bottom: 0, left: 0 });
    expect(plain(paragraphs(row2!.cells[1]!.blocks)[0]!)).toBe('D');
  });
});

describe('readDocx: equations', () => {
  it('writes an OMML equation linearly: scripts raised and lowered, fractions with a slash, delimiters and n-ary operators', () => {
    const M = 'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"';
    const mr = (t: string) => `<m:r><m:t>${t}</m:t></m:r>`;
    const sup = (base: string, s: string) => `<m:sSup><m:e>${mr(base)}</m:e><m:sup>${mr(s)}</m:sup></m:sSup>`;
    const omml =
      `<m:oMath ${M}>${sup('a', '2')}${mr('+')}${sup('b', '2')}${mr('=')}` +
      `<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub>${mr('n=1')}</m:sub><m:sup>${mr('∞')}</m:sup><m:e>` +
      `<m:d><m:e><m:f><m:num>${mr('x+1')}</m:num><m:den>${mr('2')}</m:den></m:f></m:e></m:d></m:e></m:nary></m:oMath>`;
    const doc = readDocx(docx({ body: `<w:p>${omml}</w:p>` }));
    const parts = texts(paragraphs(body(doc))[0]!).map((t) => `${t.style.vertAlign === 'superscript' ? '^' : t.style.vertAlign === 'subscript' ? '_' : ''}${t.text}`);
    expect(parts.join('|')).toBe('a|^2|+b|^2|=∑|_n=1|^∞|((x+1)/2)');
  });
});

describe('readDocx: auto spacing', () => {
  it("Word's HTML-like auto spacing (14 pt) is left out before the document's first paragraph and at the top and bottom of a table cell", () => {
    const auto = '<w:spacing w:before="100" w:beforeAutospacing="1" w:after="100" w:afterAutospacing="1"/>';
    const tc = `<w:tc>${p(r('top'), auto)}${p(r('bottom'), auto)}</w:tc>`;
    const doc = readDocx(docx({ body: p(r('first'), auto) + p(r('second'), auto) + `<w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr>${tc}</w:tr></w:tbl>` + p(r('last'), auto) }));
    const [first, second, table, last] = body(doc) as [Paragraph, Paragraph, Table, Paragraph];
    expect([first.props.spaceBefore, first.props.spaceAfter]).toEqual([0, 14]);
    expect([second.props.spaceBefore, second.props.spaceAfter]).toEqual([14, 14]);
    expect([last.props.spaceBefore, last.props.spaceAfter]).toEqual([14, 14]);
    const [top, bottom] = table.rows[0]!.cells[0]!.blocks as [Paragraph, Paragraph];
    expect([top.props.spaceBefore, top.props.spaceAfter, bottom.props.spaceBefore, bottom.props.spaceAfter]).toEqual([0, 14, 14, 0]);
    // A stated spacing over an auto one from the style is kept.
    const stated = readDocx(
      docx({
        styles: styles(`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:pPr>${auto}</w:pPr></w:style>`),
        body: p(r('stated'), '<w:spacing w:before="240"/>'),
      }),
    );
    expect((body(stated)[0] as Paragraph).props.spaceBefore).toBe(12);
  });
});

describe('readDocx: hidden cell marks', () => {
  it('an empty cell with w:hideMark holds nothing (its row collapses); one with text, or without hideMark, keeps its paragraph', () => {
    const tc = (inner: string, hide: boolean) => `<w:tc><w:tcPr>${hide ? '<w:hideMark/>' : ''}</w:tcPr>${inner}</w:tc>`;
    const doc = readDocx(
      docx({
        body:
          `<w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid>` +
          `<w:tr>${tc(p(''), true)}</w:tr><w:tr>${tc(p(r('text')), true)}</w:tr><w:tr>${tc(p(''), false)}</w:tr></w:tbl>` +
          p(''),
      }),
    );
    const [hidden, withText, plainEmpty] = (body(doc)[0] as Table).rows.map((row) => row.cells[0]!.blocks.length);
    expect([hidden, withText, plainEmpty]).toEqual([0, 1, 1]);
  });
});

describe('readDocx: tables with cell spacing', () => {
  it('reads tblCellSpacing; its cells are framed apart, every side from the inside borders', () => {
    const tc = (text: string) => `<w:tc>${p(r(text))}</w:tc>`;
    const doc = readDocx(
      docx({
        body:
          `<w:tbl><w:tblPr><w:tblCellSpacing w:w="30" w:type="dxa"/><w:tblBorders><w:top w:val="single" w:sz="16"/><w:left w:val="single" w:sz="16"/><w:insideH w:val="single" w:sz="4"/><w:insideV w:val="single" w:sz="4"/></w:tblBorders></w:tblPr>` +
          `<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid><w:tr>${tc('A')}${tc('B')}</w:tr><w:tr>${tc('C')}${tc('D')}</w:tr></w:tbl>` +
          p(''),
      }),
    );
    const table = body(doc)[0] as Table;
    expect(table.cellSpacing).toBe(1.5);
    // The top-left cell's top and left edges are its own (the inside borders), not the table's 2 pt ones.
    expect(table.rows[0]!.cells[0]!.borders.top).toMatchObject({ width: 0.5 });
    expect(table.rows[0]!.cells[0]!.borders.left).toMatchObject({ width: 0.5 });
    const plainTable = readDocx(docx({ body: `<w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr>${tc('x')}</w:tr></w:tbl>` + p('') }));
    expect((body(plainTable)[0] as Table).cellSpacing).toBeUndefined();
  });
});

describe('readDocx: sections, headers and footers', () => {
  it('reads right-to-left paragraphs (from the style, turned off directly) and right-to-left tables', () => {
    const doc = readDocx(
      docx({
        styles: styles(`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:pPr><w:bidi/></w:pPr></w:style>`),
        body:
          p(r('راست به چپ')) +
          p(r('left to right'), '<w:bidi w:val="0"/>') +
          `<w:tbl><w:tblPr><w:bidiVisual/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc>${p(r('اول'))}</w:tc><w:tc>${p(r('دوم'))}</w:tc></w:tr></w:tbl>` +
          `<w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc>${p(r('x'))}</w:tc></w:tr></w:tbl>`,
      }),
    );
    const [rtl, ltr, table, plainTable] = body(doc) as [Paragraph, Paragraph, Table, Table];
    expect(rtl.props.bidi).toBe(true);
    expect(ltr.props.bidi).toBeUndefined();
    expect(table.bidiVisual).toBe(true);
    expect((table.rows[0]!.cells[0]!.blocks[0] as Paragraph).props.bidi).toBe(true);
    expect(plainTable.bidiVisual).toBeUndefined();
  });

  it('formats complex-script text with the run\'s complex-script properties (cs font, szCs, bCs, iCs)', () => {
    const doc = readDocx(
      docx({
        body: p(r('Hello سلام 12 world', '<w:rFonts w:ascii="Arial" w:cs="Times New Roman"/><w:b/><w:i/><w:iCs/><w:sz w:val="24"/><w:szCs w:val="28"/>')) + p(r('plain', '<w:b/>')),
      }),
    );
    const [mixed, plainPara] = paragraphs(body(doc));
    expect(texts(mixed!).map((t) => [t.text, t.style.font, t.style.size, !!t.style.bold, !!t.style.italic])).toEqual([
      ['Hello ', 'Arial', 12, true, true],
      // Digits and spaces go with the letters before them; w:b without w:bCs leaves Persian text regular.
      ['سلام 12 ', 'Times New Roman', 14, false, true],
      ['world', 'Arial', 12, true, true],
    ]);
    expect(texts(plainPara!)).toHaveLength(1);
    expect(texts(plainPara!)[0]!.style.bold).toBe(true);
  });

  it('reads page borders; art borders (rows of pictures) are left out', () => {
    const side = (name: string, val: string) => `<w:${name} w:val="${val}" w:sz="12" w:space="24" w:color="00FF00"/>`;
    const doc = readDocx(docx({
      body: p(r('text')) + `<w:sectPr><w:pgBorders w:offsetFrom="page" w:display="notFirstPage">${side('top', 'double')}${side('left', 'single')}${side('bottom', 'mapleMuffins')}</w:pgBorders></w:sectPr>`,
    }));
    expect(doc.sections[0]!.pageBorders).toEqual({
      top: { width: 1.5, style: 'double', color: '00FF00', space: 24 },
      left: { width: 1.5, style: 'single', color: '00FF00', space: 24 },
      offsetFrom: 'page',
      display: 'notFirstPage',
    });
  });

  it('splits sections, converts geometry to points and selects header/footer parts with inheritance', () => {
    const hdr = (text: string) => `<w:hdr ${W}>${p(r(text))}</w:hdr>`;
    const ftr = (text: string) => `<w:ftr ${W}>${p(r(text))}</w:ftr>`;
    const doc = readDocx(
      docx({
        settings: `<w:settings ${W}><w:evenAndOddHeaders/></w:settings>`,
        parts: { 'word/header1.xml': hdr('Default header'), 'word/header2.xml': hdr('First header'), 'word/footer1.xml': ftr('Footer') },
        rels: { h1: ['header', 'header1.xml'], h2: ['header', 'header2.xml'], f1: ['footer', 'footer1.xml'] },
        body:
          p(r('landscape section'), `<w:sectPr><w:headerReference w:type="default" r:id="h1"/><w:headerReference w:type="first" r:id="h2"/><w:footerReference w:type="default" r:id="f1"/><w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/><w:pgMar w:top="-1440" w:right="720" w:bottom="1440" w:left="1800" w:header="708" w:footer="500"/><w:cols w:num="2" w:space="720"/><w:titlePg/></w:sectPr>`) +
          p(r('last section')) +
          `<w:sectPr><w:type w:val="continuous"/><w:pgSz w:w="11906" w:h="16838"/><w:pgNumType w:start="5"/></w:sectPr>`,
      }),
    );
    expect(doc.sections).toHaveLength(2);
    const [s1, s2] = doc.sections;
    expect(s1!.page).toEqual({ width: 841.9, height: 595.3, marginTop: 72, marginRight: 36, marginBottom: 72, marginLeft: 90, header: 35.4, footer: 25 });
    expect([s1!.columns, s1!.columnGap, s1!.titlePage, s1!.evenAndOdd]).toEqual([2, 36, true, true]);
    expect(plain(paragraphs(s1!.headers.default!)[0]!)).toBe('Default header');
    expect(plain(paragraphs(s1!.headers.first!)[0]!)).toBe('First header');
    expect(plain(paragraphs(s1!.blocks)[0]!)).toBe('landscape section');
    expect(s2!.page.width).toBe(595.3);
    expect([s2!.start, s2!.pageNumberStart, s2!.titlePage]).toEqual(['continuous', 5, undefined]);
    // The last section has no references of its own: it inherits the previous section's parts.
    expect(plain(paragraphs(s2!.headers.default!)[0]!)).toBe('Default header');
    expect(plain(paragraphs(s2!.footers.default!)[0]!)).toBe('Footer');
  });

  it('an empty paragraph holding only a section break before a continuous section takes no line (as LibreOffice lays it out)', () => {
    const sect = (type: string) => `<w:sectPr><w:type w:val="${type}"/></w:sectPr>`;
    // Sections: [Above, mark], then one of type `secondType` [Below, mark], then a continuous one [mark alone].
    const read = (secondType: string, markPr = '') =>
      readDocx(docx({ body: p(r('Above')) + p('', markPr + sect('nextPage')) + p(r('Below')) + p('', markPr + sect(secondType)) + p('', markPr) + `<w:sectPr><w:type w:val="continuous"/></w:sectPr>` })).sections.map((s) => s.blocks.length);
    // LibreOffice drops it whatever its style or mark formatting; a section's only paragraph stays.
    expect(read('continuous')).toEqual([1, 1, 1]);
    expect(read('continuous', '<w:pStyle w:val="Normal"/><w:rPr><w:noProof/></w:rPr>')).toEqual([1, 1, 1]);
    // Before a section that starts a page it stays.
    expect(read('nextPage')).toEqual([2, 1, 1]);
    // And in a section that begins with a table (LibreOffice keeps it there).
    const table = `<w:tbl><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid><w:tr><w:tc>${p(r('Cell'))}</w:tc></w:tr></w:tbl>`;
    const afterTable = readDocx(docx({ body: table + p(r('Above')) + p('', sect('nextPage')) + p(r('Below')) + `<w:sectPr><w:type w:val="continuous"/></w:sectPr>` }));
    expect(afterTable.sections.map((s) => s.blocks.map((b) => b.kind))).toEqual([['table', 'paragraph', 'paragraph'], ['paragraph']]);
  });
});

describe('readDocx: pictures', () => {
  it('reads a picture’s crop (a:srcRect in thousandths of a percent, v:imagedata’s cropleft…) as fractions cut off each side; a negative one is not kept', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const drawing = (srcRect: string) =>
      `<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="989330" cy="299720"/>` +
      `<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">` +
      `<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:blipFill><a:blip r:embed="rIdPic"/>${srcRect}<a:stretch/></pic:blipFill></pic:pic>` +
      `</a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
    const read = (srcRect: string) => {
      const doc = readDocx(docx({ body: p(drawing(srcRect)), media: { 'word/media/logo.png': png }, rels: { rIdPic: ['image', 'media/logo.png'] } }));
      return paragraphs(doc.sections[0]!.blocks)[0]!.inlines.find((i) => i.kind === 'image') as Extract<Inline, { kind: 'image' }>;
    };
    const cropped = read('<a:srcRect l="29015" t="13257"/>');
    expect(cropped.width).toBeCloseTo(77.9, 1);
    expect(cropped.crop).toEqual({ left: 0.29015, top: 0.13257, right: 0, bottom: 0 });
    expect(read('<a:srcRect l="-5000"/>').crop).toBeUndefined();
    expect(read('').crop).toBeUndefined();
    // VML: v:imagedata's crop in 1/65536 ("16384f") or as a fraction.
    const vml = `<w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="width:100pt;height:50pt"><v:imagedata r:id="rIdPic" cropleft="16384f" croptop="0.1"/></v:shape></w:pict></w:r>`;
    const doc = readDocx(docx({ body: p(vml), media: { 'word/media/logo.png': png }, rels: { rIdPic: ['image', 'media/logo.png'] } }));
    const image = paragraphs(doc.sections[0]!.blocks)[0]!.inlines.find((i) => i.kind === 'image') as Extract<Inline, { kind: 'image' }>;
    expect(image.crop).toEqual({ left: 0.25, top: 0.1, right: 0, bottom: 0 });
  });
});

describe('readDocx: damaged and protected files', () => {
  const problem = (bytes: Uint8Array) => {
    try {
      readDocx(bytes);
    } catch (e) {
      return e instanceof ConversionError ? e.problem : `other: ${String(e)}`;
    }
    return 'no error';
  };

  it('reports a truncated zip and a package without word/document.xml as corrupt', () => {
    const good = docx({ body: p(r('x')) });
    expect(problem(good.slice(0, Math.floor(good.length * 0.6)))).toBe('corrupt');
    expect(problem(zipSync({ 'word/other.xml': strToU8('<x/>') }))).toBe('corrupt');
  });

  it('reports an OLE container with an EncryptedPackage stream as password-protected', () => {
    const cfb = CFB.utils.cfb_new();
    CFB.utils.cfb_add(cfb, 'EncryptionInfo', new Uint8Array(64));
    CFB.utils.cfb_add(cfb, 'EncryptedPackage', new Uint8Array(4096));
    const bytes = new Uint8Array(CFB.write(cfb, { type: 'array' }) as ArrayLike<number>);
    expect(problem(bytes)).toBe('password');
  });
});
