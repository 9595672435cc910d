/**
 * Conditional formatting evaluated over a sheet's cached values, as Excel applies it: rules in
 * priority order (lower first), a rule's stopIfTrue ending the rules after it for the cells it
 * matches, and a later rule never overriding a property an earlier one set. Each rule's numbers
 * (top N, average, colour scale and data bar ends, percentiles, duplicates) are counted once over
 * all of its ranges; the answer is each formatted cell's look.
 */
import type { CfOperand, Cfvo, ConditionalFormat, DifferentialStyle } from './conditional-model';
import type { Cell, CellValue, Range, Sheet, Workbook } from './model';

export interface ConditionalLook {
  fill?: string;
  color?: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  borders?: DifferentialStyle['borders'];
  /** A data bar: from and to as fractions of the cell's width. */
  dataBar?: { from: number; to: number; color: string };
  /** An icon of an icon set: `index` counts from the lowest (0) of `count`. */
  icon?: { set: string; index: number; count: number };
  /** A data bar or icon set that hides the value. */
  hideValue?: boolean;
}

/** Cells visited over all rules of a sheet at most (past it, later rules are left out). */
export const CF_VISITS_MAX = 5_000_000;

const key = (row: number, col: number) => `${row}:${col}`;

/** The cells of a range that exist in the sheet (values or styles). */
function* cellsIn(sheet: Sheet, r: Range): Generator<Cell> {
  const span = r.bottom - r.top + 1;
  if (span <= sheet.rows.size) {
    for (let row = r.top; row <= r.bottom; row++) for (const c of sheet.rows.get(row) ?? []) if (c.col >= r.left && c.col <= r.right) yield c;
  } else {
    for (const [row, cells] of sheet.rows) if (row >= r.top && row <= r.bottom) for (const c of cells) if (c.col >= r.left && c.col <= r.right) yield c;
  }
}

function valueAt(sheet: Sheet, row: number, col: number): CellValue | undefined {
  return sheet.rows.get(row)?.find((c) => c.col === col)?.value;
}

function operandValue(sheet: Sheet, o: CfOperand, cell: Cell, anchor: Range): CellValue | undefined {
  if (o.kind !== 'ref') return o;
  return valueAt(sheet, o.absRow ? o.row : o.row + cell.row - anchor.top, o.absCol ? o.col : o.col + cell.col - anchor.left);
}

/** Excel's comparison order: numbers < text < booleans; text compared without case. */
function compare(a: CellValue | undefined, b: CellValue | undefined): number {
  const rank = (v: CellValue | undefined) => (!v || v.kind === 'number' ? 0 : v.kind === 'text' ? 1 : v.kind === 'bool' ? 2 : 3);
  const [ra, rb] = [rank(a), rank(b)];
  if (ra !== rb) return ra - rb;
  if (ra === 0) return (a?.kind === 'number' ? a.value : 0) - (b?.kind === 'number' ? b.value : 0);
  if (ra === 1) return (a!.value as string).toLowerCase().localeCompare((b!.value as string).toLowerCase());
  return Number(a!.value) - Number(b!.value);
}

const textOf = (v: CellValue | undefined) => (!v ? '' : v.kind === 'bool' ? (v.value ? 'TRUE' : 'FALSE') : String(v.value));
const numberOf = (v: CellValue | undefined) => (v?.kind === 'number' ? v.value : undefined);

/** PERCENTILE.INC over sorted numbers. */
function percentile(sorted: number[], p: number): number {
  const at = Math.max(0, Math.min(1, p / 100)) * (sorted.length - 1);
  const lo = Math.floor(at);
  return sorted[lo]! + (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!) * (at - lo);
}

function stopValue(v: Cfvo, sorted: number[]): number {
  const [min, max] = [sorted[0]!, sorted[sorted.length - 1]!];
  switch (v.type) {
    case 'min':
    case 'autoMin':
      return v.type === 'autoMin' ? Math.min(0, min) : min;
    case 'max':
    case 'autoMax':
      return v.type === 'autoMax' ? Math.max(0, max) : max;
    case 'percent':
      return min + ((max - min) * (v.value ?? 0)) / 100;
    case 'percentile':
      return percentile(sorted, v.value ?? 0);
    default:
      return v.value ?? 0;
  }
}

function mix(a: string, b: string, t: number): string {
  const ch = (s: string, i: number) => parseInt(s.slice(i, i + 2), 16);
  return [0, 2, 4].map((i) => Math.round(ch(a, i) + (ch(b, i) - ch(a, i)) * t).toString(16).padStart(2, '0')).join('').toUpperCase();
}

