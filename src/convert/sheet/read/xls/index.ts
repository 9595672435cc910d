/**
 * An Excel 97-2003 workbook (BIFF8, the compound file's "Workbook" stream) or an Excel 5/95 one
 * (BIFF5, "Book", 8-bit text in the workbook's CODEPAGE) read into the sheet model, as the XLSX
 * reader reads its own: the globals substream (code page, date system, sheets, fonts, formats,
 * XFs, palette, shared strings, print names), then each visible worksheet's substream.
 *
 *   readXls(bytes) → Workbook, or throws ConversionError (password, unsupported, corrupt) or LimitExceeded
 *
 * Pictures are read from the drawing layer (drawings.ts); not read: conditional formats, data
 * validation, comments, shapes other than pictures and charts, outline levels,
 * panes, rich-text runs (a cell prints in its XF's font), the row and column default XFs.
 */
import { Buffer } from 'node:buffer';
import * as CFB from 'cfb';
import { u8, u16, u32, type CodePage } from '../../../../codecs/binary';
import { LimitExceeded } from '../../../../lib/limits';
import { ConversionError, signalsDamage } from '../../../errors';
import { ignoreProblems, type ProblemSink } from '../../../problems';
import type { Sheet, Workbook } from '../../model';
import { SHEETS_MAX } from '../xlsx/index';
import { MAX_COLS, MAX_ROWS } from '../xlsx/cells';
import { printName, type PrintName } from './names';
import { BlipStore, joinParts, RT_MSODRAWINGGROUP } from './drawings';
import { BOF_GLOBALS, RecordCursor, RT } from './records';
import { readSheet, type SheetContext } from './sheet';
import { readSst, recordString, type TextCodec } from './strings';
import { StyleRecords } from './styles';

const PASSWORD_MESSAGE =
  'The workbook is password-protected: open it in Excel, remove the password (File → Info → Protect Workbook → Encrypt with Password, clear it), save it and upload it again.';
/** At most this many NAME records are looked at (as the XLSX reader's defined names). */
const NAMES_MAX = 10_000;

const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** The compound file, or what the bytes are instead, told. */
function openCompoundFile(bytes: Uint8Array): CFB.CFB$Container {
  if (!OLE_SIGNATURE.every((b, i) => bytes[i] === b)) {
    // Excel 2.x-4.0 saved a bare BIFF stream: BOF types 0x0009, 0x0209, 0x0409.
    if (bytes.length >= 4 && bytes[1]! <= 0x04 && bytes[0] === 0x09 && (bytes[1]! & 1) === 0) {
      throw new ConversionError('unsupported', 'The workbook is an Excel 2.x-4.0 worksheet, which is not read here: open it in Excel or LibreOffice, save it as .xlsx and upload that.');
    }
    if (bytes[0] === 0x50 && bytes[1] === 0x4b) throw new ConversionError('unsupported', 'The file is a zip package (an .xlsx?), not an Excel 97-2003 workbook (.xls).');
    throw new ConversionError('unsupported', 'The file is not an Excel 97-2003 workbook (.xls): it is not a compound file.');
  }
  try {
    // As a Buffer (a view, no copy): cfb joins a stream's sectors with Buffer.concat.
    return CFB.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { type: 'buffer' });
  } catch (e) {
    throw new ConversionError('corrupt', `The workbook's compound file cannot be read: ${(e as Error).message}`);
  }
}

/** The root storage's Workbook (BIFF8) or Book (BIFF5) stream; an embedded object's own Workbook does not count. */
function workbookStream(container: CFB.CFB$Container): { stream: Uint8Array; name: 'Workbook' | 'Book' } {
  for (const name of ['Workbook', 'Book'] as const) {
    const i = container.FullPaths.findIndex((p) => new RegExp(`^[^/]*/${name}$`, 'i').test(p));
    const content = i >= 0 ? (container.FileIndex[i]?.content as ArrayLike<number> | undefined) : undefined;
    if (content) return { stream: content instanceof Uint8Array ? content : Uint8Array.from(content), name };
  }
  if (container.FullPaths.some((p) => /(^|\/)EncryptedPackage$/i.test(p))) throw new ConversionError('password', PASSWORD_MESSAGE);
  throw new ConversionError('unsupported', 'The compound file holds no Workbook stream: it is not an Excel workbook (perhaps a Word or PowerPoint file).');
}

