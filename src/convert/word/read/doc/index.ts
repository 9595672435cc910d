/**
 * Word 97–2003 (and, in part, Word 6/95) binary .doc reader: compound file → FIB → piece table,
 * FKPs, styles, fonts, lists, sections, headers, notes, pictures → the Word document model.
 *
 *   readDoc(bytes) → WordDocument, or throws ConversionError (password, not_word, corrupt, unsupported)
 */
import { COUNT_MAX, ModelCounts, tooMany } from '../../model/limits';
import { Buffer } from 'node:buffer';
import * as CFB from 'cfb';
import type { Block, HeaderFooterSet, Section, WordDocument } from '../../model/index';
import { ConversionError, signalsDamage } from '../../../errors';
import { ignoreProblems, type ProblemSink } from '../../../problems';
import { dropSectionMarks } from '../../model/section-marks';
import { codePageOfLid } from '../../../../codecs/binary';
import { FcLcb, readFib, type Fib } from './fib';
import { readChpxRuns, readPapxRuns } from './fkp';
import { readFonts } from './fonts';
import { readHeaderStories, type SectionStories, type StoryRange } from './headers';
import { ListTable } from './lists';
import { readNotes, type NoteDef } from './notes';
import { readDrawingGroup, type ShapeInfo } from '../../../office/officeart';
import { backgroundColor } from './shapes';
import { readAnchors, readTextboxStories } from './pictures';
import { readPieces, readText, type TextStore } from './pieces';
import { readSections, type SectionInfo } from './sections';
import { withoutEdgeAutoSpacing } from '../../model/auto-spacing';
import { StoryReader, type DocContext, type StoryOptions } from './story';
import { StyleSheet } from './styles';

function stream(container: CFB.CFB$Container, name: string): Uint8Array | undefined {
  const entry = CFB.find(container, name);
  if (!entry || !entry.content) return undefined;
  const c = entry.content as ArrayLike<number>;
  return c instanceof Uint8Array ? c : Uint8Array.from(c);
}

function openCompoundFile(bytes: Uint8Array): CFB.CFB$Container {
  const ole = bytes.length >= 8 && bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0;
  if (!ole) {
    const head = String.fromCharCode(...bytes.subarray(0, 5));
    if (head === '{\\rtf') throw new ConversionError('not_word', 'The file is an RTF document, not a Word .doc.');
    if (bytes[0] === 0x31 && bytes[1] === 0xbe) throw new ConversionError('unsupported', 'Word for DOS / Word 2.0 files are not supported.');
    if (bytes[0] === 0xdb && bytes[1] === 0xa5) throw new ConversionError('unsupported', 'Word 2.0 files are not supported.');
    throw new ConversionError('not_word', 'The file is not a Word document (no compound file header).');
  }
  try {
    // As a Buffer (a view, no copy): cfb joins a stream's sectors with Buffer.concat; from a plain
    // array it pushed them byte by byte (12-20 ms for a 500 KB .doc, against 1 ms).
    return CFB.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { type: 'buffer' });
  } catch (e) {
    throw new ConversionError('corrupt', `The compound file cannot be read: ${(e as Error).message}`);
  }
}

/** `problems` hears of the parts (pictures, styles, the Data stream) the document converts without. */
export function readDoc(bytes: Uint8Array, problems: ProblemSink = ignoreProblems): WordDocument {
  const container = openCompoundFile(bytes);
  const word = stream(container, 'WordDocument');
  if (!word) {
    if (CFB.find(container, 'EncryptedPackage')) throw new ConversionError('password', 'The document is password-protected.');
    throw new ConversionError('not_word', 'The compound file has no WordDocument stream.');
  }
  const fib = readFib(word);
  if (fib.fEncrypted) throw new ConversionError('password', 'The document is password-protected.');
  try {
    return convert(container, word, fib, problems);
  } catch (e) {
    if (e instanceof ConversionError || !signalsDamage(e)) throw e;
    throw new ConversionError('corrupt', `The document structure is damaged: ${(e as Error).message}`);
  }
}

function convert(container: CFB.CFB$Container, word: Uint8Array, fib: Fib, problems: ProblemSink): WordDocument {
  const { table, data } = tableAndDataStreams(container, word, fib);
  const text = readCharacters(fib, table, word);
  const { ctx, notes } = documentContext({ fib, word, table, data, text, problems });
  const reader = new StoryReader(ctx);
  const sections = readBodySections(fib, table, word, reader);

  const noteBodies = new Map<string, Block[]>();
  for (const n of notes) noteBodies.set(n.id, trimStory(reader.read(n.start, n.end, { noteLabel: n.label })));

  const normal = ctx.styles.chp(0);
  return {
    sections,
    notes: noteBodies,
    defaultFont: ctx.fonts[normal.ftcAscii]?.name ?? 'Times New Roman',
    defaultSize: normal.hps / 2,
    paragraphSpacing: htmlAutoSpacingOff(fib, table) ? 'sum' : 'larger',
    ...(noLeading(fib, table) ? { noLeading: true } : {}),
    ...pageColorOf(ctx.drawings.shapes.values()),
  };
}

