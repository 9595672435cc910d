/**
 * The fonts documents are drawn with: metric-compatible free faces for the common Office fonts, all
 * from the npm registry (@expo-google-fonts/*, TTF; MuPDF reads no WOFF). A face that lacks a script
 * (Caladea and Gelasio have no Cyrillic) falls back per character to a family that has it.
 *
 * The faces are data, not code: scripts/fonts-assets.mjs copies every file named here into the
 * engine Workers' static assets (the FONTS binding), and a conversion loads the ones its document
 * asks for (face-shelf.ts, face-needs.ts).
 */
export type CatalogFamily =
  | 'Carlito' | 'Caladea' | 'Arimo' | 'Tinos' | 'Cousine' | 'Gelasio'
  | 'DejaVuSans' | 'DejaVuMath' | 'NotoEmoji' | 'NotoSymbols' | 'NotoSymbols2';
/**
 * A family a document carries itself (a deck's embedded fonts: layout/text/document-face-set.ts),
 * numbered within the conversion's FontBook: no file of the catalog, no meaning outside that book.
 */
export type DocumentFamily = `Document${number}`;
/** A family text is laid out and drawn in: one of the catalog's, or one the document carries. */
export type Family = CatalogFamily | DocumentFamily;

export const isDocumentFamily = (family: Family): family is DocumentFamily => family.startsWith('Document');
export type FaceStyle = 'regular' | 'bold' | 'italic' | 'boldItalic';

/** Face files, relative to node_modules/. */
export const FACE_FILES: Record<CatalogFamily, Record<FaceStyle, string>> = {
  Carlito: faces('carlito', 'Carlito'),
  Caladea: faces('caladea', 'Caladea'),
  Arimo: faces('arimo', 'Arimo'),
  Tinos: faces('tinos', 'Tinos'),
  Cousine: faces('cousine', 'Cousine'),
  // Georgia's metrics (fontconfig's metric alias for it); no Cyrillic, which falls back to Tinos.
  Gelasio: faces('gelasio', 'Gelasio'),
  // Fonts with no metric-compatible free face (Segoe UI, Tahoma, Verdana, fonts the machine lacks) and
  // the scripts the Office look-alikes lack (Arabic, Hebrew, Armenian, ☐ ☒): what LibreOffice shows too.
  DejaVuSans: {
    regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
    bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
    // Upright faces only (MuPDF slants them for italic text): the obliques would add 1.3 MB to the Worker.
    italic: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
    boldItalic: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
  },
  // The mathematical letters and symbols (𝑤𝑖, 𝐀, 𝔽: U+1D400 on) Office equations are written in
  // ("Cambria Math"), which no text face draws: the face LibreOffice falls back to for them. One file:
  // its letters carry their own style (italic, bold, script) in the code point.
  DejaVuMath: {
    regular: 'dejavu-fonts-ttf/ttf/DejaVuMathTeXGyre.ttf',
    bold: 'dejavu-fonts-ttf/ttf/DejaVuMathTeXGyre.ttf',
    italic: 'dejavu-fonts-ttf/ttf/DejaVuMathTeXGyre.ttf',
    boldItalic: 'dejavu-fonts-ttf/ttf/DejaVuMathTeXGyre.ttf',
  },
  // Last resorts for what no text face draws: emoji (monochrome: MuPDF paints no colour glyphs) and
  // the symbol blocks (arrows, dingbats, geometric shapes, chess, Braille). One weight each, upright
  // (MuPDF emboldens and slants them): they are loaded only for documents that hold such characters.
  NotoEmoji: single('@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf'),
  NotoSymbols: single('@expo-google-fonts/noto-sans-symbols/400Regular/NotoSansSymbols_400Regular.ttf'),
  NotoSymbols2: single('@expo-google-fonts/noto-sans-symbols-2/400Regular/NotoSansSymbols2_400Regular.ttf'),
};

function single(file: string): Record<FaceStyle, string> {
  return { regular: file, bold: file, italic: file, boldItalic: file };
}

function faces(dir: string, name: string): Record<FaceStyle, string> {
  return {
    regular: `@expo-google-fonts/${dir}/400Regular/${name}_400Regular.ttf`,
    bold: `@expo-google-fonts/${dir}/700Bold/${name}_700Bold.ttf`,
    italic: `@expo-google-fonts/${dir}/400Regular_Italic/${name}_400Regular_Italic.ttf`,
    boldItalic: `@expo-google-fonts/${dir}/700Bold_Italic/${name}_700Bold_Italic.ttf`,
  };
}

/** After every text face: emoji first (the symbol faces draw some emoji too, less like Word's). */
const LAST_RESORTS: CatalogFamily[] = ['NotoEmoji', 'NotoSymbols2', 'NotoSymbols'];

