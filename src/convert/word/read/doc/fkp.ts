/**
 * Formatted disk pages (FKPs): 512-byte pages in the WordDocument stream holding the direct character
 * (CHPX) and paragraph (PAPX) properties by FC range. The bin tables (PlcBteChpx/PlcBtePapx in the
 * table stream) list the pages. We flatten all pages into one sorted run list per kind.
 */
import { i32, readPlc, u16, u32, u8 } from '../../../../codecs/binary';
import type { Fib } from './fib';
import { Op, parseSprms } from './sprm';

export interface FkpRun {
  fcStart: number;
  fcEnd: number;
  grpprl: Uint8Array;
  /** Paragraph runs only: the paragraph style. */
  istd: number;
}

const EMPTY: Uint8Array = new Uint8Array(0);

function pageNumbers(fib: Fib, table: Uint8Array, fc: number, lcb: number, first: number, count: number): number[] {
  const cbPn = fib.word6 ? 2 : 4;
  const plc = readPlc(table, fc, lcb, cbPn);
  const pns = plc.data.map((d) => (cbPn === 2 ? u16(d, 0) : u32(d, 0) & 0x3fffff));
  // Word 6 fast-saved files may list fewer pages than exist: the rest follow the last one listed.
  if (fib.word6 && count > pns.length) {
    let next = pns.length ? pns[pns.length - 1]! + 1 : first;
    while (pns.length < count) pns.push(next++);
  }
  return pns;
}

export function readChpxRuns(fib: Fib, word: Uint8Array, table: Uint8Array, fc: number, lcb: number): FkpRun[] {
  const runs: FkpRun[] = [];
  for (const pn of pageNumbers(fib, table, fc, lcb, fib.pnChpFirst, fib.cpnBteChp)) {
    const page = pn * 512;
    if (page + 512 > word.length) continue;
    const crun = u8(word, page + 511);
    for (let i = 0; i < crun; i++) {
      const fcStart = i32(word, page + 4 * i);
      const fcEnd = i32(word, page + 4 * (i + 1));
      const off = u8(word, page + 4 * (crun + 1) + i) * 2;
      const grpprl = off ? word.subarray(page + off + 1, page + off + 1 + u8(word, page + off)) : EMPTY;
      runs.push({ fcStart, fcEnd, grpprl, istd: 0 });
    }
  }
  return runs.sort((a, b) => a.fcStart - b.fcStart);
}

export function readPapxRuns(
  fib: Fib,
  word: Uint8Array,
  table: Uint8Array,
  data: Uint8Array | undefined,
  fc: number,
  lcb: number,
): FkpRun[] {
  const runs: FkpRun[] = [];
  // A BX is the PAPX offset byte plus a PHE: 12 bytes in Word 97, 6 in Word 6.
  const cbBx = fib.word6 ? 7 : 13;
  for (const pn of pageNumbers(fib, table, fc, lcb, fib.pnPapFirst, fib.cpnBtePap)) {
    const page = pn * 512;
    if (page + 512 > word.length) continue;
    const cpara = u8(word, page + 511);
    for (let i = 0; i < cpara; i++) {
      const fcStart = i32(word, page + 4 * i);
      const fcEnd = i32(word, page + 4 * (i + 1));
      const off = u8(word, page + 4 * (cpara + 1) + i * cbBx) * 2;
      let istd = 0;
      let grpprl: Uint8Array = EMPTY;
      if (off) {
        let o = page + off;
        let cb = u8(word, o++);
        // Word 97: cb counts words (2*cb - 1 bytes follow); cb 0 means the next byte is the word count.
        let len: number;
        if (!fib.word6 && cb === 0) {
          cb = u8(word, o++);
          len = 2 * cb;
        } else {
          len = fib.word6 ? 2 * cb : 2 * cb - 1;
        }
        len = Math.min(len, page + 511 - o);
        if (len >= 2) {
          istd = u16(word, o);
          grpprl = word.subarray(o + 2, o + len);
        }
        grpprl = expandHugePapx(fib, grpprl, data);
      }
      runs.push({ fcStart, fcEnd, grpprl, istd });
    }
  }
  return runs.sort((a, b) => a.fcStart - b.fcStart);
}

/** sprmPHugePapx: the paragraph's sprms are too long for the FKP and live in the Data stream. */
function expandHugePapx(fib: Fib, grpprl: Uint8Array, data: Uint8Array | undefined): Uint8Array {
  if (fib.word6 || !data || grpprl.length < 6) return grpprl;
  const first = parseSprms(grpprl, false)[0];
  if (!first || (first.op !== Op.PHugePapx && first.op !== Op.PHugePapxOld)) return grpprl;
  const at = u32(first.operand, 0);
  if (at + 2 > data.length) return grpprl;
  const cb = u16(data, at);
  return data.subarray(at + 2, Math.min(data.length, at + 2 + cb));
}

/** The run containing fc (binary search), or undefined when no FKP covers it. */
export function findRun(runs: FkpRun[], fc: number): FkpRun | undefined {
  let lo = 0;
  let hi = runs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = runs[mid]!;
    if (fc < r.fcStart) hi = mid - 1;
    else if (fc >= r.fcEnd) lo = mid + 1;
    else return r;
  }
  return undefined;
}