/** The table stream (styles, fonts, PLCs) and the Data stream (pictures) the FIB points into. */
function tableAndDataStreams(container: CFB.CFB$Container, word: Uint8Array, fib: Fib): { table: Uint8Array; data?: Uint8Array } {
  // Word 6 keeps its tables in the WordDocument stream; Word 97+ in 0Table or 1Table.
  const table = fib.word6 ? word : stream(container, fib.whichTableStream ? '1Table' : '0Table');
  if (!table) throw new ConversionError('corrupt', `The ${fib.whichTableStream}Table stream is missing.`);
  // Word 6 has no Data stream: picture locations point into the WordDocument stream.
  const data = fib.word6 ? word : stream(container, 'Data');
  return { table, data };
}

/** Every story's characters through the piece table, checked against the stream size and the paragraph limit. */
function readCharacters(fib: Fib, table: Uint8Array, word: Uint8Array): TextStore {
  const clx = fib.fcLcb(FcLcb.Clx);
  const pieces = readPieces(fib, table, clx.fc, clx.lcb);
  const totalCp = fib.ccpText + fib.ccpFtn + fib.ccpHdd + fib.ccpMcr + fib.ccpAtn + fib.ccpEdn + fib.ccpTxbx + fib.ccpHdrTxbx + 1;
  // Every character takes at least one byte of the WordDocument stream: larger counts are damage.
  if (fib.ccpText < 0 || totalCp > word.length + 1 || totalCp < fib.ccpText) throw new ConversionError('corrupt', 'The character counts exceed the document.');
  const text = readText(pieces, word, totalCp, fib.word6);
  // Paragraphs end in a mark (0x0D, or 0x07 in tables): counted before any is read.
  let marks = 0;
  for (const c of text.chars) if (c === 13 || c === 7) marks++;
  if (marks > COUNT_MAX.paragraphs) throw tooMany('paragraphs', marks, true);
  return text;
}

interface DocumentParts {
  fib: Fib;
  word: Uint8Array;
  table: Uint8Array;
  data?: Uint8Array;
  text: TextStore;
  problems: ProblemSink;
}

/**
 * The tables every story reads through: formatting runs, styles, fonts, lists, drawings, notes and
 * text boxes; and the notes. (A short FIB fails at its first missing entry: they are read in order.)
 */
function documentContext({ fib, word, table, data, text, problems }: DocumentParts): { ctx: DocContext; notes: NoteDef[] } {
  const fl = (i: number) => fib.fcLcb(i);
  const chp = fl(FcLcb.PlcfBteChpx);
  const pap = fl(FcLcb.PlcfBtePapx);
  const stsh = fl(FcLcb.Stshf);
  const ffn = fl(FcLcb.SttbfFfn);
  const lst = fl(FcLcb.PlfLst);
  const lfo = fl(FcLcb.PlfLfo);
  const dgg = fl(FcLcb.DggInfo);
  const notes = readNotes(fib, table);
  if (notes.length > COUNT_MAX.notes) throw tooMany('notes', notes.length, true);
  const ctx: DocContext = {
    fib,
    word,
    data,
    text,
    chpx: readChpxRuns(fib, word, table, chp.fc, chp.lcb),
    papx: readPapxRuns(fib, word, table, data, pap.fc, pap.lcb),
    styles: new StyleSheet(table, stsh.fc, stsh.lcb, fib.word6, problems),
    fonts: readFonts(table, ffn.fc, ffn.lcb, fib.word6),
    lists: new ListTable(table, lst.fc, lst.lcb, lfo.fc, lfo.lcb),
    codePage: codePageOfLid(fib.lid),
    drawings: readDrawingGroup(table, dgg.fc, dgg.lcb, word),
    noteRefs: new Map(notes.map((n) => [n.refCp, { id: n.id, label: n.label }])),
    textboxes: new Map(),
    problems,
    counts: new ModelCounts(),
  };
  // Text box stories follow the main, footnote, header, macro, annotation and endnote stories.
  const txbxBase = fib.ccpText + fib.ccpFtn + fib.ccpHdd + fib.ccpMcr + fib.ccpAtn + fib.ccpEdn;
  const txbx = fl(FcLcb.PlcftxbxTxt);
  const hdrTxbx = fl(FcLcb.PlcfHdrtxbxTxt);
  for (const [k, v] of readTextboxStories(table, txbx.fc, txbx.lcb, txbxBase)) ctx.textboxes.set(k, v);
  for (const [k, v] of readTextboxStories(table, hdrTxbx.fc, hdrTxbx.lcb, txbxBase + fib.ccpTxbx)) ctx.textboxes.set(k, v);
  return { ctx, notes };
}