/** Where a family has no glyph for a character, these families are tried next, in order. */
export const FALLBACK: Record<CatalogFamily, CatalogFamily[]> = {
  Carlito: ['Arimo', 'DejaVuSans', 'DejaVuMath', ...LAST_RESORTS],
  Caladea: ['Tinos', 'DejaVuSans', 'DejaVuMath', ...LAST_RESORTS],
  Arimo: ['Tinos', 'DejaVuSans', 'DejaVuMath', ...LAST_RESORTS],
  Tinos: ['Arimo', 'DejaVuSans', 'DejaVuMath', ...LAST_RESORTS],
  Cousine: ['Arimo', 'DejaVuSans', 'DejaVuMath', ...LAST_RESORTS],
  Gelasio: ['Tinos', 'DejaVuSans', 'DejaVuMath', ...LAST_RESORTS],
  DejaVuSans: ['DejaVuMath', ...LAST_RESORTS],
  DejaVuMath: [...LAST_RESORTS],
  NotoEmoji: ['NotoSymbols2', 'NotoSymbols'],
  NotoSymbols: ['NotoSymbols2', 'NotoEmoji'],
  NotoSymbols2: ['NotoSymbols', 'NotoEmoji'],
};

/** Bytes of a face file (see FACE_FILES), synchronously: MuPDF asks for fonts in the middle of layout. */
export type FontFiles = (file: string) => Uint8Array | undefined;

/** A handwriting face with Cyrillic (Caveat, OFL) for visual signatures. */
export const HANDWRITING = '@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf';

/** Every face file the service carries: what scripts/fonts-assets.mjs copies into the FONTS assets. */
export const ALL_FACE_FILES: readonly string[] = [...new Set([...Object.values(FACE_FILES).flatMap((styles) => Object.values(styles)), HANDWRITING])];

export const faceStyle = (bold: boolean, italic: boolean): FaceStyle => (bold ? (italic ? 'boldItalic' : 'bold') : italic ? 'italic' : 'regular');

const EXACT: Record<string, CatalogFamily> = {
  calibri: 'Carlito', 'calibri light': 'Carlito', carlito: 'Carlito',
  cambria: 'Caladea', 'cambria math': 'Caladea', caladea: 'Caladea',
  arial: 'Arimo', helvetica: 'Arimo', arimo: 'Arimo', 'liberation sans': 'Arimo', 'arial narrow': 'Arimo',
  'trebuchet ms': 'Arimo', 'century gothic': 'Arimo', frutiger: 'Arimo',
  'times new roman': 'Tinos', times: 'Tinos', tinos: 'Tinos', 'liberation serif': 'Tinos', georgia: 'Gelasio', gelasio: 'Gelasio',
  garamond: 'Tinos', 'book antiqua': 'Tinos', 'palatino linotype': 'Tinos', 'bookman old style': 'Tinos',
  'courier new': 'Cousine', courier: 'Cousine', cousine: 'Cousine', 'liberation mono': 'Cousine', consolas: 'Cousine',
  'lucida console': 'Cousine',
  'dejavu sans': 'DejaVuSans', 'arial unicode ms': 'DejaVuSans',
  // Verdana's widths are DejaVu Sans' (both descend from Bitstream Vera's proportions); Tahoma is
  // Verdana narrowed, closer to DejaVu than to Arial. Segoe UI has no free twin on the npm registry
  // (Selawik is not there): DejaVu Sans, as LibreOffice shows it without the font.
  verdana: 'DejaVuSans', tahoma: 'DejaVuSans', 'segoe ui': 'DejaVuSans', 'segoe ui light': 'DejaVuSans', 'segoe ui semibold': 'DejaVuSans',
  'segoe ui emoji': 'NotoEmoji', 'segoe ui symbol': 'NotoSymbols2', 'noto emoji': 'NotoEmoji',
};

const substitutes = new Map<string, CatalogFamily>();

/**
 * The family that stands in for a font a document names: the metric-compatible face where one
 * exists, a serif for serif-looking names, else DejaVu Sans (as LibreOffice does for fonts it lacks).
 */
export function substituteFamily(name: string | undefined): CatalogFamily {
  if (!name) return 'Tinos';
  // Asked for every run written and every face MuPDF loads, with a handful of names per document.
  let family = substitutes.get(name);
  if (!family) {
    if (substitutes.size >= 4096) substitutes.clear(); // names are few per document; an isolate lives on
    substitutes.set(name, (family = substituteUncached(name)));
  }
  return family;
}

function substituteUncached(name: string): CatalogFamily {
  const key = name.trim().toLowerCase();
  const exact = EXACT[key];
  if (exact) return exact;
  if (/mono|courier|console|code/.test(key)) return 'Cousine';
  if (/^(arial|helvetica|liberation sans)\b/.test(key)) return 'Arimo';
  if (/^georgia\b/.test(key)) return 'Gelasio';
  if (/^(times|liberation serif)\b|serif|roman|minion|garamond|antiqua|bookman|palatino|schoolbook|cambria/.test(key) && !/sans/.test(key)) return 'Tinos';
  return 'DejaVuSans';
}