/** The BIFF version the globals' BOF names (BIFF7, Excel 95, writes BIFF5's 0x0500). */
function biffVersion(cursor: RecordCursor, streamName: 'Workbook' | 'Book'): 5 | 8 {
  if (!cursor.next() || cursor.type !== RT.BOF) {
    if ([0x0009, 0x0209, 0x0409].includes(cursor.type)) throw new ConversionError('unsupported', 'The workbook is in an Excel 2.x-4.0 format, which is not read here: save it as .xlsx and upload that.');
    throw new ConversionError('corrupt', 'The workbook stream does not begin with a BOF record.');
  }
  const vers = u16(cursor.data, 0);
  if (cursor.data.length >= 4 && u16(cursor.data, 2) !== BOF_GLOBALS) throw new ConversionError('corrupt', 'The workbook stream does not begin with its globals.');
  return vers === 0x0600 ? 8 : vers === 0x0500 ? 5 : streamName === 'Book' ? 5 : 8;
}

/** The code page BIFF5's 8-bit text is decoded in: 1251 or 1252; any other is read as 1252, and told. */
function codePageOf(cp: number, problems: ProblemSink): CodePage {
  if (cp === 1251) return 1251;
  // 1200 is UTF-16: BIFF8, whose 8-bit strings are Latin-1 whatever this says; 367 is ASCII.
  if (cp !== 1252 && cp !== 1200 && cp !== 367) problems({ part: 'CODEPAGE record', reason: `code page ${cp} is read as Windows-1252: letters outside ASCII may print wrong` });
  return 1252;
}

interface SheetEntry {
  offset: number;
  visible: boolean;
  isWorksheet: boolean;
  name: string;
}

interface Globals {
  codec: TextCodec;
  date1904: boolean;
  sheets: SheetEntry[];
  styles: StyleRecords;
  strings: string[];
  names: PrintName[];
  /** The MSODRAWINGGROUP records' data and their CONTINUE records', in order. */
  drawingGroup: Uint8Array[];
}

/** The globals substream, from its BOF to its EOF; a FILEPASS (any encryption) stops it at once. */
function readGlobals(stream: Uint8Array, streamName: 'Workbook' | 'Book', problems: ProblemSink): Globals {
  const cursor = new RecordCursor(stream, 0);
  const codec: TextCodec = { biff: biffVersion(cursor, streamName), codePage: 1252 };
  const g: Globals = { codec, date1904: false, sheets: [], styles: new StyleRecords(codec), strings: [], names: [], drawingGroup: [] };
  let nameRecords = 0;
  while (cursor.next() && cursor.type !== RT.EOF) {
    const d = cursor.data;
    switch (cursor.type) {
      case RT.FILEPASS:
        throw new ConversionError('password', PASSWORD_MESSAGE);
      case RT.CODEPAGE:
        codec.codePage = codePageOf(u16(d, 0), problems);
        break;
      case RT.DATEMODE:
        g.date1904 = u16(d, 0) === 1;
        break;
      case RT.BOUNDSHEET:
        if (g.sheets.length >= SHEETS_MAX) throw new LimitExceeded('sheets', `the workbook holds more than ${SHEETS_MAX} sheets; at most ${SHEETS_MAX} are printed`);
        // Visible is 0 (1 hidden, 2 very hidden); a worksheet's type is 0 (1 macro sheet, 2 chart, 6 VBA module).
        g.sheets.push({ offset: u32(d, 0), visible: (u8(d, 4) & 3) === 0, isWorksheet: u8(d, 5) === 0, name: recordString(d, 6, 1, codec) });
        break;
      case RT.FONT:
        g.styles.font(d);
        break;
      case RT.FORMAT:
        g.styles.format(d);
        break;
      case RT.XF:
        g.styles.xf(d);
        break;
      case RT.PALETTE:
        g.styles.paletteColors(d);
        break;
      case RT_MSODRAWINGGROUP:
        if (codec.biff === 8) g.drawingGroup.push(...cursor.withContinues());
        break;
      case RT.SST:
        g.strings = readSst(cursor.withContinues(), codec);
        break;
      case RT.NAME: {
        const name = ++nameRecords <= NAMES_MAX ? printName(d, codec.biff) : undefined;
        if (name) g.names.push(name);
        break;
      }
    }
  }
  return g;
}

