import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:test';
import { strToU8, zipSync } from 'fflate';
import type * as Mupdf from 'mupdf';
import { loadMupdf } from '../src/pdf/mupdf';
import { FaceShelf } from '../src/fonts/face-shelf';
import { facesNeeded } from '../src/fonts/face-needs';
import { ALL_FACE_FILES, FACE_FILES, HANDWRITING, substituteFamily } from '../src/fonts/catalog';
import { bundledFonts } from '../src/fonts/bundled';
import { convertWordToPdfChunks, convertWordToPdfChunksLoadingFaces } from '../src/convert/word';
import { joinChunks } from '../src/lib/bytes';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const run = (font: string, text: string) => `<w:r><w:rPr><w:rFonts w:ascii="${font}" w:hAnsi="${font}"/></w:rPr><w:t>${text}</w:t></w:r>`;
const docx = (body: string) =>
  zipSync({
    '[Content_Types].xml': strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    '_rels/.rels': strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`),
    'word/document.xml': strToU8(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`),
  });

/** The FONTS binding, counting the files fetched through it. */
function countingAssets() {
  const fetched: string[] = [];
  return {
    fetched,
    fetch: (input: string) => {
      fetched.push(decodeURIComponent(new URL(input).pathname.slice(1)));
      return env.FONTS.fetch(input);
    },
  };
}

function fontNames(pdf: Uint8Array, mupdf: typeof Mupdf): string[] {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf') as Mupdf.PDFDocument;
  const names = new Set<string>();
  for (let i = 1; i < doc.countObjects(); i++) {
    const obj = doc.newIndirect(i).resolve();
    if (obj.isDictionary() && obj.get('Type').asName?.() === 'FontDescriptor') names.add(obj.get('FontName').asName().replace(/^[A-Z]{6}\+/, ''));
  }
  doc.destroy();
  return [...names];
}

