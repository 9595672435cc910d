/**
 * The face files bundled into the Worker as Data modules (wrangler rule for **\/*.ttf): MuPDF asks
 * for fonts synchronously during layout, so the bytes must be at hand; they become MuPDF fonts
 * only when a document uses them.
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
import dejavuSans from 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf';
import dejavuSansBold from 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf';
import dejavuMath from 'dejavu-fonts-ttf/ttf/DejaVuMathTeXGyre.ttf';
// Handwriting with Cyrillic, for visual signatures (operations/sign.ts).
import caveatRegular from '@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf';
import { FACE_FILES, HANDWRITING, type FontFiles } from './catalog';

const BYTES: Record<string, ArrayBuffer> = {
  [FACE_FILES.Carlito.regular]: carlitoRegular,
  [FACE_FILES.Carlito.bold]: carlitoBold,
  [FACE_FILES.Carlito.italic]: carlitoItalic,
  [FACE_FILES.Carlito.boldItalic]: carlitoBoldItalic,
  [FACE_FILES.Caladea.regular]: caladeaRegular,
  [FACE_FILES.Caladea.bold]: caladeaBold,
  [FACE_FILES.Caladea.italic]: caladeaItalic,
  [FACE_FILES.Caladea.boldItalic]: caladeaBoldItalic,
  [FACE_FILES.Arimo.regular]: arimoRegular,
  [FACE_FILES.Arimo.bold]: arimoBold,
  [FACE_FILES.Arimo.italic]: arimoItalic,
  [FACE_FILES.Arimo.boldItalic]: arimoBoldItalic,
  [FACE_FILES.Tinos.regular]: tinosRegular,
  [FACE_FILES.Tinos.bold]: tinosBold,
  [FACE_FILES.Tinos.italic]: tinosItalic,
  [FACE_FILES.Tinos.boldItalic]: tinosBoldItalic,
  [FACE_FILES.Cousine.regular]: cousineRegular,
  [FACE_FILES.Cousine.bold]: cousineBold,
  [FACE_FILES.Cousine.italic]: cousineItalic,
  [FACE_FILES.Cousine.boldItalic]: cousineBoldItalic,
  [FACE_FILES.DejaVuSans.regular]: dejavuSans,
  [FACE_FILES.DejaVuSans.bold]: dejavuSansBold,
  [FACE_FILES.DejaVuMath.regular]: dejavuMath,
  [HANDWRITING]: caveatRegular,
};

export const bundledFonts: FontFiles = (file) => {
  const bytes = BYTES[file];
  return bytes ? new Uint8Array(bytes) : undefined;
};
