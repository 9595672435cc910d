/**
 * The style sheet (STSH): paragraph styles carry a PAPX and a CHPX, character styles a CHPX, each
 * based on another style (istdBase). Resolved CHPs/PAPs are cached per istd.
 */
import { u16, u8, utf16 } from '../../../../codecs/binary';
import { applyChpx, defaultChp, type Chp } from './chp';
import { applyPapx, clonePap, defaultPap, type Pap } from './pap';
import { ignoreProblems, type ProblemSink } from '../../../problems';

interface Std {
  name: string;
  /** 1 paragraph, 2 character, 3 table, 4 numbering. */
  stk: number;
  sti: number;
  istdBase: number;
  papx?: Uint8Array;
  chpx?: Uint8Array;
}

export class StyleSheet {
  private readonly stds: (Std | undefined)[] = [];
  private readonly chpCache = new Map<number, Chp>();
  private readonly papCache = new Map<number, Pap>();
  /** ftcAscii/ftcOther defaults from the STSHI. */
  readonly defaultFtc: number = 0;
  readonly defaultFtcOther: number = 0;

  constructor(
    table: Uint8Array,
    fc: number,
    lcb: number,
    private readonly word6: boolean,
    problems: ProblemSink = ignoreProblems,
  ) {
    if (lcb < 4 || fc + lcb > table.length) return;
    const cbStshi = u16(table, fc);
    const stshi = fc + 2;
    const cstd = u16(table, stshi);
    const cbBase = u16(table, stshi + 2);
    if (!word6 && cbStshi >= 18) {
      this.defaultFtc = u16(table, stshi + 12);
      this.defaultFtcOther = u16(table, stshi + 16);
    }
    let o = stshi + cbStshi;
    const end = fc + lcb;
    for (let i = 0; i < cstd && o + 2 <= end; i++) {
      const cbStd = u16(table, o);
      const start = o + 2;
      o = start + cbStd;
      if (cbStd === 0) {
        this.stds.push(undefined);
        continue;
      }
      try {
        this.stds.push(this.parseStd(table, start, cbStd, cbBase));
      } catch (e) {
        this.stds.push(undefined);
        problems({ part: `style ${i} of the style sheet`, reason: `its definition is damaged (${(e as Error).message}): text in it takes the default style` });
      }
    }
  }

  private parseStd(t: Uint8Array, start: number, cbStd: number, cbBase: number): Std {
    const sti = u16(t, start) & 0x0fff;
    const w2 = u16(t, start + 2);
    const stk = w2 & 0x0f;
    const istdBase = w2 >> 4;
    const cupx = u16(t, start + 4) & 0x0f;
    let o = start + cbBase;
    let name: string;
    if (this.word6) {
      const cch = u8(t, o);
      name = String.fromCharCode(...t.subarray(o + 1, o + 1 + cch));
      o += 1 + cch + 1;
    } else {
      const cch = u16(t, o);
      name = utf16(t, o + 2, cch);
      o += 2 + 2 * cch + 2;
    }
    const upxs: Uint8Array[] = [];
    for (let k = 0; k < cupx && o < start + cbStd; k++) {
      // Each UPX starts on an even offset from the STD's start.
      if ((o - start) & 1) o++;
      const cb = u16(t, o);
      upxs.push(t.subarray(o + 2, o + 2 + cb));
      o += 2 + cb;
    }
    const std: Std = { name, stk, sti, istdBase };
    if (stk === 1) {
      // The paragraph UPX starts with the istd (2 bytes) before its sprms.
      std.papx = upxs[0]?.subarray(2);
      std.chpx = upxs[1];
    } else if (stk === 2) std.chpx = upxs[0];
    else if (stk === 3) {
      std.papx = upxs[1]?.subarray(2);
      std.chpx = upxs[2];
    } else if (stk === 4) std.papx = upxs[0]?.subarray(2);
    return std;
  }

  name(istd: number): string | undefined {
    return this.stds[istd]?.name;
  }

  /** sti 1..9 are the built-in Heading 1..9 styles. */
  headingLevel(istd: number): number | undefined {
    const sti = this.stds[istd]?.sti;
    return sti !== undefined && sti >= 1 && sti <= 9 ? sti - 1 : undefined;
  }

  private chain(istd: number): Std[] {
    const out: Std[] = [];
    const seen = new Set<number>();
    let cur = istd;
    while (cur !== 0x0fff && !seen.has(cur) && this.stds[cur]) {
      seen.add(cur);
      out.unshift(this.stds[cur]!);
      cur = this.stds[cur]!.istdBase;
    }
    return out;
  }

  /** A character style's CHPX grpprls along its basedOn chain, base first. */
  charGrpprls(istd: number): Uint8Array[] {
    return this.chain(istd).map((s) => s.chpx).filter((g): g is Uint8Array => !!g);
  }

  /** The CHP of a paragraph style (or of a character style applied on the defaults). */
  chp(istd: number): Chp {
    const cached = this.chpCache.get(istd);
    if (cached) return { ...cached };
    const chp = defaultChp(this.defaultFtc);
    chp.ftcOther = this.defaultFtcOther;
    for (const std of this.chain(istd)) {
      if (std.chpx) applyChpx(chp, std.chpx, { word6: this.word6, charStyleGrpprls: () => [], styleBase: { ...chp } });
    }
    chp.istd = 10;
    this.chpCache.set(istd, chp);
    return { ...chp };
  }

  pap(istd: number): Pap {
    let cached = this.papCache.get(istd);
    if (!cached) {
      cached = defaultPap();
      for (const std of this.chain(istd)) if (std.papx) applyPapx(cached, std.papx, this.word6);
      cached.istd = istd;
      // Table sprms of table styles are not row properties of every paragraph.
      cached.tapSprms = [];
      this.papCache.set(istd, cached);
    }
    return clonePap(cached);
  }
}
