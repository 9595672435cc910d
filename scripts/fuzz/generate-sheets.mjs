// Hostile and normal spreadsheets for the poison suite (xlsx-to-pdf): XLSX packages written with
// fflate (a sheet, shared strings, styles, drawings, charts), BIFF8 workbooks in compound files
// written with cfb, and ODS packages. Most files are small: their hostility is in what they
// declare (a count of 2^31, a cell at XFD1048576, a row repeated a billion times). The 1 GB
// deflate bombs are written as streams by generate-bombs.mjs (node:zlib), so this is Node only.
import { strToU8, unzipSync, zipSync } from 'fflate';
import * as CFB from 'cfb';
import { concat, rng, truncated, u16le, u32le } from './common.mjs';
import { deflatedFill, zipWith } from './generate-bombs.mjs';

// ---------------------------------------------------------------- XLSX
const TRANSITIONAL = {
  main: 'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  rel: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
};
const STRICT = {
  main: 'http://purl.oclc.org/ooxml/spreadsheetml/main',
  r: 'http://purl.oclc.org/ooxml/officeDocument/relationships',
  rel: 'http://purl.oclc.org/ooxml/officeDocument/relationships',
};
const CT = 'application/vnd.openxmlformats-officedocument';
const MAIN_CT = `${CT}.spreadsheetml.sheet.main+xml`;
const MACRO_MAIN_CT = 'application/vnd.ms-excel.sheet.macroEnabled.main+xml';
const PKG_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XDR = 'http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';

const xmlHead = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const rels = (list) => `${xmlHead}<Relationships xmlns="${PKG_RELS}">${list.map(([id, type, target]) => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`).join('')}</Relationships>`;
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** The worksheet element around `inner` (what goes in it: sheetData, mergeCells, margins, drawing). */
export const worksheetXml = (inner, ns = TRANSITIONAL) => `${xmlHead}<worksheet xmlns="${ns.main}" xmlns:r="${ns.r}">${inner}</worksheet>`;
const MARGINS = '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>';

/** A shared-strings part of `items` (strings, or Uint8Array pieces already written), with the counts it declares. */
function sstXml(items, { count, uniqueCount } = {}) {
  const n = items.length;
  return `${xmlHead}<sst xmlns="${TRANSITIONAL.main}" count="${count ?? n}" uniqueCount="${uniqueCount ?? n}">${items.map((s) => `<si><t xml:space="preserve">${esc(s)}</t></si>`).join('')}</sst>`;
}

/**
 * An XLSX: `sheet` the worksheet part (string or bytes), `strings` the shared-strings part (string,
 * bytes, or an array of strings), `styles` the styles part, `parts` more parts { path: string|bytes },
 * `sheetRels` the worksheet's relationships, `overrides` more [partName, contentType] pairs.
 */
export function xlsx({ sheet, strings, styles, parts = {}, sheetRels = null, overrides = [], ns = TRANSITIONAL, mainType = MAIN_CT, level = 6, drop = [] }) {
  const u8 = (x) => (typeof x === 'string' ? strToU8(x) : x);
  const types = [
    ['/xl/workbook.xml', mainType],
    ['/xl/worksheets/sheet1.xml', `${CT}.spreadsheetml.worksheet+xml`],
    ...(strings !== undefined ? [['/xl/sharedStrings.xml', `${CT}.spreadsheetml.sharedStrings+xml`]] : []),
    ...(styles !== undefined ? [['/xl/styles.xml', `${CT}.spreadsheetml.styles+xml`]] : []),
    ...overrides,
  ];
  const files = {
    '[Content_Types].xml': strToU8(
      `${xmlHead}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${types.map(([p, t]) => `<Override PartName="${p}" ContentType="${t}"/>`).join('')}</Types>`,
    ),
    '_rels/.rels': strToU8(rels([['rId1', `${ns.rel}/officeDocument`, 'xl/workbook.xml']])),
    'xl/workbook.xml': strToU8(`${xmlHead}<workbook xmlns="${ns.main}" xmlns:r="${ns.r}"><bookViews><workbookView/></bookViews><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    'xl/_rels/workbook.xml.rels': strToU8(
      rels([
        ['rId1', `${ns.rel}/worksheet`, 'worksheets/sheet1.xml'],
        ...(strings !== undefined ? [['rId2', `${ns.rel}/sharedStrings`, 'sharedStrings.xml']] : []),
        ...(styles !== undefined ? [['rId3', `${ns.rel}/styles`, 'styles.xml']] : []),
      ]),
    ),
    'xl/worksheets/sheet1.xml': u8(sheet),
  };
  if (sheetRels) files['xl/worksheets/_rels/sheet1.xml.rels'] = strToU8(rels(sheetRels));
  if (strings !== undefined) files['xl/sharedStrings.xml'] = Array.isArray(strings) ? strToU8(sstXml(strings)) : u8(strings);
  if (styles !== undefined) files['xl/styles.xml'] = u8(styles);
  for (const [p, data] of Object.entries(parts)) files[p] = u8(data);
  for (const p of drop) delete files[p];
  return zipSync(files, { level });
}

