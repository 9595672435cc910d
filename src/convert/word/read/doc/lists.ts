/**
 * Lists: PlfLst (list definitions with their LVLs), PlfLfo (list instances with overrides) and the
 * numbering state. Paragraphs reference an LFO (sprmPIlfo, 1-based) and a level (sprmPIlvl); the
 * label is the level's number text with placeholders 0..8 replaced by the counters of those levels,
 * counted across the document per list like Word does.
 */
import { romanNumeral } from '../../../../lib/numerals';
import { i16, i32, u16, u32, u8, utf16 } from '../../../../codecs/binary';

export interface Level {
  start: number;
  nfc: number;
  /** The number text: code units below 9 are placeholders for the counter of that level. */
  text: string;
  /** 0 tab, 1 space, 2 nothing. */
  follow: number;
  legal: boolean;
  noRestart: boolean;
  papx: Uint8Array;
  chpx: Uint8Array;
}

interface ListDef {
  lsid: number;
  levels: Level[];
}

interface Override {
  startAt?: number;
  level?: Level;
}

interface Lfo {
  lsid: number;
  overrides: Map<number, Override>;
}

function readLevel(t: Uint8Array, o: number): [Level, number] {
  const start = i32(t, o);
  const nfc = u8(t, o + 4);
  const flags = u8(t, o + 5);
  const follow = u8(t, o + 15);
  const cbChpx = u8(t, o + 24);
  const cbPapx = u8(t, o + 25);
  let p = o + 28;
  const papx = t.subarray(p, p + cbPapx);
  p += cbPapx;
  const chpx = t.subarray(p, p + cbChpx);
  p += cbChpx;
  const cch = u16(t, p);
  const text = utf16(t, p + 2, cch);
  p += 2 + 2 * cch;
  return [{ start, nfc, text, follow, legal: (flags & 4) !== 0, noRestart: (flags & 8) !== 0, papx, chpx }, p];
}

/** Lower-case roman numerals, as Word's lowerRoman lists number (nothing for 0). */
const roman = (n: number): string => (n > 0 ? romanNumeral(n).toLowerCase() : '');

/** Word's letter numbering repeats the letter: a..z, aa..zz, aaa... */
function letters(n: number): string {
  if (n < 1) return '';
  const ch = String.fromCharCode(97 + ((n - 1) % 26));
  return ch.repeat(Math.floor((n - 1) / 26) + 1);
}

