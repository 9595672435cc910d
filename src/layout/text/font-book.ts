import type * as Mupdf from 'mupdf';
import { FACE_FILES, FALLBACK, faceStyle, isDocumentFamily, substituteFamily, type CatalogFamily, type FaceStyle, type Family, type FontFiles } from '../../fonts/catalog';
import type { DocumentFaceSet } from './document-face-set';
import { hheaBaselineFactor, hheaLineFactor, withoutCharacters, withTablesHidden } from '../../fonts/face-tables';
import { PairKerning } from './pair-kerning';

type MupdfModule = typeof Mupdf;

const books = new WeakMap<FontFiles, FontBook>();
/** The book made last: the next set of faces starts from what it knows. */
let latestBook: FontBook | undefined;
export { TABLE_SLOTS, slotOf } from '../../fonts/glyph-slots';
import { TABLE_SLOTS, slotOf } from '../../fonts/glyph-slots';

/**
 * The ligatures ff, fi, fl, ffi, ffl: MuPDF forms them from the character map when it places text
 * without HarfBuzz, and they are narrower than their letters (Tinos' fi by 9%). Word forms none
 * unless asked, so the faces do not map them (text that holds these characters is written with
 * their letters, inline-html.ts).
 */
export const LIGATURE_LETTERS: Record<string, string> = { '\ufb00': 'ff', '\ufb01': 'fi', '\ufb02': 'fl', '\ufb03': 'ffi', '\ufb04': 'ffl' };
const LIGATURES = new Set(Object.keys(LIGATURE_LETTERS).map((ch) => ch.codePointAt(0)!));

/** The suffix of a CSS family name that asks for the kerned face (see cssFamily). */
const KERNED = 'Kerned';

/** The CSS family name of a face: kerned text names its own face, as MuPDF's HTML engine has no font-kerning. */
export const cssFamily = (family: Family, kern: boolean): string => (kern ? `${family}${KERNED}` : family);

/**
 * The faces a conversion draws with, shared by our own measuring (tab stops, line heights) and
 * MuPDF's HTML layout, so both agree on every advance width.
 */
export class FontBook {
  /**
   * The book of these font files, kept for the next conversion in this isolate: a face read once
   * keeps its parsed tables, its MD5 (the PDF writer hashes the whole face file on first use) and
   * its glyph advances, which every conversion would otherwise pay again.
   */
  static shared(mupdf: MupdfModule, files: FontFiles): FontBook {
    let book = books.get(files);
    if (!book || book.mupdf !== mupdf) {
      book = new FontBook(mupdf, files);
      // The isolate's faces grow as documents ask for more (fonts/face-shelf.ts hands a new FontFiles
      // each time): what the previous book learnt of the faces it had carries over.
      if (latestBook?.mupdf === mupdf) book.inherit(latestBook);
      books.set(files, book);
    }
    latestBook = book;
    return book;
  }

  /**
   * The book of a document that carries faces of its own (a deck's embedded fonts): the shared
   * book's knowledge of the catalog's faces, with the document's families over it. Kept for this
   * conversion alone: the next document's embedded faces are other faces.
   */
  static withDocumentFaces(mupdf: MupdfModule, files: FontFiles, document: DocumentFaceSet | undefined): FontBook {
    const shared = FontBook.shared(mupdf, files);
    if (!document) return shared;
    const book = new FontBook(mupdf, files, document);
    book.inherit(shared);
    return book;
  }

