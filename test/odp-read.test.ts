/**
 * ODP input to the slide converter (issue 43): small OpenDocument presentations built here (the
 * mimetype entry first and stored, as ODF requires), read by readDeck into the slide model and
 * printed: slide size, hidden slides, shape boxes, text and list labels, backgrounds, master page
 * shapes, speaker notes left out, tables; an encrypted or damaged package refused as such.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Mupdf from 'mupdf';
import { zipSync, strToU8 } from 'fflate';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { joinChunks } from '../src/lib/bytes';
import { readDeck, ConversionError } from '../src/convert/slides/index';
import { renderDeckChunks } from '../src/convert/slides/render';
import type { Shape, TextParagraph } from '../src/convert/office/model';

let mupdf: typeof Mupdf;
beforeAll(async () => {
  mupdf = await loadMupdf();
});

const NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"';

/** styles.xml: a 10 × 5.625 in page layout, a master with a grey background, a red rule of its own and a title placeholder; the outline styles. */
const STYLES = `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${NS}>
<office:styles>
  <style:default-style style:family="graphic"><style:graphic-properties svg:stroke-color="#3465a4" draw:fill-color="#729fcf"/><style:text-properties fo:font-size="18pt" style:font-name="Liberation Sans"/></style:default-style>
  <style:style style:name="M-title" style:family="presentation"><style:graphic-properties draw:stroke="none" draw:fill="none"/><style:text-properties fo:font-size="40pt"/></style:style>
  <style:style style:name="M-outline1" style:family="presentation"><style:graphic-properties draw:stroke="none" draw:fill="none"><text:list-style style:name="M-outline1"><text:list-level-style-bullet text:level="1" text:bullet-char="●"><style:list-level-properties text:space-before="0.3cm" text:min-label-width="0.9cm"/><style:text-properties fo:font-family="StarSymbol" fo:font-size="45%"/></text:list-level-style-bullet><text:list-level-style-bullet text:level="2" text:bullet-char="–"><style:list-level-properties text:space-before="1.5cm" text:min-label-width="0.9cm"/></text:list-level-style-bullet></text:list-style></style:graphic-properties><style:text-properties fo:font-size="24pt"/></style:style>
  <style:style style:name="M-outline2" style:family="presentation" style:parent-style-name="M-outline1"><style:text-properties fo:font-size="20pt"/></style:style>
</office:styles>
<office:automatic-styles>
  <style:page-layout style:name="PM1"><style:page-layout-properties fo:page-width="10in" fo:page-height="5.625in"/></style:page-layout>
  <style:style style:name="Mdp1" style:family="drawing-page"><style:drawing-page-properties draw:fill="solid" draw:fill-color="#eeeeee"/></style:style>
  <style:style style:name="Mgr1" style:family="graphic"><style:graphic-properties draw:fill="solid" draw:fill-color="#c00000" draw:stroke="none"/></style:style>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="M" style:page-layout-name="PM1" draw:style-name="Mdp1">
  <draw:custom-shape draw:style-name="Mgr1" svg:x="0in" svg:y="5in" svg:width="10in" svg:height="0.25in"><draw:enhanced-geometry draw:type="rectangle"/></draw:custom-shape>
  <draw:frame presentation:style-name="M-title" presentation:class="title" presentation:placeholder="true" svg:x="0.5in" svg:y="0.25in" svg:width="9in" svg:height="1in"><draw:text-box><text:p>Master title</text:p></draw:text-box></draw:frame>
  <draw:frame presentation:class="page-number" svg:x="9in" svg:y="4.5in" svg:width="1in" svg:height="0.5in"><draw:text-box><text:p>No. <text:page-number>&lt;number&gt;</text:page-number></text:p></draw:text-box></draw:frame>
</style:master-page></office:master-styles></office:document-styles>`;

/** content.xml around the slides' draw:page elements, with the automatic styles they use. */
const content = (pages: string) => `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS}>
<office:automatic-styles>
  <style:style style:name="dpHidden" style:family="drawing-page"><style:drawing-page-properties presentation:visibility="hidden"/></style:style>
  <style:style style:name="dpNumbered" style:family="drawing-page"><style:drawing-page-properties presentation:display-page-number="true"/></style:style>
  <style:style style:name="dpBlue" style:family="drawing-page"><style:drawing-page-properties draw:fill="solid" draw:fill-color="#dde8ff"/></style:style>
  <style:style style:name="gr1" style:family="graphic"><style:graphic-properties draw:fill="solid" draw:fill-color="#4472c4" draw:stroke="none"/></style:style>
  <style:style style:name="ce1" style:family="table-cell"><style:graphic-properties draw:fill="solid" draw:fill-color="#ffcc00"/><style:paragraph-properties fo:border="1pt solid #000000"/></style:style>
  <style:style style:name="co1" style:family="table-column"><style:table-column-properties style:column-width="2in"/></style:style>
  <style:style style:name="ro1" style:family="table-row"><style:table-row-properties style:row-height="0.5in"/></style:style>
  <text:list-style style:name="L1"><text:list-level-style-number text:level="1" style:num-format="1" style:num-suffix="."><style:list-level-properties text:space-before="0in" text:min-label-width="0.375in"/></text:list-level-style-number></text:list-style>
</office:automatic-styles>
<office:body><office:presentation>${pages}</office:presentation></office:body></office:document-content>`;

