import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { readDocx } from '../src/convert/word/read/docx';
import { renderWordDocument } from '../src/convert/word/layout/render';
import type { Paragraph, Shape } from '../src/convert/word/model/index';
import { readOpt, type ShapeInfo } from '../src/convert/office/officeart';
import { floatingShape } from '../src/convert/word/read/doc/shapes';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:v="urn:schemas-microsoft-com:vml" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** Word's Design > Watermark: a VML WordArt shape in the header, centred on the margins, turned 315°, silver at half opacity. */
const WATERMARK =
  '<w:p><w:r><w:pict><v:shape id="PowerPlusWaterMarkObject1" type="#_x0000_t136" style="position:absolute;margin-left:0;margin-top:0;width:400pt;height:100pt;rotation:315;z-index:-251657216;' +
  'mso-position-horizontal:center;mso-position-horizontal-relative:margin;mso-position-vertical:center;mso-position-vertical-relative:margin" fillcolor="silver" stroked="f">' +
  '<v:fill opacity=".5"/><v:textpath style="font-family:&quot;Calibri&quot;;font-size:1pt" string="DRAFT"/></v:shape></w:pict></w:r></w:p>';
/** An inline WordArt line 200 x 40 pt in purple. */
const INLINE = '<w:p><w:r><w:pict><v:shape type="#_x0000_t136" style="width:200pt;height:40pt" fillcolor="#9400ed" stroked="f"><v:textpath style="font-family:&quot;Arial Black&quot;;font-size:20pt" string="Wide Art"/></v:shape></w:pict></w:r></w:p>';

function docx(): Uint8Array {
  const sectPr = '<w:sectPr><w:headerReference w:type="default" r:id="rH"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720"/></w:sectPr>';
  return zipSync({
    '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    '_rels/.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`),
    'word/document.xml': strToU8(`<w:document ${W}><w:body>${INLINE}<w:p><w:r><w:t>Body text</w:t></w:r></w:p>${sectPr}</w:body></w:document>`),
    'word/header1.xml': strToU8(`<w:hdr ${W}>${WATERMARK}</w:hdr>`),
    'word/_rels/document.xml.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rH" Type="${REL}/header" Target="header1.xml"/></Relationships>`),
  });
}

describe('WordArt (VML textpath)', () => {
  it('reads the text, font, fill, opacity, rotation and placement of a watermark', () => {
    const model = readDocx(docx());
    const shape = (model.sections[0]!.headers.default![0] as Paragraph).inlines.find((i): i is Shape => i.kind === 'shape')!;
    expect(shape).toMatchObject({ width: 400, height: 100, fill: 'C0C0C0', rotation: 315, wordArt: { text: 'DRAFT', font: 'Calibri', opacity: 0.5 } });
    expect(shape.floating).toMatchObject({ relativeX: 'margin', relativeY: 'margin', alignX: 'center', alignY: 'center' });
  });

  it('draws the text stretched over its box, in its colour; the watermark turned across the middle of the page', async () => {
    const mupdf = await loadMupdf();
    const pdf = mupdf.Document.openDocument(renderWordDocument(readDocx(docx()), mupdf, bundledFonts), 'application/pdf');
    try {
      const page = pdf.loadPage(0);
      const json = JSON.parse(page.toStructuredText('preserve-whitespace').asJSON()) as { blocks: { lines?: { text: string; bbox: { x: number; y: number; w: number; h: number } }[] }[] };
      const lines = json.blocks.flatMap((b) => b.lines ?? []);
      // The inline line fills its 200 pt width from the left margin.
      const wide = lines.find((l) => l.text.includes('Wide Art'))!;
      expect(Math.abs(wide.bbox.x - 72)).toBeLessThan(3);
      expect(wide.bbox.x + wide.bbox.w).toBeGreaterThan(265);
      expect(wide.bbox.x + wide.bbox.w).toBeLessThan(275);
      // The watermark is text (found in the page's text) running at 45° (rotation 315): its box is
      // about square, as wide as its 400 pt diagonal allows, and centred on the text area (306, 396).
      const draft = lines.find((l) => l.text.includes('DRAFT'))!.bbox;
      expect(draft.w).toBeGreaterThan(250);
      expect(Math.abs(draft.w - draft.h)).toBeLessThan(60);
      expect(Math.abs(draft.x + draft.w / 2 - 306)).toBeLessThan(15);
      expect(Math.abs(draft.y + draft.h / 2 - 396)).toBeLessThan(15);
      const pix = page.toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceRGB, false);
      const at = (x: number, y: number) => Array.from(pix.getPixels().subarray(y * pix.getStride() + x * 3, y * pix.getStride() + x * 3 + 3));
      // Purple inside a letter of the inline line: some pixel of its middle row is.
      const row = Array.from({ length: 190 }, (_, i) => at(77 + i, Math.round(wide.bbox.y + wide.bbox.h / 2)));
      expect(row.some(([r, g, b]) => b! > 180 && g! < 60 && r! > 110)).toBe(true);
      // The watermark is silver at half opacity over white: light grey, never darker, across the page's middle.
      const middle = Array.from({ length: 300 }, (_, i) => at(156 + i, 396));
      const greys = middle.filter(([r, g, b]) => r! < 250 && r === g && g === b);
      expect(greys.length).toBeGreaterThan(20);
      for (const [r] of greys) expect(r).toBeGreaterThan(215);
      pix.destroy();
      page.destroy();
    } finally {
      pdf.destroy();
    }
  });

  it('.doc WordArt: the OfficeArt gtext properties (complex data after the property table) make a shape with its text, font and opacity', () => {
    // An OPT record: fillColor (simple), gtextUNICODE and gtextFont (complex: their lengths, data after
    // the table in order), fillOpacity 0.5, gtextBooleans bold (fUse bit 0x20 << 16 and the bit).
    const utf16 = (t: string) => [...t, '\0'].flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8]);
    const text = utf16('CONFIDENTIAL');
    const font = utf16('Times New Roman');
    const entry = (op: number, value: number) => [op & 0xff, op >> 8, value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, (value >>> 24) & 0xff];
    const bytes = Uint8Array.from([
      ...entry(0x0181, 0xc0c0c0), ...entry(0x80c0, text.length), ...entry(0x80c5, font.length), ...entry(0x0182, 32768), ...entry(0x00ff, (0x20 << 16) | 0x20),
      ...text, ...font,
    ]);
    const info: ShapeInfo = { props: new Map(), order: 0, type: 136 };
    readOpt(bytes, { ver: 3, inst: 5, type: 0xf00b, start: 0, end: bytes.length }, info);
    expect(info.gtext).toEqual({ text: 'CONFIDENTIAL', font: 'Times New Roman' });
    expect(info.props.get(0x0182)).toBe(32768);
    const anchor = { spid: 1, left: 0, top: 0, right: 8000, bottom: 2000, placement: { x: 0, y: 0, relativeX: 'margin' as const, relativeY: 'margin' as const, wrap: 'behind' as const } };
    const shape = floatingShape(anchor, info, undefined, 0)!;
    expect(shape).toMatchObject({ geometry: 'rect', width: 400, height: 100, fill: 'C0C0C0', wordArt: { text: 'CONFIDENTIAL', font: 'Times New Roman', bold: true, opacity: 0.5 } });
    expect(shape.line).toBeUndefined();
  });
});
