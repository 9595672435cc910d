/**
 * The fonts documents are drawn with: metric-compatible free faces for the common Office fonts, all
 * from the npm registry (@expo-google-fonts/*, TTF; MuPDF reads no WOFF). A face that lacks a script
 * (Caladea has no Cyrillic) falls back per character to a family that has it.
 */
export type Family = 'Carlito' | 'Caladea' | 'Arimo' | 'Tinos' | 'Cousine' | 'DejaVuSans' | 'DejaVuMath';
export type FaceStyle = 'regular' | 'bold' | 'italic' | 'boldItalic';

/** Face files, relative to node_modules/. */
export const FACE_FILES: Record<Family, Record<FaceStyle, string>> = {
  Carlito: faces('carlito', 'Carlito'),
  Caladea: faces('caladea', 'Caladea'),
  Arimo: faces('arimo', 'Arimo'),
  Tinos: faces('tinos', 'Tinos'),
  Cousine: faces('cousine', 'Cousine'),
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
};

function faces(dir: string, name: string): Record<FaceStyle, string> {
  return {
    regular: `@expo-google-fonts/${dir}/400Regular/${name}_400Regular.ttf`,
    bold: `@expo-google-fonts/${dir}/700Bold/${name}_700Bold.ttf`,
    italic: `@expo-google-fonts/${dir}/400Regular_Italic/${name}_400Regular_Italic.ttf`,
    boldItalic: `@expo-google-fonts/${dir}/700Bold_Italic/${name}_700Bold_Italic.ttf`,
  };
}

/** Where a family has no glyph for a character, these families are tried next, in order. */
export const FALLBACK: Record<Family, Family[]> = {
  Carlito: ['Arimo', 'DejaVuSans', 'DejaVuMath'],
  Caladea: ['Tinos', 'DejaVuSans', 'DejaVuMath'],
  Arimo: ['Tinos', 'DejaVuSans', 'DejaVuMath'],
  Tinos: ['Arimo', 'DejaVuSans', 'DejaVuMath'],
  Cousine: ['Arimo', 'DejaVuSans', 'DejaVuMath'],
  DejaVuSans: ['DejaVuMath'],
  DejaVuMath: [],
};

/** Bytes of a face file (see FACE_FILES), synchronously: MuPDF asks for fonts in the middle of layout. */
export type FontFiles = (file: string) => Uint8Array | undefined;

/** A handwriting face with Cyrillic (Caveat, OFL) for visual signatures. */
export const HANDWRITING = '@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf';

export const faceStyle = (bold: boolean, italic: boolean): FaceStyle => (bold ? (italic ? 'boldItalic' : 'bold') : italic ? 'italic' : 'regular');

const EXACT: Record<string, Family> = {
  calibri: 'Carlito', 'calibri light': 'Carlito', carlito: 'Carlito',
  cambria: 'Caladea', 'cambria math': 'Caladea', caladea: 'Caladea',
  arial: 'Arimo', helvetica: 'Arimo', arimo: 'Arimo', 'liberation sans': 'Arimo', 'arial narrow': 'Arimo',
  'trebuchet ms': 'Arimo', 'century gothic': 'Arimo', frutiger: 'Arimo',
  'times new roman': 'Tinos', times: 'Tinos', tinos: 'Tinos', 'liberation serif': 'Tinos', georgia: 'Tinos',
  garamond: 'Tinos', 'book antiqua': 'Tinos', 'palatino linotype': 'Tinos', 'bookman old style': 'Tinos',
  'courier new': 'Cousine', courier: 'Cousine', cousine: 'Cousine', 'liberation mono': 'Cousine', consolas: 'Cousine',
  'lucida console': 'Cousine',
  'dejavu sans': 'DejaVuSans', 'arial unicode ms': 'DejaVuSans',
};

const substitutes = new Map<string, Family>();

/**
 * The family that stands in for a font a document names: the metric-compatible face where one
 * exists, a serif for serif-looking names, else DejaVu Sans (as LibreOffice does for fonts it lacks).
 */
export function substituteFamily(name: string | undefined): Family {
  if (!name) return 'Tinos';
  // Asked for every run written and every face MuPDF loads, with a handful of names per document.
  let family = substitutes.get(name);
  if (!family) {
    if (substitutes.size >= 4096) substitutes.clear(); // names are few per document; an isolate lives on
    substitutes.set(name, (family = substituteUncached(name)));
  }
  return family;
}

function substituteUncached(name: string): Family {
  const key = name.trim().toLowerCase();
  const exact = EXACT[key];
  if (exact) return exact;
  if (/mono|courier|console|code/.test(key)) return 'Cousine';
  if (/^(arial|helvetica|liberation sans)\b/.test(key)) return 'Arimo';
  if (/^(times|liberation serif)\b|serif|roman|minion|garamond|georgia|antiqua|bookman|palatino|schoolbook|cambria/.test(key) && !/sans/.test(key)) return 'Tinos';
  return 'DejaVuSans';
}
