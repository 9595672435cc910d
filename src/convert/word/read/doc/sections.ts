/**
 * Sections: PlcfSed (table stream) gives each section's end CP and the offset of its SEPX (section
 * sprms) in the WordDocument stream. Properties not in the SEPX keep Word's defaults (Letter, 1"
 * top/bottom and 1.25" left/right margins, headers 0.5" from the edge).
 */
import { borderShows, type Border, type PageBorders, type PageGeometry, type Section } from '../../model/index';
import { brc, brc80 } from './colors';
import { i16, readPlc, u32 } from '../../../../codecs/binary';
import { Op, opI16, opU16, opU8, parseSprms } from './sprm';

export interface SectionInfo {
  cpStart: number;
  cpEnd: number;
  page: PageGeometry;
  columns: number;
  columnGap: number;
  titlePage: boolean;
  pageNumberStart?: number;
  start: NonNullable<Section['start']>;
  /** Word 6: which header/footer stories this section has (grpfIhdt bits). */
  grpfIhdt: number;
  pageBorders?: PageBorders;
}

const BREAKS: Section['start'][] = ['continuous', 'nextColumn', 'nextPage', 'evenPage', 'oddPage'];

export function readSections(table: Uint8Array, word: Uint8Array, fc: number, lcb: number, ccpText: number, word6: boolean): SectionInfo[] {
  const plc = readPlc(table, fc, lcb, 12);
  const out: SectionInfo[] = [];
  for (let i = 0; i < plc.data.length; i++) {
    const sed = plc.data[i]!;
    const fcSepx = u32(sed, 2);
    let grpprl: Uint8Array = new Uint8Array(0);
    if (fcSepx !== 0xffffffff && fcSepx + 2 <= word.length) {
      const cb = i16(word, fcSepx);
      if (cb > 0) grpprl = word.subarray(fcSepx + 2, Math.min(word.length, fcSepx + 2 + cb));
    }
    // A damaged PLC's positions need not increase: each section starts where the one before ended
    // at the earliest, so no character is read twice (10,000 sections over the whole text each
    // read it 10,000 times: a 9 KB file kept the reader busy for minutes).
    const cpStart = Math.min(ccpText, Math.max(plc.positions[i]!, out.at(-1)?.cpEnd ?? 0));
    out.push(parseSep(grpprl, cpStart, Math.max(cpStart, Math.min(plc.positions[i + 1]!, ccpText)), word6));
  }
  if (!out.length) out.push(parseSep(new Uint8Array(0), 0, ccpText, word6));
  // The last section always reaches the end of the main text.
  out[out.length - 1]!.cpEnd = ccpText;
  return out;
}

function parseSep(grpprl: Uint8Array, cpStart: number, cpEnd: number, word6: boolean): SectionInfo {
  let xa = 12240;
  let ya = 15840;
  let left = 1800;
  let right = 1800;
  let top = 1440;
  let bottom = 1440;
  let hdr = 720;
  let ftr = 720;
  let landscape = false;
  let ccolM1 = 0;
  let dxaColumns = 720;
  let titlePage = false;
  let restart = false;
  let pgnStart = 1;
  let bkc = 2;
  let grpfIhdt = 0;
  const borders: Partial<Record<'top' | 'left' | 'bottom' | 'right', Border | undefined>> = {};
  let pgbProp = 0;
  for (const s of parseSprms(grpprl, word6)) {
    switch (s.op) {
      case Op.SXaPage: xa = opU16(s); break;
      case Op.SYaPage: ya = opU16(s); break;
      case Op.SDxaLeft: left = opU16(s); break;
      case Op.SDxaRight: right = opU16(s); break;
      // Negative top/bottom margins mean "exactly, even if the header is taller": the size is the magnitude.
      case Op.SDyaTop: top = Math.abs(opI16(s)); break;
      case Op.SDyaBottom: bottom = Math.abs(opI16(s)); break;
      case Op.SDyaHdrTop: hdr = opU16(s); break;
      case Op.SDyaHdrBottom: ftr = opU16(s); break;
      case Op.SBOrientation: landscape = opU8(s) === 2; break;
      case Op.SCcolumns: ccolM1 = opU16(s); break;
      case Op.SDxaColumns: dxaColumns = opU16(s); break;
      case Op.SFTitlePage: titlePage = opU8(s) !== 0; break;
      case Op.SFPgnRestart: restart = opU8(s) !== 0; break;
      case Op.SPgnStart97: pgnStart = opU16(s); break;
      case Op.SPgnStart: pgnStart = opU16(s); break;
      case Op.SBkc: bkc = opU8(s); break;
      case Op.SGprfIhdt: grpfIhdt = opU8(s); break;
      case Op.SBrcTop80: borders.top = pageBrc(s.operand, true); break;
      case Op.SBrcLeft80: borders.left = pageBrc(s.operand, true); break;
      case Op.SBrcBottom80: borders.bottom = pageBrc(s.operand, true); break;
      case Op.SBrcRight80: borders.right = pageBrc(s.operand, true); break;
      case Op.SBrcTop: borders.top = pageBrc(s.operand, false); break;
      case Op.SBrcLeft: borders.left = pageBrc(s.operand, false); break;
      case Op.SBrcBottom: borders.bottom = pageBrc(s.operand, false); break;
      case Op.SBrcRight: borders.right = pageBrc(s.operand, false); break;
      case Op.SPgbProp: pgbProp = opU16(s); break;
    }
  }
  // Some writers leave the page portrait-sized while flagging landscape: trust the flag.
  if (landscape && ya > xa) [xa, ya] = [ya, xa];
  return {
    cpStart,
    cpEnd,
    page: {
      width: xa / 20, height: ya / 20, marginTop: top / 20, marginRight: right / 20, marginBottom: bottom / 20,
      marginLeft: left / 20, header: hdr / 20, footer: ftr / 20,
    },
    columns: ccolM1 + 1,
    columnGap: dxaColumns / 20,
    titlePage,
    pageNumberStart: restart ? pgnStart : undefined,
    start: BREAKS[bkc] ?? 'nextPage',
    grpfIhdt,
    pageBorders: pageBorders(borders, pgbProp),
  };
}

/** A page border side (BRC80 or BRC); art borders (brcType 64 and up, rows of pictures) are not drawn, as in LibreOffice. */
function pageBrc(operand: Uint8Array, is80: boolean): Border | undefined {
  if ((operand[is80 ? 1 : 5] ?? 0) >= 64) return undefined;
  return is80 ? brc80(operand, 0) : brc(operand, 0);
}

/** SPgbProp: pgbApplyTo (bits 0-2: all pages, first, all but first), pgbOffsetFrom (bits 5-7: text, page edge). */
function pageBorders(sides: Partial<Record<'top' | 'left' | 'bottom' | 'right', Border | undefined>>, pgbProp: number): PageBorders | undefined {
  const shown = Object.entries(sides).filter((e): e is [string, Border] => borderShows(e[1]));
  if (!shown.length) return undefined;
  const applyTo = pgbProp & 7;
  return {
    ...Object.fromEntries(shown),
    offsetFrom: ((pgbProp >> 5) & 7) === 1 ? 'page' : 'text',
    display: applyTo === 1 ? 'firstPage' : applyTo === 2 ? 'notFirstPage' : 'allPages',
  };
}
