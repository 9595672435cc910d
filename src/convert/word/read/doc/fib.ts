/**
 * The File Information Block at the start of the WordDocument stream: where every other structure
 * lives. Word 97+ (nFib >= 0x00C1 in practice; anything above 105) has a variable-length FIB with a
 * FibRgFcLcb array of (fc, lcb) pairs; Word 6/95 (nFib 101..105) has a fixed layout whose first 38
 * pairs use the same order, so one index table serves both.
 */
import { ConversionError } from '../../../errors';
import { i32, u16, u32 } from '../../../../codecs/binary';

/** Indexes of the (fc, lcb) pairs we use, in FibRgFcLcb97 order (same order in the Word 6 FIB). */
export const FcLcb = {
  Stshf: 1,
  PlcffndRef: 2,
  PlcffndTxt: 3,
  PlcfSed: 6,
  PlcfHdd: 11,
  PlcfBteChpx: 12,
  PlcfBtePapx: 13,
  SttbfFfn: 15,
  Dop: 31,
  Clx: 33,
  PlcSpaMom: 40,
  PlcSpaHdr: 41,
  PlcfendRef: 46,
  PlcfendTxt: 47,
  DggInfo: 50,
  PlcftxbxTxt: 56,
  PlcfHdrtxbxTxt: 58,
  PlfLst: 73,
  PlfLfo: 74,
} as const;

export interface Fib {
  nFib: number;
  /** Word 6 or Word 95: 1-byte sprms, 8-bit text, no table stream. */
  word6: boolean;
  lid: number;
  fComplex: boolean;
  fEncrypted: boolean;
  /** 1Table instead of 0Table. */
  whichTableStream: 0 | 1;
  /** Start of the text in the WordDocument stream for a non-complex Word 6 file. */
  fcMin: number;
  ccpText: number;
  ccpFtn: number;
  ccpHdd: number;
  ccpMcr: number;
  ccpAtn: number;
  ccpEdn: number;
  ccpTxbx: number;
  ccpHdrTxbx: number;
  /** Word 6: FKP pages that the bin tables may not list (fast-saved files). */
  pnChpFirst: number;
  cpnBteChp: number;
  pnPapFirst: number;
  cpnBtePap: number;
  fcLcb(index: number): { fc: number; lcb: number };
}

export function readFib(w: Uint8Array): Fib {
  if (w.length < 0x200) throw new ConversionError('corrupt', 'The WordDocument stream is too short for a FIB.');
  const wIdent = u16(w, 0);
  const nFib = u16(w, 2);
  // 0xA5EC is Word 6+, 0xA5DC is Word 6 (some builds); Word 2 uses 0xA59B/0xA5DB.
  if (wIdent !== 0xa5ec && wIdent !== 0xa5dc) {
    if (wIdent === 0xa59b || wIdent === 0xa5db || wIdent === 0xa59c) {
      throw new ConversionError('unsupported', 'Word 2.0 and older documents are not supported.');
    }
    throw new ConversionError('not_word', 'The WordDocument stream does not start with a Word FIB.');
  }
  if (nFib < 101) throw new ConversionError('unsupported', `Word documents with nFib ${nFib} (Word 2.0 or older) are not supported.`);
  const flags = u16(w, 0x0a);
  const word6 = nFib <= 105;
  const base = {
    nFib,
    word6,
    lid: u16(w, 0x06),
    fComplex: (flags & 0x0004) !== 0,
    fEncrypted: (flags & 0x0100) !== 0,
    whichTableStream: (word6 ? 0 : (flags & 0x0200) !== 0 ? 1 : 0) as 0 | 1,
    fcMin: u32(w, 0x18),
  };
  if (word6) {
    const pairs = 0x58;
    return {
      ...base,
      ccpText: i32(w, 0x34),
      ccpFtn: i32(w, 0x38),
      ccpHdd: i32(w, 0x3c),
      ccpMcr: i32(w, 0x40),
      ccpAtn: i32(w, 0x44),
      ccpEdn: i32(w, 0x48),
      ccpTxbx: i32(w, 0x4c),
      ccpHdrTxbx: i32(w, 0x50),
      pnChpFirst: u16(w, 0x18a),
      pnPapFirst: u16(w, 0x18c),
      cpnBteChp: u16(w, 0x18e),
      cpnBtePap: u16(w, 0x190),
      // Only the first 38 pairs exist in the Word 6 FIB; later ones (lists, drawings) do not.
      fcLcb: (i) => (i < 38 ? { fc: u32(w, pairs + 8 * i), lcb: u32(w, pairs + 8 * i + 4) } : { fc: 0, lcb: 0 }),
    };
  }
  // FibBase is 32 bytes; then csw + fibRgW, cslw + fibRgLw, cbRgFcLcb + fibRgFcLcbBlob.
  const csw = u16(w, 0x20);
  const lwStart = 0x22 + csw * 2;
  const cslw = u16(w, lwStart);
  const lw = (i: number) => (i < cslw ? i32(w, lwStart + 2 + 4 * i) : 0);
  const fcLcbStart = lwStart + 2 + cslw * 4;
  const cbRgFcLcb = u16(w, fcLcbStart);
  const pairs = fcLcbStart + 2;
  return {
    ...base,
    ccpText: lw(3),
    ccpFtn: lw(4),
    ccpHdd: lw(5),
    ccpMcr: lw(6),
    ccpAtn: lw(7),
    ccpEdn: lw(8),
    ccpTxbx: lw(9),
    ccpHdrTxbx: lw(10),
    pnChpFirst: 0,
    cpnBteChp: 0,
    pnPapFirst: 0,
    cpnBtePap: 0,
    fcLcb: (i) => (i < cbRgFcLcb ? { fc: u32(w, pairs + 8 * i), lcb: u32(w, pairs + 8 * i + 4) } : { fc: 0, lcb: 0 }),
  };
}