const cellS = (ref, i, s = '') => `<c r="${ref}" t="s"${s}><v>${i}</v></c>`;
const cellN = (ref, v, s = '') => `<c r="${ref}"${s}><v>${v}</v></c>`;
const cellInline = (ref, text, s = '') => `<c r="${ref}" t="inlineStr"${s}><is><t xml:space="preserve">${esc(text)}</t></is></c>`;

/** A few cells: shared strings, numbers, a formula with its cached value, Cyrillic inline text. */
function normalRows(tag) {
  return (
    `<row r="1">${cellS('A1', 0)}${cellS('B1', 1)}${cellS('C1', 2)}</row>` +
    `<row r="2">${cellInline('A2', `${tag} row`)}${cellN('B2', 42)}${cellN('C2', 3.25)}</row>` +
    `<row r="3">${cellInline('A3', 'Итого')}<c r="B3"><f>B2*2</f><v>84</v></c>${cellN('C3', 6.5)}</row>`
  );
}
const NORMAL_STRINGS = (tag) => [`${tag} heading`, 'Amount', 'Сумма'];

/** The canary: a small ordinary workbook (workbook, rels, one sheet, shared strings). */
export function normalXlsx(tag = 'CANARY', opts = {}) {
  return xlsx({ sheet: worksheetXml(`<dimension ref="A1:C3"/><sheetData>${normalRows(tag)}</sheetData>${MARGINS}`, opts.ns), strings: NORMAL_STRINGS(tag), ...opts });
}

/** Joins string pieces as UTF-8 without building one huge JS string. */
function pieces(head, count, item, tail, per = 20_000) {
  const out = [strToU8(head)];
  for (let i = 0; i < count; i += per) {
    let s = '';
    for (let k = i; k < Math.min(count, i + per); k++) s += item(k);
    out.push(strToU8(s));
  }
  out.push(strToU8(tail));
  return concat(out);
}

/** sheet1.xml inflating to `total` bytes: a row, then spaces (well-formed whitespace) up to `total`, then the end. */
export async function xlsxDeflateBomb(total, { lieSize = null } = {}) {
  const prefix = Buffer.from(worksheetXml(`<sheetData><row r="1">${cellInline('A1', 'deflate bomb')}</row>`).replace('</worksheet>', ''));
  const suffix = Buffer.from(`<row r="2">${cellInline('A2', 'after the bomb')}</row></sheetData>${MARGINS}</worksheet>`);
  const bomb = await deflatedFill({ prefix, suffix, total, fillByte: 0x20, raw: true });
  // The other parts from an ordinary package, stored; the sheet deflated last.
  const stored = {};
  for (const [k, v] of Object.entries(packageParts())) stored[k] = Buffer.from(v);
  return zipWith(stored, { name: 'xl/worksheets/sheet1.xml', ...bomb, ...(lieSize !== null ? { size: lieSize } : {}) });
}

/** The parts of an ordinary XLSX but its sheet (for packages built by hand). */
function packageParts() {
  const files = unzipSync(normalXlsx('BOMB'));
  delete files['xl/worksheets/sheet1.xml'];
  return files;
}

/** The sheet XML nested `depth` elements deep inside a cell. */
export function xlsxNested(depth) {
  const open = '<x>'.repeat(depth);
  const close = '</x>'.repeat(depth);
  return xlsx({ sheet: worksheetXml(`<sheetData><row r="1">${cellInline('A1', `nested ${depth} deep`)}<c r="B1">${open}deep${close}</c></row></sheetData>${MARGINS}`), strings: [] });
}

