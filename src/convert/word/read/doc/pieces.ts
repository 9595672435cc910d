/**
 * The piece table (CLX): how character positions (CPs) map to bytes (FCs) in the WordDocument stream.
 * Each piece is either 16-bit (UTF-16LE at fc) or "compressed" 8-bit (cp1252 at fc/2). The CLX also
 * holds grpprls (Prc) that pieces can reference through their Prm: properties applied on top of the
 * FKP ones, written by fast-save.
 */
import { ConversionError } from '../../../errors';
import { decodeByte, i16, i32, u16, u32, u8, type CodePage } from '../../../../codecs/binary';
import type { Fib } from './fib';

export interface Piece {
  cpStart: number;
  cpEnd: number;
  /** Byte offset of the piece's first character in the WordDocument stream. */
  fc: number;
  /** 8-bit characters (1 byte each) rather than UTF-16. */
  compressed: boolean;
  /** Property modifiers of the piece (from Prm), possibly empty. */
  grpprl: Uint8Array;
}

export interface TextStore {
  pieces: Piece[];
  /** Every character of all stories as a UTF-16 code unit. For Word 6 it is the raw byte (0..255). */
  chars: Uint16Array;
  /** The stream offset (FC) of every character: the key into the FKPs. */
  fcs: Int32Array;
  /** Index into pieces for every character. */
  pieceOf: Int32Array;
}

export function readPieces(fib: Fib, table: Uint8Array, fc: number, lcb: number): Piece[] {
  const totalCp = fib.ccpText + fib.ccpFtn + fib.ccpHdd + fib.ccpMcr + fib.ccpAtn + fib.ccpEdn + fib.ccpTxbx + fib.ccpHdrTxbx + 1;
  if (lcb === 0 || (fib.word6 && !fib.fComplex)) {
    // A non-complex (not fast-saved) Word 6 file: the text is one contiguous 8-bit run at fcMin.
    if (!fib.word6) throw new ConversionError('corrupt', 'The document has no piece table (CLX).');
    return [{ cpStart: 0, cpEnd: totalCp, fc: fib.fcMin, compressed: true, grpprl: new Uint8Array(0) }];
  }
  const prcs: Uint8Array[] = [];
  let o = fc;
  const end = fc + lcb;
  while (o < end) {
    const clxt = u8(table, o);
    if (clxt === 1) {
      const cb = i16(table, o + 1);
      prcs.push(table.subarray(o + 3, o + 3 + cb));
      o += 3 + cb;
    } else if (clxt === 2) {
      const lcbPcd = u32(table, o + 1);
      return parsePlcPcd(fib, table, o + 5, lcbPcd, prcs);
    } else {
      throw new ConversionError('corrupt', `Unexpected CLX entry type ${clxt}.`);
    }
  }
  throw new ConversionError('corrupt', 'The CLX has no piece table (Pcdt).');
}

function parsePlcPcd(fib: Fib, table: Uint8Array, start: number, lcb: number, prcs: Uint8Array[]): Piece[] {
  const n = Math.floor((lcb - 4) / 12);
  const pieces: Piece[] = [];
  for (let i = 0; i < n; i++) {
    const cpStart = i32(table, start + 4 * i);
    const cpEnd = i32(table, start + 4 * (i + 1));
    const pcd = start + 4 * (n + 1) + 8 * i;
    const fcRaw = u32(table, pcd + 2);
    const prm = u16(table, pcd + 6);
    // Word 6 pieces are always 8-bit; Word 97 flags 8-bit pieces with bit 30 and stores fc*2.
    const compressed = fib.word6 || (fcRaw & 0x40000000) !== 0;
    const fcPiece = fib.word6 ? fcRaw : compressed ? (fcRaw & ~0x40000000) / 2 : fcRaw;
    // Prm1 (bit 0 set) indexes a Prc; Prm0 (a single inline sprm) is rare and ignored.
    const grpprl = prm & 1 ? (prcs[prm >> 1] ?? new Uint8Array(0)) : new Uint8Array(0);
    if (cpEnd > cpStart) pieces.push({ cpStart, cpEnd, fc: fcPiece, compressed, grpprl });
  }
  return pieces;
}

/** Materialises every character of the document so stories can be walked by CP. */
export function readText(pieces: Piece[], word: Uint8Array, totalCp: number, word6: boolean): TextStore {
  const chars = new Uint16Array(totalCp);
  const fcs = new Int32Array(totalCp);
  const pieceOf = new Int32Array(totalCp).fill(-1);
  pieces.forEach((p, pi) => {
    const end = Math.min(p.cpEnd, totalCp);
    for (let cp = p.cpStart; cp < end; cp++) {
      const k = cp - p.cpStart;
      const fc = p.compressed ? p.fc + k : p.fc + 2 * k;
      if (p.compressed ? fc >= word.length : fc + 1 >= word.length) break;
      fcs[cp] = fc;
      pieceOf[cp] = pi;
      chars[cp] = p.compressed ? (word6 ? word[fc]! : decodeByte(word[fc]!, 1252)) : word[fc]! | (word[fc + 1]! << 8);
    }
  });
  return { pieces, chars, fcs, pieceOf };
}

/** Decodes raw Word 6 bytes of a string in a code page. */
export function decodeWord6(codes: number[], cp: CodePage): string {
  return String.fromCharCode(...codes.map((c) => decodeByte(c, cp)));
}
