/**
 * A deck's embedded fonts (issue: "embedded fonts used when present"): a PPTX's p:embeddedFontLst
 * parts, bare TrueType, EOT-wrapped (XOR-ed or not) or obfuscated, and an ODP's Fonts/ files, set
 * the text of the family they name in place of the catalog's substitute, measured and drawn in
 * that face (its name in the PDF's fonts, its advances in the text's width). A face that cannot be
 * used (MicroType Express, garbage, a licence that forbids embedding) is told as a problem and the
 * deck still converts in the substitute face.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as Mupdf from 'mupdf';
import caveatRegular from '@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf';
import caveatBold from '@expo-google-fonts/caveat/700Bold/Caveat_700Bold.ttf';
import dejavuSans from 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { joinChunks } from '../src/lib/bytes';
import { convertSlidesToPdfChunksLoadingFaces } from '../src/convert/slides/index';
import type { PartProblem } from '../src/convert/problems';
import { embeddedFonts, pptx, textIn } from './pptx-fixtures';
import { EOT_MTX_COMPRESSED, EOT_XOR, eotOf, obfuscatedOf } from './font-fixtures';
import { odp, page } from './odp-fixtures';

let mupdf: typeof Mupdf;
beforeAll(async () => {
  mupdf = await loadMupdf();
});

const REGULAR = new Uint8Array(caveatRegular);
const BOLD = new Uint8Array(caveatBold);
const FAMILY = 'MadeUp Hand';
const TEXT = 'Hamburgefonstiv';
const SIZE = 40;
const faces = { coverage: async () => ({}), load: async () => bundledFonts, holdsAll: () => true };

/** The deck's PDF and the problems told while converting it. */
async function convert(deck: Uint8Array): Promise<{ pdf: Uint8Array; problems: PartProblem[] }> {
  const problems: PartProblem[] = [];
  const pdf = joinChunks(await convertSlidesToPdfChunksLoadingFaces(deck, { mupdf, faces, onProblem: (p) => problems.push(p) }));
  return { pdf, problems };
}

/** Every font's BaseFont on the first page, subset tags cut off ("ABCDEF+MadeUpHand" → "MadeUpHand"). */
function fontNames(pdf: Uint8Array): string[] {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf').asPDF()!;
  try {
    const names: string[] = [];
    doc.findPage(0).get('Resources').get('Font').forEach((font) => names.push(font.get('BaseFont').asName().replace(/^[A-Z]{6}\+/, '')));
    return names.sort();
  } finally {
    doc.destroy();
  }
}

/** The first page's text lines with their widths (points, MuPDF's reading of the glyphs' advances). */
function lines(pdf: Uint8Array): { text: string; width: number }[] {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    const page = doc.loadPage(0);
    const json = JSON.parse(page.toStructuredText('preserve-whitespace').asJSON()) as { blocks: { lines?: { text: string; bbox: { w: number } }[] }[] };
    page.destroy();
    return json.blocks.flatMap((b) => b.lines ?? []).map((l) => ({ text: l.text.trim(), width: l.bbox.w }));
  } finally {
    doc.destroy();
  }
}

/** The width of `text` at SIZE in a face, by its own advances. */
function widthIn(face: Uint8Array, text: string): number {
  const font = new mupdf.Font('Measured', face);
  return [...text].reduce((sum, ch) => sum + font.advanceGlyph(font.encodeCharacter(ch.codePointAt(0)!), 0) * SIZE, 0);
}

const widthOf = (pdf: Uint8Array, text: string) => lines(pdf).find((l) => l.text === text)!.width;
/** MuPDF's text boxes are whole points: a width within one of the face's own. */
const expectWidth = (width: number, expected: number, what?: string) => expect(Math.abs(width - expected), what).toBeLessThanOrEqual(1);

/** A deck of the family's text (regular and bold) over a line in Arial, embedding `styles`. */
const deckEmbedding = (styles: Parameters<typeof embeddedFonts>[1]) =>
  pptx([{ body: textIn(40, 40, 600, 60, FAMILY, TEXT, SIZE) + textIn(40, 140, 600, 60, FAMILY, 'Bold words', SIZE, { bold: true }) + textIn(40, 260, 600, 60, 'Arial', 'Arial stays', SIZE) }], undefined, undefined, embeddedFonts(FAMILY, styles));

