// Hostile and normal presentations for the poison suite (pptx-to-pdf): PPTX packages written with
// fflate (presentation, master, layout, slides, a chart part), ODP packages, and a PowerPoint
// 97-2003 compound file written with cfb. Most files are small: their hostility is in what they
// nest or declare (groups 10,000 deep, a span of a billion cells, 5,000 slides on one part, a
// picture declared 2 GB). The 1 GB deflate bombs are written as streams by generate-bombs.mjs
// (node:zlib), so this is Node only.
//
// Big parts carry varying text (indexes, seeded coordinates): a part of one repeated element packs
// past the ZIP reader's 1000:1 ratio and would be refused as a bomb before the reader under test
// ever saw it.
import { strToU8, unzipSync, zipSync } from 'fflate';
import * as CFB from 'cfb';
import { concat, rng, truncated } from './common.mjs';
import { deflatedFill, zipWith } from './generate-bombs.mjs';

// ---------------------------------------------------------------- PPTX
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
const CT = 'application/vnd.openxmlformats-officedocument';
const P_NS = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="${A}" xmlns:r="${REL}"`;
const xmlHead = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';
const EMU = 12_700;

/** A relationships part: [id, type (its last segment), target]. */
const rels = (list) => `${xmlHead}<Relationships xmlns="${PKG_RELS}">${list.map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`).join('')}</Relationships>`;
const treeHead = '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>';
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A slide part around its shape-tree body (string, or Uint8Array pieces already written). */
function slideXml(body, attrs = '') {
  const head = `${xmlHead}<p:sld ${P_NS}${attrs}><p:cSld><p:spTree>${treeHead}`;
  const tail = '</p:spTree></p:cSld></p:sld>';
  return typeof body === 'string' ? strToU8(head + body + tail) : concat([strToU8(head), body, strToU8(tail)]);
}

const MASTER_TITLE = `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="${36 * EMU}" y="${20 * EMU}"/><a:ext cx="${648 * EMU}" cy="${80 * EMU}"/></a:xfrm></p:spPr><p:txBody><a:bodyPr anchor="ctr"/><a:p><a:r><a:t>Master title</a:t></a:r></a:p></p:txBody></p:sp>`;
const MASTER_BODY = `<p:sp><p:nvSpPr><p:cNvPr id="3" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="${36 * EMU}" y="${110 * EMU}"/><a:ext cx="${648 * EMU}" cy="${260 * EMU}"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/><a:p><a:r><a:t>Master body</a:t></a:r></a:p></p:txBody></p:sp>`;
const MASTER = `${xmlHead}<p:sldMaster ${P_NS}><p:cSld><p:bg><p:bgPr><a:solidFill><a:srgbClr val="F4F4F4"/></a:solidFill></p:bgPr></p:bg><p:spTree>${treeHead}${MASTER_TITLE}${MASTER_BODY}</p:spTree></p:cSld><p:txStyles><p:titleStyle><a:lvl1pPr algn="ctr"><a:defRPr sz="3600"/></a:lvl1pPr></p:titleStyle><p:bodyStyle><a:lvl1pPr marL="342900" indent="-342900"><a:buChar char="•"/><a:defRPr sz="2400"/></a:lvl1pPr></p:bodyStyle></p:txStyles></p:sldMaster>`;
const LAYOUT = `${xmlHead}<p:sldLayout ${P_NS}><p:cSld><p:spTree>${treeHead}</p:spTree></p:cSld></p:sldLayout>`;

export const title = (text) => `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title 1"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="en-US"/><a:t>${esc(text)}</a:t></a:r></a:p></p:txBody></p:sp>`;
export const bodyText = (lines) => `<p:sp><p:nvSpPr><p:cNvPr id="3" name="Content 2"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>${lines.map((l) => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${esc(l)}</a:t></a:r></a:p>`).join('')}</p:txBody></p:sp>`;
/** A rectangle (or `prst`) at (x, y) w × h points filled `fill`, with `text` in it; `geom` replaces its geometry element. */
export const rect = (i, x, y, w, h, fill, text = '', geom = `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>`) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="${i + 10}" name="Shape ${i}"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${Math.round(x * EMU)}" y="${Math.round(y * EMU)}"/><a:ext cx="${Math.round(w * EMU)}" cy="${Math.round(h * EMU)}"/></a:xfrm>${geom}<a:solidFill><a:srgbClr val="${fill}"/></a:solidFill><a:ln w="12700"><a:solidFill><a:srgbClr val="1F3864"/></a:solidFill></a:ln></p:spPr>` +
  (text ? `<p:txBody><a:bodyPr anchor="ctr"/><a:lstStyle/><a:p><a:pPr algn="ctr"/><a:r><a:rPr lang="en-US" sz="1800"/><a:t>${esc(text)}</a:t></a:r></a:p></p:txBody>` : '') +
  '</p:sp>';

