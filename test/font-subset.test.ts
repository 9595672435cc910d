import { describe, expect, it } from 'vitest';
import type * as Mupdf from 'mupdf';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { FACE_FILES } from '../src/fonts/catalog';
import { subsetTrueType } from '../src/fonts/truetype-subset';
import { scanContent } from '../src/pdf/finish/content-glyphs';
import { subsetPageFonts } from '../src/pdf/finish/font-subsets';
import { renderWordDocument } from '../src/convert/word/layout/render';
import type { RunStyle, WordDocument } from '../src/convert/word/model/index';

const ascii = (s: string) => new TextEncoder().encode(s);

/** Table directory of a font file: tag → [offset, length]. */
function tables(font: Uint8Array): Map<string, [number, number]> {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const out = new Map<string, [number, number]>();
  for (let i = 0; i < view.getUint16(4); i++) {
    const at = 12 + i * 16;
    out.set(String.fromCharCode(...font.subarray(at, at + 4)), [view.getUint32(at + 8), view.getUint32(at + 12)]);
  }
  return out;
}

/** A glyph's outline bytes (loca/glyf), in either loca format. */
function glyphBytes(font: Uint8Array, gid: number): Uint8Array {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const t = tables(font);
  const [headAt] = t.get('head')!;
  const [locaAt] = t.get('loca')!;
  const [glyfAt] = t.get('glyf')!;
  const long = view.getInt16(headAt + 50) === 1;
  const at = (g: number) => (long ? view.getUint32(locaAt + g * 4) : view.getUint16(locaAt + g * 2) * 2);
  return font.subarray(glyfAt + at(gid), glyfAt + at(gid + 1));
}

/** A one-page PDF showing `text` in `face` through MuPDF's writer (a whole Identity-H TrueType font), and an unrelated simple font if asked. */
function pdfShowing(mupdf: typeof Mupdf, face: Uint8Array, text: string, withSimpleFont = false): Mupdf.PDFDocument {
  const pdf = new mupdf.PDFDocument();
  const font = new mupdf.Font('Carlito', face);
  const gids = [...text].map((c) => font.encodeCharacter(c.codePointAt(0)!));
  const hex = gids.map((g) => g.toString(16).padStart(4, '0')).join('');
  const fonts: Record<string, Mupdf.PDFObject> = { F0: pdf.addFont(font) };
  let extra = '';
  if (withSimpleFont) {
    fonts.F1 = pdf.addSimpleFont(new mupdf.Font('Helvetica'));
    extra = 'BT /F1 12 Tf 72 600 Td (simple) Tj ET\n';
  }
  // The font is set inside q/Q and a second string is shown from a TJ array after a literal-string Tj.
  const contents = `q BT /F0 24 Tf 72 700 Td <${hex}> Tj ET Q\nBT /F0 12 Tf 72 650 Td [<${hex.slice(0, 8)}> -250 <${hex.slice(8)}>] TJ ET\n${extra}`;
  const page = pdf.addPage([0, 0, 612, 792], 0, pdf.addObject({ Font: fonts }), contents);
  pdf.insertPage(-1, page);
  return pdf;
}

const render = (mupdf: typeof Mupdf, pdf: Mupdf.PDFDocument) => pdf.loadPage(0).toPixmap(mupdf.Matrix.identity, mupdf.ColorSpace.DeviceGray, false).getPixels().slice();