/** A cell at the grid's last column and row (XFD1048576), one at A1. */
export function xlsxLastCell() {
  return xlsx({ sheet: worksheetXml(`<dimension ref="A1:XFD1048576"/><sheetData><row r="1">${cellInline('A1', 'first cell')}</row><row r="1048576">${cellInline('XFD1048576', 'last cell of the grid')}</row></sheetData>${MARGINS}`), strings: [] });
}

/** A few cells whose <dimension> says the whole grid (and one past it). */
export function xlsxHugeDimension(ref = 'A1:XFD1048576') {
  return xlsx({ sheet: worksheetXml(`<dimension ref="${ref}"/><sheetData>${normalRows('DIM')}</sheetData>${MARGINS}`), strings: NORMAL_STRINGS('DIM') });
}

/** `count` merges of two cells side by side, 500 a row (1,000 columns), over empty cells but A1. */
export function xlsxMerges(count, perRow = 500) {
  const ref = (col, row) => `${colName(col)}${row}`;
  const body = pieces(
    worksheetXml(`<sheetData><row r="1">${cellInline('A1', `${count} merges`)}</row></sheetData><mergeCells count="${count}">`).replace('</worksheet>', ''),
    count,
    (i) => {
      const row = Math.floor(i / perRow) + 2;
      const col = (i % perRow) * 2;
      return `<mergeCell ref="${ref(col, row)}:${ref(col + 1, row)}"/>`;
    },
    `</mergeCells>${MARGINS}</worksheet>`,
  );
  return xlsx({ sheet: body, strings: [] });
}

export function colName(c) {
  let s = '';
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** Shared strings declaring `declared` (count and uniqueCount) over `real` items; cells refer to the first, the last and one past the end. */
export function xlsxSharedStrings(real, declared) {
  const sst = pieces(`${xmlHead}<sst xmlns="${TRANSITIONAL.main}" count="${declared}" uniqueCount="${declared}">`, real, (i) => `<si><t>s${i.toString(36)}</t></si>`, '</sst>');
  const rows = `<row r="1">${cellS('A1', 0)}${cellS('B1', real - 1)}${cellS('C1', real)}${cellS('D1', declared - 1)}</row>`;
  return xlsx({ sheet: worksheetXml(`<sheetData>${rows}</sheetData>${MARGINS}`), strings: sst });
}

/** Seeded words up to `bytes` characters: text that packs about 3:1, not like a run of one letter. */
function words(bytes, seed) {
  const r = rng(seed);
  const list = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'строка', 'ячейка', 'sheet', 'cell', 'value', 'total', 'sum', 'print', 'page', 'row', 'column', 'данные', 'отчёт'];
  const parts = [];
  let n = 0;
  while (n < bytes) {
    let s = '';
    for (let k = 0; k < 2000; k++) s += r.pick(list) + (r.int(12) === 0 ? '. ' : ' ') + (r.int(50) === 0 ? String(r.int(1e6)) + ' ' : '');
    parts.push(s);
    n += s.length;
  }
  return parts.join('').slice(0, bytes);
}

/** A cell holding one shared string of `bytes` characters. */
export function xlsxLongString(bytes, seed = 1) {
  return xlsx({ sheet: worksheetXml(`<sheetData><row r="1">${cellS('A1', 0)}${cellInline('B1', 'after the long string')}</row><row r="2">${cellInline('A2', 'row 2')}</row></sheetData>${MARGINS}`), strings: [words(bytes, seed)] });
}

