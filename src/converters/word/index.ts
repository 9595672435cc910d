import type * as Mupdf from 'mupdf';
import type { FontFiles } from '../fonts/catalog';
import { readDoc } from './doc';
import { readDocx } from './docx';
import { WordConversionError } from './errors';
import { renderWordDocument } from './layout/render';
import { withinWordLimits } from './limits';
import type { WordDocument } from './model';

export { WordConversionError } from './errors';

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (b: Uint8Array, sig: number[]) => sig.every((x, i) => b[i] === x);

/**
 * Reads a Word document by its content, not its name: a ".doc" that is really a DOCX is read as
 * DOCX, and an encrypted DOCX (an OLE container) is recognised as password-protected.
 */
export function readWordDocument(bytes: Uint8Array): WordDocument {
  if (startsWith(bytes, ZIP)) return damagedOnFailure(() => readDocx(bytes));
  if (startsWith(bytes, OLE)) return damagedOnFailure(() => readDoc(bytes));
  if (new TextDecoder().decode(bytes.subarray(0, 5)) === '{\\rtf') {
    throw new WordConversionError('not_word', 'The file is an RTF document, not a Word .doc or .docx: open it in Word and save it as .docx, then upload it again.');
  }
  throw new WordConversionError('not_word', 'The file is not a Word document (.doc or .docx).');
}

/**
 * A reader that trips over its input (a zip entry that does not inflate, a record that points
 * outside its stream) has met a damaged file: say so, with the reader's own words kept as the cause.
 */
function damagedOnFailure(read: () => WordDocument): WordDocument {
  try {
    return read();
  } catch (err) {
    if (err instanceof WordConversionError) throw err;
    throw new WordConversionError('corrupt', `The document is damaged: ${(err as Error)?.message ?? String(err)}`, { cause: err });
  }
}

export interface ConvertOptions {
  mupdf: typeof Mupdf;
  fonts: FontFiles;
}

/** Word (DOCX, DOCM, DOTX, DOC) bytes → PDF bytes. Pure: runs in Workers and in Node alike. */
export function convertWordToPdf(bytes: Uint8Array, { mupdf, fonts }: ConvertOptions): Uint8Array {
  return renderWordDocument(withinWordLimits(readWordDocument(bytes)), mupdf, fonts);
}
