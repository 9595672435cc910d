/**
 * Property modifiers (sprms): the grpprl byte strings that every property (character, paragraph,
 * table, section) is stored as. Word 97+ opcodes are 2 bytes whose top bits (spra) give the operand
 * size; Word 6/95 opcodes are 1 byte with sizes from a fixed table. Word 6 opcodes we understand are
 * translated to their Word 97 equivalents so the property code is written once.
 */
import { u16, u8 } from '../../../../codecs/binary';

export interface Sprm {
  /** Word 97 opcode (Word 6 ones translated; untranslated Word 6 ones are 0x10000 + id). */
  op: number;
  operand: Uint8Array;
}

export enum Op {
  // Character
  CFRMarkDel = 0x0800,
  CFRMarkIns = 0x0801,
  CIbstRMark = 0x4804,
  CIbstRMarkDel = 0x4863,
  CFFldVanish = 0x0802,
  CPicLocation = 0x6a03,
  CFData = 0x0806,
  CFOle2 = 0x080a,
  CHighlight = 0x2a0c,
  CIstd = 0x4a30,
  CPlain = 0x2a33,
  CFBold = 0x0835,
  CFItalic = 0x0836,
  CFBoldBi = 0x085c,
  CFItalicBi = 0x085d,
  CFtcBi = 0x4a5e,
  CHpsBi = 0x4a61,
  CFStrike = 0x0837,
  CFOutline = 0x0838,
  CFShadow = 0x0839,
  CFSmallCaps = 0x083a,
  CFCaps = 0x083b,
  CFVanish = 0x083c,
  CKul = 0x2a3e,
  CDxaSpace = 0x8840,
  CHpsKern = 0x484b,
  CIco = 0x2a42,
  CHps = 0x4a43,
  CIss = 0x2a48,
  CRgFtc0 = 0x4a4f,
  CRgFtc1 = 0x4a50,
  CRgFtc2 = 0x4a51,
  CFDStrike = 0x2a53,
  CFSpec = 0x0855,
  CFObj = 0x0856,
  CSymbol = 0x6a09,
  CCv = 0x6870,
  CShd80 = 0x4866,
  CShd = 0xca71,
  // Paragraph
  PIstd = 0x4600,
  PJc80 = 0x2403,
  PJc = 0x2461,
  PFBiDi = 0x2441,
  PFKeep = 0x2405,
  PFKeepFollow = 0x2406,
  PFWidowControl = 0x2431,
  PFPageBreakBefore = 0x2407,
  PIlvl = 0x260a,
  PIlfo = 0x460b,
  PChgTabsPapx = 0xc60d,
  PDxaRight80 = 0x840e,
  PDxaLeft80 = 0x840f,
  PDxaLeft180 = 0x8411,
  PDxaRight = 0x845d,
  PDxaLeft = 0x845e,
  PDxaLeft1 = 0x8460,
  PDyaLine = 0x6412,
  PDyaBefore = 0xa413,
  PDyaAfter = 0xa414,
  PFDyaBeforeAuto = 0x245c,
  PFDyaAfterAuto = 0x245d,
  PChgTabs = 0xc615,
  PFInTable = 0x2416,
  PDxaAbs = 0x8418,
  PDyaAbs = 0x8419,
  PDxaWidth = 0x841a,
  PPc = 0x261b,
  PWr = 0x2423,
  PWHeightAbs = 0x442b,
  PDcs = 0x442c,
  PFTtp = 0x2417,
  PBrcTop80 = 0x6424,
  PBrcLeft80 = 0x6425,
  PBrcBottom80 = 0x6426,
  PBrcRight80 = 0x6427,
  PBrcBetween80 = 0x6428,
  PShd80 = 0x442d,
  POutLvl = 0x2640,
  PFContextualSpacing = 0x246d,
  PItap = 0x6649,
  PFInnerTableCell = 0x244b,
  PFInnerTtp = 0x244c,
  PShd = 0xc64d,
  PBrcTop = 0xc64e,
  PBrcLeft = 0xc64f,
  PBrcBottom = 0xc650,
  PBrcRight = 0xc651,
  PBrcBetween = 0xc652,
  PHugePapx = 0x6646,
  PHugePapxOld = 0x6645,
  // Table
  TJc80 = 0x5400,
  TDxaLeft = 0x9601,
  TDxaGapHalf = 0x9602,
  TFCantSplit80 = 0x3403,
  TTableHeader = 0x3404,
  TTableBorders80 = 0xd605,
  TDyaRowHeight = 0x9407,
  TDefTable = 0xd608,
  TDefTableShd80 = 0xd609,
  TDefTableShd = 0xd612,
  TTableBorders = 0xd613,
  TSetBrc80 = 0xd620,
  TVertMerge = 0xd62b,
  TVertAlign = 0xd62c,
  TSetBrc = 0xd62f,
  TCellPaddingDefault = 0xd634,
  TFCantSplit = 0x3644,
  TJc = 0x548a,
  TFBiDi = 0x560b,
  TMerge = 0x5624,
  // Section
  SBkc = 0x3009,
  SBrcTop80 = 0x702b,
  SBrcLeft80 = 0x702c,
  SBrcBottom80 = 0x702d,
  SBrcRight80 = 0x702e,
  SPgbProp = 0x522f,
  SBrcTop = 0xd234,
  SBrcLeft = 0xd235,
  SBrcBottom = 0xd236,
  SBrcRight = 0xd237,
  SFTitlePage = 0x300a,
  SCcolumns = 0x500b,
  SDxaColumns = 0x900c,
  SFPgnRestart = 0x3011,
  SGprfIhdt = 0x3014,
  SDyaHdrTop = 0xb017,
  SDyaHdrBottom = 0xb018,
  SPgnStart97 = 0x501c,
  SBOrientation = 0x301d,
  SXaPage = 0xb01f,
  SYaPage = 0xb020,
  SDxaLeft = 0xb021,
  SDxaRight = 0xb022,
  SDyaTop = 0x9023,
  SDyaBottom = 0x9024,
  SPgnStart = 0x7044,
}