const page = (body: string, style = '') => `<draw:page draw:master-page-name="M"${style ? ` draw:style-name="${style}"` : ''}>${body}</draw:page>`;
const title = (text: string) => `<draw:frame presentation:style-name="M-title" presentation:class="title" svg:x="0.5in" svg:y="0.25in" svg:width="9in" svg:height="1in"><draw:text-box><text:p>${text}</text:p></draw:text-box></draw:frame>`;
const NOTES = '<presentation:notes><draw:frame presentation:class="notes" svg:x="1in" svg:y="1in" svg:width="5in" svg:height="3in"><draw:text-box><text:p>Speaker notes</text:p></draw:text-box></draw:frame></presentation:notes>';

function odp(pages: string, extra: Record<string, Uint8Array> = {}): Uint8Array {
  return zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.presentation'), { level: 0 }],
    'content.xml': strToU8(content(pages)),
    'styles.xml': strToU8(STYLES),
    'META-INF/manifest.xml': strToU8('<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.presentation"/></manifest:manifest>'),
    ...extra,
  });
}

const textOf = (shape: Shape<TextParagraph>) => (shape.blocks ?? []).map((p) => p.runs.map((r) => r.text).join('')).join('\n');

function printed(bytes: Uint8Array): { size: number[]; text: string }[] {
  const doc = mupdf.Document.openDocument(joinChunks(renderDeckChunks(readDeck(bytes), mupdf, bundledFonts)), 'application/pdf');
  const out = Array.from({ length: doc.countPages() }, (_, i) => {
    const p = doc.loadPage(i);
    const b = p.getBounds();
    const text = p.toStructuredText('preserve-whitespace').asText();
    p.destroy();
    return { size: [b[2] - b[0], b[3] - b[1]].map(Math.round), text };
  });
  doc.destroy();
  return out;
}

