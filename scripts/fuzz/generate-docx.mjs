// Hostile and normal DOCX files for the poison suite, made from parts with fflate: tables, lists,
// text boxes and group shapes nested N deep, and a many-paragraph document. Pure JavaScript (no
// Node built-ins): test/poison.test.ts imports it inside workerd.
import { strToU8, zipSync } from 'fflate';

const NS = [
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"',
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"',
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"',
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"',
  'xmlns:wpg="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup"',
  'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"',
  'xmlns:v="urn:schemas-microsoft-com:vml"',
  'xmlns:o="urn:schemas-microsoft-com:office:office"',
].join(' ');

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const SECT = '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1134" w:right="1134" w:bottom="1134" w:left="1134" w:header="708" w:footer="708"/></w:sectPr>';

/** The XML text of word/document.xml around a body. */
export const documentXml = (body) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${NS}><w:body>${body}${SECT}</w:body></w:document>`;

/** The package parts every DOCX here has besides word/document.xml. */
export function packageParts({ numbering = false } = {}) {
  const overrides =
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
    (numbering ? '<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/>' : '');
  return {
    '[Content_Types].xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides}</Types>`,
    ),
    '_rels/.rels': strToU8(`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`),
    'word/_rels/document.xml.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${numbering ? `<Relationship Id="rIdN" Type="${REL}/numbering" Target="numbering.xml"/>` : ''}</Relationships>`,
    ),
  };
}

export function docx(body, extra = {}) {
  const files = { ...packageParts({ numbering: 'word/numbering.xml' in extra }), 'word/document.xml': strToU8(documentXml(body)) };
  for (const [name, text] of Object.entries(extra)) files[name] = typeof text === 'string' ? strToU8(text) : text;
  return zipSync(files, { level: 6 });
}

export const para = (text) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

/** A small ordinary document: a heading, Cyrillic text and a 2×2 table. */
export function normalDocx(tag = 'CANARY') {
  const cell = (t) => `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>${para(t)}</w:tc>`;
  return docx(
    para(`${tag} heading`) +
      para('Ordinary paragraph with Cyrillic: Обычный абзац документа.') +
      `<w:tbl><w:tblPr><w:tblW w:w="6000" w:type="dxa"/><w:tblBorders><w:top w:val="single" w:sz="4"/><w:bottom w:val="single" w:sz="4"/><w:insideH w:val="single" w:sz="4"/></w:tblBorders></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid><w:tr>${cell('A1')}${cell('B1')}</w:tr><w:tr>${cell('A2')}${cell('B2')}</w:tr></w:tbl>` +
      para(`${tag} end`),
  );
}

/** A table in a cell of a table ... `depth` tables deep, text at the bottom. */
export function nestedTablesDocx(depth) {
  let inner = para(`deepest of ${depth} tables`);
  for (let i = 0; i < depth; i++) {
    inner = `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/><w:tblBorders><w:top w:val="single" w:sz="4"/><w:left w:val="single" w:sz="4"/><w:bottom w:val="single" w:sz="4"/><w:right w:val="single" w:sz="4"/></w:tblBorders></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="0" w:type="auto"/></w:tcPr>${para(`level ${depth - i}`)}${inner}<w:p/></w:tc></w:tr></w:tbl>`;
  }
  return docx(para(`Tables nested ${depth} deep`) + inner + para('after the tables'));
}

/** A list of `depth` levels (Word stops at 9: ilvl 0..8), one paragraph at each level. */
export function nestedListDocx(depth) {
  let levels = '';
  for (let i = 0; i < depth; i++) {
    levels += `<w:lvl w:ilvl="${i}"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%${Math.min(i + 1, 9)}."/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="${360 * (i + 1)}" w:hanging="360"/></w:pPr></w:lvl>`;
  }
  const numbering = `<?xml version="1.0" encoding="UTF-8"?><w:numbering ${NS}><w:abstractNum w:abstractNumId="0">${levels}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`;
  let body = para(`List nested ${depth} levels`);
  for (let i = 0; i < depth; i++) body += `<w:p><w:pPr><w:numPr><w:ilvl w:val="${i}"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>item at level ${i + 1}</w:t></w:r></w:p>`;
  return docx(body + para('after the list'), { 'word/numbering.xml': numbering });
}

/** A VML text box in a text box ... `depth` deep. */
export function nestedTextBoxesDocx(depth) {
  let inner = para(`deepest of ${depth} text boxes`);
  for (let i = 0; i < depth; i++) {
    inner = `<w:p><w:r><w:t xml:space="preserve">box ${depth - i} </w:t></w:r><w:r><w:pict><v:shape id="tb${i}" type="#_x0000_t202" style="width:300pt;height:120pt" stroked="t"><v:textbox><w:txbxContent>${inner}</w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>`;
  }
  return docx(para(`Text boxes nested ${depth} deep`) + inner + para('after the text boxes'));
}

/** A DrawingML group in a group ... `depth` deep, each level with a rectangle. */
export function nestedGroupsDocx(depth) {
  const cx = 3_000_000;
  const cy = 2_000_000;
  const xfrm = (tag) => `<a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/>${tag ? `<a:chOff x="0" y="0"/><a:chExt cx="${cx}" cy="${cy}"/>` : ''}</a:xfrm>`;
  const rect = (i) => `<wps:wsp><wps:cNvPr id="${i + 10}" name="r${i}"/><wps:cNvSpPr/><wps:spPr>${xfrm(false)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:ln w="12700"><a:solidFill><a:srgbClr val="000000"/></a:solidFill></a:ln></wps:spPr><wps:bodyPr/></wps:wsp>`;
  let inner = rect(depth);
  for (let i = depth - 1; i >= 1; i--) inner = `<wpg:grpSp><wpg:cNvPr id="${i + 5000}" name="g${i}"/><wpg:cNvGrpSpPr/><wpg:grpSpPr>${xfrm(true)}</wpg:grpSpPr>${rect(i)}${inner}</wpg:grpSp>`;
  const drawing = `<w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${cx}" cy="${cy}"/><wp:docPr id="1" name="nested groups"/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingGroup"><wpg:wgp><wpg:cNvGrpSpPr/><wpg:grpSpPr>${xfrm(true)}</wpg:grpSpPr>${rect(0)}${inner}</wpg:wgp></a:graphicData></a:graphic></wp:inline></w:drawing>`;
  return docx(para(`Group shapes nested ${depth} deep`) + `<w:p><w:r>${drawing}</w:r></w:p>` + para('after the groups'));
}

/** `count` short paragraphs (issue 40: 2 million). The XML is built in pieces to stay within string limits. */
export function manyParagraphsDocx(count) {
  const head = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${NS}><w:body>`);
  const tail = strToU8(`${SECT}</w:body></w:document>`);
  const chunk = 10_000;
  const parts = [head];
  for (let done = 0; done < count; done += chunk) {
    let s = '';
    for (let i = done; i < Math.min(count, done + chunk); i++) s += `<w:p><w:r><w:t>p${i}</w:t></w:r></w:p>`;
    parts.push(strToU8(s));
  }
  parts.push(tail);
  const total = parts.reduce((n, p) => n + p.length, 0);
  const xml = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    xml.set(p, at);
    at += p.length;
  }
  return zipSync({ ...packageParts(), 'word/document.xml': xml }, { level: 6 });
}