/** Word 6 opcode → Word 97 opcode, for the sprms whose operands have the same layout. */
const WORD6_TO_97: Record<number, number> = {
  2: Op.PIstd, 5: Op.PJc80, 7: Op.PFKeep, 8: Op.PFKeepFollow, 9: Op.PFPageBreakBefore, 51: Op.PFWidowControl,
  15: Op.PChgTabsPapx, 16: Op.PDxaRight80, 17: Op.PDxaLeft80, 19: Op.PDxaLeft180, 20: Op.PDyaLine,
  21: Op.PDyaBefore, 22: Op.PDyaAfter, 23: Op.PChgTabs, 24: Op.PFInTable, 25: Op.PFTtp, 47: Op.PShd80,
  65: Op.CFRMarkDel, 66: Op.CFRMarkIns, 67: Op.CFFldVanish, 69: Op.CIbstRMark, 68: Op.CPicLocation, 71: Op.CFData, 75: Op.CFOle2,
  80: Op.CIstd, 83: Op.CPlain, 85: Op.CFBold, 86: Op.CFItalic, 87: Op.CFStrike, 88: Op.CFOutline, 89: Op.CFShadow,
  90: Op.CFSmallCaps, 91: Op.CFCaps, 92: Op.CFVanish, 93: Op.CRgFtc0, 94: Op.CKul, 96: Op.CDxaSpace,
  98: Op.CIco, 99: Op.CHps, 104: Op.CIss, 107: Op.CHpsKern, 117: Op.CFSpec, 118: Op.CFObj,
  142: Op.SBkc, 143: Op.SFTitlePage, 144: Op.SCcolumns, 145: Op.SDxaColumns, 150: Op.SFPgnRestart,
  153: Op.SGprfIhdt, 156: Op.SDyaHdrTop, 157: Op.SDyaHdrBottom, 161: Op.SPgnStart97, 162: Op.SBOrientation,
  164: Op.SXaPage, 165: Op.SYaPage, 166: Op.SDxaLeft, 167: Op.SDxaRight, 168: Op.SDyaTop, 169: Op.SDyaBottom,
  182: Op.TJc80, 183: Op.TDxaLeft, 184: Op.TDxaGapHalf, 185: Op.TFCantSplit80, 186: Op.TTableHeader,
  189: Op.TDyaRowHeight, 190: Op.TDefTable,
};

/**
 * Operand sizes of Word 6 sprms (from the Word 6 file format): a number is a fixed size,
 * 'v' a length byte then that many bytes, 'w' a 2-byte length (sprmTDefTable). Missing ids are
 * treated as 'v'.
 */
