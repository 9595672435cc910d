/**
 * word/numbering.xml: list definitions and the counters that turn them into final label strings.
 *
 * Counters live per abstractNum (several w:num instances of one abstractNum continue the same list, as
 * in Word), and a w:num with a startOverride restarts its levels the first time it is used. Labels are
 * produced in document order by `next()`, so the body must be read front to back.
 */
import { romanNumeral } from '../../../../lib/numerals';
import { attr, child, children, type XmlElement } from '../../../../codecs/xml';
import { parsePPr, parseRPr, type ParaProps, type RunProps } from './props';
import type { Styles } from './styles';
import type { Theme } from '../../../office/theme';

interface Level {
  start: number;
  format: string;
  text: string;
  /** lvlRestart: 0 = never; n = restart after a level ≤ n (1-based) is used; undefined = after any higher level. */
  restart?: number;
  isLgl: boolean;
  suffix: 'tab' | 'space' | 'nothing';
  pPr: ParaProps;
  rPr: RunProps;
}

interface AbstractNum {
  levels: (Level | undefined)[];
  numStyleLink?: string;
}

interface NumInstance {
  abstractId: string;
  startOverrides: Map<number, number>;
  levelOverrides: Map<number, Level>;
}

export interface ListLabel {
  label: string;
  suffix: 'tab' | 'space' | 'nothing';
  pPr: ParaProps;
  rPr: RunProps;
}

function parseLevel(el: XmlElement, theme: Theme): Level {
  const start = parseInt(attr(child(el, 'start'), 'val') ?? '', 10);
  const restartRaw = attr(child(el, 'lvlRestart'), 'val');
  const suff = attr(child(el, 'suff'), 'val');
  const isLgl = child(el, 'isLgl');
  const level: Level = {
    start: Number.isFinite(start) ? start : 0,
    format: attr(child(el, 'numFmt'), 'val') ?? 'decimal',
    text: attr(child(el, 'lvlText'), 'val') ?? '',
    isLgl: !!isLgl && isLgl.attrs['val'] !== '0' && isLgl.attrs['val'] !== 'false',
    suffix: suff === 'space' || suff === 'nothing' ? suff : 'tab',
    pPr: parsePPr(child(el, 'pPr'), theme),
    rPr: parseRPr(child(el, 'rPr'), theme),
  };
  if (restartRaw !== undefined && Number.isFinite(parseInt(restartRaw, 10))) level.restart = parseInt(restartRaw, 10);
  return level;
}

export class Numbering {
  private readonly abstracts = new Map<string, AbstractNum>();
  private readonly nums = new Map<string, NumInstance>();
  /** Current counter per abstractNum and level (undefined = not started / restarted). */
  private readonly counters = new Map<string, (number | undefined)[]>();
  private readonly usedNums = new Set<string>();

  constructor(
    root: XmlElement | undefined,
    theme: Theme,
    private readonly styles: Styles,
  ) {
    for (const a of children(root, 'abstractNum')) {
      const id = a.attrs['abstractNumId'];
      if (id === undefined) continue;
      const levels: (Level | undefined)[] = [];
      for (const l of children(a, 'lvl')) {
        const ilvl = parseInt(l.attrs['ilvl'] ?? '', 10);
        if (ilvl >= 0 && ilvl <= 8) levels[ilvl] = parseLevel(l, theme);
      }
      const def: AbstractNum = { levels };
      const link = attr(child(a, 'numStyleLink'), 'val');
      if (link) def.numStyleLink = link;
      this.abstracts.set(id, def);
    }
    for (const n of children(root, 'num')) {
      const id = n.attrs['numId'];
      const abstractId = attr(child(n, 'abstractNumId'), 'val');
      if (id === undefined || abstractId === undefined) continue;
      const inst: NumInstance = { abstractId, startOverrides: new Map(), levelOverrides: new Map() };
      for (const o of children(n, 'lvlOverride')) {
        const ilvl = parseInt(o.attrs['ilvl'] ?? '', 10);
        if (!(ilvl >= 0 && ilvl <= 8)) continue;
        const so = parseInt(attr(child(o, 'startOverride'), 'val') ?? '', 10);
        if (Number.isFinite(so)) inst.startOverrides.set(ilvl, so);
        const lvl = child(o, 'lvl');
        if (lvl) inst.levelOverrides.set(ilvl, parseLevel(lvl, theme));
      }
      this.nums.set(id, inst);
    }
  }

