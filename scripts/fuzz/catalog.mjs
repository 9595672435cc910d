// The poison suite's cases: every hostile file the suite sends, its class, which operations take
// it, and whether the file is well-formed (a well-formed file must never be called "damaged"):
// files whose data cannot hold what their headers declare (pictures, lying fonts) are not.
// `heavy` cases (issue 40's list) run only with --heavy.
import * as gen from './generate-docx.mjs';
import * as html from './generate-html.mjs';
import * as img from './generate-images.mjs';
import * as pdf from './generate-pdf.mjs';
import * as bombs from './generate-bombs.mjs';
import * as fonts from './generate-fonts.mjs';
import * as sheets from './generate-sheets.mjs';
import * as slides from './generate-slides.mjs';
import { corpusMutants } from './generate-corpus.mjs';

export const DEPTHS = [5, 12, 63, 300, 1000];
export const HTML_DEPTHS = [5, 12, 63, 300, 1000, 10000];

const GB = 1 << 30;

/** A small real JPEG (MuPDF in Node), for the canaries and for patching its frame size. */
export async function smallJpeg(width = 64, height = 48) {
  const mupdf = await import('mupdf');
  const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, width, height], false);
  const px = pix.getPixels();
  for (let i = 0; i < px.length; i += 3) px.set([(i * 7) & 255, (i * 3) & 255, 200], i);
  const jpeg = pix.asJPEG(85, false).slice();
  pix.destroy();
  return jpeg;
}

// Operation bodies: ctx.file is the hostile file's id, ctx.pdf a normal PDF's (watermark's page).
const WORD = [{ op: 'word-to-pdf', body: (c) => ({ file_id: c.file }) }];
const HTML = [{ op: 'html-to-pdf', body: (c) => ({ file_id: c.file }) }];
const IMAGE = [
  { op: 'jpg-to-pdf', body: (c) => ({ file_ids: [c.file] }) },
  { op: 'watermark', body: (c) => ({ file_id: c.pdf, image_file_id: c.file }) },
];
const IMAGE_CORPUS = [IMAGE[0]];
const PDF = [
  { op: 'to-txt', body: (c) => ({ file_id: c.file }) },
  { op: 'to-jpg', body: (c) => ({ file_id: c.file, dpi: 72 }) },
  { op: 'compress', body: (c) => ({ file_id: c.file, level: 'medium' }) },
];
const PDF_CORPUS = [
  { op: 'to-txt', body: (c) => ({ file_id: c.file }) },
  { op: 'to-jpg', body: (c) => ({ file_id: c.file, dpi: 72 }) },
  { op: 'rotate', body: (c) => ({ file_id: c.file, angle: 90 }) },
];
const SHEET = [{ op: 'xlsx-to-pdf', body: (c) => ({ file_id: c.file }) }];
const SLIDES = [{ op: 'pptx-to-pdf', body: (c) => ({ file_id: c.file }) }];
const OPS_BY_KIND = { doc: WORD, docx: WORD, html: HTML, jpg: IMAGE_CORPUS, png: IMAGE_CORPUS, webp: IMAGE_CORPUS, pdf: PDF_CORPUS, xlsx: SHEET, xls: SHEET, ods: SHEET, pptx: SLIDES };

/** What xlsx-to-pdf and pptx-to-pdf say when our converter, not the file, failed: never the right answer to a hostile file. */
export const CONVERTER_FAILED = /Our converter could not handle/;

/**
 * Every case: { id, cls, kind, name, valid, heavy, ops, make(): Promise<Uint8Array> }, and for
 * some an expectation, expect: { outcome: 'done' | 'failed' | 'refused' (HTTP 422 at upload) or a
 * list of them, message: RegExp the failure's or refusal's message must match, not: RegExp it must
 * not }, which the suite checks and reports. tags: more names --only selects the case by.
 * root: the repository (for the TrueType face the fonts are made from).
 */