  /**
   * Takes over `old`'s parsed faces, advances, glyph ids, kerning, coverage and metrics of every
   * face both books have. What it learnt of a face it lacked ("no glyph", the fallback metric) is
   * left behind: that face may be here now.
   */
  private inherit(old: FontBook): void {
    // A face both books have: what the old one learnt of it holds here (the same bytes).
    const had = (family: string, style: FaceStyle = 'regular') => {
      const file = FACE_FILES[family as CatalogFamily]?.[style];
      return file !== undefined && old.files(file) !== undefined && this.files(file) !== undefined;
    };
    const byStyle = (key: string) => {
      const [family, style] = key.split('/');
      return had(family!, style as FaceStyle);
    };
    const byFamily = (key: string) => had(key.split('/')[0]!);
    const carry = <K, V>(from: Map<K, V>, to: Map<K, V>, keep: (key: K) => boolean) => {
      for (const [key, value] of from) if (keep(key)) to.set(key, value);
    };
    carry(old.faces, this.faces, byStyle);
    const kept = new Set(this.faces.values());
    carry(old.sources, this.sources, (font) => kept.has(font));
    carry(old.kernings, this.kernings, byStyle);
    carry(old.glyphIds, this.glyphIds, byStyle);
    carry(old.advances, this.advances, byStyle);
    carry(old.bmpAdvances, this.bmpAdvances, byStyle);
    carry(old.coverage, this.coverage, byFamily);
    carry(old.bmpCoverage, this.bmpCoverage, byFamily);
    for (const k of [0, 1] as const) {
      carry(old.baselines[k], this.baselines[k], byFamily);
      carry(old.lines[k], this.lines[k], byFamily);
    }
  }

  private faces = new Map<string, Mupdf.Font>();
  private coverage = new Map<Family, Map<number, boolean>>();
  private advances = new Map<string, Map<number, number>>();
  private bmpCoverage = new Map<Family, Int8Array>();
  /** The bytes each face was made from (what MuPDF's writer embeds): our own PDF fonts embed them too (paint/embedded-faces.ts). */
  private sources = new Map<Mupdf.Font, Uint8Array>();
  private bmpAdvances = new Map<string, Float32Array>();

  constructor(
    readonly mupdf: MupdfModule,
    private readonly files: FontFiles,
    private readonly document?: DocumentFaceSet,
  ) {}

  /** The family a font name is drawn in: the document's own face of it where it embeds one, else the catalog's substitute. */
  familyOf(name: string | undefined): Family {
    return this.document?.familyOf(name) ?? substituteFamily(name);
  }

  /** The file of a family's face in a style: the catalog's, or the document's own (its nearest style). */
  private faceBytes(family: Family, style: FaceStyle): Uint8Array | undefined {
    return isDocumentFamily(family) ? this.document?.face(family, style)?.bytes : this.files(FACE_FILES[family][style]);
  }

  /** Makes MuPDF's HTML engine take its fonts from this book: CSS families are our family names. */
  install(): void {
    this.mupdf.installLoadFontFunction((name, _script, bold, italic) => {
      const kerned = name.endsWith(KERNED);
      const bare = (kerned ? name.slice(0, -KERNED.length) : name).toLowerCase();
      const family = (Object.keys(FACE_FILES) as Family[]).find((f) => f.toLowerCase() === bare) ?? substituteFamily(name);
      return this.face(family, !!bold, !!italic, kerned) ?? null;
    });
  }

  /**
   * A face as MuPDF lays it out. Without kerning (`kerned` false, what Word does unless a run asks
   * for it) the Office look-alikes carry no OpenType layout tables at all, and MuPDF then places
   * Latin, Greek and Cyrillic text by the glyphs' advances without calling HarfBuzz: a fifth of a
   * long document's time. DejaVu keeps its positioning (marks, Arabic) either way. GSUB is hidden
   * in every face: HarfBuzz would form ligatures ("fi", "ft") whose text extraction loses letters
   * ("after" read "a er"), which broke search and copy in the PDF.
   */
  face(family: Family, bold: boolean, italic: boolean, kerned = false): Mupdf.Font | undefined {
    const style = faceStyle(bold, italic);
    // A document's own face is drawn as it is: our layout maps characters itself, MuPDF's HTML engine never sets it.
    if (isDocumentFamily(family)) return this.document?.face(family, style)?.font;
    const plain = !kerned && family !== 'DejaVuSans';
    const key = `${family}/${style}${plain ? '' : '/kerned'}`;
    let font = this.faces.get(key);
    if (!font) {
      const bytes = this.files(FACE_FILES[family][style]);
      if (!bytes) return undefined;
      const source = withoutCharacters(withTablesHidden(bytes, plain ? ['GSUB', 'GPOS', 'GDEF'] : ['GSUB']), LIGATURES);
      font = new this.mupdf.Font(family, source);
      this.faces.set(key, font);
      this.sources.set(font, source);
    }
    return font;
  }