/** A colour scale's colour for `v` between its stops. */
export function scaleColor(v: number, stops: number[], colors: string[]): string {
  if (v <= stops[0]!) return colors[0]!;
  for (let i = 1; i < stops.length; i++) {
    if (v <= stops[i]!) {
      const span = stops[i]! - stops[i - 1]!;
      return mix(colors[i - 1]!, colors[i]!, span > 0 ? (v - stops[i - 1]!) / span : 1);
    }
  }
  return colors[colors.length - 1]!;
}

/** What one rule gives the cells it formats. */
type Apply = (cell: Cell) => ConditionalLook | undefined;

/** The numbers among a rule's cells, in ascending order. */
const numbersOf = (cells: Cell[]): number[] => cells.flatMap((x) => (x.value?.kind === 'number' ? [x.value.value] : [])).sort((a, b) => a - b);

/** A rule that formats the cells it holds true for (values, text, ranks, averages, duplicates, blanks, errors): its test, or undefined for the graded rules. */
function cellTest(sheet: Sheet, c: ConditionalFormat['condition'], anchor: Range, cells: Cell[]): ((cell: Cell) => boolean) | undefined {
  const numbers = () => numbersOf(cells);
  switch (c.type) {
    case 'cellIs':
      return ((cell: Cell) => {
        if (!cell.value) return false;
        const [a, b] = c.operands.map((o) => operandValue(sheet, o, cell, anchor));
        const d = compare(cell.value, a);
        switch (c.operator) {
          case 'lessThan': return d < 0;
          case 'lessThanOrEqual': return d <= 0;
          case 'equal': return d === 0;
          case 'notEqual': return d !== 0;
          case 'greaterThanOrEqual': return d >= 0;
          case 'greaterThan': return d > 0;
          default: {
            const [lo, hi] = compare(a, b) <= 0 ? [a, b] : [b, a];
            const inside = compare(cell.value, lo) >= 0 && compare(cell.value, hi) <= 0;
            return c.operator === 'between' ? inside : !inside;
          }
        }
      });
    case 'expression':
      return ((cell: Cell) => {
        const v = operandValue(sheet, c.operand, cell, anchor);
        return !!v && (v.kind === 'number' ? v.value !== 0 : v.kind === 'bool' ? v.value : false);
      });
    case 'containsText':
    case 'notContainsText':
    case 'beginsWith':
    case 'endsWith': {
      const t = c.text.toLowerCase();
      return ((cell: Cell) => {
        const s = textOf(cell.value).toLowerCase();
        if (c.type === 'beginsWith') return s.startsWith(t);
        if (c.type === 'endsWith') return s.endsWith(t);
        return s.includes(t) === (c.type === 'containsText');
      });
    }
    case 'top10': {
      const sorted = numbers();
      if (!sorted.length) return () => false;
      const n = Math.max(1, Math.min(sorted.length, c.percent ? Math.floor((sorted.length * c.rank) / 100) : c.rank));
      const edge = c.bottom ? sorted[n - 1]! : sorted[sorted.length - n]!;
      return ((cell: Cell) => {
        const v = numberOf(cell.value);
        return v !== undefined && (c.bottom ? v <= edge : v >= edge);
      });
    }
    case 'aboveAverage': {
      const sorted = numbers();
      if (!sorted.length) return () => false;
      const mean = sorted.reduce((s, v) => s + v, 0) / sorted.length;
      const sd = sorted.length > 1 ? Math.sqrt(sorted.reduce((s, v) => s + (v - mean) ** 2, 0) / (sorted.length - 1)) : 0;
      const edge = c.below ? mean - c.stdDev * sd : mean + c.stdDev * sd;
      return ((cell: Cell) => {
        const v = numberOf(cell.value);
        if (v === undefined) return false;
        return c.below ? (c.equal ? v <= edge : v < edge) : c.equal ? v >= edge : v > edge;
      });
    }
    case 'duplicateValues':
    case 'uniqueValues': {
      const id = (v: CellValue) => `${v.kind}:${textOf(v).toLowerCase()}`;
      const counts = new Map<string, number>();
      for (const x of cells) if (x.value) counts.set(id(x.value), (counts.get(id(x.value)) ?? 0) + 1);
      return ((cell: Cell) => !!cell.value && (counts.get(id(cell.value))! > 1) === (c.type === 'duplicateValues'));
    }
    case 'containsBlanks':
    case 'notContainsBlanks':
      return ((cell: Cell) => (!cell.value || (cell.value.kind === 'text' && !cell.value.value.trim())) === (c.type === 'containsBlanks'));
    case 'containsErrors':
    case 'notContainsErrors':
      return ((cell: Cell) => (cell.value?.kind === 'error') === (c.type === 'containsErrors'));
    default:
      return undefined;
  }
}