describe('slides: embedded fonts', () => {
  it('sets a PPTX\'s text in the bare TrueType faces it embeds: their names in the PDF, their advances in the width', async () => {
    const { pdf, problems } = await convert(deckEmbedding({ regular: { data: REGULAR }, bold: { data: BOLD } }));
    expect(problems).toEqual([]);
    expect(fontNames(pdf)).toEqual(['Arimo', 'MadeUpHand', 'MadeUpHand-Bold']);
    const width = widthOf(pdf, TEXT);
    expectWidth(width, widthIn(REGULAR, TEXT));
    // The substitute (DejaVu Sans for a name it does not know) is a good deal wider: the test tells them apart.
    expect(widthIn(new Uint8Array(dejavuSans), TEXT) / width).toBeGreaterThan(1.2);
    expectWidth(widthOf(pdf, 'Bold words'), widthIn(BOLD, 'Bold words'));
  });

  it('unwraps EOT parts as PowerPoint writes them: version 2.1, and 2.2 with its data XOR-ed', async () => {
    const { pdf, problems } = await convert(deckEmbedding({ regular: { data: eotOf(REGULAR) }, bold: { data: eotOf(BOLD, { version: 0x00020002, flags: EOT_XOR }) } }));
    expect(problems).toEqual([]);
    expect(fontNames(pdf)).toEqual(['Arimo', 'MadeUpHand', 'MadeUpHand-Bold']);
    expectWidth(widthOf(pdf, TEXT), widthIn(REGULAR, TEXT));
    expectWidth(widthOf(pdf, 'Bold words'), widthIn(BOLD, 'Bold words'));
  });

  it('draws a style the deck does not embed in its nearest embedded face (bold text in the regular face)', async () => {
    const { pdf } = await convert(deckEmbedding({ regular: { data: eotOf(REGULAR, { version: 0x00010000 }) } }));
    expect(fontNames(pdf)).toEqual(['Arimo', 'MadeUpHand']);
    expectWidth(widthOf(pdf, 'Bold words'), widthIn(REGULAR, 'Bold words'));
  });

  it('reads an obfuscated font keyed by the GUID of its part\'s name', async () => {
    const guid = '{0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9}';
    const { pdf, problems } = await convert(deckEmbedding({ regular: { data: obfuscatedOf(REGULAR, guid), part: `fonts/${guid}.odttf` } }));
    expect(problems).toEqual([]);
    expect(fontNames(pdf)).toContain('MadeUpHand');
    expectWidth(widthOf(pdf, TEXT), widthIn(REGULAR, TEXT));
  });

  it('falls back to the substitute, told as a problem, for an MTX-compressed, garbage, cut or restricted font; the deck still converts', async () => {
    const restricted = REGULAR.slice();
    // OS/2 fsType (offset 8 of the table) = 2: restricted licence embedding.
    const view = new DataView(restricted.buffer);
    for (let i = 0; i < view.getUint16(4); i++) if (String.fromCharCode(...restricted.subarray(12 + i * 16, 16 + i * 16)) === 'OS/2') view.setUint16(view.getUint32(12 + i * 16 + 8) + 8, 2);
    const cases: [string, Uint8Array, RegExp][] = [
      ['MTX', eotOf(REGULAR, { flags: EOT_MTX_COMPRESSED }), /MicroType Express/],
      ['garbage', new Uint8Array(4000).map((_, i) => (i * 7919 + 13) & 255), /not a TrueType or OpenType font/],
      ['cut short', REGULAR.slice(0, 3000), /runs past the end/],
      ['lying EOT header', eotOf(REGULAR, { fontDataSize: REGULAR.length + 10 }), /declares \d+ bytes of font data/],
      ['restricted', restricted, /licence forbids embedding/],
    ];
    const substitute = widthIn(new Uint8Array(dejavuSans), TEXT);
    for (const [what, data, reason] of cases) {
      const { pdf, problems } = await convert(deckEmbedding({ regular: { data } }));
      expect(problems.map((p) => p.part), what).toEqual(['ppt/fonts/font1.fntdata']);
      expect(problems[0]!.reason, what).toMatch(reason);
      expect(fontNames(pdf), what).not.toContain('MadeUpHand');
      expectWidth(widthOf(pdf, TEXT), substitute, what);
    }
  });

  it('sets an ODP\'s text in the Fonts/ files its font-face declarations link to, styled as LibreOffice marks them or as the faces say', async () => {
    const uri = (href: string, mark = '') => `<svg:font-face-uri xlink:href="${href}" xlink:type="simple"${mark}><svg:font-face-format svg:string="truetype"/></svg:font-face-uri>`;
    const fontFaces = `<style:font-face style:name="${FAMILY}" svg:font-family="'${FAMILY}'"><svg:font-face-src>${uri('Fonts/Font_MadeUp_1.ttf', ' loext:font-style="normal" loext:font-weight="normal"')}${uri('Fonts/Font_MadeUp_2.ttf')}</svg:font-face-src></style:font-face>`;
    const styles = `<style:style style:name="T1" style:family="text"><style:text-properties style:font-name="${FAMILY}" fo:font-size="${SIZE}pt"/></style:style><style:style style:name="T2" style:family="text"><style:text-properties style:font-name="${FAMILY}" fo:font-size="${SIZE}pt" fo:font-weight="bold"/></style:style>`;
    const frame = (y: number, style: string, text: string) => `<draw:frame svg:x="0.5in" svg:y="${y}in" svg:width="9in" svg:height="1in"><draw:text-box><text:p><text:span text:style-name="${style}">${text}</text:span></text:p></draw:text-box></draw:frame>`;
    const deck = odp(page(frame(0.5, 'T1', TEXT) + frame(2, 'T2', 'Bold words')), { 'Fonts/Font_MadeUp_1.ttf': REGULAR, 'Fonts/Font_MadeUp_2.ttf': BOLD }, { fontFaces, styles });
    const { pdf, problems } = await convert(deck);
    expect(problems).toEqual([]);
    expect(fontNames(pdf)).toEqual(['MadeUpHand', 'MadeUpHand-Bold']);
    expectWidth(widthOf(pdf, TEXT), widthIn(REGULAR, TEXT));
    // The second file carries no mark: its OS/2 table says bold.
    expectWidth(widthOf(pdf, 'Bold words'), widthIn(BOLD, 'Bold words'));
  });
});