  private kernings = new Map<string, PairKerning | null>();
  private glyphIds = new Map<string, Int32Array>();

  /** A face's pair kerning from its GPOS table (what MuPDF applies to a kerned run), or undefined when it has none. */
  kerning(family: Family, bold: boolean, italic: boolean): PairKerning | undefined {
    const key = `${family}/${faceStyle(bold, italic)}`;
    let kerning = this.kernings.get(key);
    if (kerning === undefined) {
      const bytes = this.faceBytes(family, faceStyle(bold, italic));
      this.kernings.set(key, (kerning = (bytes && PairKerning.of(bytes)) || null));
    }
    return kerning ?? undefined;
  }

  /** A face's glyph id of a character (0: none), looked up once per slot. */
  glyphId(family: Family, bold: boolean, italic: boolean, codePoint: number): number {
    const key = `${family}/${faceStyle(bold, italic)}`;
    let table = this.glyphIds.get(key);
    if (!table) this.glyphIds.set(key, (table = new Int32Array(TABLE_SLOTS).fill(-1)));
    const slot = slotOf(codePoint);
    let gid = slot >= 0 ? table[slot]! : -1;
    if (gid < 0) {
      const font = this.face(family, bold, italic);
      gid = font ? Math.max(0, font.encodeCharacter(codePoint)) : 0;
      if (slot >= 0) table[slot] = gid;
    }
    return gid;
  }

  /** The font file a face of this book was made from. */
  bytesOf(font: Mupdf.Font): Uint8Array | undefined {
    const own = this.document?.loadedOf(font);
    // A CFF face is left to MuPDF's writer, which embeds CFF (ours subsets and embeds TrueType only).
    if (own) return own.outlines === 'glyf' ? own.bytes : undefined;
    return this.sources.get(font);
  }

  /** The family's coverage by slot (slotOf) as covers() fills it: 1 has the character, -1 lacks it, 0 not asked yet. */
  coverageTable(family: Family): Int8Array {
    let table = this.bmpCoverage.get(family);
    if (!table) this.bmpCoverage.set(family, (table = new Int8Array(TABLE_SLOTS)));
    return table;
  }

  /** True when the family draws the character itself (no fallback needed); remembered per family. */
  covers(family: Family, codePoint: number): boolean {
    const slot = slotOf(codePoint);
    if (slot >= 0) {
      // A typed table: asked for every character laid out (layout/blocks/).
      const table = this.coverageTable(family);
      if (table[slot] === 0) {
        const font = this.face(family, false, false);
        table[slot] = font && font.encodeCharacter(codePoint) > 0 ? 1 : -1;
      }
      return table[slot] === 1;
    }
    let known = this.coverage.get(family);
    if (!known) this.coverage.set(family, (known = new Map()));
    let yes = known.get(codePoint);
    if (yes === undefined) {
      const font = this.face(family, false, false);
      yes = !!font && font.encodeCharacter(codePoint) > 0;
      known.set(codePoint, yes);
    }
    return yes;
  }

  /**
   * A face's advance widths in em by slot (slotOf; NaN: not asked
   * yet; fill with `advanceOf`): our line breaker reads one per character, where a Map lookup by a
   * string key cost more than the breaking itself.
   */
  advanceTable(family: Family, bold: boolean, italic: boolean): Float32Array {
    const key = `${family}/${faceStyle(bold, italic)}`;
    let table = this.bmpAdvances.get(key);
    if (!table) this.bmpAdvances.set(key, (table = new Float32Array(TABLE_SLOTS).fill(NaN)));
    return table;
  }

  /** The advance (em) of a character in a face, as measure counts it (0.5 when the face lacks it), kept in its table (or Map, past it). */
  advanceOf(table: Float32Array, family: Family, bold: boolean, italic: boolean, codePoint: number): number {
    const slot = slotOf(codePoint);
    if (slot < 0) return this.astralAdvance(family, bold, italic, codePoint);
    return (table[slot] = this.faceAdvance(family, bold, italic, codePoint));
  }