/**
 * A PPTX: `slides` [{ xml (the slide part, string or bytes), rels ([id, type, target] besides its
 * layout; `layout: false` leaves the layout relationship out) }]; `sldIdLst` replaces the list of
 * slide ids, `sldSz` the size element; `parts` more parts { path: string|bytes }, `partRels` more
 * relationships parts { path: list }, `overrides` more [partName, contentType]; `drop` parts left out.
 */
export function pptx({ slides, sldIdLst, sldSz = `<p:sldSz cx="${720 * EMU}" cy="${405 * EMU}"/>`, parts = {}, partRels = {}, overrides = [], drop = [], level = 6 }) {
  const u8 = (x) => (typeof x === 'string' ? strToU8(x) : x);
  const types = [
    ['/ppt/presentation.xml', `${CT}.presentationml.presentation.main+xml`],
    ['/ppt/slideMasters/slideMaster1.xml', `${CT}.presentationml.slideMaster+xml`],
    ['/ppt/slideLayouts/slideLayout1.xml', `${CT}.presentationml.slideLayout+xml`],
    ...slides.map((_, i) => [`/ppt/slides/slide${i + 1}.xml`, `${CT}.presentationml.slide+xml`]),
    ...overrides,
  ];
  const ids = sldIdLst ?? slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rS${i + 1}"/>`).join('');
  const files = {
    '[Content_Types].xml': strToU8(
      `${xmlHead}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>${types.map(([p, t]) => `<Override PartName="${p}" ContentType="${t}"/>`).join('')}</Types>`,
    ),
    '_rels/.rels': strToU8(rels([['rId1', 'officeDocument', 'ppt/presentation.xml']])),
    'ppt/presentation.xml': strToU8(`${xmlHead}<p:presentation ${P_NS}><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rM"/></p:sldMasterIdLst><p:sldIdLst>${ids}</p:sldIdLst>${sldSz}<p:notesSz cx="6858000" cy="9144000"/></p:presentation>`),
    'ppt/_rels/presentation.xml.rels': strToU8(rels([['rM', 'slideMaster', 'slideMasters/slideMaster1.xml'], ...slides.map((_, i) => [`rS${i + 1}`, 'slide', `slides/slide${i + 1}.xml`])])),
    'ppt/slideMasters/slideMaster1.xml': strToU8(MASTER),
    'ppt/slideMasters/_rels/slideMaster1.xml.rels': strToU8(rels([['rL', 'slideLayout', '../slideLayouts/slideLayout1.xml']])),
    'ppt/slideLayouts/slideLayout1.xml': strToU8(LAYOUT),
    'ppt/slideLayouts/_rels/slideLayout1.xml.rels': strToU8(rels([['rM', 'slideMaster', '../slideMasters/slideMaster1.xml']])),
  };
  slides.forEach((s, i) => {
    files[`ppt/slides/slide${i + 1}.xml`] = u8(s.xml);
    files[`ppt/slides/_rels/slide${i + 1}.xml.rels`] = strToU8(rels([...(s.layout === false ? [] : [['rL', 'slideLayout', '../slideLayouts/slideLayout1.xml']]), ...(s.rels ?? [])]));
  });
  for (const [p, list] of Object.entries(partRels)) files[p] = strToU8(rels(list));
  for (const [p, data] of Object.entries(parts)) files[p] = u8(data);
  for (const p of drop) delete files[p];
  return zipSync(files, { level });
}