const WORD6_SIZES: Record<number, number | 'v' | 'w'> = (() => {
  const t: Record<number, number | 'v' | 'w'> = { 0: 0, 2: 2, 3: 'v', 12: 'v', 15: 'v', 23: 'v', 52: 0, 64: 'v' };
  const fixed: [number[], number][] = [
    [[4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 24, 25, 29, 37, 44, 50, 51], 1],
    [[16, 17, 18, 19, 21, 22, 26, 27, 28, 30, 31, 32, 33, 34, 35, 36, 38, 39, 40, 41, 42, 43, 45, 46, 47, 48, 49], 2],
    [[20], 4],
    [[65, 66, 67, 71, 75, 85, 86, 87, 88, 89, 90, 91, 92, 94, 98, 100, 102, 104, 117, 118, 119], 1],
    [[69, 72, 80, 93, 96, 97, 99, 101, 107, 109, 110, 111, 112, 121, 122, 123, 124], 2],
    [[70], 4], [[73, 95], 3], [[83], 0],
    [[131, 132, 138, 139, 142, 143, 146, 147, 150, 151, 152, 153, 158, 159, 162], 1],
    [[140, 141, 144, 145, 148, 149, 154, 155, 156, 157, 160, 161, 164, 165, 166, 167, 168, 169, 170, 171], 2],
    [[136, 137], 3], [[163], 0],
    [[185, 186], 1], [[182, 183, 184, 189, 195, 197, 198], 2], [[192, 194, 196, 200], 4], [[193, 199], 5], [[187], 12],
  ];
  for (const [ids, size] of fixed) for (const id of ids) t[id] = size;
  t[190] = 'w';
  return t;
})();

/** Operand size of a Word 97 sprm at o (o points at the opcode); returns [operandStart, operandLength]. */
function operand97(g: Uint8Array, o: number, op: number): [number, number] {
  switch (op >> 13) {
    case 0:
    case 1:
      return [o + 2, 1];
    case 2:
    case 4:
    case 5:
      return [o + 2, 2];
    case 3:
      return [o + 2, 4];
    case 7:
      return [o + 2, 3];
    default: {
      if (op === Op.TDefTable || op === 0xd606) {
        // A 2-byte cb that counts itself minus one: the data after it is cb - 1 bytes.
        const cb = u16(g, o + 2);
        return [o + 4, cb - 1];
      }
      if (op === Op.PChgTabs && u8(g, o + 2) === 255) {
        // A long PChgTabs: the size follows from the delete and add counts.
        const del = u8(g, o + 3);
        const add = u8(g, o + 4 + del * 4);
        return [o + 3, 1 + del * 4 + 1 + add * 3];
      }
      return [o + 3, u8(g, o + 2)];
    }
  }
}

/** The sprms of a grpprl, in order. Stops quietly at a truncated sprm (as Word does). */
export function parseSprms(g: Uint8Array, word6: boolean): Sprm[] {
  const out: Sprm[] = [];
  let o = 0;
  while (o < g.length) {
    if (word6) {
      const id = g[o]!;
      const size = WORD6_SIZES[id] ?? 'v';
      let start: number;
      let len: number;
      if (size === 'v') {
        if (o + 1 >= g.length) break;
        start = o + 2;
        len = g[o + 1]!;
      } else if (size === 'w') {
        if (o + 2 >= g.length) break;
        start = o + 3;
        len = u16(g, o + 1) - 1;
      } else {
        start = o + 1;
        len = size;
      }
      if (start + len > g.length || len < 0) break;
      out.push({ op: WORD6_TO_97[id] ?? 0x10000 + id, operand: g.subarray(start, start + len) });
      o = start + len;
    } else {
      if (o + 2 > g.length) break;
      const op = u16(g, o);
      let start: number;
      let len: number;
      try {
        [start, len] = operand97(g, o, op);
      } catch {
        break;
      }
      if (start + len > g.length || len < 0) break;
      out.push({ op, operand: g.subarray(start, start + len) });
      o = start + len;
    }
  }
  return out;
}

/** Operand readers: sprm operands are little-endian like everything else. */
export const opU8 = (s: Sprm, at = 0): number => s.operand[at] ?? 0;
export const opU16 = (s: Sprm, at = 0): number => (s.operand.length >= at + 2 ? u16(s.operand, at) : 0);
export const opI16 = (s: Sprm, at = 0): number => {
  const v = opU16(s, at);
  return v & 0x8000 ? v - 0x10000 : v;
};
export const opU32 = (s: Sprm, at = 0): number =>
  s.operand.length >= at + 4 ? (opU16(s, at) | (opU16(s, at + 2) << 16)) >>> 0 : 0;