/** A graded rule's look for each cell (colour scales, data bars, icon sets), or undefined for the others. */
function gradedApply(c: ConditionalFormat['condition'], cells: Cell[]): Apply | undefined {
  const numbers = () => numbersOf(cells);
  switch (c.type) {
    case 'colorScale': {
      const sorted = numbers();
      if (!sorted.length) return () => undefined;
      const stops = c.stops.map((s) => stopValue(s, sorted));
      return (cell) => {
        const v = numberOf(cell.value);
        return v === undefined ? undefined : { fill: scaleColor(v, stops, c.colors) };
      };
    }
    case 'dataBar': {
      const sorted = numbers();
      if (!sorted.length) return () => undefined;
      const [lo, hi] = [stopValue(c.min, sorted), stopValue(c.max, sorted)];
      const [minLength, maxLength] = [c.minLength ?? 10, c.maxLength ?? 90].map((l) => l / 100) as [number, number];
      return (cell) => {
        const v = numberOf(cell.value);
        if (v === undefined) return undefined;
        const f = hi > lo ? Math.max(0, Math.min(1, (v - lo) / (hi - lo))) : v >= hi ? 1 : 0;
        return { dataBar: { from: 0, to: minLength + f * (maxLength - minLength), color: c.color }, ...(c.showValue ? {} : { hideValue: true }) };
      };
    }
    case 'iconSet': {
      const sorted = numbers();
      if (!sorted.length) return () => undefined;
      const edges = c.stops.map((s) => stopValue(s, sorted));
      return (cell) => {
        const v = numberOf(cell.value);
        if (v === undefined) return undefined;
        let index = 0;
        for (let i = 1; i < edges.length; i++) if (c.stops[i]!.gte === false ? v > edges[i]! : v >= edges[i]!) index = i;
        if (c.reverse) index = edges.length - 1 - index;
        return { icon: { set: c.set, index, count: edges.length }, ...(c.showValue ? {} : { hideValue: true }) };
      };
    }
    default:
      return undefined;
  }
}

function ruleApply(workbook: Workbook, sheet: Sheet, rule: ConditionalFormat, cells: Cell[]): Apply {
  const dxf = rule.dxf !== undefined ? workbook.dxfs?.[rule.dxf] : undefined;
  const look: ConditionalLook = dxf ? { ...dxf } : {};
  const graded = gradedApply(rule.condition, cells);
  if (graded) return graded;
  const test = cellTest(sheet, rule.condition, rule.ranges[0]!, cells);
  return test ? (cell) => (test(cell) ? look : undefined) : () => undefined;
}

/** Each formatted cell's look (by "row:col") over the sheet, or only for cells within `range`. */
export function conditionalLooks(workbook: Workbook, sheet: Sheet, range?: Range): Map<string, ConditionalLook> {
  const out = new Map<string, ConditionalLook>();
  const stopped = new Set<string>();
  let visits = 0;
  const rules = [...(sheet.conditional ?? [])].sort((a, b) => a.priority - b.priority);
  for (const rule of rules) {
    const cells: Cell[] = [];
    for (const r of rule.ranges) for (const cell of cellsIn(sheet, r)) cells.push(cell);
    visits += cells.length;
    if (visits > CF_VISITS_MAX) break;
    const apply = ruleApply(workbook, sheet, rule, cells);
    for (const cell of cells) {
      const k = key(cell.row, cell.col);
      if (stopped.has(k)) continue;
      if (range && (cell.row < range.top || cell.row > range.bottom || cell.col < range.left || cell.col > range.right)) continue;
      const look = apply(cell);
      if (!look) continue;
      const had = out.get(k);
      // An earlier (higher-priority) rule's properties stand.
      out.set(k, had ? { ...look, ...had, ...(had.borders || look.borders ? { borders: { ...look.borders, ...had.borders } } : {}) } : { ...look });
      if (rule.stopIfTrue) stopped.add(k);
    }
  }
  return out;
}

const cache = new WeakMap<Sheet, Map<string, ConditionalLook>>();

/** conditionalLooks over the whole sheet, counted once per sheet. */
export function sheetLooks(workbook: Workbook, sheet: Sheet): Map<string, ConditionalLook> {
  let looks = cache.get(sheet);
  if (!looks) cache.set(sheet, (looks = conditionalLooks(workbook, sheet)));
  return looks;
}