/** Print areas and titles onto their sheets, by the sheet's index among all the workbook's sheets. */
function applyPrintNames(names: readonly PrintName[], byIndex: Map<number, Sheet>): void {
  for (const { kind, sheet: index, ranges } of names) {
    const sheet = byIndex.get(index);
    if (!sheet) continue;
    if (kind === 'area') sheet.print.printArea = ranges;
    else {
      for (const r of ranges) {
        if (r.left === 0 && r.right === MAX_COLS - 1) sheet.print.titleRows = { first: r.top, last: r.bottom };
        else if (r.top === 0 && r.bottom === MAX_ROWS - 1) sheet.print.titleCols = { first: r.left, last: r.right };
      }
    }
  }
}

/** The drawing group's BLIP store; one that cannot be read is told, and the sheets print without pictures. */
function drawingGroup(parts: Uint8Array[], problems: ProblemSink): BlipStore | undefined {
  try {
    return new BlipStore(joinParts(parts));
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    problems({ part: 'MSODRAWINGGROUP record', reason: `the pictures are not printed: ${e.message}` });
    return undefined;
  }
}

function readWorkbookStream(stream: Uint8Array, streamName: 'Workbook' | 'Book', problems: ProblemSink): Workbook {
  const g = readGlobals(stream, streamName, problems);
  const { styles, defaultFont, styleOfXf, fontAt } = g.styles.build();
  const ctx: SheetContext = { strings: g.strings, styleOfXf, codec: g.codec, problems, defaultFontSize: defaultFont.size, fontAt, ...(g.drawingGroup.length ? { blips: drawingGroup(g.drawingGroup, problems) } : {}) };
  const sheets: Sheet[] = [];
  const byIndex = new Map<number, Sheet>();
  g.sheets.forEach((entry, index) => {
    // Chart sheets, macro sheets and dialog sheets print later (issue 42), as in the XLSX reader.
    if (!entry.visible || !entry.isWorksheet) return;
    if (entry.offset >= stream.length) throw new RangeError(`the sheet "${entry.name}" starts at ${entry.offset}, past the workbook stream's ${stream.length} bytes`);
    const sheet = readSheet(stream, entry.offset, entry.name || `Sheet${index + 1}`, ctx);
    if (!sheet) return problems({ part: `sheet "${entry.name}"`, reason: 'not printed: a dialog sheet, or no worksheet substream where the workbook says it starts' });
    sheets.push(sheet);
    byIndex.set(index, sheet);
  });
  applyPrintNames(g.names, byIndex);
  // LibreOffice's XLS filter moves an indent level 10 pt (200 twips), whatever the fonts; its XLSX filter three spaces of the default font.
  return { sheets, styles, defaultFont, date1904: g.date1904, indentStep: 10 };
}

/** `problems` hears of what the workbook converts without (an unknown code page, a sheet not where it is said to be). */
export function readXls(bytes: Uint8Array, problems: ProblemSink = ignoreProblems): Workbook {
  const { stream, name } = workbookStream(openCompoundFile(bytes));
  try {
    return readWorkbookStream(stream, name, problems);
  } catch (e) {
    if (e instanceof ConversionError || !signalsDamage(e)) throw e;
    throw new ConversionError('corrupt', `The workbook is damaged: ${(e as Error).message}`, { cause: e });
  }
}
