/**
 * Presentations (PPTX, ODP) → PDF (issue 43): the deck read by its content into the slide model
 * (read/pptx.ts, read/odp.ts), the faces its text asks for loaded, and a page per visible slide drawn by
 * render.ts on the shared Office shape layout. A PowerPoint 97-2003 file (.ppt) is refused with
 * what to do instead.
 */
import type * as Mupdf from 'mupdf';
import type { FaceSource } from '../../contracts/faces';
import { facesNeeded } from '../../fonts/face-needs';
import { ConversionError, signalsDamage } from '../errors';
import { ignoreProblems, type ProblemSink } from '../problems';
import { hasUtf16 } from '../../lib/detect';
import type { Deck } from './model';
import { readPptx } from './read/pptx';
import { readOdp } from './read/odp';
import { deckSlices, renderDeckChunks } from './render';
import { fontAsksOf } from './font-asks';

export { ConversionError } from '../errors';

const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/**
 * An OpenDocument package: a ZIP whose first entry is its "mimetype". The ODP reader checks that
 * entry names a presentation (and refuses another kind as such): a package that is not is told so,
 * not read as a damaged PPTX.
 */
function isOpenDocumentPackage(bytes: Uint8Array): boolean {
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b || bytes[2] !== 3 || bytes[3] !== 4) return false;
  const nameLength = bytes[26]! | (bytes[27]! << 8);
  return nameLength === 8 && new TextDecoder().decode(bytes.subarray(30, 38)) === 'mimetype';
}

/** Reads a deck by its content; damage to its own bytes is told as damage. */
export function readDeck(bytes: Uint8Array, problems: ProblemSink = ignoreProblems): Deck {
  if (OLE.every((b, i) => bytes[i] === b)) {
    if (hasUtf16(bytes, 'EncryptedPackage')) throw new ConversionError('password', 'The presentation is password-protected: open it in PowerPoint, remove the password (File → Info → Protect Presentation → Encrypt with Password, clear it), save it and upload it again.');
    throw new ConversionError('unsupported', 'The file is a PowerPoint 97-2003 presentation (.ppt), which is not read here: open it in PowerPoint or LibreOffice Impress, save it as .pptx and upload that.');
  }
  try {
    return isOpenDocumentPackage(bytes) ? readOdp(bytes, problems) : readPptx(bytes, problems);
  } catch (err) {
    if (err instanceof ConversionError || !signalsDamage(err)) throw err;
    throw new ConversionError('corrupt', `The presentation is damaged: ${(err as Error).message}`, { cause: err });
  }
}

export interface SlidesConvertOptions {
  mupdf: typeof Mupdf;
  /** Where the faces come from (an engine Worker's FONTS assets): those the deck asks for are loaded before layout. */
  faces: FaceSource;
  onProblem?: ProblemSink;
}

/** A deck read and its faces loaded, to be printed whole or a slice at a time (`slices`, render.ts deckSlices). */
export interface DeckPrint {
  slides: number;
  slices: [number, number][];
  write(range?: [number, number]): Uint8Array[];
}

/** Reads the deck and loads the faces its text asks for. */
export async function printDeckLoadingFaces(bytes: Uint8Array, { mupdf, faces, onProblem = ignoreProblems }: SlidesConvertOptions): Promise<DeckPrint> {
  const deck = readDeck(bytes, onProblem);
  const files = await faces.load(faces.holdsAll?.() ? [] : facesNeeded(fontAsksOf(deck), await faces.coverage()));
  return { slides: deck.slides.length, slices: deckSlices(deck), write: (range) => renderDeckChunks(deck, mupdf, files, onProblem, range) };
}

/** The deck's PDF in the chunks it is written in, its faces loaded first. */
export async function convertSlidesToPdfChunksLoadingFaces(bytes: Uint8Array, options: SlidesConvertOptions): Promise<Uint8Array[]> {
  return (await printDeckLoadingFaces(bytes, options)).write();
}
