/**
 * A converter's pages printed over several invocations (a long workbook, a long deck): each step
 * keeps its slice in the task's scratch space, and the last reads them back to join them.
 */
import type { Scratch } from './define';
import { readAll } from '../contracts/rpc';

/** Keeps step `step`'s slice. */
export const keepSlice = (scratch: Scratch, step: number, slice: Uint8Array): Promise<void> => scratch.put(`slice-${step}.pdf`, slice);

/** The slices the earlier steps printed, in order. */
export async function slicesBefore(scratch: Scratch, step: number): Promise<{ bytes: Uint8Array }[]> {
  const out: { bytes: Uint8Array }[] = [];
  for (let k = 0; k < step; k++) {
    const stream = await scratch.get(`slice-${k}.pdf`);
    if (!stream) throw new Error(`the printed pages of step ${k} are missing from the task's scratch space`);
    out.push({ bytes: await readAll(stream) });
  }
  return out;
}
