/**
 * The two faces drawn onto existing pages (engines/stamp.ts: page numbers, watermarks, OCR's
 * invisible text in Arimo; visual signatures in Caveat), bundled into the API Worker on their
 * own. The Word converter's many faces (bundled.ts) live in the convert Worker only.
 */
import arimoRegular from '@expo-google-fonts/arimo/400Regular/Arimo_400Regular.ttf';
import caveatRegular from '@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf';
import { FACE_FILES, HANDWRITING, type FontFiles } from './catalog';

const BYTES: Record<string, ArrayBuffer> = {
  [FACE_FILES.Arimo.regular]: arimoRegular,
  [HANDWRITING]: caveatRegular,
};

export const stampFonts: FontFiles = (file) => {
  const bytes = BYTES[file];
  return bytes ? new Uint8Array(bytes) : undefined;
};