/** A few slides of titles, bulleted text and shapes: what the canary converts. */
function normalSlides(tag) {
  return [
    { xml: slideXml(title(`${tag} deck`) + bodyText(['First point', 'Второй пункт', 'Third point']) + rect(1, 480, 300, 180, 70, '4472C4', 'Shape')) },
    { xml: slideXml(title('Numbers') + bodyText(['42', '3.25', 'Итого 84']) + rect(2, 60, 320, 120, 50, 'ED7D31') + rect(3, 200, 320, 120, 50, 'A5A5A5', 'B')) },
    { xml: slideXml(title('The end') + rect(4, 260, 160, 200, 100, '70AD47', 'Done', '<a:prstGeom prst="ellipse"><a:avLst/></a:prstGeom>')) },
  ];
}

/** The canary: a small ordinary deck (three slides with a title, text and a shape). */
export function normalPptx(tag = 'CANARY') {
  return pptx({ slides: normalSlides(tag) });
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

/** p:grpSp nested `depth` deep, a rectangle with text at the bottom, a title beside them. */
export function pptxNestedGroups(depth) {
  const grp = `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="5" name="Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="${EMU * 50}" y="${EMU * 100}"/><a:ext cx="${EMU * 300}" cy="${EMU * 200}"/><a:chOff x="${EMU * 50}" y="${EMU * 100}"/><a:chExt cx="${EMU * 300}" cy="${EMU * 200}"/></a:xfrm></p:grpSpPr>`;
  const body = title(`groups ${depth} deep`) + grp.repeat(depth) + rect(1, 60, 110, 200, 80, 'FFC000', 'deepest') + '</p:grpSp>'.repeat(depth);
  return pptx({ slides: [{ xml: slideXml(body) }] });
}

/** `count` rectangles on one slide. */
export function pptxManyShapes(count) {
  const shapes = pieces(title(`${count} shapes`), count, (i) => rect(i, (i % 70) * 10, 60 + ((i / 70) % 34) * 10, 9, 9, ((i * 2654435761) >>> 8).toString(16).padStart(6, '0').slice(-6)), '');
  return pptx({ slides: [{ xml: slideXml(shapes) }] });
}

/** A graphic frame holding `tbl` (its a:tbl element's XML, string or bytes) at (x, y) w × h points. */
function tableFrame(tbl, x = 36, y = 80, w = 648, h = 300) {
  const head = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table 1"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="${x * EMU}" y="${y * EMU}"/><a:ext cx="${w * EMU}" cy="${h * EMU}"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table">`;
  const tail = '</a:graphicData></a:graphic></p:graphicFrame>';
  return typeof tbl === 'string' ? head + tbl + tail : concat([strToU8(head), tbl, strToU8(tail)]);
}
const tc = (text, attrs = '') => `<a:tc${attrs}><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="1000"/><a:t>${esc(text)}</a:t></a:r></a:p></a:txBody><a:tcPr><a:lnB w="12700"><a:solidFill><a:srgbClr val="000000"/></a:solidFill></a:lnB></a:tcPr></a:tc>`;

/**
 * A table of `rows` × `cols` cells: the first ten of each row with text, the rest empty cells whose
 * margin varies (so the part does not pack like a bomb), 32 MB of XML at 1,000 × 1,000.
 */
export function pptxHugeTable(rows, cols) {
  const grid = `<a:tbl><a:tblPr firstRow="1"/><a:tblGrid>${`<a:gridCol w="${EMU * 2}"/>`.repeat(cols)}</a:tblGrid>`;
  const tbl = pieces(grid, rows, (r) => `<a:tr h="${EMU * 2}">${Array.from({ length: cols }, (_, c) => (c < 10 ? tc(`${r}:${c}`) : `<a:tc><a:tcPr marL="${(r * cols + c) % 99991}"/></a:tc>`)).join('')}</a:tr>`, '</a:tbl>', 50);
  return pptx({ slides: [{ xml: slideXml(concat([strToU8(title(`table ${rows} x ${cols}`)), tableFrame(tbl)])) }] });
}

/** A 3 × 3 table whose first cell says gridSpan and rowSpan `span` (a billion), another hMerge/vMerge past the grid. */
export function pptxTableSpans(span) {
  const row = (r) => `<a:tr h="${EMU * 40}">${[0, 1, 2].map((c) => (r === 0 && c === 0 ? tc('spans', ` gridSpan="${span}" rowSpan="${span}"`) : r === 2 && c === 2 ? tc('merged', ' hMerge="1" vMerge="1" gridSpan="-5" rowSpan="NaN"') : tc(`${r}:${c}`))).join('')}</a:tr>`;
  const tbl = `<a:tbl><a:tblGrid><a:gridCol w="${EMU * 150}"/><a:gridCol w="${EMU * 150}"/><a:gridCol w="${EMU * 150}"/></a:tblGrid>${[0, 1, 2].map(row).join('')}</a:tbl>`;
  return pptx({ slides: [{ xml: slideXml(title(`spans ${span}`) + tableFrame(tbl)) }] });
}

/** `count` sldId entries in sldIdLst, every one naming the same (only) slide part. */
export function pptxSlidesOnePart(count) {
  const ids = Array.from({ length: count }, (_, i) => `<p:sldId id="${256 + i}" r:id="rS1"/>`).join('');
  return pptx({ slides: normalSlides('ONE PART').slice(0, 1), sldIdLst: ids });
}

/** An ordinary deck whose p:sldSz says cx × cy (1e12, negative, not a number). */
export function pptxSlideSize(cx, cy) {
  return pptx({ slides: normalSlides(`SIZE ${cx}x${cy}`), sldSz: `<p:sldSz cx="${cx}" cy="${cy}"/>` });
}

/** Seeded words up to `bytes` characters (text that packs about 3:1, not a run of one letter). */
function words(bytes, seed) {
  const r = rng(seed);
  const list = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'слайд', 'текст', 'slide', 'deck', 'title', 'bullet', 'shape', 'point', 'print', 'page', 'доклад', 'итоги'];
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

/** One a:t of `chars` characters in a text box (the slide part about that size in UTF-8). */
export function pptxLongText(chars, seed = 1) {
  const head = `${title('one long a:t')}<p:sp><p:nvSpPr><p:cNvPr id="5" name="Text"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${EMU * 36}" y="${EMU * 90}"/><a:ext cx="${EMU * 648}" cy="${EMU * 280}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr/><a:p><a:r><a:rPr lang="en-US" sz="1200"/><a:t>`;
  const text = strToU8(words(chars, seed));
  return pptx({ slides: [{ xml: slideXml(concat([strToU8(head), text, strToU8('</a:t></a:r></a:p></p:txBody></p:sp>')])) }] });
}

/** One text box of `count` paragraphs, each its number. */
export function pptxManyParagraphs(count) {
  const head = `${title(`${count} paragraphs`)}<p:sp><p:nvSpPr><p:cNvPr id="5" name="Text"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="${EMU * 36}" y="${EMU * 90}"/><a:ext cx="${EMU * 648}" cy="${EMU * 280}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr/>`;
  return pptx({ slides: [{ xml: slideXml(pieces(head, count, (i) => `<a:p><a:r><a:t>${i}</a:t></a:r></a:p>`, '</p:txBody></p:sp>')) }] });
}

/** Numbered paragraphs (buAutoNum) starting at `startAt` (2147483647), in several schemes, and a level past 9. */
export function pptxAutoNumber(startAt) {
  const schemes = ['arabicPeriod', 'romanUcPeriod', 'alphaLcParenR', 'circleNumDbPlain', 'thaiAlphaPeriod', 'nonsense'];
  const paras = schemes.map((s, i) => `<a:p><a:pPr marL="457200" indent="-457200" lvl="${i === 5 ? 2147483647 : 0}"><a:buFont typeface="+mj-lt"/><a:buAutoNum type="${s}" startAt="${startAt}"/></a:pPr><a:r><a:rPr lang="en-US"/><a:t>${s} from ${startAt}</a:t></a:r></a:p>`).join('');
  const more = Array.from({ length: 5 }, (_, i) => `<a:p><a:pPr marL="457200" indent="-457200"><a:buAutoNum type="arabicPeriod" startAt="${startAt}"/></a:pPr><a:r><a:rPr lang="en-US"/><a:t>next ${i}</a:t></a:r></a:p>`).join('');
  const sp = `<p:sp><p:nvSpPr><p:cNvPr id="3" name="Content 2"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>${paras}${more}</p:txBody></p:sp>`;
  return pptx({ slides: [{ xml: slideXml(title(`startAt ${startAt}`) + sp) }] });
}

/** The layout's relationships point at the layout itself (as its master and as a layout). */
export function pptxLayoutSelfCycle() {
  return pptx({
    slides: normalSlides('LAYOUT CYCLE'),
    partRels: { 'ppt/slideLayouts/_rels/slideLayout1.xml.rels': [['rM', 'slideMaster', 'slideLayout1.xml'], ['rL', 'slideLayout', 'slideLayout1.xml']] },
  });
}

/** slide → master (named as its layout) → layout → master: the master and the layout each name the other as master and layout. */
export function pptxMasterLayoutCycle() {
  const slides = normalSlides('MASTER CYCLE').map((s) => ({ ...s, layout: false, rels: [['rL', 'slideLayout', '../slideMasters/slideMaster1.xml']] }));
  return pptx({
    slides,
    partRels: {
      'ppt/slideMasters/_rels/slideMaster1.xml.rels': [['rL', 'slideLayout', '../slideLayouts/slideLayout1.xml'], ['rM', 'slideMaster', '../slideLayouts/slideLayout1.xml']],
      'ppt/slideLayouts/_rels/slideLayout1.xml.rels': [['rM', 'slideMaster', '../slideMasters/slideMaster1.xml'], ['rL', 'slideLayout', '../slideMasters/slideMaster1.xml']],
    },
  });
}

/** A line chart on a slide whose one series caches `points` values (`declared` its ptCount). */
export function pptxChartPoints(points, declared = points) {
  const chart = pieces(
    `${xmlHead}<c:chartSpace xmlns:c="${C}" xmlns:a="${A}" xmlns:r="${REL}"><c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>${points} points</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:layout/><c:lineChart><c:grouping val="standard"/><c:ser><c:idx val="0"/><c:order val="0"/><c:val><c:numRef><c:f>Sheet1!$B$1:$B$${Math.min(declared, 1048576)}</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="${declared}"/>`,
    points,
    (i) => `<c:pt idx="${i}"><c:v>${(i * 7919) % 1000}</c:v></c:pt>`,
    `</c:numCache></c:numRef></c:val></c:ser><c:axId val="1"/><c:axId val="2"/></c:lineChart><c:catAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:axPos val="b"/><c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:axPos val="l"/><c:crossAx val="1"/></c:valAx></c:plotArea></c:chart></c:chartSpace>`,
  );
  const frame = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Chart 1"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="${EMU * 60}" y="${EMU * 90}"/><a:ext cx="${EMU * 600}" cy="${EMU * 280}"/></p:xfrm><a:graphic><a:graphicData uri="${C}"><c:chart xmlns:c="${C}" r:id="rC"/></a:graphicData></a:graphic></p:graphicFrame>`;
  return pptx({
    slides: [{ xml: slideXml(title(`chart of ${points} points`) + frame), rels: [['rC', 'chart', '../charts/chart1.xml']] }],
    parts: { 'ppt/charts/chart1.xml': chart },
    overrides: [['/ppt/charts/chart1.xml', `${CT}.drawingml.chart+xml`]],
  });
}

/** A shape whose a:custGeom path has `points` seeded line segments (a path w/h of 1e6). */
export function pptxCustGeomPoints(points, seed = 1) {
  const r = rng(seed);
  const geomHead = '<a:custGeom><a:avLst/><a:gdLst/><a:ahLst/><a:cxnLst/><a:rect l="0" t="0" r="r" b="b"/><a:pathLst><a:path w="1000000" h="1000000"><a:moveTo><a:pt x="0" y="0"/></a:moveTo>';
  const geom = pieces(geomHead, points, () => `<a:lnTo><a:pt x="${r.int(1_000_000)}" y="${r.int(1_000_000)}"/></a:lnTo>`, '<a:close/></a:path></a:pathLst></a:custGeom>');
  // The rectangle around its geometry: the part before and after the geometry element, joined as bytes.
  const [before, after] = rect(1, 60, 90, 400, 280, '5B9BD5', `${points} points`, '@@GEOM@@').split('@@GEOM@@');
  return pptx({ slides: [{ xml: slideXml(concat([strToU8(title(`custGeom of ${points} points`) + before), geom, strToU8(after)])) }] });
}

/** Preset shapes whose adjust values (a:avLst a:gd) are `value` (1e12), its negative, and not numbers. */
export function pptxPresetAdjust(value) {
  const adj = (...names) => `<a:avLst>${names.map((n, i) => `<a:gd name="${n}" fmla="val ${i % 2 ? -value : value}"/>`).join('')}</a:avLst>`;
  const presets = [
    ['roundRect', adj('adj')],
    ['star5', adj('adj', 'hf', 'vf')],
    ['wedgeRectCallout', adj('adj1', 'adj2')],
    ['arc', adj('adj1', 'adj2')],
    ['blockArc', adj('adj1', 'adj2', 'adj3')],
    ['rightArrow', adj('adj1', 'adj2')],
    ['chevron', '<a:avLst><a:gd name="adj" fmla="val NaN"/></a:avLst>'],
    ['donut', '<a:avLst><a:gd name="adj" fmla="*/ 1 2 0"/></a:avLst>'],
  ];
  const shapes = presets.map(([prst, av], i) => rect(i, 40 + (i % 4) * 165, 90 + Math.floor(i / 4) * 150, 140, 120, 'A9D18E', prst, `<a:prstGeom prst="${prst}">${av}</a:prstGeom>`)).join('');
  return pptx({ slides: [{ xml: slideXml(title(`adjust values ${value}`) + shapes) }] });
}

/** The parts of an ordinary deck but `without` (for packages built by hand). */
function deckParts(without) {
  const files = unzipSync(normalPptx('BOMB'));
  delete files[without];
  const out = {};
  for (const [k, v] of Object.entries(files)) out[k] = Buffer.from(v);
  return out;
}

/** slide1.xml inflating to `total` bytes (spaces after its title, well-formed); `lieSize` the size its headers declare instead. */
export async function pptxDeflateBomb(total, { lieSize = null } = {}) {
  const xml = new TextDecoder().decode(slideXml(title('deflate bomb') + '@@FILL@@' + rect(1, 60, 300, 200, 60, 'FF0000', 'after the bomb')));
  const [prefix, suffix] = xml.split('@@FILL@@').map((s) => Buffer.from(s));
  const bomb = await deflatedFill({ prefix, suffix, total, fillByte: 0x20, raw: true });
  return zipWith(deckParts('ppt/slides/slide1.xml'), { name: 'ppt/slides/slide1.xml', ...bomb, ...(lieSize !== null ? { size: lieSize } : {}) });
}

/** A 1×1 PNG (grey). */
function tinyPng() {
  return Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNoAAAAggCBd81ytgAAAABJRU5ErkJggg==', 'base64'));
}

/** A picture on slide 1 whose media part's headers declare it unpacks to `declared` bytes (2 GB), over a few deflated bytes. */
export async function pptxMediaDeclared(declared) {
  const pic = `<p:pic><p:nvPicPr><p:cNvPr id="6" name="Picture"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rImg"/><a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr><a:xfrm><a:off x="${EMU * 200}" y="${EMU * 100}"/><a:ext cx="${EMU * 200}" cy="${EMU * 200}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`;
  const whole = unzipSync(pptx({ slides: [{ xml: slideXml(title(`media declared ${declared} bytes`) + pic), rels: [['rImg', 'image', '../media/image1.png']] }] }));
  const stored = {};
  for (const [k, v] of Object.entries(whole)) stored[k] = Buffer.from(v);
  const real = await deflatedFill({ prefix: Buffer.from(tinyPng()), total: tinyPng().length, raw: true });
  return zipWith(stored, { name: 'ppt/media/image1.png', ...real, size: declared });
}

/** The first `fraction` of an ordinary deck with some body to cut into. */
export function pptxTruncated(fraction = 0.5) {
  const slides = Array.from({ length: 12 }, (_, i) => ({ xml: slideXml(title(`slide ${i + 1}`) + bodyText([words(300, i), words(200, i + 100)]) + rect(i, 480, 300, 180, 70, '4472C4', `box ${i}`)) }));
  return truncated(pptx({ slides }), fraction);
}

// ---------------------------------------------------------------- PPT (PowerPoint 97-2003)
/** A compound file with the streams a PowerPoint 97-2003 file has ("PowerPoint Document", "Current User"); their records made up. */
export function ppt() {
  const c = CFB.utils.cfb_new();
  const r = rng(97);
  CFB.utils.cfb_add(c, '/PowerPoint Document', Buffer.from(Uint8Array.from({ length: 8192 }, () => r.int(256))));
  CFB.utils.cfb_add(c, '/Current User', Buffer.from(Uint8Array.from({ length: 64 }, () => r.int(256))));
  return new Uint8Array(CFB.write(c, { type: 'buffer' }));
}

// ---------------------------------------------------------------- ODP
const ODP_MIME = 'application/vnd.oasis.opendocument.presentation';
const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"';
const ODP_STYLES = `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${ODF_NS} office:version="1.2"><office:styles><style:default-style style:family="graphic"><style:graphic-properties draw:fill-color="#729fcf"/><style:text-properties fo:font-size="18pt" style:font-name="Liberation Sans"/></style:default-style></office:styles><office:automatic-styles><style:page-layout style:name="PM1"><style:page-layout-properties fo:page-width="10in" fo:page-height="5.625in"/></style:page-layout><style:style style:name="Mdp1" style:family="drawing-page"><style:drawing-page-properties draw:fill="solid" draw:fill-color="#eeeeee"/></style:style></office:automatic-styles><office:master-styles><style:master-page style:name="M" style:page-layout-name="PM1" draw:style-name="Mdp1"/></office:master-styles></office:document-styles>`;
const ODP_AUTO = '<office:automatic-styles><style:style style:name="gr1" style:family="graphic"><style:graphic-properties draw:fill="solid" draw:fill-color="#4472c4" draw:stroke="none"/></style:style></office:automatic-styles>';
const odpContentHead = `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ODF_NS} office:version="1.2">${ODP_AUTO}<office:body><office:presentation>`;
const odpContentTail = '</office:presentation></office:body></office:document-content>';
const odpPage = (body) => `<draw:page draw:name="p" draw:master-page-name="M">${body}</draw:page>`;
const odpTitle = (text) => `<draw:frame svg:x="0.5in" svg:y="0.25in" svg:width="9in" svg:height="1in"><draw:text-box><text:p>${esc(text)}</text:p></draw:text-box></draw:frame>`;
const odpRect = (x, y, w, h, text = '') => `<draw:rect draw:style-name="gr1" svg:x="${x}in" svg:y="${y}in" svg:width="${w}in" svg:height="${h}in">${text ? `<text:p>${esc(text)}</text:p>` : ''}</draw:rect>`;
const odpManifest = (encrypted) =>
  `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest ${ODF_NS} manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="${ODP_MIME}"/>` +
  `<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"${encrypted ? ' manifest:size="4096"' : ''}>${encrypted ? '<manifest:encryption-data manifest:checksum-type="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0#sha256-1k" manifest:checksum="AAAA"><manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc" manifest:initialisation-vector="AAAAAAAAAAAAAAAAAAAAAA=="/><manifest:start-key-generation manifest:start-key-generation-name="http://www.w3.org/2000/09/xmldsig#sha256" manifest:key-size="32"/><manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:key-size="32" manifest:iteration-count="100000" manifest:salt="AAAAAAAAAAAAAAAAAAAAAA=="/></manifest:encryption-data>' : ''}</manifest:file-entry>` +
  '<manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/></manifest:manifest>';

/** An ODP: mimetype stored first (as the format and our detection want), then content.xml (pages' XML, or bytes), styles, manifest. */
export function odp(pages, { encrypted = false, contentBytes = null } = {}) {
  return zipSync(
    {
      mimetype: [strToU8(ODP_MIME), { level: 0 }],
      'content.xml': contentBytes ?? strToU8(odpContentHead + pages + odpContentTail),
      'styles.xml': strToU8(ODP_STYLES),
      'META-INF/manifest.xml': strToU8(odpManifest(encrypted)),
    },
    { level: 6 },
  );
}

export function normalOdp(tag = 'ODP') {
  return odp(odpPage(odpTitle(`${tag} deck`) + odpRect(1, 2, 3, 1, 'Shape')) + odpPage(odpTitle('Второй слайд') + odpRect(5, 2, 2, 2)));
}

/** draw:g nested `depth` deep around a rectangle with text. */
export function odpNestedGroups(depth) {
  return odp(odpPage(odpTitle(`groups ${depth} deep`) + '<draw:g>'.repeat(depth) + odpRect(1, 2, 3, 1, 'deepest') + '</draw:g>'.repeat(depth)));
}

/** `count` rectangles on one slide. */
export function odpManyShapes(count) {
  const body = pieces(odpContentHead + '<draw:page draw:name="p" draw:master-page-name="M">' + odpTitle(`${count} shapes`), count, (i) => odpRect(((i % 70) * 0.14).toFixed(2), (1.3 + ((i / 70) % 30) * 0.14).toFixed(2), 0.12, 0.12), '</draw:page>' + odpContentTail);
  return odp('', { contentBytes: body });
}

/** A table:table whose columns and rows repeat `n` times and whose first cell spans `n` × `n` (a billion). */
export function odpTableSpans(n) {
  const cell = (t, attrs = '') => `<table:table-cell office:value-type="string"${attrs}><text:p>${esc(t)}</text:p></table:table-cell>`;
  const table =
    `<table:table><table:table-column table:number-columns-repeated="3"/><table:table-column table:number-columns-repeated="${n}"/>` +
    `<table:table-row>${cell('spans', ` table:number-columns-spanned="${n}" table:number-rows-spanned="${n}"`)}${cell('b')}${cell('c', ` table:number-columns-repeated="${n}"`)}</table:table-row>` +
    `<table:table-row table:number-rows-repeated="${n}">${cell('repeated row', ` table:number-columns-repeated="${n}"`)}</table:table-row>` +
    `<table:table-row>${cell('after', ' table:number-columns-spanned="-3" table:number-rows-spanned="NaN"')}</table:table-row></table:table>`;
  return odp(odpPage(odpTitle(`spans ${n}`) + `<draw:frame svg:x="0.5in" svg:y="1.5in" svg:width="9in" svg:height="3in">${table}</draw:frame>`));
}

/** content.xml inflating to `total` bytes (spaces between the first slide and the second). */
export async function odpDeflateBomb(total) {
  const prefix = Buffer.from(odpContentHead + odpPage(odpTitle('deflate bomb')));
  const suffix = Buffer.from(odpPage(odpTitle('after the bomb')) + odpContentTail);
  const bomb = await deflatedFill({ prefix, suffix, total, fillByte: 0x20, raw: true });
  return zipWith({ mimetype: Buffer.from(ODP_MIME), 'styles.xml': Buffer.from(ODP_STYLES), 'META-INF/manifest.xml': Buffer.from(odpManifest(false)) }, { name: 'content.xml', ...bomb });
}

export function odpEncrypted() {
  // content.xml as an encrypted package holds it: bytes that are not XML.
  const r = rng(11);
  return odp('', { encrypted: true, contentBytes: Uint8Array.from({ length: 4096 }, () => r.int(256)) });
}
