/**
 * Headers and footers: PlcfHdd splits the header story into stories. The first six are the
 * footnote/endnote separators; then each section has six: even header, odd header, even footer,
 * odd footer, first-page header, first-page footer. An empty story means "same as the previous
 * section" (Word 97+). Word 6 lists only the stories a section has, flagged in its grpfIhdt.
 */
import { readPlc } from '../../../../codecs/binary';
import { FcLcb, type Fib } from './fib';
import type { SectionInfo } from './sections';

export interface StoryRange {
  start: number;
  end: number;
}

export interface SectionStories {
  headers: { default?: StoryRange; first?: StoryRange; even?: StoryRange };
  footers: { default?: StoryRange; first?: StoryRange; even?: StoryRange };
}

const SLOTS = [
  ['headers', 'even'], ['headers', 'default'], ['footers', 'even'], ['footers', 'default'], ['headers', 'first'], ['footers', 'first'],
] as const;

export function readHeaderStories(fib: Fib, table: Uint8Array, sections: SectionInfo[]): SectionStories[] {
  const dop = fib.fcLcb(FcLcb.Dop);
  const { fc, lcb } = fib.fcLcb(FcLcb.PlcfHdd);
  const plc = readPlc(table, fc, lcb, 0);
  const base = fib.ccpText + fib.ccpFtn;
  const cps = plc.positions;
  const range = (i: number): StoryRange | undefined => {
    const a = cps[i];
    const b = cps[i + 1];
    if (a === undefined || b === undefined || b <= a) return undefined;
    return { start: base + a, end: base + b };
  };
  const out: SectionStories[] = [];
  let prev: SectionStories = { headers: {}, footers: {} };
  if (fib.word6) {
    // Word 6: the note separators the DOP's grpfIhdt flags, then per section only the flagged stories.
    const flags = dop.lcb >= 2 && dop.fc + 1 < table.length ? table[dop.fc + 1]! : 0;
    let i = 0;
    for (let bit = 0; bit < 8; bit++) if (flags & (1 << bit)) i++;
    for (const sec of sections) {
      const cur: SectionStories = { headers: { ...prev.headers }, footers: { ...prev.footers } };
      SLOTS.forEach(([kind, slot], bit) => {
        if (sec.grpfIhdt & (1 << bit)) cur[kind][slot] = range(i++);
      });
      out.push(cur);
      prev = cur;
    }
    return out;
  }
  sections.forEach((_, s) => {
    const cur: SectionStories = { headers: {}, footers: {} };
    SLOTS.forEach(([kind, slot], k) => {
      cur[kind][slot] = range(6 + 6 * s + k) ?? prev[kind][slot];
    });
    out.push(cur);
    prev = cur;
  });
  return out;
}
