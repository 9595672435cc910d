import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { bundledFonts } from '../src/fonts/bundled';
import { FACE_FILES } from '../src/fonts/catalog';
import { withoutCharacters, withTablesHidden } from '../src/fonts/face-tables';

const LIGATURES = new Set([0xfb00, 0xfb01, 0xfb02, 0xfb03, 0xfb04]);

describe('face tables', () => {
  it('a rewritten character map drops the given characters and maps every other one to the same glyph', async () => {
    const mupdf = await loadMupdf();
    for (const family of ['Carlito', 'Tinos'] as const) {
      const bytes = bundledFonts(FACE_FILES[family].regular)!;
      const before = new mupdf.Font(family, bytes);
      const after = new mupdf.Font(family, withoutCharacters(bytes, LIGATURES));
      expect(before.encodeCharacter(0xfb01)).toBeGreaterThan(0);
      for (const c of LIGATURES) expect(after.encodeCharacter(c)).toBe(0);
      let mapped = 0;
      for (let c = 0x20; c < 0xfffe; c++) {
        if (LIGATURES.has(c)) continue;
        const glyph = before.encodeCharacter(c);
        expect(after.encodeCharacter(c)).toBe(glyph);
        if (glyph) mapped++;
      }
      expect(mapped).toBeGreaterThan(1000); // Latin, Greek, Cyrillic
      before.destroy();
      after.destroy();
    }
  });

  it('a face without the dropped characters is returned as it is', () => {
    const bytes = bundledFonts(FACE_FILES.Carlito.regular)!;
    expect(withoutCharacters(bytes, new Set([0x10ffff]))).toBe(bytes);
  });

  it('hidden tables keep the directory but not their tags', () => {
    const bytes = bundledFonts(FACE_FILES.Tinos.regular)!;
    const tags = (b: Uint8Array) => Array.from({ length: (b[4]! << 8) | b[5]! }, (_, i) => String.fromCharCode(...b.subarray(12 + i * 16, 16 + i * 16)));
    const hidden = tags(withTablesHidden(bytes, ['GSUB', 'GPOS', 'GDEF']));
    expect(tags(bytes)).toEqual(expect.arrayContaining(['GSUB', 'GPOS', 'GDEF']));
    expect(hidden).toEqual(expect.arrayContaining(['GSUb', 'GPOs', 'GDEf']));
    expect(hidden).not.toContain('GPOS');
    expect(hidden).toHaveLength(tags(bytes).length);
  });
});
