/**
 * Fonts a page embeds as `@font-face { src: url(data:…) }` (html-to-pdf). MuPDF's CSS reader
 * cannot take a data: URL that long (it ends the style sheet), so the faces are read here and
 * handed to MuPDF through its font loader, which it asks for every family it does not know.
 * TrueType and OpenType as they are, WOFF and WOFF2 unpacked to the font inside them (sfnt.ts,
 * woff2.ts).
 */
import type * as Mupdf from 'mupdf';
import { FACE_FILES, faceStyle, type CatalogFamily, type FontFiles } from '../../fonts/catalog';
import type { StyleRule } from './css-flatten';
import { dataUrlBytes } from '../../codecs/png';
import { withoutLigatures, woffToSfnt } from '../../fonts/sfnt';
import { isWoff2, woff2ToSfnt } from '../../fonts/woff2';

export interface EmbeddedFace {
  family: string;
  bold: boolean;
  italic: boolean;
  bytes: Uint8Array;
}

/** The @font-face rules with a data: source, decoded (faces that do not decode are left out). */
export function embeddedFaces(rules: StyleRule[]): EmbeddedFace[] {
  const faces: EmbeddedFace[] = [];
  for (const rule of rules) {
    if (!/^@font-face$/i.test(rule.selector)) continue;
    const get = (p: string) => rule.declarations.find(([name]) => name === p)?.[1] ?? '';
    const family = unquote(get('font-family'));
    const data = /url\(\s*["']?(data:[^"')]+)["']?\s*\)/i.exec(get('src'))?.[1];
    if (!family || !data) continue;
    const bytes = fontBytes(data);
    if (!bytes) continue;
    const weight = get('font-weight').toLowerCase();
    faces.push({ family, bold: weight === 'bold' || weight === 'bolder' || Number.parseInt(weight, 10) >= 600, italic: /italic|oblique/i.test(get('font-style')), bytes });
  }
  return faces;
}