/** The main document's sections with their bodies, headers and footers, section marks dropped. */
function readBodySections(fib: Fib, table: Uint8Array, word: Uint8Array, reader: StoryReader): Section[] {
  const spaMom = fib.fcLcb(FcLcb.PlcSpaMom);
  const spaHdr = fib.fcLcb(FcLcb.PlcSpaHdr);
  const mainAnchors = readAnchors(table, spaMom.fc, spaMom.lcb);
  // Header anchors count CPs from the start of the header story.
  const hdrBase = fib.ccpText + fib.ccpFtn;
  const headerAnchors = new Map([...readAnchors(table, spaHdr.fc, spaHdr.lcb)].map(([cp, a]) => [cp + hdrBase, a]));

  const sed = fib.fcLcb(FcLcb.PlcfSed);
  const infos = readSections(table, word, sed.fc, sed.lcb, fib.ccpText, fib.word6);
  if (infos.length > COUNT_MAX.sections) throw tooMany('sections', infos.length, true);
  const bodies = infos.map((s) => reader.read(s.cpStart, s.cpEnd, { anchors: mainAnchors, sectionEnd: true }));

  const stories = readHeaderStories(fib, table, infos);
  const set = headerFooterSetReader(reader, headerAnchors);
  const evenAndOdd = dopBit(fib, table, 0, 0x01); // fFacingPages
  const sections = infos.map((info, i) => sectionOf(info, set(stories[i]?.headers ?? {}), set(stories[i]?.footers ?? {}), bodies[i]!, evenAndOdd));
  // A section's last paragraph holds its break character: empty, it is only the break.
  dropSectionMarks(sections, (block) => block.kind === 'paragraph' && block.inlines.length === 0 && !block.props.list, false);
  if (sections[0]) withoutEdgeAutoSpacing(sections[0].blocks, true, false);
  return sections;
}
/** Reads header and footer stories once each: sections that share a story share its blocks. */
function headerFooterSetReader(reader: StoryReader, headerAnchors: StoryOptions['anchors']): (s: SectionStories['headers']) => HeaderFooterSet {
  const storyCache = new Map<string, Block[]>();
  const story = (r: StoryRange | undefined): Block[] | undefined => {
    if (!r) return undefined;
    const key = `${r.start}:${r.end}`;
    if (!storyCache.has(key)) storyCache.set(key, trimStory(reader.read(r.start, r.end, { anchors: headerAnchors })));
    return storyCache.get(key);
  };
  return (s) => {
    const out: HeaderFooterSet = {};
    const d = story(s.default);
    const f = story(s.first);
    const e = story(s.even);
    if (d) out.default = d;
    if (f) out.first = f;
    if (e) out.even = e;
    return out;
  };
}

function sectionOf(info: SectionInfo, headers: HeaderFooterSet, footers: HeaderFooterSet, blocks: Block[], evenAndOdd: boolean): Section {
  const section: Section = { page: info.page, headers, footers, blocks };
  if (info.columns > 1) (section.columns = info.columns), (section.columnGap = info.columnGap);
  if (info.titlePage) section.titlePage = true;
  if (evenAndOdd) section.evenAndOdd = true;
  if (info.pageNumberStart !== undefined) section.pageNumberStart = info.pageNumberStart;
  if (info.start !== 'nextPage') section.start = info.start;
  if (info.pageBorders) section.pageBorders = info.pageBorders;
  return section;
}

/** The page colour: the background shape's fill (see backgroundColor), shown as Word and LibreOffice show it. */
function pageColorOf(shapes: Iterable<ShapeInfo>): { pageColor?: string } {
  const color = backgroundColor(shapes);
  return color ? { pageColor: color } : {};
}

/**
 * Copts80.fNoLeading ("don't add extra space between rows of text"): bit 19 of the 32 compatibility
 * bits that follow DopBase, at offset 84 of the Dop ([MS-DOC] 2.7.2, 2.7.3; Word 97 and later).
 */
function noLeading(fib: Fib, table: Uint8Array): boolean {
  return !fib.word6 && dopBit(fib, table, 86, 0x08);
}

/**
 * Dop.fDontUseHTMLAutoSpacing: when set, the space after one paragraph and the space before the
 * next add up; when clear (or the Dop is too short to hold it), the larger wins. It is the third
 * bit of the byte after Copts80 in Dop2000, at offset 512 of the Dop ([MS-DOC] 2.7.5, 2.7.11);
 * LibreOffice's importer maps it to the same rule (PARA_SPACE_MAX).
 */
function htmlAutoSpacingOff(fib: Fib, table: Uint8Array): boolean {
  if (fib.word6) return true; // Word 6/95 predates HTML auto spacing
  return dopBit(fib, table, 512, 0x04);
}

/** A flag of the Dop: the byte at `offset` has `mask` set; false when the Dop is too short to hold it. */
function dopBit(fib: Fib, table: Uint8Array, offset: number, mask: number): boolean {
  const dop = fib.fcLcb(FcLcb.Dop);
  const at = dop.fc + offset;
  return dop.lcb > offset && at < table.length && (table[at]! & mask) !== 0;
}

/** A header/footer/note story's final empty paragraph is Word's story terminator, not content. */
function trimStory(blocks: Block[]): Block[] {
  const last = blocks[blocks.length - 1];
  if (blocks.length > 1 && last?.kind === 'paragraph' && last.inlines.length === 0 && !last.props.list) blocks.pop();
  return blocks;
}
