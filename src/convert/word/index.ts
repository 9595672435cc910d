import type * as Mupdf from 'mupdf';
import type { FontFiles } from '../../fonts/catalog';
import { readDoc } from './read/doc';
import { readDocx } from './read/docx';
import { ConversionError, signalsDamage } from '../errors';
import { renderWordDocumentChunks } from './layout/render';
import { joinChunks } from '../../lib/bytes';
import { withinWordLimits } from './model/limits';
import type { WordDocument } from './model/index';
import { ignoreProblems, type ProblemSink } from '../problems';
import { describeUnaccepted } from '../../lib/unaccepted';
import { facesNeeded } from '../../fonts/face-needs';
import { fontAsksOf } from './model/font-asks';
import type { FaceSource } from '../../contracts/faces';

export { ConversionError } from '../errors';
export type { PartProblem, ProblemSink } from '../problems';

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (b: Uint8Array, sig: number[]) => sig.every((x, i) => b[i] === x);

/**
 * Reads a Word document by its content, not its name: a ".doc" that is really a DOCX is read as
 * DOCX, and an encrypted DOCX (an OLE container) is recognised as password-protected. Another
 * format under a Word name (RTF, OpenDocument, a web page) is refused with what it is.
 */
export function readWordDocument(bytes: Uint8Array, problems: ProblemSink = ignoreProblems): WordDocument {
  if (startsWith(bytes, ZIP) && !isOtherZipFormat(bytes)) return damagedOnlyIfDamaged(() => readDocx(bytes, problems));
  if (startsWith(bytes, OLE)) return damagedOnlyIfDamaged(() => readDoc(bytes, problems));
  const what = describeUnaccepted(bytes) ?? (looksLikeHtml(bytes) ? 'a web page (HTML): open it in Word and save it as .docx (Word Document)' : null);
  if (what) throw new ConversionError('not_word', `The file is not a Word document: it is ${what}.`);
  throw new ConversionError('not_word', 'The file is not a Word document (.doc or .docx).');
}

/** An OpenDocument or EPUB package: a zip, but not OOXML (they start with an uncompressed "mimetype" entry). */
const isOtherZipFormat = (bytes: Uint8Array): boolean => new TextDecoder().decode(bytes.subarray(30, 38)) === 'mimetype';

const looksLikeHtml = (bytes: Uint8Array): boolean => /^\s*(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(new TextDecoder().decode(bytes.subarray(0, 1024)).replace(/^\ufeff/, ''));

/**
 * A reader that trips over its input has met a damaged file (errors.ts: signalsDamage): say so,
 * with the reader's own words kept as the cause. Any other error is ours, not the file's: it goes
 * up as it is, to be logged as a converter failure, and the user is not told the file is damaged.
 */
function damagedOnlyIfDamaged(read: () => WordDocument): WordDocument {
  try {
    return read();
  } catch (err) {
    if (err instanceof ConversionError || !signalsDamage(err)) throw err;
    throw new ConversionError('corrupt', `The document is damaged: ${(err as Error).message}`, { cause: err });
  }
}

export interface ConvertOptions {
  mupdf: typeof Mupdf;
  fonts: FontFiles;
  /** Hears of each part (styles, a header, a picture…) the document converts without, and why. */
  onProblem?: ProblemSink;
}

/** Word (DOCX, DOCM, DOTX, DOC) bytes → PDF bytes. Pure: runs in Workers and in Node alike. */
export function convertWordToPdf(bytes: Uint8Array, options: ConvertOptions): Uint8Array {
  return joinChunks(convertWordToPdfChunks(bytes, options));
}

/**
 * The same PDF in the chunks it is written in, never joined: large photos are views of `bytes`
 * itself, so a 47 MB DOCX of photos is not held a second time (the operation stores the chunks).
 */
export function convertWordToPdfChunks(bytes: Uint8Array, { mupdf, fonts, onProblem = ignoreProblems }: ConvertOptions): Uint8Array[] {
  return renderWordDocumentChunks(withinWordLimits(readWordDocument(bytes, onProblem)), mupdf, fonts, { onProblem });
}

export interface LoadingOptions extends Omit<ConvertOptions, 'fonts'> {
  /** Where the faces come from (an engine Worker's FONTS assets): those the document asks for are loaded before layout. */
  faces: FaceSource;
}

/**
 * convertWordToPdfChunks for a converter whose faces are fetched, not at hand: the document is
 * read, the faces its fonts and characters need are loaded (fonts/face-needs.ts), then it is laid
 * out with them, synchronously as ever.
 */
export async function convertWordToPdfChunksLoadingFaces(bytes: Uint8Array, { faces, mupdf, onProblem = ignoreProblems }: LoadingOptions): Promise<Uint8Array[]> {
  const document = withinWordLimits(readWordDocument(bytes, onProblem));
  // Once the isolate holds every face (a document with a metafile asked for all), none is asked for: GASU's 135 pages took 40-100 ms to ask.
  const fonts = await faces.load(faces.holdsAll?.() ? [] : facesNeeded(fontAsksOf(document), await faces.coverage()));
  return renderWordDocumentChunks(document, mupdf, fonts, { onProblem });
}