const unquote = (s: string): string => s.trim().replace(/^(["'])([\s\S]*)\1$/, '$2').trim();

/** A font's bytes from a data: URL (base64 or percent-encoded); WOFF unpacked. */
function fontBytes(url: string): Uint8Array | undefined {
  try {
    const bytes = dataUrlBytes(url);
    return bytes && withoutLigatures(isWoff(bytes) ? woffToSfnt(bytes) : isWoff2(bytes) ? woff2ToSfnt(bytes) : bytes);
  } catch {
    return undefined;
  }
}

const isWoff = (b: Uint8Array): boolean => b[0] === 0x77 && b[1] === 0x4f && b[2] === 0x46 && b[3] === 0x46; // 'wOFF'

/**
 * Faces as Chromium on a Linux server draws them, through fontconfig: the generic families and
 * Times, Arial and Courier in Liberation's designs (Tinos, Arimo and Cousine are Liberation
 * Serif, Sans and Mono as Chromium OS ships them), Calibri and Cambria in their metric twins
 * Carlito and Caladea. MuPDF's own Nimbus faces have the same metrics but other shapes.
 */
const METRIC_TWINS: Record<string, CatalogFamily> = {
  serif: 'Tinos', times: 'Tinos', 'times new roman': 'Tinos', 'liberation serif': 'Tinos', tinos: 'Tinos',
  'sans-serif': 'Arimo', arial: 'Arimo', helvetica: 'Arimo', 'liberation sans': 'Arimo', arimo: 'Arimo',
  monospace: 'Cousine', courier: 'Cousine', 'courier new': 'Cousine', 'liberation mono': 'Cousine', cousine: 'Cousine',
  calibri: 'Carlito', 'calibri light': 'Carlito', carlito: 'Carlito', cambria: 'Caladea', caladea: 'Caladea',
};

/**
 * Installs MuPDF's font loader for one conversion: a family the page embeds gets its face (the
 * closest in weight and style), Calibri and Cambria their bundled twins, any other name MuPDF's
 * own choice.
 */
export interface InstalledFaces {
  /** The face for a family as MuPDF's layout gets it (embedded, a bundled twin), or null for MuPDF's own. */
  fontFor(name: string, bold: boolean, italic: boolean): Mupdf.Font | null;
  uninstall(): void;
}

export function installEmbeddedFaces(mupdf: typeof Mupdf, faces: EmbeddedFace[], bundled?: FontFiles): InstalledFaces {
  const loaded = new Map<EmbeddedFace, Mupdf.Font | null>();
  const load = (face: EmbeddedFace): Mupdf.Font | null => {
    if (!loaded.has(face)) {
      try {
        loaded.set(face, new mupdf.Font(face.family, face.bytes));
      } catch {
        loaded.set(face, null); // a face FreeType cannot read: MuPDF falls back to its own
      }
    }
    return loaded.get(face)!;
  };
  const fontFor = (name: string, bold: boolean, italic: boolean): Mupdf.Font | null => {
    const family = faces.filter((f) => f.family.toLowerCase() === name.toLowerCase());
    if (!family.length) return twin(mupdf, name, bold, italic, bundled);
    const ranked = [...family].sort((a, b) => mismatch(a, bold, italic) - mismatch(b, bold, italic));
    for (const face of ranked) {
      const font = load(face);
      if (font) return font;
    }
    return null;
  };
  mupdf.installLoadFontFunction((name, _script, bold, italic) => fontFor(name, !!bold, !!italic));
  return { fontFor, uninstall: () => mupdf.installLoadFontFunction(() => null) };
}

/** Bundled twins by MuPDF instance: a replaced instance's fonts must not reach its successor. */
const twinsOf = new WeakMap<typeof Mupdf, Map<string, Mupdf.Font>>();

function twin(mupdf: typeof Mupdf, name: string, bold: boolean, italic: boolean, bundled: FontFiles | undefined): Mupdf.Font | null {
  const family = METRIC_TWINS[name.toLowerCase()];
  if (!family || !bundled) return null;
  const file = FACE_FILES[family][faceStyle(bold, italic)];
  let twins = twinsOf.get(mupdf);
  if (!twins) twinsOf.set(mupdf, (twins = new Map()));
  let font = twins.get(file);
  if (!font) {
    const bytes = bundled(file);
    if (!bytes) return null;
    twins.set(file, (font = new mupdf.Font(family, withoutLigatures(bytes))));
  }
  return font;
}

const mismatch = (face: EmbeddedFace, bold: boolean, italic: boolean): number => (face.italic !== italic ? 2 : 0) + (face.bold !== bold ? 1 : 0);

/**
 * Family lists as MuPDF should read them: unquoted names of several words quoted
 * (`font-family: Source Sans Pro` → `'Source Sans Pro'`: CSS reads them as one name, MuPDF as
 * several), and the symbol faces browsers on a server do not have (Symbol, Wingdings, Webdings)
 * left out, so that their text falls back to the default face as there: MuPDF has a Symbol face
 * of its own, in which Word's list bullets came out as unknown glyphs. Arial, Helvetica, Times
 * and Courier go to the loader as Liberation's designs (METRIC_TWINS).
 */
/** Names MuPDF answers with its Nimbus faces without asking the loader: renamed to the Liberation designs. */
const BUILT_IN: Record<string, string> = { arial: 'Arimo', helvetica: 'Arimo', times: 'Tinos', 'times new roman': "'Times New Roman'", courier: 'Cousine', 'courier new': "'Courier New'" };

export function quoteFamilies(css: string): string {
  return css.replace(/(font-family\s*:\s*)([^;{}"']+?)(?=\s*(?:!important)?\s*(?:[;}"]|$))/gi, (_, head: string, list: string) => {
    const names = list
      .split(',')
      .map((name) => name.trim())
      .filter((name) => !/^(symbol|wingdings|webdings)$/i.test(name))
      .map((name) => BUILT_IN[name.replace(/^["']|["']$/g, '').toLowerCase()] ?? name);
    return head + (names.length ? names.map((name) => (/^[\w-]+(\s+[\w-]+)+$/.test(name) ? `'${name}'` : name)).join(', ') : 'serif');
  });
}

/** Elements a browser's style sheet (and MuPDF's) sets in monospace. */
const MONOSPACE_ELEMENTS = /<(pre|code|kbd|samp|tt|xmp|listing|plaintext|textarea)\b/i;
const TWIN_NAMES = new RegExp(`\\b(${Object.keys(METRIC_TWINS).sort((a, b) => b.length - a.length).join('|')})\\b`, 'gi');

/**
 * The twin face files a page can ask MuPDF's loader for, read off its source before layout (the
 * faces are fetched, and the layout asks for them synchronously): each twin named anywhere in it
 * (a style sheet, a face attribute, its text: a name too many costs a fetch once per isolate, one
 * too few a face), the serif default, and the monospace one where an element is set in it.
 */
export function twinFacesAskedBy(html: string): string[] {
  const families = new Set<CatalogFamily>(['Tinos']);
  if (MONOSPACE_ELEMENTS.test(html)) families.add('Cousine');
  for (const [name] of html.matchAll(TWIN_NAMES)) families.add(METRIC_TWINS[name.toLowerCase()]!);
  return [...families].flatMap((family) => Object.values(FACE_FILES[family]));
}