describe('font faces are the engine Workers\' static assets', () => {
  it('the FONTS binding serves every face of the catalog, byte for byte what the packages ship', async () => {
    for (const file of [FACE_FILES.Gelasio.regular, FACE_FILES.NotoEmoji.regular, HANDWRITING]) {
      const response = await env.FONTS.fetch(`https://fonts.assets/${file}`);
      expect(response.status, file).toBe(200);
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(bundledFonts(file));
    }
    const coverage = (await (await env.FONTS.fetch('https://fonts.assets/coverage.json')).json()) as Record<string, unknown>;
    expect(Object.keys(coverage).sort()).toEqual(Object.keys(FACE_FILES).sort());
    expect(ALL_FACE_FILES).toContain(HANDWRITING);
  });

  it('a shelf that holds every face says so, and a conversion then asks it for no coverage', async () => {
    const mupdf = await loadMupdf();
    const assets = countingAssets();
    const faces = new FaceShelf(assets);
    await faces.load([FACE_FILES.Carlito.regular]);
    expect(faces.holdsAll()).toBe(false);
    await faces.load(ALL_FACE_FILES);
    expect(faces.holdsAll()).toBe(true);
    const fetchedBefore = assets.fetched.length;
    const pdf = joinChunks(await convertWordToPdfChunksLoadingFaces(docx(`<w:p>${run('Calibri', 'held')}</w:p>`), { mupdf, faces }));
    expect(assets.fetched.length).toBe(fetchedBefore);
    expect(assets.fetched).not.toContain('coverage.json');
    expect(fontNames(pdf, mupdf).some((name) => name.startsWith('Carlito'))).toBe(true);
  });

  it('a conversion fetches the faces its document asks for, once per isolate: two conversions, one fetch each', async () => {
    const mupdf = await loadMupdf();
    const assets = countingAssets();
    const faces = new FaceShelf(assets);
    const bytes = docx(`<w:p>${run('Georgia', 'Georgia set in Gelasio')}</w:p>`);
    const first = joinChunks(await convertWordToPdfChunksLoadingFaces(bytes, { mupdf, faces }));
    const afterFirst = [...assets.fetched];
    const second = joinChunks(await convertWordToPdfChunksLoadingFaces(bytes, { mupdf, faces }));
    expect(afterFirst).toContain(FACE_FILES.Gelasio.regular);
    expect(afterFirst).toContain('coverage.json');
    expect(new Set(afterFirst).size).toBe(afterFirst.length); // no file fetched twice
    expect(assets.fetched).toEqual(afterFirst); // the second conversion fetched nothing
    // The run's family and the document's default (Times New Roman: Tinos), no fallback its characters do not reach.
    expect(afterFirst.filter((f) => f.endsWith('.ttf')).sort()).toEqual([...Object.values(FACE_FILES.Gelasio), ...Object.values(FACE_FILES.Tinos)].sort());
    expect(fontNames(first, mupdf).some((name) => /Gelasio/.test(name))).toBe(true);
    expect(second.length).toBe(first.length);
  });

  it('fallback faces are loaded for the characters that reach them, as the layout walks FALLBACK', async () => {
    const coverage = (await (await env.FONTS.fetch('https://fonts.assets/coverage.json')).json()) as Parameters<typeof facesNeeded>[1];
    const needs = (names: string[], text: string) => facesNeeded({ names, codePoints: [...text].map((ch) => ch.codePointAt(0)!) }, coverage);
    // Carlito draws Cyrillic itself; Gelasio and Caladea do not, and reach Tinos for it.
    expect(needs(['Calibri'], 'Привет')).toEqual([...Object.values(FACE_FILES.Carlito)]);
    expect(needs(['Georgia'], 'Привет')).toEqual([...Object.values(FACE_FILES.Gelasio), ...Object.values(FACE_FILES.Tinos)]);
    expect(needs(['Cambria'], 'Привет')).toContain(FACE_FILES.Tinos.regular);
    // An emoji reaches the emoji face; Hebrew in Calibri reaches Arimo; an unseen name loads everything.
    expect(needs(['Calibri'], '🦊')).toContain(FACE_FILES.NotoEmoji.regular);
    expect(needs(['Calibri'], 'שלום')).toContain(FACE_FILES.Arimo.regular);
    expect(facesNeeded({ names: [], codePoints: [], unseenNames: true }, coverage)).toEqual([...ALL_FACE_FILES]);
  });

  it('faces added document by document keep what the layout learnt of the others, and every PDF is the one all faces give', async () => {
    const mupdf = await loadMupdf();
    const faces = new FaceShelf(countingAssets());
    // Each document asks for a face the ones before did not: the shelf grows, the layout's book carries over.
    const documents = [
      docx(`<w:p>${run('Calibri', 'Plain Latin in Carlito, with kerning AVAWAY')}</w:p>`),
      docx(`<w:p>${run('Calibri', 'Теперь кириллица и ✔ и 🦊')}</w:p><w:p>${run('Georgia', 'and Georgia')}</w:p>`),
      docx(`<w:p>${run('Calibri', 'Plain Latin in Carlito again, then שלום')}</w:p>`),
    ];
    // Every document through the growing shelf first (each book inherits from the one before), then with all faces at hand.
    const grown: Uint8Array[] = [];
    for (const bytes of documents) grown.push(joinChunks(await convertWordToPdfChunksLoadingFaces(bytes, { mupdf, faces })));
    const text = (pdf: Uint8Array) => {
      const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
      const all = doc.loadPage(0).toStructuredText('').asText();
      doc.destroy();
      return all;
    };
    documents.forEach((bytes, i) => {
      const allAtHand = joinChunks(convertWordToPdfChunks(bytes, { mupdf, fonts: bundledFonts }));
      expect(text(grown[i]!)).toBe(text(allAtHand));
      expect(fontNames(grown[i]!, mupdf).sort()).toEqual(fontNames(allAtHand, mupdf).sort());
      expect(grown[i]!.length).toBe(allAtHand.length);
    });
  });

  it('documents naming Georgia, Segoe UI, Tahoma and Verdana get their substitutes', () => {
    expect(substituteFamily('Georgia')).toBe('Gelasio');
    expect(substituteFamily('Georgia Pro')).toBe('Gelasio');
    for (const name of ['Segoe UI', 'Tahoma', 'Verdana']) expect(substituteFamily(name)).toBe('DejaVuSans');
    expect(substituteFamily('Segoe UI Emoji')).toBe('NotoEmoji');
  });
});