function ordinalSuffix(n: number): string {
  const t = n % 100;
  if (t >= 11 && t <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
}

export function formatNumber(n: number, nfc: number): string {
  switch (nfc) {
    case 1: return roman(n).toUpperCase();
    case 2: return roman(n);
    case 3: return letters(n).toUpperCase();
    case 4: return letters(n);
    case 5: return `${n}${ordinalSuffix(n)}`;
    case 22: return n < 10 ? `0${n}` : `${n}`;
    case 23: return '';
    case 255: return '';
    default: return `${n}`;
  }
}

/** Symbol/Wingdings bullets stored as private-use code points, mapped to real characters. */
const PUA_BULLETS: Record<number, string> = {
  0xf0b7: '•', 0xf0a7: '▪', 0xf0a8: '◆', 0xf076: '❖', 0xf0d8: '➢', 0xf0fc: '✓', 0xf06f: 'o', 0xf0a1: '○',
  0xf06e: '■', 0xf071: '❑', 0xf075: '◆', 0xf0e0: '→', 0xf0e8: '➔', 0xf02d: '-', 0xf02a: '*',
};

export function mapSymbolChar(code: number): string | undefined {
  return PUA_BULLETS[code];
}

export class ListTable {
  private readonly lists = new Map<number, ListDef>();
  private readonly lfos: Lfo[] = [];
  private readonly counters = new Map<number, (number | undefined)[]>();
  private readonly appliedOverrides = new Set<string>();

  constructor(table: Uint8Array, fcLst: number, lcbLst: number, fcLfo: number, lcbLfo: number) {
    if (lcbLst >= 2 && fcLst + lcbLst <= table.length) {
      const count = i16(table, fcLst);
      let p = fcLst + 2 + 28 * count;
      for (let i = 0; i < count; i++) {
        const lstf = fcLst + 2 + 28 * i;
        const lsid = i32(table, lstf);
        const simple = (u8(table, lstf + 26) & 1) !== 0;
        const levels: Level[] = [];
        for (let k = 0; k < (simple ? 1 : 9); k++) {
          const [level, next] = readLevel(table, p);
          levels.push(level);
          p = next;
        }
        this.lists.set(lsid, { lsid, levels });
      }
    }
    if (lcbLfo >= 4 && fcLfo + lcbLfo <= table.length) {
      const count = u32(table, fcLfo);
      let p = fcLfo + 4 + 16 * count;
      for (let i = 0; i < count; i++) {
        const lfo = fcLfo + 4 + 16 * i;
        const clfolvl = u8(table, lfo + 12);
        const overrides = new Map<number, Override>();
        p += 4; // LFOData.cp
        for (let k = 0; k < clfolvl; k++) {
          const startAt = i32(table, p);
          const bits = u32(table, p + 4);
          p += 8;
          const ov: Override = {};
          if (bits & 0x10) ov.startAt = startAt;
          if (bits & 0x20) {
            const [level, next] = readLevel(table, p);
            ov.level = level;
            p = next;
            if (ov.startAt === undefined) ov.startAt = level.start;
          }
          overrides.set(bits & 0x0f, ov);
        }
        this.lfos.push({ lsid: i32(table, lfo), overrides });
      }
    }
  }

  /** The level a paragraph's (ilfo, ilvl) points at, or undefined for "no list". */
  level(ilfo: number, ilvl: number): Level | undefined {
    const lfo = ilfo > 0 ? this.lfos[ilfo - 1] : undefined;
    if (!lfo) return undefined;
    const list = this.lists.get(lfo.lsid);
    const lvl = Math.min(ilvl, 8);
    return lfo.overrides.get(lvl)?.level ?? list?.levels[lvl] ?? list?.levels[0];
  }

  /** Advances the counters for a numbered paragraph and returns its label text. */
  nextLabel(ilfo: number, ilvl: number): string | undefined {
    const lfo = ilfo > 0 ? this.lfos[ilfo - 1] : undefined;
    const level = this.level(ilfo, ilvl);
    if (!lfo || !level) return undefined;
    const lvl = Math.min(ilvl, 8);
    let counts = this.counters.get(lfo.lsid);
    if (!counts) this.counters.set(lfo.lsid, (counts = []));
    // A start-at override restarts the level the first time this list instance is used.
    const ov = lfo.overrides.get(lvl);
    const key = `${ilfo}:${lvl}`;
    if (ov?.startAt !== undefined && !this.appliedOverrides.has(key)) {
      this.appliedOverrides.add(key);
      counts[lvl] = ov.startAt - 1;
    }
    counts[lvl] = counts[lvl] === undefined ? level.start : counts[lvl]! + 1;
    // Levels above that were never used count as started: a later item there shows start + 1, as in Word.
    for (let k = 0; k < lvl; k++) if (counts[k] === undefined) counts[k] = this.level(ilfo, k)?.start ?? 1;
    // Using a level restarts the levels below it.
    for (let k = lvl + 1; k < 9; k++) {
      if (!this.level(ilfo, k)?.noRestart) counts[k] = undefined;
    }
    let label = '';
    for (const ch of level.text) {
      const c = ch.charCodeAt(0);
      if (c < 9) {
        const src = this.level(ilfo, c);
        const value = counts[c] ?? src?.start ?? 1;
        label += formatNumber(value, level.legal && c < lvl ? 0 : (src?.nfc ?? 0));
      } else {
        label += mapSymbolChar(c) ?? ch;
      }
    }
    return label;
  }
}
