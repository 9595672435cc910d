/**
 * The readers of a document's own faces (src/fonts/document-faces/) on hostile input: an EOT header
 * whose sizes run past its bytes, parts over the limits (refused from their declared size, never
 * read), more faces than are read, only the families the text uses; and a face MuPDF refuses, left
 * out with a problem.
 */
import { describe, expect, it } from 'vitest';
import caveatRegular from '@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf';
import { loadMupdf } from '../src/pdf/mupdf';
import { fontOfEot, isEot } from '../src/fonts/document-faces/eot';
import { DOCUMENT_FACE_BYTES_MAX, DOCUMENT_FACES_BYTES_MAX, DOCUMENT_FACES_MAX, loadDocumentFaces, type FontPartRef } from '../src/fonts/document-faces/load';
import { DocumentFaceSet } from '../src/layout/text/document-face-set';
import { EOT_XOR, eotOf } from './font-fixtures';

const FONT = new Uint8Array(caveatRegular);

/** A part ref over `bytes` that counts its reads. */
function ref(family: string, bytes: Uint8Array, size = bytes.length, part = `fonts/${family}.fntdata`): FontPartRef & { reads: number } {
  const r = { family, style: 'regular' as const, part, size, reads: 0, read: () => (r.reads++, bytes) };
  return r;
}

describe('document faces: EOT', () => {
  it('unwraps every header version, the XOR-ed data restored byte for byte', () => {
    for (const version of [0x00010000, 0x00020001, 0x00020002] as const) {
      for (const flags of [0, EOT_XOR]) {
        const eot = eotOf(FONT, { version, flags });
        expect(isEot(eot)).toBe(true);
        const out = fontOfEot(eot);
        expect('font' in out && out.font.length === FONT.length && out.font.every((b, i) => b === FONT[i]), `${version.toString(16)} ${flags}`).toBe(true);
      }
    }
    expect(isEot(FONT)).toBe(false);
  });

  it('refuses a header whose sizes run past the bytes: the names, the whole, the font data', () => {
    const eot = eotOf(FONT);
    const view = new DataView(eot.buffer);
    const namesTooLong = eot.slice();
    new DataView(namesTooLong.buffer).setUint16(82, 0xfff0, true);
    expect(fontOfEot(namesTooLong.slice(0, 200))).toEqual({ problem: 'its EOT header declares ' + view.getUint32(0, true) + ' bytes; the part holds 200' });
    // Its whole size told true, its family name longer than the 300 bytes there are.
    const cut = namesTooLong.slice(0, 300);
    new DataView(cut.buffer).setUint32(0, cut.length, true);
    expect(fontOfEot(cut)).toEqual({ problem: 'its EOT header runs past the end of the part' });
    expect(fontOfEot(eotOf(FONT, { fontDataSize: 0x7fffffff }))).toMatchObject({ problem: expect.stringMatching(/declares 2147483647 bytes of font data/) });
    // A header cut inside its fixed part is not taken for EOT at all.
    expect(fontOfEot(eot.slice(0, 60))).toEqual({ problem: 'not an Embedded OpenType file (no EOT header)' });
  });
});

describe('document faces: limits', () => {
  it('reads only the faces of families the text uses', () => {
    const used = ref('Used Face', FONT);
    const unused = ref('Unused Face', FONT);
    const faces = loadDocumentFaces([used, unused], [' used face '], () => {});
    expect(faces.map((f) => f.family)).toEqual(['Used Face']);
    expect([used.reads, unused.reads]).toEqual([1, 0]);
  });

  it('refuses a part over the face limit, or past the total, from its declared size without reading it', () => {
    const problems: string[] = [];
    const big = ref('Big', FONT, DOCUMENT_FACE_BYTES_MAX + 1);
    const fill = Array.from({ length: Math.floor(DOCUMENT_FACES_BYTES_MAX / DOCUMENT_FACE_BYTES_MAX) + 1 }, (_, i) => ref(`Fill ${i}`, FONT, DOCUMENT_FACE_BYTES_MAX));
    const faces = loadDocumentFaces([big, ...fill], ['Big', ...fill.map((f) => f.family)], (p) => problems.push(p.reason));
    expect(big.reads).toBe(0);
    expect(faces.length).toBe(Math.floor(DOCUMENT_FACES_BYTES_MAX / DOCUMENT_FACE_BYTES_MAX));
    expect(fill.at(-1)!.reads).toBe(0);
    expect(problems[0]).toMatch(/an embedded font of \d+ bytes; at most \d+ are read/);
    expect(problems.at(-1)).toMatch(/the embedded fonts pass \d+ bytes together/);
  });

  it(`reads at most ${DOCUMENT_FACES_MAX} faces, telling what it leaves`, () => {
    const problems: string[] = [];
    const refs = Array.from({ length: DOCUMENT_FACES_MAX + 3 }, (_, i) => ref(`Face ${i}`, FONT, 1000));
    const faces = loadDocumentFaces(refs, refs.map((r) => r.family), (p) => problems.push(p.reason));
    expect(faces.length).toBe(DOCUMENT_FACES_MAX);
    expect(refs.slice(DOCUMENT_FACES_MAX).every((r) => r.reads === 0)).toBe(true);
    expect(problems).toEqual([expect.stringMatching(new RegExp(`more than ${DOCUMENT_FACES_MAX} faces`))]);
  });

  it('leaves out, with a problem, a face that passes the checks but MuPDF cannot load', async () => {
    const mupdf = await loadMupdf();
    const problems: string[] = [];
    const set = DocumentFaceSet.load(mupdf, [{ family: 'Broken', style: 'regular', bytes: FONT.slice(0, 2000), part: 'Fonts/broken.ttf', outlines: 'glyf' }], (p) => problems.push(`${p.part}: ${p.reason}`));
    expect(set).toBeUndefined();
    expect(problems).toEqual([expect.stringMatching(/^Fonts\/broken\.ttf: an embedded font MuPDF cannot read/)]);
  });
});