describe('ODP → slides', () => {
  it('reads the visible slides at the master page layout\'s size, the hidden one skipped', () => {
    const deck = readDeck(odp(page(title('One')) + page(title('Hidden'), 'dpHidden') + page(title('Three'))));
    expect([deck.width, deck.height]).toEqual([720, 405]);
    expect(deck.slides.map((s) => s.shapes.map((f) => textOf(f.shape)).filter(Boolean))).toEqual([['One'], ['Three']]);
  });

  it('puts the master\'s own shapes under the slide\'s, its placeholders and the slide\'s notes left out', () => {
    const [slide] = readDeck(odp(page(title('Own title') + NOTES))).slides;
    const rule = slide!.shapes[0]!;
    expect(rule.box).toEqual({ x: 0, y: 360, width: 720, height: 18 });
    expect(rule.shape.fill).toBe('C00000');
    const texts = slide!.shapes.map((f) => textOf(f.shape));
    expect(texts).toContain('Own title');
    expect(texts).not.toContain('Master title');
    expect(texts).not.toContain('Speaker notes');
    // The title takes its size from its presentation style.
    expect(slide!.shapes.find((f) => textOf(f.shape) === 'Own title')!.shape.blocks![0]!.runs[0]!.size).toBe(40);
  });

  it('shows the master\'s page number where the slide asks for it, numbered by the slide\'s place', () => {
    const deck = readDeck(odp(page(title('Plain')) + page(title('Hidden'), 'dpHidden') + page(title('Numbered'), 'dpNumbered')));
    expect(deck.slides.map((s) => s.shapes.map((f) => textOf(f.shape)).filter((t) => t.startsWith('No.')))).toEqual([[], ['No. 3']]);
  });

  it('takes the slide\'s own background over its master\'s', () => {
    const deck = readDeck(odp(page(title('Master grey')) + page(title('Own blue'), 'dpBlue')));
    expect(deck.slides.map((s) => s.background)).toEqual(['EEEEEE', 'DDE8FF']);
  });

  it('places shapes in points from svg:x, y, width, height, filled as their style says', () => {
    const rect = '<draw:rect draw:style-name="gr1" svg:x="1in" svg:y="2in" svg:width="3in" svg:height="0.5in"><text:p>Box</text:p></draw:rect>';
    const [slide] = readDeck(odp(page(rect))).slides;
    const box = slide!.shapes.find((f) => textOf(f.shape) === 'Box')!;
    expect(box.box).toEqual({ x: 72, y: 144, width: 216, height: 36 });
    expect(box.shape.fill).toBe('4472C4');
  });

  it('labels outline items by their level\'s bullet, sized by the level\'s outline style, and numbers a named list\'s items', () => {
    const outline = `<draw:frame presentation:style-name="M-outline1" presentation:class="outline" svg:x="0.5in" svg:y="1.5in" svg:width="9in" svg:height="3in"><draw:text-box>
      <text:p>Plain</text:p>
      <text:list><text:list-item><text:p>Top</text:p><text:list><text:list-item><text:p>Inner</text:p></text:list-item></text:list></text:list-item></text:list>
      <text:list text:style-name="L1"><text:list-item><text:p>First</text:p></text:list-item><text:list-item><text:p>Second</text:p></text:list-item></text:list>
    </draw:text-box></draw:frame>`;
    const [slide] = readDeck(odp(page(outline))).slides;
    const paragraphs = slide!.shapes.find((f) => textOf(f.shape).startsWith('Plain'))!.shape.blocks!;
    const view = paragraphs.map((p) => [p.runs[0]!.text, p.bullet?.text, p.runs[0]!.size]);
    expect(view).toEqual([['Plain', undefined, 24], ['Top', '●', 24], ['Inner', '–', 20], ['First', '1.', 24], ['Second', '2.', 24]]);
    // The label hangs at the space before, the text after the label's width: 0.3 cm + 0.9 cm.
    const top = paragraphs[1]!;
    expect(top.marginLeft).toBeCloseTo((1.2 / 2.54) * 72, 1);
    expect(top.indent).toBeCloseTo(-(0.9 / 2.54) * 72, 1);
    expect(top.bullet?.scale).toBe(0.45);
    expect(top.bullet?.font).toBeUndefined(); // StarSymbol's characters print in the text's face
  });

  it('reads a table\'s cells with their fills, text and borders', () => {
    const table = `<draw:frame svg:x="1in" svg:y="1in" svg:width="4in" svg:height="1in"><table:table><table:table-column table:style-name="co1" table:number-columns-repeated="2"/>
      <table:table-row table:style-name="ro1"><table:table-cell table:style-name="ce1"><text:p>A1</text:p></table:table-cell><table:table-cell><text:p>B1</text:p></table:table-cell></table:table-row></table:table></draw:frame>`;
    const [slide] = readDeck(odp(page(table))).slides;
    const cells = slide!.shapes.filter((f) => f.shape.geometry === 'rect' && f.shape.blocks);
    expect(cells.map((c) => [textOf(c.shape), c.box.x, c.box.width, c.shape.fill])).toEqual([['A1', 72, 144, 'FFCC00'], ['B1', 216, 144, undefined]]);
    expect(slide!.shapes.filter((f) => f.shape.geometry === 'line')).toHaveLength(4);
  });

  it('prints a page per visible slide at the slide size, with the slide\'s text and not its notes', () => {
    const pages = printed(odp(page(title('Quarterly results') + NOTES) + page(title('Hidden'), 'dpHidden') + page(title('Outlook'))));
    expect(pages.map((p) => p.size)).toEqual([[720, 405], [720, 405]]);
    expect(pages.map((p) => p.text.trim())).toEqual(['Quarterly results', 'Outlook']);
  });

  it('refuses an encrypted package as password-protected and a damaged one as damaged', () => {
    const encrypted = odp(page(title('Secret')), { 'META-INF/manifest.xml': strToU8('<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data/></manifest:file-entry></manifest:manifest>') });
    expect(() => readDeck(encrypted)).toThrow(expect.objectContaining({ problem: 'password' }));
    const broken = odp(page(title('x'))).slice();
    const start = new TextDecoder('latin1').decode(broken).indexOf('content.xml');
    broken.fill(0, start + 40, start + 400);
    expect(() => readDeck(broken)).toThrow(expect.objectContaining({ problem: 'corrupt' }));
    expect(() => readDeck(broken)).toThrow(ConversionError);
    expect(() => readDeck(zipSync({ mimetype: [strToU8('application/vnd.oasis.opendocument.presentation'), { level: 0 }], 'content.xml': strToU8('<office:document-content><office:body') }))).toThrow(expect.objectContaining({ problem: 'corrupt' }));
  });
});