  /** The abstractNum behind a num, following numStyleLink → numbering style → its num. */
  private abstractOf(numId: string): { id: string; def: AbstractNum } | undefined {
    let inst = this.nums.get(numId);
    for (let i = 0; inst && i < 5; i++) {
      const def = this.abstracts.get(inst.abstractId);
      if (!def) return undefined;
      if (!def.numStyleLink || def.levels.some(Boolean)) return { id: inst.abstractId, def };
      const linked = this.styles.numberingStyleNumId(def.numStyleLink);
      inst = linked ? this.nums.get(linked) : undefined;
    }
    return undefined;
  }

  private level(numId: string, ilvl: number): { abstractId: string; level: Level; levelAt: (i: number) => Level | undefined } | undefined {
    const inst = this.nums.get(numId);
    const abs = this.abstractOf(numId);
    if (!inst || !abs) return undefined;
    const levelAt = (i: number) => {
      const base = inst.levelOverrides.get(i) ?? abs.def.levels[i];
      const so = inst.startOverrides.get(i);
      return base && so !== undefined ? { ...base, start: so } : base;
    };
    const level = levelAt(ilvl);
    return level ? { abstractId: abs.id, level, levelAt } : undefined;
  }

  /** Level indents and label style without advancing counters (for layout of the list paragraph). */
  levelProps(numId: string, ilvl: number): { pPr: ParaProps; rPr: RunProps } | undefined {
    const l = this.level(numId, ilvl);
    return l ? { pPr: l.level.pPr, rPr: l.level.rPr } : undefined;
  }

  /** Advance the counters for a list paragraph and return its label. */
  next(numId: string, ilvl: number): ListLabel | undefined {
    const found = this.level(numId, ilvl);
    if (!found) return undefined;
    const { abstractId, level, levelAt } = found;
    let counts = this.counters.get(abstractId);
    if (!counts) this.counters.set(abstractId, (counts = []));
    const inst = this.nums.get(numId)!;
    if (!this.usedNums.has(numId)) {
      this.usedNums.add(numId);
      // A startOverride restarts the list when this num is first used.
      for (const l of inst.startOverrides.keys()) counts[l] = undefined;
    }
    counts[ilvl] = counts[ilvl] === undefined ? level.start : counts[ilvl]! + 1;
    for (let l = ilvl + 1; l < 9; l++) {
      const r = levelAt(l)?.restart;
      if (r === 0) continue;
      if (r === undefined || ilvl < r) counts[l] = undefined;
    }
    let label = '';
    if (level.format !== 'none') {
      label = level.text.replace(/%([1-9])/g, (_, d: string) => {
        const i = parseInt(d, 10) - 1;
        const li = levelAt(i);
        const value = counts![i] ?? li?.start ?? 1;
        const fmt = level.isLgl && i < ilvl ? 'decimal' : (li?.format ?? 'decimal');
        return formatNumber(value, fmt);
      });
    }
    if (level.format === 'bullet') label = level.text;
    return { label, suffix: level.suffix, pPr: level.pPr, rPr: level.rPr };
  }
}

const RUSSIAN_LOWER = 'абвгдежзиклмнопрстуфхцчшщэюя';

export function formatNumber(n: number, format: string): string {
  switch (format) {
    case 'decimal':
    case 'decimalHalfWidth':
    case 'decimalFullWidth':
      return String(n);
    case 'decimalZero':
      return n < 10 && n >= 0 ? '0' + n : String(n);
    case 'lowerLetter':
      return letters(n, 'abcdefghijklmnopqrstuvwxyz');
    case 'upperLetter':
      return letters(n, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ');
    case 'lowerRoman':
      return romanNumeral(n).toLowerCase();
    case 'upperRoman':
      return romanNumeral(n);
    case 'russianLower':
      return letters(n, RUSSIAN_LOWER);
    case 'russianUpper':
      return letters(n, RUSSIAN_LOWER.toUpperCase());
    case 'ordinal':
      return n + (n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'));
    case 'decimalEnclosedParen':
      return `(${n})`;
    case 'decimalEnclosedCircle':
      return n >= 1 && n <= 20 ? String.fromCharCode(0x2460 + n - 1) : String(n);
    case 'none':
      return '';
    default:
      return String(n);
  }
}

/** Word's letter numbering repeats the letter: a..z, aa..zz, aaa... */
function letters(n: number, alphabet: string): string {
  if (n <= 0) return String(n);
  const len = alphabet.length;
  const ch = alphabet[(n - 1) % len]!;
  return ch.repeat(Math.floor((n - 1) / len) + 1);
}

