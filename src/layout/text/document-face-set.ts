/**
 * The faces a document carries (fonts/document-faces/), as the FontBook lays out and draws with
 * them: each family it embeds becomes a family of its own (Document0, Document1…) that text
 * naming it is set in, in place of the catalog's substitute, for measuring and drawing alike.
 * A style it lacks is drawn in its nearest embedded style (bold text in the regular face: its
 * letters and widths, as PowerPoint and LibreOffice embolden the face they have); a character it
 * lacks (a face cut to the characters used) falls back to the substitute's chain.
 */
import type * as Mupdf from 'mupdf';
import { FALLBACK, substituteFamily, type CatalogFamily, type DocumentFamily, type FaceStyle } from '../../fonts/catalog';
import { familyKey, type DocumentFace, type FaceProblemSink } from '../../fonts/document-faces/load';

/** The styles tried for a wanted style, nearest first. */
const NEAREST: Record<FaceStyle, FaceStyle[]> = {
  regular: ['regular', 'italic', 'bold', 'boldItalic'],
  bold: ['bold', 'regular', 'boldItalic', 'italic'],
  italic: ['italic', 'regular', 'boldItalic', 'bold'],
  boldItalic: ['boldItalic', 'bold', 'italic', 'regular'],
};

/** A loaded face: MuPDF's font, the file it was made from, its outlines. */
export interface LoadedFace {
  font: Mupdf.Font;
  bytes: Uint8Array;
  outlines: 'glyf' | 'cff';
}

/** The PDF font name of a face: the family's letters and digits, with its style ("OpenSans-Bold"). */
function pdfName(family: string, style: FaceStyle): string {
  const base = family.replace(/[^A-Za-z0-9]/g, '') || 'DocumentFont';
  return style === 'regular' ? base : `${base}-${style === 'boldItalic' ? 'BoldItalic' : style === 'bold' ? 'Bold' : 'Italic'}`;
}

export class DocumentFaceSet {
  private readonly byName = new Map<string, DocumentFamily>();
  private readonly faces = new Map<string, LoadedFace>();
  private readonly substitutes = new Map<DocumentFamily, CatalogFamily>();
  private readonly byFont = new Map<Mupdf.Font, LoadedFace>();

  private constructor() {}

  /**
   * The faces MuPDF loads, each made a family of the set; one MuPDF refuses (FreeType finds it
   * damaged) is told to `problems` and left out: its text keeps the substitute face. Undefined
   * when no face is left.
   */
  static load(mupdf: typeof Mupdf, faces: readonly DocumentFace[], problems: FaceProblemSink): DocumentFaceSet | undefined {
    const set = new DocumentFaceSet();
    for (const face of faces) {
      let font: Mupdf.Font;
      try {
        font = new mupdf.Font(pdfName(face.family, face.style), face.bytes);
      } catch (err) {
        problems({ part: face.part, reason: `an embedded font MuPDF cannot read (${(err as Error).message}): its text is drawn in the substitute face` });
        continue;
      }
      set.add(face, { font, bytes: face.bytes, outlines: face.outlines });
    }
    return set.byName.size ? set : undefined;
  }

  private add(face: DocumentFace, loaded: LoadedFace): void {
    const key = familyKey(face.family);
    let family = this.byName.get(key);
    if (!family) {
      family = `Document${this.byName.size}`;
      this.byName.set(key, family);
      this.substitutes.set(family, substituteFamily(face.family));
    }
    this.faces.set(`${family}/${face.style}`, loaded);
    this.byFont.set(loaded.font, loaded);
  }

  /** The family of the set a font name is drawn in; undefined when the document embeds no face of it. */
  familyOf(name: string | undefined): DocumentFamily | undefined {
    return name ? this.byName.get(familyKey(name)) : undefined;
  }

  /** The face of a family in a style, or in its nearest embedded style. */
  face(family: DocumentFamily, style: FaceStyle): LoadedFace | undefined {
    for (const near of NEAREST[style]) {
      const face = this.faces.get(`${family}/${near}`);
      if (face) return face;
    }
    return undefined;
  }

  /** Where a family lacks a character: the catalog's substitute for its name, then the substitute's own fallbacks. */
  fallbacks(family: DocumentFamily): CatalogFamily[] {
    const substitute = this.substitutes.get(family) ?? 'DejaVuSans';
    return [substitute, ...FALLBACK[substitute]];
  }

  /**
   * Lets MuPDF's copies of the faces go once the deck's PDF is written: they live in MuPDF's
   * memory, which the isolate's garbage collector does not see filling (a deck may embed 16 MB).
   */
  destroy(): void {
    for (const font of this.byFont.keys()) font.destroy();
    this.byFont.clear();
    this.faces.clear();
    this.byName.clear();
  }

  /** The loaded face a font of the set was made from. */
  loadedOf(font: Mupdf.Font): LoadedFace | undefined {
    return this.byFont.get(font);
  }
}
