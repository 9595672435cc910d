/**
 * Every face file at hand, as modules of bytes: for the tests (vitest.config.ts loads .ttf files as
 * bytes) and nothing else. No Worker imports this file (the dependency rule faces-are-data says
 * so) and no Worker's wrangler.toml has a rule for .ttf, so no bundle can carry a face: the
 * Workers read them from their FONTS static assets (face-shelf.ts).
 */
import carlitoRegular from '@expo-google-fonts/carlito/400Regular/Carlito_400Regular.ttf';
import carlitoBold from '@expo-google-fonts/carlito/700Bold/Carlito_700Bold.ttf';
import carlitoItalic from '@expo-google-fonts/carlito/400Regular_Italic/Carlito_400Regular_Italic.ttf';
import carlitoBoldItalic from '@expo-google-fonts/carlito/700Bold_Italic/Carlito_700Bold_Italic.ttf';
import caladeaRegular from '@expo-google-fonts/caladea/400Regular/Caladea_400Regular.ttf';
import caladeaBold from '@expo-google-fonts/caladea/700Bold/Caladea_700Bold.ttf';
import caladeaItalic from '@expo-google-fonts/caladea/400Regular_Italic/Caladea_400Regular_Italic.ttf';
import caladeaBoldItalic from '@expo-google-fonts/caladea/700Bold_Italic/Caladea_700Bold_Italic.ttf';
import arimoRegular from '@expo-google-fonts/arimo/400Regular/Arimo_400Regular.ttf';
import arimoBold from '@expo-google-fonts/arimo/700Bold/Arimo_700Bold.ttf';
import arimoItalic from '@expo-google-fonts/arimo/400Regular_Italic/Arimo_400Regular_Italic.ttf';
import arimoBoldItalic from '@expo-google-fonts/arimo/700Bold_Italic/Arimo_700Bold_Italic.ttf';
import tinosRegular from '@expo-google-fonts/tinos/400Regular/Tinos_400Regular.ttf';
import tinosBold from '@expo-google-fonts/tinos/700Bold/Tinos_700Bold.ttf';
import tinosItalic from '@expo-google-fonts/tinos/400Regular_Italic/Tinos_400Regular_Italic.ttf';
import tinosBoldItalic from '@expo-google-fonts/tinos/700Bold_Italic/Tinos_700Bold_Italic.ttf';
import cousineRegular from '@expo-google-fonts/cousine/400Regular/Cousine_400Regular.ttf';
import cousineBold from '@expo-google-fonts/cousine/700Bold/Cousine_700Bold.ttf';
import cousineItalic from '@expo-google-fonts/cousine/400Regular_Italic/Cousine_400Regular_Italic.ttf';
import cousineBoldItalic from '@expo-google-fonts/cousine/700Bold_Italic/Cousine_700Bold_Italic.ttf';
import gelasioRegular from '@expo-google-fonts/gelasio/400Regular/Gelasio_400Regular.ttf';
import gelasioBold from '@expo-google-fonts/gelasio/700Bold/Gelasio_700Bold.ttf';
import gelasioItalic from '@expo-google-fonts/gelasio/400Regular_Italic/Gelasio_400Regular_Italic.ttf';
import gelasioBoldItalic from '@expo-google-fonts/gelasio/700Bold_Italic/Gelasio_700Bold_Italic.ttf';
import dejavuSans from 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf';
import dejavuSansBold from 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf';
import dejavuMath from 'dejavu-fonts-ttf/ttf/DejaVuMathTeXGyre.ttf';
import notoEmoji from '@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf';
import notoSymbols from '@expo-google-fonts/noto-sans-symbols/400Regular/NotoSansSymbols_400Regular.ttf';
import notoSymbols2 from '@expo-google-fonts/noto-sans-symbols-2/400Regular/NotoSansSymbols2_400Regular.ttf';
import caveatRegular from '@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf';
import { FACE_FILES, HANDWRITING, type CatalogFamily, type FontFiles } from './catalog';

const byStyle = (regular: ArrayBuffer, bold: ArrayBuffer, italic: ArrayBuffer, boldItalic: ArrayBuffer) => ({ regular, bold, italic, boldItalic });

const FAMILIES: Record<CatalogFamily, ReturnType<typeof byStyle>> = {
  Carlito: byStyle(carlitoRegular, carlitoBold, carlitoItalic, carlitoBoldItalic),
  Caladea: byStyle(caladeaRegular, caladeaBold, caladeaItalic, caladeaBoldItalic),
  Arimo: byStyle(arimoRegular, arimoBold, arimoItalic, arimoBoldItalic),
  Tinos: byStyle(tinosRegular, tinosBold, tinosItalic, tinosBoldItalic),
  Cousine: byStyle(cousineRegular, cousineBold, cousineItalic, cousineBoldItalic),
  Gelasio: byStyle(gelasioRegular, gelasioBold, gelasioItalic, gelasioBoldItalic),
  DejaVuSans: byStyle(dejavuSans, dejavuSansBold, dejavuSans, dejavuSansBold),
  DejaVuMath: byStyle(dejavuMath, dejavuMath, dejavuMath, dejavuMath),
  NotoEmoji: byStyle(notoEmoji, notoEmoji, notoEmoji, notoEmoji),
  NotoSymbols: byStyle(notoSymbols, notoSymbols, notoSymbols, notoSymbols),
  NotoSymbols2: byStyle(notoSymbols2, notoSymbols2, notoSymbols2, notoSymbols2),
};

const BYTES = new Map<string, ArrayBuffer>([
  ...(Object.keys(FAMILIES) as CatalogFamily[]).flatMap((family) => (Object.keys(FAMILIES[family]) as (keyof ReturnType<typeof byStyle>)[]).map((style) => [FACE_FILES[family][style], FAMILIES[family][style]] as const)),
  [HANDWRITING, caveatRegular],
]);

export const bundledFonts: FontFiles = (file) => {
  const bytes = BYTES.get(file);
  return bytes ? new Uint8Array(bytes) : undefined;
};
