/**
 * ODP input to the slide converter (issue 43): small OpenDocument presentations built here (the
 * mimetype entry first and stored, as ODF requires), read by readDeck into the slide model and
 * printed: slide size, hidden slides, shape boxes, text and list labels, backgrounds, master page
 * shapes, speaker notes left out, tables; an encrypted or damaged package refused as such.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Mupdf from 'mupdf';
import { zipSync, strToU8 } from 'fflate';
import { NOTES, odp, page, title } from './odp-fixtures';
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

  it('reads paragraph spacing, capitals from fo:text-transform and Impress\'s shrink on overflow', () => {
    const frame = (style: string, paragraphs: string) => `<draw:frame draw:style-name="${style}" svg:x="1in" svg:y="1in" svg:width="4in" svg:height="1in"><draw:text-box>${paragraphs}</draw:text-box></draw:frame>`;
    const body = frame('grShrink', '<text:p text:style-name="Pspaced">Spaced <text:span text:style-name="Tcaps">shouted</text:span></text:p><text:p text:style-name="Pfixed">Fixed</text:p>');
    const [slide] = readDeck(odp(page(body))).slides;
    const shape = slide!.shapes.map((s) => s.shape).find((s) => textOf(s).includes('Spaced'))!;
    expect(shape.shrinksText).toBe(true);
    expect(textOf(shape)).toBe('Spaced SHOUTED\nFixed');
    const [spaced, fixed] = shape.blocks!;
    expect(spaced).toMatchObject({ spaceBefore: 18, spaceAfter: 6, line: { rule: 'auto', value: 1.5 } });
    expect(fixed!.line).toEqual({ rule: 'exact', value: 30 });
  });

  it('fills shapes with their gradients (linear along the turned angle, through the border; radial from the middle) at their opacity', () => {
    const rect = (style: string, x: string) => `<draw:rect draw:style-name="${style}" svg:x="${x}" svg:y="1in" svg:width="2in" svg:height="1in"/>`;
    const [slide] = readDeck(odp(page(rect('grLinear', '1in') + rect('grRadial', '4in')))).slides;
    const [linear, radial] = slide!.shapes.filter((s) => s.shape.gradient).map((s) => s.shape);
    // Angle 0 runs top to bottom: 90° clockwise from the x axis; black held over the first 20%.
    expect(linear).toMatchObject({ fill: '808080', fillOpacity: 0.5, gradient: { angle: 90, stops: [{ at: 0, color: '000000' }, { at: 0.2, color: '000000' }, { at: 1, color: 'FFFFFF' }] } });
    // The end colour (at half intensity) in the middle, the start colour at the outside; the transparency's mean opacity.
    expect(radial!.gradient).toEqual({ radial: true, angle: 0, stops: [{ at: 0, color: '000080' }, { at: 1, color: 'FF0000' }] });
    expect(radial!.fillOpacity).toBeCloseTo(0.4, 5);
  });

  it('styles a frame naming a presentation style by that style though it has no presentation:class (no fill where the style has none)', () => {
    const frame = '<draw:frame presentation:style-name="prPlain" svg:x="1in" svg:y="3in" svg:width="4in" svg:height="1in"><draw:text-box><text:p>Byline</text:p></draw:text-box></draw:frame>';
    const [slide] = readDeck(odp(page(frame))).slides;
    const shape = slide!.shapes.map((s) => s.shape).find((s) => textOf(s) === 'Byline')!;
    expect(shape.fill).toBeUndefined();
    expect(shape.blocks![0]!.runs[0]!.size).toBe(24);
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