/** styles.xml with `count` cellXfs (each a different font size, fill and border) and cells that use 0, the last, past the end and 4294967295. */
export function xlsxManyXfs(count) {
  const styles = pieces(
    `${xmlHead}<styleSheet xmlns="${TRANSITIONAL.main}"><numFmts count="1"><numFmt numFmtId="164" formatCode="0.000"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="14"/><name val="Arial"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="${count}">`,
    count,
    (i) => `<xf numFmtId="${i % 2 ? 164 : 0}" fontId="${i % 2}" fillId="${i % 3 === 2 ? 7 : i % 2}" borderId="${i % 5 === 4 ? 99 : 0}" xfId="0" applyFont="1"/>`,
    `</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
  );
  const s = (n) => ` s="${n}"`;
  const rows = `<row r="1">${cellInline('A1', 'style 0', s(0))}${cellN('B1', 1.5, s(count - 1))}${cellN('C1', 2.5, s(count))}${cellN('D1', 3.5, s(4294967295))}${cellN('E1', 4.5, s(-1))}${cellN('F1', 5.5, s('1e300'))}</row>`;
  return xlsx({ sheet: worksheetXml(`<sheetData>${rows}</sheetData>${MARGINS}`), strings: [], styles });
}

const ANCHOR = (i, inner) =>
  `<xdr:twoCellAnchor><xdr:from><xdr:col>${i % 20}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${i % 1000}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>${(i % 20) + 2}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${(i % 1000) + 3}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>${inner}<xdr:clientData/></xdr:twoCellAnchor>`;
const SHAPE = (i) => `<xdr:sp macro="" textlink=""><xdr:nvSpPr><xdr:cNvPr id="${i + 2}" name="Shape ${i}"/><xdr:cNvSpPr/></xdr:nvSpPr><xdr:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="4472C4"/></a:solidFill><a:ln w="12700"><a:solidFill><a:srgbClr val="000000"/></a:solidFill></a:ln></xdr:spPr></xdr:sp>`;
const CHART_FRAME = `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="2" name="Chart 1"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr><xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm><a:graphic><a:graphicData uri="${C}"><c:chart xmlns:c="${C}" xmlns:r="${TRANSITIONAL.r}" r:id="rId1"/></a:graphicData></a:graphic></xdr:graphicFrame>`;

function withDrawing(drawing, { chart } = {}) {
  const parts = { 'xl/drawings/drawing1.xml': drawing };
  const overrides = [['/xl/drawings/drawing1.xml', `${CT}.drawing+xml`]];
  if (chart) {
    parts['xl/drawings/_rels/drawing1.xml.rels'] = rels([['rId1', `${TRANSITIONAL.rel}/chart`, '../charts/chart1.xml']]);
    parts['xl/charts/chart1.xml'] = chart;
    overrides.push(['/xl/charts/chart1.xml', `${CT}.drawingml.chart+xml`]);
  }
  return xlsx({
    sheet: worksheetXml(`<sheetData>${normalRows('DRAWING')}</sheetData>${MARGINS}<drawing r:id="rId1"/>`),
    strings: NORMAL_STRINGS('DRAWING'),
    sheetRels: [['rId1', `${TRANSITIONAL.rel}/drawing`, '../drawings/drawing1.xml']],
    parts,
    overrides,
  });
}

/** A drawing part of `count` rectangles, each in its own anchor. */
export function xlsxManyAnchors(count) {
  return withDrawing(pieces(`${xmlHead}<xdr:wsDr xmlns:xdr="${XDR}" xmlns:a="${A}">`, count, (i) => ANCHOR(i, SHAPE(i)), '</xdr:wsDr>'));
}

const TEXT_BOX = (i, text) => `<xdr:sp macro="" textlink=""><xdr:nvSpPr><xdr:cNvPr id="${i + 2}" name="TextBox ${i}"/><xdr:cNvSpPr txBox="1"/></xdr:nvSpPr><xdr:spPr><a:xfrm><a:off x="${i * 12700}" y="${i * 12700}"/><a:ext cx="1270000" cy="635000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="FFFFCC"/></a:solidFill></xdr:spPr><xdr:txBody><a:bodyPr vertOverflow="clip"/><a:lstStyle/><a:p><a:r><a:rPr sz="1000"/><a:t>${text}</a:t></a:r></a:p></xdr:txBody></xdr:sp>`;

/** `count` text boxes, each in its own anchor, each holding `chars` characters of words. */
export function xlsxLongTextBoxes(count, chars) {
  const text = words(chars, 3).slice(0, chars);
  return withDrawing(pieces(`${xmlHead}<xdr:wsDr xmlns:xdr="${XDR}" xmlns:a="${A}">`, count, (i) => ANCHOR(i, TEXT_BOX(i, text)), '</xdr:wsDr>'));
}

/** One anchor whose group holds `members` text boxes, and groups nested `depth` deep around them. */
export function xlsxHugeGroup(members, depth) {
  const group = (inner) => `<xdr:grpSp><xdr:nvGrpSpPr><xdr:cNvPr id="1" name="Group"/><xdr:cNvGrpSpPr/></xdr:nvGrpSpPr><xdr:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="2540000" cy="2540000"/><a:chOff x="0" y="0"/><a:chExt cx="127000000" cy="127000000"/></a:xfrm></xdr:grpSpPr>${inner}</xdr:grpSp>`;
  const open = group('').replace('</xdr:grpSp>', '');
  const start = `${xmlHead}<xdr:wsDr xmlns:xdr="${XDR}" xmlns:a="${A}"><xdr:twoCellAnchor><xdr:from><xdr:col>1</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>3</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>6</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>20</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>${open.repeat(depth)}`;
  return withDrawing(pieces(start, members, (i) => TEXT_BOX(i, `member ${i}`), `${'</xdr:grpSp>'.repeat(depth)}<xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>`));
}

/**
 * `count` comments of `chars` characters each, every one shown in the VML drawing, on a sheet that
 * prints them as displayed: the readers' comment and note budgets, the VML streamed.
 */
export function xlsxManyComments(count, chars) {
  const text = words(chars, 5).slice(0, chars);
  const ref = (i) => `${String.fromCharCode(65 + (i % 20))}${Math.floor(i / 20) + 1}`;
  const comments = pieces(`${xmlHead}<comments xmlns="${TRANSITIONAL.main}"><authors><author>Fuzz</author></authors><commentList>`, count, (i) => `<comment ref="${ref(i)}" authorId="0"><text><r><t>${text}</t></r></text></comment>`, '</commentList></comments>');
  const vml = pieces('<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:x="urn:schemas-microsoft-com:office:excel">', count, (i) => `<v:shape type="#_x0000_t202" style="visibility:visible" fillcolor="#ffffe1"><x:ClientData ObjectType="Note"><x:Anchor>${(i % 20) + 1}, 15, ${Math.floor(i / 20)}, 2, ${(i % 20) + 3}, 15, ${Math.floor(i / 20) + 4}, 4</x:Anchor><x:Row>${Math.floor(i / 20)}</x:Row><x:Column>${i % 20}</x:Column><x:Visible/></x:ClientData></v:shape>`, '</xml>');
  return xlsx({
    sheet: worksheetXml(`<sheetData>${normalRows('COMMENTS')}</sheetData>${MARGINS}<pageSetup paperSize="9" cellComments="asDisplayed"/><legacyDrawing r:id="rId2"/>`),
    strings: NORMAL_STRINGS('COMMENTS'),
    sheetRels: [['rId1', `${TRANSITIONAL.rel}/comments`, '../comments1.xml'], ['rId2', `${TRANSITIONAL.rel}/vmlDrawing`, '../drawings/vmlDrawing1.vml']],
    parts: { 'xl/comments1.xml': comments, 'xl/drawings/vmlDrawing1.vml': vml },
    overrides: [['/xl/comments1.xml', `${CT}.spreadsheetml.comments+xml`]],
  });
}

/** A line chart whose one series has `points` cached values (`declared` its ptCount). */
export function xlsxChartPoints(points, declared = points) {
  const chart = pieces(
    `${xmlHead}<c:chartSpace xmlns:c="${C}" xmlns:a="${A}" xmlns:r="${TRANSITIONAL.r}"><c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>${points} points</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:layout/><c:lineChart><c:grouping val="standard"/><c:ser><c:idx val="0"/><c:order val="0"/><c:val><c:numRef><c:f>Sheet1!$B$1:$B$${Math.min(declared, 1048576)}</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="${declared}"/>`,
    points,
    (i) => `<c:pt idx="${i}"><c:v>${(i * 7919) % 1000}</c:v></c:pt>`,
    `</c:numCache></c:numRef></c:val></c:ser><c:axId val="1"/><c:axId val="2"/></c:lineChart><c:catAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:axPos val="b"/><c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:axPos val="l"/><c:crossAx val="1"/></c:valAx></c:plotArea></c:chart></c:chartSpace>`,
  );
  return withDrawing(`${xmlHead}<xdr:wsDr xmlns:xdr="${XDR}" xmlns:a="${A}">${ANCHOR(0, CHART_FRAME)}</xdr:wsDr>`, { chart });
}

/** The first `fraction` of an ordinary workbook with some body to cut into. */
export function xlsxTruncated(fraction = 0.5) {
  const rows = Array.from({ length: 400 }, (_, i) => `<row r="${i + 4}">${cellInline(`A${i + 4}`, `row ${i + 4} ${words(40, i)}`)}${cellN(`B${i + 4}`, i * 1.5)}</row>`).join('');
  const whole = xlsx({ sheet: worksheetXml(`<sheetData>${normalRows('TRUNC')}${rows}</sheetData>${MARGINS}`), strings: NORMAL_STRINGS('TRUNC') });
  return truncated(whole, fraction);
}

/** [Content_Types] names the workbook macro-enabled (XLSM), with a vbaProject.bin that is not a real one. */
export function xlsxMacroEnabled() {
  const vba = concat([Uint8Array.of(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1), new Uint8Array(1016)]);
  return normalXlsx('XLSM', {
    mainType: MACRO_MAIN_CT,
    parts: { 'xl/vbaProject.bin': vba },
    overrides: [['/xl/vbaProject.bin', 'application/vnd.ms-office.vbaProject']],
  });
}

/** An XLSB-like package: xl/workbook.bin (BIFF12 records, here a few made-up bytes) instead of workbook.xml. */
export function xlsbLike() {
  const BIN = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const bin = Uint8Array.of(0x83, 0x01, 0x00, 0x84, 0x01, 0x00);
  return zipSync(
    {
      '[Content_Types].xml': strToU8(
        `${xmlHead}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="bin" ContentType="application/vnd.ms-excel.sheet.binary.macroEnabled.main"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/xl/worksheets/sheet1.bin" ContentType="application/vnd.ms-excel.worksheet"/></Types>`,
      ),
      '_rels/.rels': strToU8(rels([['rId1', `${BIN}/officeDocument`, 'xl/workbook.bin']])),
      'xl/workbook.bin': bin,
      'xl/_rels/workbook.bin.rels': strToU8(rels([['rId1', `${BIN}/worksheet`, 'worksheets/sheet1.bin']])),
      'xl/worksheets/sheet1.bin': bin,
    },
    { level: 6 },
  );
}

/** A strict OOXML (ISO 29500 Strict) workbook: purl.oclc.org namespaces throughout. */
export function xlsxStrict() {
  return normalXlsx('STRICT', { ns: STRICT });
}

// ---------------------------------------------------------------- XLS (BIFF8 in a compound file)
const rec = (type, data = new Uint8Array(0)) => concat([u16le(type), u16le(data.length), data]);
/** ShortXLUnicodeString (cch u8) or XLUnicodeString (cch u16), 8-bit ("compressed") characters. */
const xlStr = (s, wide16 = false) => concat([wide16 ? u16le(s.length) : Uint8Array.of(s.length), Uint8Array.of(0), Uint8Array.from([...s].map((ch) => ch.charCodeAt(0) & 0xff))]);
const BOF = (dt) => rec(0x0809, concat([u16le(0x0600), u16le(dt), u16le(0x0dbb), u16le(0x07cc), u32le(0), u32le(0x06)]));
const EOF = () => rec(0x000a);
const FONT = (name = 'Arial') => rec(0x0031, concat([u16le(200), u16le(0), u16le(0x7fff), u16le(400), u16le(0), Uint8Array.of(0, 0, 0, 0), xlStr(name)]));
const XF = (style) => rec(0x00e0, concat([u16le(0), u16le(0), u16le(style ? 0xfff5 : 0x0001), new Uint8Array(14)]));
const LABEL = (row, col, s) => rec(0x0204, concat([u16le(row), u16le(col), u16le(15), xlStr(s, true)]));
const NUMBER = (row, col, v) => {
  const d = new Uint8Array(14);
  const view = new DataView(d.buffer);
  view.setUint16(0, row, true);
  view.setUint16(2, col, true);
  view.setUint16(4, 15, true);
  view.setFloat64(6, v, true);
  return rec(0x0203, d);
};
const LABELSST = (row, col, i) => rec(0x00fd, concat([u16le(row), u16le(col), u16le(15), u32le(i)]));
const SST = (total, unique, strings) => rec(0x00fc, concat([u32le(total), u32le(unique), ...strings.map((s) => xlStr(s, true))]));
const RK_INT = (n) => ((n << 2) | 2) >>> 0;
/** MULRK: row, first column, `count` RK cells, and the last column it says (`lastCol`, whatever the cells). */
const MULRK = (row, firstCol, count, lastCol) => rec(0x00bd, concat([u16le(row), u16le(firstCol), ...Array.from({ length: count }, (_, i) => concat([u16le(15), u32le(RK_INT(i))])), u16le(lastCol)]));

/**
 * A BIFF8 workbook stream: globals (`globalsExtra` records after the BOF), one visible worksheet
 * whose records are `cells`; BOUNDSHEET's offset computed.
 */
export function biffStream({ globalsExtra = [], cells = [], sheetName = 'Sheet1' } = {}) {
  const xfs = [...Array.from({ length: 15 }, () => XF(true)), XF(false)];
  const head = [BOF(0x0005), ...globalsExtra, rec(0x0042, u16le(1200)), FONT(), FONT(), FONT(), FONT(), FONT(), ...xfs];
  const boundsheet = (offset) => rec(0x0085, concat([u32le(offset), Uint8Array.of(0, 0), xlStr(sheetName)]));
  const before = concat(head).length + boundsheet(0).length + EOF().length;
  const globals = concat([...head, boundsheet(before), EOF()]);
  const sheet = concat([BOF(0x0010), rec(0x0200, concat([u32le(0), u32le(100), u16le(0), u16le(10), u16le(0)])), ...cells, rec(0x023e, concat([u16le(0x06b6), u16le(0), u16le(0), u16le(0x40), new Uint8Array(10)])), EOF()]);
  return concat([globals, sheet]);
}

/** A compound file holding `stream` as its Workbook stream. */
export function cfbWith(stream, name = 'Workbook') {
  const c = CFB.utils.cfb_new();
  CFB.utils.cfb_add(c, `/${name}`, Buffer.from(stream));
  return new Uint8Array(CFB.write(c, { type: 'buffer' }));
}

export function normalXls(tag = 'XLS', rows = 3) {
  const cells = [];
  for (let r = 0; r < rows; r++) cells.push(LABEL(r, 0, `${tag} row ${r + 1}`), NUMBER(r, 1, r * 2.5));
  return cfbWith(biffStream({ cells }));
}

/** After the BOF, records whose lengths run past the stream's end (the last one says 0xffff). */
export function xlsRecordsPastStream() {
  const stream = concat([BOF(0x0005), rec(0x0042, u16le(1200)), u16le(0x0031), u16le(0xffff), Uint8Array.of(200, 0, 0, 0)]);
  return cfbWith(stream);
}

/** SST declaring `declared` strings (and references) over three; cells refer to 0, 2, 3 and declared - 1. */
export function xlsSstCount(declared = 2 ** 31) {
  const sst = SST(declared, declared, ['first', 'second', 'третья'.replace(/[^\x00-\xff]/g, '?')]);
  return cfbWith(biffStream({ globalsExtra: [sst], cells: [LABELSST(0, 0, 0), LABELSST(0, 1, 2), LABELSST(1, 0, 3), LABELSST(1, 1, declared - 1)] }));
}

/** MULRK records saying they span 65535 columns: one from column 0 with 1,000 cells, one from 65000 with 10. */
export function xlsMulrkWide() {
  return cfbWith(biffStream({ cells: [MULRK(0, 0, 1000, 65534), MULRK(1, 65000, 10, 65534), MULRK(2, 250, 1300, 65535), LABEL(3, 0, 'after the MULRKs')] }));
}

/** A FILEPASS (RC4 encryption header) right after the globals' BOF. */
export function xlsFilepass() {
  const filepass = rec(0x002f, concat([u16le(1), u16le(1), u16le(1), new Uint8Array(48)]));
  return cfbWith(biffStream({ globalsExtra: [filepass], cells: [LABEL(0, 0, 'encrypted?')] }));
}

/** The first `fraction` of an ordinary XLS of `rows` rows (a large one: its stream in regular sectors). */
export function xlsTruncated(fraction = 0.5, rows = 600) {
  return truncated(normalXls('TRUNC', rows), fraction);
}

// ---------------------------------------------------------------- ODS
const ODS_MIME = 'application/vnd.oasis.opendocument.spreadsheet';
const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"';
const AUTO_STYLES = '<office:automatic-styles><style:style style:name="ce1" style:family="table-cell"><style:table-cell-properties fo:background-color="#ffcc00" fo:border="0.5pt solid #000000"/></style:style></office:automatic-styles>';
const contentXml = (tables) => `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS} office:version="1.2">${AUTO_STYLES}<office:body><office:spreadsheet>${tables}</office:spreadsheet></office:body></office:document-content>`;
const odsCell = (text, attrs = '') => `<table:table-cell office:value-type="string" office:string-value="${esc(text)}"${attrs}><text:p>${esc(text)}</text:p></table:table-cell>`;
const odsNum = (v, attrs = '') => `<table:table-cell office:value-type="float" office:value="${v}"${attrs}><text:p>${v}</text:p></table:table-cell>`;
const manifestXml = (encrypted) =>
  `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest ${ODF_NS} manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="${ODS_MIME}"/>` +
  `<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"${encrypted ? ' manifest:size="4096"' : ''}>${encrypted ? '<manifest:encryption-data manifest:checksum-type="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0#sha256-1k" manifest:checksum="AAAA"><manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc" manifest:initialisation-vector="AAAAAAAAAAAAAAAAAAAAAA=="/><manifest:start-key-generation manifest:start-key-generation-name="http://www.w3.org/2000/09/xmldsig#sha256" manifest:key-size="32"/><manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:key-size="32" manifest:iteration-count="100000" manifest:salt="AAAAAAAAAAAAAAAAAAAAAA=="/></manifest:encryption-data>' : ''}</manifest:file-entry>` +
  '<manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/></manifest:manifest>';
const STYLES_XML = `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${ODF_NS} office:version="1.2"><office:styles/></office:document-styles>`;

/** An ODS: mimetype stored first (as the format and our detection want), then content.xml, styles, manifest. */
export function ods(content, { encrypted = false, contentBytes = null } = {}) {
  return zipSync(
    {
      mimetype: [strToU8(ODS_MIME), { level: 0 }],
      'content.xml': contentBytes ?? strToU8(content),
      'styles.xml': strToU8(STYLES_XML),
      'META-INF/manifest.xml': strToU8(manifestXml(encrypted)),
    },
    { level: 6 },
  );
}

const odsTable = (rows, cols = '<table:table-column table:number-columns-repeated="3"/>') => `<table:table table:name="Sheet1">${cols}${rows}</table:table>`;
const row = (cells, attrs = '') => `<table:table-row${attrs}>${cells}</table:table-row>`;

export function normalOds(tag = 'ODS') {
  return ods(contentXml(odsTable(row(odsCell(`${tag} heading`) + odsCell('Сумма')) + row(odsCell('a') + odsNum(42)) + row(odsCell('b') + odsNum(3.25)))));
}

/** A cell with a value repeated `n` columns (a billion: the grid is 16,384 wide). */
export function odsColumnsRepeated(n = 1073741824) {
  return ods(contentXml(odsTable(row(odsCell('first')) + row(odsNum(7, ` table:number-columns-repeated="${n}"`)) + row(odsCell('after the repeated cell')), `<table:table-column table:number-columns-repeated="${n}"/>`)));
}

/** A row with one styled (empty) cell repeated `n` rows; with `then`, a row with a value after it (so the run does not reach the grid's foot). */
export function odsRowsRepeated(n = 1048576, then = false) {
  return ods(contentXml(odsTable(row(odsCell('first')) + row('<table:table-cell table:style-name="ce1"/>', ` table:number-rows-repeated="${n}"`) + (then ? row(odsCell('after the repeated rows')) : ''))));
}

export function odsEncrypted() {
  // content.xml as the encrypted package holds it: bytes that are not XML.
  const r = rng(7);
  const junk = Uint8Array.from({ length: 4096 }, () => r.int(256));
  return ods('', { encrypted: true, contentBytes: junk });
}

/** content.xml nested `depth` elements deep inside a cell's paragraph. */
export function odsNested(depth) {
  const open = '<text:span>'.repeat(depth);
  const close = '</text:span>'.repeat(depth);
  return ods(contentXml(odsTable(row(odsCell('first')) + row(`<table:table-cell office:value-type="string"><text:p>${open}deep${close}</text:p></table:table-cell>`))));
}

/** content.xml inflating to `total` bytes (spaces between the first row and the rest). */
export async function odsDeflateBomb(total) {
  const prefix = Buffer.from(contentXml(odsTable(row(odsCell('deflate bomb')))).replace(/<\/table:table>.*$/, ''));
  const suffix = Buffer.from(`${row(odsCell('after the bomb'))}</table:table></office:spreadsheet></office:body></office:document-content>`);
  const bomb = await deflatedFill({ prefix, suffix, total, fillByte: 0x20, raw: true });
  return zipWith({ mimetype: Buffer.from(ODS_MIME), 'styles.xml': Buffer.from(STYLES_XML), 'META-INF/manifest.xml': Buffer.from(manifestXml(false)) }, { name: 'content.xml', ...bomb });
}