  private faceAdvance(family: Family, bold: boolean, italic: boolean, codePoint: number): number {
    const font = this.face(family, bold, italic);
    const gid = font ? font.encodeCharacter(codePoint) : 0;
    return font && gid > 0 ? font.advanceGlyph(gid, 0) : 0.5;
  }

  /** The family that draws a character: the wanted one, else the first fallback that has it, else the wanted one anyway. */
  familyFor(family: Family, codePoint: number): Family {
    // Every catalog face draws ASCII; a document's face may be cut to the characters it was saved with.
    if (codePoint < 0x80 && (!this.document || !isDocumentFamily(family))) return family;
    if (this.covers(family, codePoint)) return family;
    const fallbacks = isDocumentFamily(family) ? (this.document?.fallbacks(family) ?? []) : FALLBACK[family];
    return fallbacks.find((other) => this.covers(other, codePoint)) ?? family;
  }

  /** Advance width of a string in points (no kerning: close enough for tab stops); advances remembered per face. */
  measure(text: string, family: Family, bold: boolean, italic: boolean, size: number): number {
    let em = 0;
    // The advances of the face last used: looked up again only when a character needs another family.
    let face = family;
    let table = this.advanceTable(family, bold, italic);
    for (let i = 0; i < text.length; i++) {
      let cp = text.charCodeAt(i);
      if (cp >= 0xd800 && cp < 0xdc00 && i + 1 < text.length) {
        cp = text.codePointAt(i)!;
        i++;
      }
      const fam = this.familyFor(family, cp);
      if (fam !== face) {
        face = fam;
        table = this.advanceTable(fam, bold, italic);
      }
      const slot = slotOf(cp);
      let advance = slot >= 0 ? table[slot]! : this.astralAdvance(fam, bold, italic, cp);
      if (advance !== advance) advance = this.advanceOf(table, fam, bold, italic, cp);
      em += advance;
    }
    return em * size;
  }

  /** Advance (em) of a character past the typed tables, remembered per face. */
  private astralAdvance(family: Family, bold: boolean, italic: boolean, codePoint: number): number {
    const key = `${family}/${faceStyle(bold, italic)}`;
    let advances = this.advances.get(key);
    if (!advances) this.advances.set(key, (advances = new Map()));
    let advance = advances.get(codePoint);
    if (advance === undefined) advances.set(codePoint, (advance = this.faceAdvance(family, bold, italic, codePoint)));
    return advance;
  }

  /** The baseline's depth in a single-spaced line as a multiple of the font size (see hheaBaselineFactor). */
  baselineFactor(family: Family, withLineGap = true): number {
    return this.metric(this.baselines[withLineGap ? 1 : 0], family, (bytes) => hheaBaselineFactor(bytes, withLineGap), 0.9);
  }

  /** Single line height as a multiple of the font size (see hheaLineFactor), with or without the line gap. */
  lineFactor(family: Family, withLineGap = true): number {
    return this.metric(this.lines[withLineGap ? 1 : 0], family, (bytes) => hheaLineFactor(bytes, withLineGap), 1.15);
  }

  /** Baseline and line factors by family, without and with the line gap: asked for every line laid, so kept by family alone (a key string made per call cost a sheet's layout 3%). */
  private readonly baselines: [Map<Family, number>, Map<Family, number>] = [new Map(), new Map()];
  private readonly lines: [Map<Family, number>, Map<Family, number>] = [new Map(), new Map()];

  /** A vertical metric of the family's regular face, read once into `cache`; `fallback` when the face has none. */
  private metric(cache: Map<Family, number>, family: Family, read: (bytes: Uint8Array) => number | undefined, fallback: number): number {
    let factor = cache.get(family);
    if (factor === undefined) {
      const bytes = this.faceBytes(family, 'regular');
      factor = (bytes && read(bytes)) || fallback;
      cache.set(family, factor);
    }
    return factor;
  }
}
