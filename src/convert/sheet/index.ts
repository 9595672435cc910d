/**
 * Spreadsheets (XLSX, XLS, ODS) → PDF, printed as Excel and LibreOffice
 * print them (issue 42): the workbook is read by its content, not its name, into the sheet model
 * (model.ts), the faces its fonts and characters need are loaded, and its visible sheets are paged
 * and drawn by render.ts on the shared layout engine.
 */
import type * as Mupdf from 'mupdf';
import type { FaceSource } from '../../contracts/faces';
import { facesNeeded } from '../../fonts/face-needs';
import { ConversionError, signalsDamage } from '../errors';
import { ignoreProblems, type ProblemSink } from '../problems';
import { describeUnaccepted } from '../../lib/unaccepted';
import { hasUtf16 } from '../../lib/detect';
import { readZipDirectory } from '../../codecs/zip-directory';
import type { Workbook } from './model';
import { readXlsx } from './read/xlsx/index';
import { readXls } from './read/xls/index';
import { readOds } from './read/ods/index';
import { fontAsksOf } from './font-asks';
import { WorkbookPrint } from './render';

export { SLICE_PAGES, type WorkbookPrint } from './render';

export { ConversionError } from '../errors';

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (b: Uint8Array, sig: number[]) => sig.every((x, i) => b[i] === x);

/** An OpenDocument package: its first entry, stored uncompressed, is "mimetype" (the ODS reader tells a spreadsheet from the rest). */
const isOpenDocument = (bytes: Uint8Array): boolean => new TextDecoder().decode(bytes.subarray(30, 38)) === 'mimetype';

/** The zip's part names; a zip whose directory cannot be read is damaged. */
function partNames(bytes: Uint8Array): Set<string> {
  try {
    return new Set(readZipDirectory(bytes).keys());
  } catch (err) {
    throw new ConversionError('corrupt', `The workbook is damaged: ${(err as Error).message}`, { cause: err });
  }
}

/** A zip workbook we do not print, told with what to do instead (undefined: an XLSX to read). */
function refusedPackage(names: Set<string>): ConversionError | undefined {
  if (names.has('xl/workbook.bin')) return new ConversionError('unsupported', 'The workbook is an Excel binary workbook (.xlsb), which is not read here: open it in Excel and save it as .xlsx (Excel Workbook), then upload that.');
  if (![...names].some((n) => n.startsWith('xl/'))) return new ConversionError('not_word', 'The file is not an Excel workbook (.xlsx, .xls) or an OpenDocument spreadsheet (.ods).');
  return undefined;
}

/** A reader's error on the file's own bytes is damage; anything else is ours and goes up as it is. */
function damagedOnlyIfDamaged(read: () => Workbook): Workbook {
  try {
    return read();
  } catch (err) {
    if (err instanceof ConversionError || !signalsDamage(err)) throw err;
    throw new ConversionError('corrupt', `The workbook is damaged: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Reads a workbook by its content: XLS (BIFF8, BIFF5), ODS (and flat FODS), XLSX (XLTX, and XLSM with its macros left unrun, read as XLSX,
 * as LibreOffice prints them); an encrypted package and XLSB refused with what to do.
 */
export function readWorkbook(bytes: Uint8Array, problems: ProblemSink = ignoreProblems): Workbook {
  if (startsWith(bytes, ZIP) && isOpenDocument(bytes)) return damagedOnlyIfDamaged(() => readOds(bytes, problems));
  if (startsWith(bytes, ZIP)) {
    const refused = refusedPackage(partNames(bytes));
    if (refused) throw refused;
    return damagedOnlyIfDamaged(() => readXlsx(bytes, problems));
  }
  if (startsWith(bytes, OLE)) {
    if (hasUtf16(bytes, 'EncryptedPackage')) throw new ConversionError('password', 'The workbook is password-protected: open it in Excel, remove the password (File → Info → Protect Workbook → Encrypt with Password, clear it), save it and upload it again.');
    if (hasUtf16(bytes, 'Workbook') || hasUtf16(bytes, 'Book')) return damagedOnlyIfDamaged(() => readXls(bytes, problems));
  }
  if (/^(\s|<\?xml[^>]*>)*<office:document[\s>]/.test(new TextDecoder().decode(bytes.subarray(0, 2048)))) return damagedOnlyIfDamaged(() => readOds(bytes, problems));
  const what = describeUnaccepted(bytes);
  throw new ConversionError('not_word', what ? `The file is not a spreadsheet this service prints: it is ${what}.` : 'The file is not an Excel workbook (.xlsx, .xls) or an OpenDocument spreadsheet (.ods).');
}

export interface SheetConvertOptions {
  mupdf: typeof Mupdf;
  /** Where the faces come from (an engine Worker's FONTS assets): those the workbook asks for are loaded before layout. */
  faces: FaceSource;
  onProblem?: ProblemSink;
  /** The file's name, for &F in headers and footers. */
  fileName?: string;
}

/** The workbook read, its faces loaded and its pages planned: written whole or a slice at a time (render.ts WorkbookPrint). */
export async function printWorkbookLoadingFaces(bytes: Uint8Array, { mupdf, faces, onProblem = ignoreProblems, fileName = '' }: SheetConvertOptions): Promise<WorkbookPrint> {
  const workbook = readWorkbook(bytes, onProblem);
  const fonts = await faces.load(faces.holdsAll?.() ? [] : facesNeeded(fontAsksOf(workbook), await faces.coverage()));
  return new WorkbookPrint(workbook, mupdf, fonts, { fileName });
}

/** The workbook's whole PDF in the chunks it is written in. */
export async function convertSheetToPdfChunksLoadingFaces(bytes: Uint8Array, options: SheetConvertOptions): Promise<Uint8Array[]> {
  return (await printWorkbookLoadingFaces(bytes, options)).write();
}