export function cases({ seed, root }) {
  const list = [];
  const add = (c) => list.push({ heavy: false, valid: true, ...c });

  for (const d of DEPTHS) {
    add({ id: `docx-tables-${d}`, cls: 'docx-nested-tables', kind: 'docx', ops: WORD, make: () => gen.nestedTablesDocx(d) });
    add({ id: `docx-lists-${d}`, cls: 'docx-nested-lists', kind: 'docx', ops: WORD, make: () => gen.nestedListDocx(d) });
    add({ id: `docx-textboxes-${d}`, cls: 'docx-nested-textboxes', kind: 'docx', ops: WORD, make: () => gen.nestedTextBoxesDocx(d) });
    add({ id: `docx-groups-${d}`, cls: 'docx-nested-groups', kind: 'docx', ops: WORD, make: () => gen.nestedGroupsDocx(d) });
  }
  for (const d of HTML_DEPTHS) for (const k of ['divs', 'tables', 'lists']) add({ id: `html-${k}-${d}`, cls: `html-nested-${k}`, kind: 'html', ops: HTML, make: () => html.nestedHtml(k, d) });
  for (const m of corpusMutants(seed)) {
    const sheet = m.kind === 'xlsx' || m.kind === 'xls' || m.kind === 'ods';
    // A damaged spreadsheet or deck may convert, fail as damaged or be refused; never "our converter failed".
    const tags = sheet ? ['sheet'] : m.kind === 'pptx' ? ['slides'] : null;
    add({ id: m.id, cls: `corpus-${m.kind}`, kind: m.kind, valid: false, source: m.source, mutation: m.mutation, ops: OPS_BY_KIND[m.kind], make: m.make, ...(tags ? { tags, expect: { outcome: ['done', 'failed', 'refused'], not: CONVERTER_FAILED } } : {}) });
  }

  const ttf = () => fonts.arimo(root);
  const fontCase = (id, format, lie) =>
    add({
      id,
      cls: `font-${format}-lying-size`,
      valid: false,
      kind: 'html',
      ops: HTML,
      make: async () => html.htmlWithFont(format === 'woff' ? fonts.woff(ttf(), lie) : await fonts.woff2(ttf(), lie), `font/${format}`, id),
    });
  fontCase('woff-total-sfnt-size-4GB', 'woff', { totalSfntSize: 0xfffffffc });
  fontCase('woff-glyf-origLength-2GB', 'woff', { origLength: { tag: 'glyf', value: 0x7ffffff0 } });
  fontCase('woff-glyf-origLength-16B', 'woff', { origLength: { tag: 'glyf', value: 16 } });
  fontCase('woff-table-inflates-512MB', 'woff', { bomb: 512 << 20 });
  fontCase('woff2-total-sfnt-size-4GB', 'woff2', { totalSfntSize: 0xfffffffc });
  fontCase('woff2-glyf-origLength-2GB', 'woff2', { origLength: { tag: 'glyf', value: 0x7ffffff0 } });
  fontCase('woff2-stream-inflates-512MB', 'woff2', { bomb: 512 << 20 });


  add({ id: 'docx-zip-bomb-zeros-1GB', cls: 'zip-bomb', kind: 'docx', valid: false, ops: WORD, make: () => bombs.zipBombDocx(GB, 'zeros') });
  add({ id: 'docx-zip-bomb-spaces-1GB', cls: 'zip-bomb', kind: 'docx', ops: WORD, make: () => bombs.zipBombDocx(GB, 'spaces') });
  add({ id: 'pdf-deflate-bomb-1GB', cls: 'deflate-bomb', kind: 'pdf', ops: PDF, make: () => bombs.deflateBombPdf(GB) });

  add({ id: 'png-declared-65535x65535', valid: false, cls: 'image-declared-size', kind: 'png', ops: IMAGE, make: () => img.declaredPng(65535, 65535, 1024) });
  add({ id: 'jpeg-declared-65500x65500', valid: false, cls: 'image-declared-size', kind: 'jpg', ops: IMAGE, make: async () => img.withJpegSize(await smallJpeg(), 65500, 65500) });
  add({ id: 'webp-vp8l-declared-16384x16384', valid: false, cls: 'image-declared-size', kind: 'webp', ops: IMAGE, make: () => img.declaredWebpLossless(16384, 16384) });
  add({ id: 'webp-vp8x-canvas-16777216', valid: false, cls: 'image-declared-size', kind: 'webp', ops: IMAGE, make: () => img.declaredWebpCanvas(1 << 24, 1 << 24) });
  add({ id: 'pdf-mediabox-1e6pt', cls: 'pdf-declared-size', kind: 'pdf', ops: PDF, make: () => pdf.hugeMediaBoxPdf(1_000_000) });
  add({ id: 'pdf-image-declared-100000x100000', valid: false, cls: 'pdf-declared-size', kind: 'pdf', ops: PDF, make: () => pdf.declaredImagePdf(100000, 100000) });
  add({ id: 'pdf-forms-nested-12-twice', cls: 'pdf-nested-forms', kind: 'pdf', ops: [PDF[0], PDF[1]], make: () => pdf.nestedFormsPdf(12) });

  // Issue 42's spreadsheets (xlsx-to-pdf). done: converted; failed: a task error_message naming the
  // problem (matched by `message`), refunded; refused: HTTP 422 at upload.
  const sheet = (c) => add({ kind: c.id.startsWith('xls-') ? 'xls' : c.id.startsWith('ods-') ? 'ods' : 'xlsx', ops: SHEET, ...c, expect: { not: CONVERTER_FAILED, ...c.expect } });
  const DONE = { outcome: 'done' };
  const LIMIT = (re) => ({ outcome: 'failed', message: re });
  const DAMAGED = { outcome: 'failed', message: /damaged|incomplete/i };
  const PASSWORD = { outcome: 'failed', message: /password/i };
  const UNPACK = /unpacks to|zip bomb/i;
  // XLSX
  sheet({ id: 'xlsx-deflate-bomb-sheet-1GB', cls: 'sheet-xlsx-bomb', make: () => sheets.xlsxDeflateBomb(GB), expect: LIMIT(UNPACK) });
  sheet({ id: 'xlsx-deflate-bomb-sheet-1GB-declared-1MB', valid: false, cls: 'sheet-xlsx-bomb', make: () => sheets.xlsxDeflateBomb(GB, { lieSize: 1_000_000 }), expect: DAMAGED });
  sheet({ id: 'xlsx-sheet-nested-100000', cls: 'sheet-xlsx-nested', make: () => sheets.xlsxNested(100_000), expect: LIMIT(/nested more than/i) });
  // LibreOffice leaves the 35.8 million empty pages between A1 and XFD1048576 out: two pages print.
  sheet({ id: 'xlsx-cell-XFD1048576', cls: 'sheet-xlsx-declared', make: () => sheets.xlsxLastCell(), expect: DONE });
  sheet({ id: 'xlsx-dimension-A1-XFD1048576', cls: 'sheet-xlsx-declared', make: () => sheets.xlsxHugeDimension(), expect: DONE });
  sheet({ id: 'xlsx-dimension-A1-ZZZZ99999999', valid: false, cls: 'sheet-xlsx-declared', make: () => sheets.xlsxHugeDimension('A1:ZZZZ99999999'), expect: DONE });
  sheet({ id: 'xlsx-merges-200000', cls: 'sheet-xlsx-merges', make: () => sheets.xlsxMerges(200_000), expect: { outcome: ['done', 'failed'], message: /pages|merge/i } });
  sheet({ id: 'xlsx-sst-3-count-2^31', valid: false, cls: 'sheet-xlsx-sst', make: () => sheets.xlsxSharedStrings(3, 2 ** 31), expect: DONE });
  sheet({ id: 'xlsx-sst-2000000-count-2^31', valid: false, cls: 'sheet-xlsx-sst', make: () => sheets.xlsxSharedStrings(2_000_000, 2 ** 31), expect: { outcome: ['done', 'failed'], message: /strings|memory|large/i } });
  sheet({ id: 'xlsx-string-10MB', cls: 'sheet-xlsx-long-string', make: () => sheets.xlsxLongString(10_000_000, seed), expect: DONE });
  sheet({ id: 'xlsx-cellXfs-100000-s-4294967295', valid: false, cls: 'sheet-xlsx-styles', make: () => sheets.xlsxManyXfs(100_000), expect: DONE });
  sheet({ id: 'xlsx-drawing-100000-anchors', cls: 'sheet-xlsx-drawing', make: () => sheets.xlsxManyAnchors(100_000), expect: DONE });
  sheet({ id: 'xlsx-text-boxes-1200x32767', cls: 'sheet-xlsx-drawing', make: () => sheets.xlsxLongTextBoxes(1_200, 32_767), expect: DONE });
  sheet({ id: 'xlsx-comments-100000-shown', cls: 'sheet-xlsx-drawing', make: () => sheets.xlsxManyComments(100_000, 300), expect: DONE });
  sheet({ id: 'xlsx-group-100000-members-40-deep', cls: 'sheet-xlsx-drawing', make: () => sheets.xlsxHugeGroup(100_000, 40), expect: DONE });
  sheet({ id: 'xlsx-chart-1000000-points', cls: 'sheet-xlsx-chart', make: () => sheets.xlsxChartPoints(1_000_000), expect: { outcome: ['done', 'failed'], message: /points|chart|large/i } });
  sheet({ id: 'xlsx-chart-ptCount-2^31', valid: false, cls: 'sheet-xlsx-chart', make: () => sheets.xlsxChartPoints(3, 2 ** 31), expect: DONE });
  sheet({ id: 'xlsx-truncated-half', valid: false, cls: 'sheet-xlsx-truncated', make: () => sheets.xlsxTruncated(0.5), expect: DAMAGED });
  sheet({ id: 'xlsx-content-types-macroEnabled', cls: 'sheet-xlsx-package', make: () => sheets.xlsxMacroEnabled(), expect: DONE });
  sheet({ id: 'xlsx-xlsb-workbook-bin', cls: 'sheet-xlsx-package', make: () => sheets.xlsbLike(), expect: { outcome: 'failed', message: /xlsb|binary workbook/i } });
  sheet({ id: 'xlsx-strict-ooxml', cls: 'sheet-xlsx-package', make: () => sheets.xlsxStrict(), expect: DONE });
  // XLS
  sheet({ id: 'xls-records-past-stream', valid: false, cls: 'sheet-xls-records', make: () => sheets.xlsRecordsPastStream(), expect: DAMAGED });
  sheet({ id: 'xls-sst-count-2^31', valid: false, cls: 'sheet-xls-sst', make: () => sheets.xlsSstCount(2 ** 31), expect: DONE });
  sheet({ id: 'xls-mulrk-65535-columns', valid: false, cls: 'sheet-xls-records', make: () => sheets.xlsMulrkWide(), expect: DONE });
  sheet({ id: 'xls-filepass', cls: 'sheet-xls-password', make: () => sheets.xlsFilepass(), expect: PASSWORD });
  sheet({ id: 'xls-truncated-half', valid: false, cls: 'sheet-xls-truncated', make: () => sheets.xlsTruncated(0.5), expect: { outcome: ['failed', 'refused'], message: /damaged|incomplete|not a Word or Excel/i } });
  // ODS
  sheet({ id: 'ods-columns-repeated-1073741824', cls: 'sheet-ods-repeated', make: () => sheets.odsColumnsRepeated(1073741824), expect: { outcome: ['done', 'failed'], message: /pages/i } });
  sheet({ id: 'ods-rows-repeated-1048576-styled', cls: 'sheet-ods-repeated', make: () => sheets.odsRowsRepeated(1048576), expect: DONE });
  sheet({ id: 'ods-rows-repeated-1048000-styled-then-value', cls: 'sheet-ods-repeated', make: () => sheets.odsRowsRepeated(1048000, true), expect: LIMIT(/cells/i) });
  sheet({ id: 'ods-encrypted-manifest', cls: 'sheet-ods-password', make: () => sheets.odsEncrypted(), expect: PASSWORD });
  sheet({ id: 'ods-content-nested-100000', cls: 'sheet-ods-nested', make: () => sheets.odsNested(100_000), expect: LIMIT(/nested more than/i) });
  sheet({ id: 'ods-deflate-bomb-content-1GB', cls: 'sheet-ods-bomb', make: () => sheets.odsDeflateBomb(GB), expect: LIMIT(UNPACK) });

  // Presentations (pptx-to-pdf, PPTX and ODP; `--only slides`): the same three outcomes as the sheets'.
  const deck = (c) => add({ kind: c.id.startsWith('odp-') ? 'odp' : c.id.startsWith('ppt-') ? 'ppt' : 'pptx', ops: SLIDES, ...c, expect: { not: CONVERTER_FAILED, ...c.expect } });
  // Parts so large their XML tree may not fit an isolate: converted, or failed with the limit or memory named.
  const FITS_OR_LIMIT = { outcome: ['done', 'failed'], message: /memory|at most|limit|large|unpacks/i };
  const UNPACKS = /unpacks? to|zip bomb/i;
  // PPTX
  deck({ id: 'pptx-groups-nested-10000', cls: 'slides-pptx-nested', make: () => slides.pptxNestedGroups(10_000), expect: LIMIT(/nested more than/i) });
  deck({ id: 'pptx-groups-nested-1000', cls: 'slides-pptx-nested', make: () => slides.pptxNestedGroups(1_000), expect: DONE });
  // 100,000 shapes are 1.5 million XML elements, a tree past the isolate's memory: refused by the slide part's element budget (slides/read/part-budget.ts).
  deck({ id: 'pptx-shapes-100000', cls: 'slides-pptx-shapes', make: () => slides.pptxManyShapes(100_000), expect: FITS_OR_LIMIT });
  deck({ id: 'pptx-table-1000x1000', cls: 'slides-pptx-table', make: () => slides.pptxHugeTable(1_000, 1_000), expect: FITS_OR_LIMIT });
  deck({ id: 'pptx-table-gridSpan-rowSpan-1e9', valid: false, cls: 'slides-pptx-table', make: () => slides.pptxTableSpans(1e9), expect: DONE });
  deck({ id: 'pptx-sldIdLst-5000-one-part', cls: 'slides-pptx-slides', make: () => slides.pptxSlidesOnePart(5_000), expect: { outcome: ['done', 'failed'], message: /slides|pages/i } });
  deck({ id: 'pptx-sldSz-1e12', valid: false, cls: 'slides-pptx-size', make: () => slides.pptxSlideSize(1e12, 1e12), expect: DONE });
  deck({ id: 'pptx-sldSz-negative', valid: false, cls: 'slides-pptx-size', make: () => slides.pptxSlideSize(-9144000, -6858000), expect: DONE });
  deck({ id: 'pptx-text-50MB-one-a-t', cls: 'slides-pptx-text', make: () => slides.pptxLongText(50_000_000, seed), expect: FITS_OR_LIMIT });
  deck({ id: 'pptx-paragraphs-1000000', cls: 'slides-pptx-text', make: () => slides.pptxManyParagraphs(1_000_000), expect: FITS_OR_LIMIT });
  deck({ id: 'pptx-buAutoNum-startAt-2147483647', cls: 'slides-pptx-text', make: () => slides.pptxAutoNumber(2147483647), expect: DONE });
  deck({ id: 'pptx-layout-rels-self', valid: false, cls: 'slides-pptx-cycle', make: () => slides.pptxLayoutSelfCycle(), expect: DONE });
  deck({ id: 'pptx-master-layout-master', valid: false, cls: 'slides-pptx-cycle', make: () => slides.pptxMasterLayoutCycle(), expect: DONE });
  deck({ id: 'pptx-chart-1000000-points', cls: 'slides-pptx-chart', make: () => slides.pptxChartPoints(1_000_000), expect: DONE });
  deck({ id: 'pptx-chart-ptCount-2^31', valid: false, cls: 'slides-pptx-chart', make: () => slides.pptxChartPoints(3, 2 ** 31), expect: DONE });
  deck({ id: 'pptx-custGeom-1000000-points', cls: 'slides-pptx-geometry', make: () => slides.pptxCustGeomPoints(1_000_000, seed), expect: FITS_OR_LIMIT });
  deck({ id: 'pptx-prstGeom-adjust-1e12', valid: false, cls: 'slides-pptx-geometry', make: () => slides.pptxPresetAdjust(1e12), expect: DONE });
  deck({ id: 'pptx-deflate-bomb-slide-1GB', cls: 'slides-pptx-bomb', make: () => slides.pptxDeflateBomb(GB), expect: LIMIT(UNPACKS) });
  // Unlike the one-sheet workbook's, this deck has two more slides: the slide that inflates past its
  // declared size is left out as unreadable (slide_part_unreadable logged) and the other two print
  // (measured: a 2-page PDF), as any part a relationship names but that does not unpack is.
  deck({ id: 'pptx-deflate-bomb-slide-1GB-declared-1MB', valid: false, cls: 'slides-pptx-bomb', make: () => slides.pptxDeflateBomb(GB, { lieSize: 1_000_000 }), expect: DONE });
  // A picture part declaring 2 GB fails the whole deck with the ZIP reader's limit (LimitExceeded is never skipped as an unreadable part).
  deck({ id: 'pptx-media-declared-2GB', valid: false, cls: 'slides-pptx-bomb', make: () => slides.pptxMediaDeclared(2 * GB), expect: LIMIT(UNPACKS) });
  deck({ id: 'pptx-truncated-half', valid: false, cls: 'slides-pptx-truncated', make: () => slides.pptxTruncated(0.5), expect: DAMAGED });
  // PPT: uploads (it is a file type the service knows), refused with 422 when pptx-to-pdf is asked.
  deck({ id: 'ppt-powerpoint-97-2003', cls: 'slides-ppt', make: () => slides.ppt(), expect: { outcome: 'refused', message: /PowerPoint 97-2003/ } });
  // ODP
  deck({ id: 'odp-groups-nested-10000', cls: 'slides-odp-nested', make: () => slides.odpNestedGroups(10_000), expect: LIMIT(/nested more than/i) });
  deck({ id: 'odp-groups-nested-1000', cls: 'slides-odp-nested', make: () => slides.odpNestedGroups(1_000), expect: DONE });
  deck({ id: 'odp-shapes-100000', cls: 'slides-odp-shapes', make: () => slides.odpManyShapes(100_000), expect: DONE });
  deck({ id: 'odp-table-spans-repeats-1e9', valid: false, cls: 'slides-odp-table', make: () => slides.odpTableSpans(1e9), expect: DONE });
  deck({ id: 'odp-deflate-bomb-content-1GB', cls: 'slides-odp-bomb', make: () => slides.odpDeflateBomb(GB), expect: LIMIT(UNPACKS) });
  deck({ id: 'odp-encrypted-manifest', cls: 'slides-odp-password', make: () => slides.odpEncrypted(), expect: PASSWORD });

  // Issue 40: classes that may take minutes today.
  const heavy = (c) => add({ heavy: true, ...c });
  heavy({ id: 'pdf-strokes-100k', cls: 'heavy-pdf-strokes', kind: 'pdf', ops: [{ op: 'to-jpg', body: (c) => ({ file_id: c.file, dpi: 150 }) }], make: () => pdf.manyStrokesPdf(100_000, seed) });
  heavy({ id: 'pdf-type3-glyph-20k-strokes-x5000', cls: 'heavy-pdf-type3', kind: 'pdf', ops: [{ op: 'to-jpg', body: (c) => ({ file_id: c.file, dpi: 150 }) }, PDF[0]], make: () => pdf.heavyType3Pdf(20_000, 5_000) });
  heavy({ id: 'pdf-forms-nested-30-twice', cls: 'heavy-pdf-nested-forms', kind: 'pdf', ops: [PDF[0]], make: () => pdf.nestedFormsPdf(30) });
  heavy({ id: 'pdf-deflate-bomb-2GB', cls: 'heavy-deflate-bomb', kind: 'pdf', ops: PDF, make: () => bombs.deflateBombPdf(2 * GB - 4096) });
  heavy({ id: 'pdf-page-14400pt', cls: 'heavy-pdf-page-size', kind: 'pdf', ops: [{ op: 'to-jpg', body: (c) => ({ file_id: c.file, dpi: 150 }) }, PDF[0]], make: () => pdf.hugeMediaBoxPdf(14_400) });
  heavy({ id: 'html-table-100000x8', cls: 'heavy-html-table', kind: 'html', ops: HTML, make: () => html.hugeTableHtml(100_000, 8) });
  heavy({ id: 'docx-2M-paragraphs', cls: 'heavy-docx-paragraphs', kind: 'docx', ops: WORD, make: () => gen.manyParagraphsDocx(2_000_000) });
  heavy({ id: 'png-30000x30000-logo', cls: 'heavy-png-logo', kind: 'png', ops: [IMAGE[1]], make: () => bombs.hugeRealPng(30_000) });
  heavy({ id: 'png-header-100000x100000-1KB-idat', valid: false, cls: 'heavy-png-declared', kind: 'png', ops: IMAGE, make: () => img.declaredPng(100_000, 100_000, 1024) });
  heavy({
    id: 'pdf-extract-page1-x10000',
    cls: 'heavy-extract-pages',
    kind: 'pdf',
    ops: [{ op: 'extract-pages', body: (c) => ({ file_id: c.file, pages: Array(10_000).fill(1) }) }],
    make: () => pdf.normalPdf(1, 'EXTRACT'),
  });
  for (const c of list) c.name = `${c.id.replace(/\.[a-z0-9]+$/i, '')}.${c.kind}`;
  return list;
}
