/**
 * Footnotes and endnotes: PlcffndRef/PlcfendRef give each reference's CP in the main text (and
 * whether it is auto-numbered); PlcffndTxt/PlcfendTxt give each body's range in the footnote or
 * endnote story. Auto-numbered footnotes count 1, 2, 3; endnotes i, ii, iii (Word's defaults).
 */
import type { Block } from '../../model/index';
import { i16, readPlc } from '../../../../codecs/binary';
import { FcLcb, type Fib } from './fib';
import { formatNumber } from './lists';

export interface NoteDef {
  id: string;
  label: string;
  refCp: number;
  /** Absolute CP range of the body. */
  start: number;
  end: number;
}

export function readNotes(fib: Fib, table: Uint8Array): NoteDef[] {
  const out: NoteDef[] = [];
  const ftnStart = fib.ccpText;
  const ednStart = fib.ccpText + fib.ccpFtn + fib.ccpHdd + fib.ccpMcr + fib.ccpAtn;
  const kinds = [
    { ref: FcLcb.PlcffndRef, txt: FcLcb.PlcffndTxt, prefix: 'fn', story: ftnStart, nfc: 0 },
    { ref: FcLcb.PlcfendRef, txt: FcLcb.PlcfendTxt, prefix: 'en', story: ednStart, nfc: 2 },
  ];
  for (const k of kinds) {
    const refFl = fib.fcLcb(k.ref);
    const txtFl = fib.fcLcb(k.txt);
    const refs = readPlc(table, refFl.fc, refFl.lcb, 2);
    const txts = readPlc(table, txtFl.fc, txtFl.lcb, 0);
    let auto = 0;
    refs.data.forEach((frd, i) => {
      const nAuto = i16(frd, 0);
      const label = nAuto > 0 ? formatNumber(++auto, k.nfc) : '';
      const start = txts.positions[i];
      const end = txts.positions[i + 1];
      if (start === undefined || end === undefined) return;
      out.push({ id: `${k.prefix}${i + 1}`, label, refCp: refs.positions[i]!, start: k.story + start, end: k.story + end });
    });
  }
  return out;
}

export type NoteBodies = Map<string, Block[]>;