describe('font subsetting', () => {
  it('keeps the asked glyphs and the components of composite ones at their ids, and cuts the rest', () => {
    const face = bundledFonts(FACE_FILES.Carlito.regular)!;
    const view = new DataView(face.buffer, face.byteOffset, face.byteLength);
    const numGlyphs = view.getUint16(tables(face).get('maxp')![0] + 4);
    // A composite glyph of the face and its first component.
    let composite = -1;
    for (let g = 1; g < numGlyphs && composite < 0; g++) {
      const bytes = glyphBytes(face, g);
      if (bytes.length >= 10 && new DataView(bytes.buffer, bytes.byteOffset).getInt16(0) < 0) composite = g;
    }
    expect(composite).toBeGreaterThan(0);
    const c = glyphBytes(face, composite);
    const component = new DataView(c.buffer, c.byteOffset).getUint16(12);

    const sub = subsetTrueType(face, [36, composite])!;
    expect(sub.length).toBeLessThan(face.length / 5);
    expect([...tables(sub).keys()].sort()).toEqual(['OS/2', 'cvt ', 'fpgm', 'glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp', 'prep']);
    expect(new DataView(sub.buffer).getUint16(tables(sub).get('maxp')![0] + 4)).toBe(Math.max(36, composite, component) + 1);
    // Kept outlines are the face's, padded to 4 bytes.
    for (const g of [0, 36, composite, component]) {
      const original = glyphBytes(face, g);
      expect(original.length).toBeGreaterThan(0);
      expect(glyphBytes(sub, g).subarray(0, original.length)).toEqual(original);
    }
    expect(glyphBytes(sub, 37).length).toBe(0);
    // The whole font's checksum with head's adjustment is OpenType's magic number.
    const sv = new DataView(sub.buffer);
    let sum = 0;
    for (let i = 0; i < sub.length; i += 4) sum = (sum + sv.getUint32(i)) >>> 0;
    expect(sum).toBe(0xb1b0afba);
  });

  it('a font that is not TrueType is refused', () => {
    expect(subsetTrueType(ascii('OTTO and some more bytes of a CFF font'), [1])).toBeUndefined();
  });

  it('the content scanner follows Tf through q/Q and reads hex, literal and TJ strings', () => {
    const sets = new Map<string, Set<number>>();
    const named = (name: string) => sets.get(name) ?? sets.set(name, new Set()).get(name)!;
    scanContent(ascii('/F0 9 Tf q /F1 9 Tf <0001 0002> Tj Q (\\000\\003\\000\\() Tj [(\\000\\004) 120 <0005>] TJ % <0099> Tj\n<< /MCID 0 >> BDC (\\000\\006) \' EMC'), named);
    expect([...sets.get('F1')!]).toEqual([1, 2]);
    expect([...sets.get('F0')!].sort((a, b) => a - b)).toEqual([3, 4, 5, 6, 40]); // 40: an escaped '(' that does not end the string
  });

  it('a PDF from MuPDF\'s writer is subset to what its page shows, and draws and reads the same', async () => {
    const mupdf = await loadMupdf();
    const face = bundledFonts(FACE_FILES.Carlito.regular)!;
    const text = 'Subset ÄÉÖ Жёлтый';
    const pdf = pdfShowing(mupdf, face, text);
    const before = render(mupdf, pdf);
    expect(subsetPageFonts(pdf)?.get(pdf.findPage(0).get('Resources', 'Font', 'F0').asIndirect())?.size).toBe(new Set(text).size);
    const saved = pdf.saveToBuffer('compress');
    const again = mupdf.Document.openDocument(saved, 'application/pdf') as Mupdf.PDFDocument;
    const file = again.findPage(0).get('Resources', 'Font', 'F0', 'DescendantFonts', 0, 'FontDescriptor', 'FontFile2');
    const bytes = file.readStream().asUint8Array();
    expect(bytes.length).toBeLessThan(face.length / 10);
    expect(again.findPage(0).get('Resources', 'Font', 'F0', 'BaseFont').asName()).toMatch(/^[A-Z]{6}\+/);
    expect(render(mupdf, again)).toEqual(before);
    expect(again.loadPage(0).toStructuredText('').asText()).toContain(text);
  });

  it('a page with a font of another kind is left to MuPDF\'s subsetter, unchanged', async () => {
    const mupdf = await loadMupdf();
    const face = bundledFonts(FACE_FILES.Carlito.regular)!;
    const pdf = pdfShowing(mupdf, face, 'Mixed fonts', true);
    const file = pdf.findPage(0).get('Resources', 'Font', 'F0', 'DescendantFonts', 0, 'FontDescriptor', 'FontFile2');
    const length = file.readStream().getLength();
    expect(subsetPageFonts(pdf)).toBeUndefined();
    expect(file.readStream().getLength()).toBe(length);
  });

  it('the Word converter\'s PDFs embed subsets that keep every shown letter', async () => {
    const mupdf = await loadMupdf();
    const style: RunStyle = { font: 'Times New Roman', size: 12 };
    const page = { width: 612, height: 792, marginTop: 72, marginRight: 72, marginBottom: 72, marginLeft: 72, header: 36, footer: 36 };
    const text = 'Quick brown fox — Съешь же ещё этих мягких булок';
    const model: WordDocument = { sections: [{ page, headers: {}, footers: {}, blocks: [{ kind: 'paragraph', props: {}, inlines: [{ kind: 'text', text, style }] }] }], notes: new Map(), defaultFont: 'Times New Roman', defaultSize: 12 };
    const pdf = mupdf.Document.openDocument(renderWordDocument(model, mupdf, bundledFonts), 'application/pdf') as Mupdf.PDFDocument;
    const font = pdf.findPage(0).get('Resources', 'Font');
    let embedded = 0;
    font.forEach((f) => {
      expect(f.get('BaseFont').asName()).toMatch(/^[A-Z]{6}\+Tinos/);
      embedded += f.get('DescendantFonts', 0, 'FontDescriptor', 'FontFile2').readStream().getLength();
      // The ToUnicode map names the glyphs shown, not the whole face's (Tinos': about 10 KB).
      const map = new TextDecoder().decode(f.get('ToUnicode').readStream().asUint8Array());
      const entries = [...map.matchAll(/^<[0-9a-f]{4}> </gim)].length;
      expect(entries).toBeGreaterThan(20);
      expect(entries).toBeLessThan(60); // the text's 34 letters (and the line's other glyphs), of Tinos' 2,000
      expect(map).not.toMatch(/beginbfrange/);
    });
    expect(embedded).toBeGreaterThan(0);
    expect(embedded).toBeLessThan(bundledFonts(FACE_FILES.Tinos.regular)!.length / 10);
    expect(pdf.loadPage(0).toStructuredText('').asText().replace(/\s+/g, ' ')).toContain(text);
  });
});
