/**
 * A table's conditional formatting (calcext:conditional-formats, as LibreOffice writes it) as the
 * sheet model's rules (conditional-model.ts): calcext:condition (calcext:value "<500",
 * "between(1;5)", "top-elements(10)", "above-average", "duplicate", "contains-text(\"x\")",
 * "formula-is([.$H3])"...) with the cell style it applies (calcext:apply-style-name, read as a
 * differential style: only what that style sets itself), colour scales, data bars and icon sets.
 * Formulas other than a constant or one cell reference are left out, as the XLSX reader does.
 */
import { attr, child, children, type XmlElement } from '../../../../codecs/xml';
import type { CellIsOperator, CfCondition, CfOperand, Cfvo, ConditionalFormat, DifferentialStyle } from '../../conditional-model';
import type { Range } from '../../model';
import { cellRef } from '../xlsx/cells';
import { CF_RANGES_MAX, CF_RULES_MAX, operandOf } from '../xlsx/conditional';
import { borderSide, hexColor, type StyleSources } from './styles';

const OPERATORS: Record<string, CellIsOperator> = { '<=': 'lessThanOrEqual', '>=': 'greaterThanOrEqual', '!=': 'notEqual', '<>': 'notEqual', '<': 'lessThan', '>': 'greaterThan', '=': 'equal' };
const ENTRY_TYPES: Record<string, Cfvo['type']> = { minimum: 'min', maximum: 'max', number: 'num', percent: 'percent', percentile: 'percentile', formula: 'num', 'auto-minimum': 'autoMin', 'auto-maximum': 'autoMax' };
const TEXT_TESTS: Record<string, 'containsText' | 'notContainsText' | 'beginsWith' | 'endsWith'> = { 'contains-text': 'containsText', 'not-contains-text': 'notContainsText', 'begins-with': 'beginsWith', 'ends-with': 'endsWith' };

/** An ODF formula's operand: "[.$G$2]" as "$G$2", a reference to another table left out. */
function operand(formula: string): CfOperand | undefined {
  const f = formula.trim().replace(/^=/, '');
  const ref = /^\[\.(\$?[A-Za-z]{1,3}\$?\d{1,7})\]$/.exec(f);
  return operandOf(ref ? ref[1]! : f);
}

/** The arguments of "name(a;b)" split at top-level ; or , (outside quotes and brackets). */
function args(inner: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i];
    if (ch === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if ((ch === ';' || ch === ',') && depth === 0) {
      out.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  out.push(inner.slice(start));
  return out.map((a) => a.trim());
}

/** A calcext:condition's value as a condition; undefined for what the model cannot hold. */
export function conditionOf(value: string): CfCondition | undefined {
  const v = value.trim();
  const call = /^([a-z-]+)\((.*)\)$/s.exec(v);
  const name = call ? call[1]! : v;
  const list = call ? args(call[2]!) : [];
  switch (name) {
    case 'between':
    case 'not-between': {
      const operands = list.map(operand);
      if (operands.length !== 2 || operands.some((o) => !o)) return undefined;
      return { type: 'cellIs', operator: name === 'between' ? 'between' : 'notBetween', operands: operands as CfOperand[] };
    }
    case 'top-elements':
    case 'bottom-elements':
    case 'top-percent':
    case 'bottom-percent': {
      const rank = Number(list[0] ?? 10);
      return Number.isFinite(rank) && rank > 0 && rank <= 1_000_000 ? { type: 'top10', rank, bottom: name.startsWith('bottom'), percent: name.endsWith('percent') } : undefined;
    }
    case 'above-average':
    case 'below-average':
    case 'above-equal-average':
    case 'below-equal-average':
      return { type: 'aboveAverage', below: name.startsWith('below'), equal: name.includes('equal'), stdDev: 0 };
    case 'duplicate':
      return { type: 'duplicateValues' };
    case 'unique':
      return { type: 'uniqueValues' };
    case 'is-error':
      return { type: 'containsErrors' };
    case 'is-no-error':
      return { type: 'notContainsErrors' };
    case 'formula-is': {
      const o = list.length === 1 ? operand(list[0]!) : undefined;
      return o ? { type: 'expression', operand: o } : undefined;
    }
  }
  const test = TEXT_TESTS[name];
  if (test) {
    const text = list.length === 1 ? /^"((?:[^"]|"")*)"$/.exec(list[0]!) : null;
    return text ? { type: test, text: text[1]!.replace(/""/g, '"') } : undefined;
  }
  if (call) return undefined;
  const op = /^(<=|>=|!=|<>|<|>|=)(.*)$/s.exec(v);
  const o = op && operand(op[2]!);
  return op && o ? { type: 'cellIs', operator: OPERATORS[op[1]!]!, operands: [o] } : undefined;
}

function entryOf(el: XmlElement): Cfvo | undefined {
  const type = ENTRY_TYPES[attr(el, 'type') ?? ''];
  if (!type) return undefined;
  const raw = attr(el, 'value');
  const value = raw !== undefined && raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : undefined;
  if ((type === 'num' || type === 'percent' || type === 'percentile') && value === undefined) return undefined;
  return { type, ...(value !== undefined && type !== 'min' && type !== 'max' && type !== 'autoMin' && type !== 'autoMax' ? { value } : {}) };
}

function scaleOf(el: XmlElement): CfCondition | undefined {
  const entries = children(el, 'color-scale-entry');
  const stops = entries.map(entryOf);
  const colors = entries.map((e) => hexColor(attr(e, 'color')));
  if ((stops.length !== 2 && stops.length !== 3) || stops.some((s) => !s) || colors.some((c) => !c)) return undefined;
  return { type: 'colorScale', stops: stops as Cfvo[], colors: colors as string[] };
}

function barOf(el: XmlElement): CfCondition | undefined {
  const [min, max] = children(el, 'formatting-entry').map(entryOf);
  const color = hexColor(attr(el, 'positive-color'));
  if (!min || !max || !color) return undefined;
  const length = (name: string, key: 'minLength' | 'maxLength') => {
    const n = Number(attr(el, name));
    return attr(el, name) !== undefined && n >= 0 && n <= 100 ? { [key]: n } : {};
  };
  return { type: 'dataBar', min, max, color, showValue: attr(el, 'show-value') !== 'false', gradient: attr(el, 'gradient') !== 'false', ...length('min-length', 'minLength'), ...length('max-length', 'maxLength') };
}

function iconsOf(el: XmlElement): CfCondition | undefined {
  const entries = children(el, 'formatting-entry');
  const stops = entries.map(entryOf);
  const set = attr(el, 'icon-set-type') ?? '3TrafficLights1';
  if (stops.length < 3 || stops.length > 5 || stops.some((s) => !s) || Number(set[0]) !== stops.length) return undefined;
  // LibreOffice writes show-value on the icon set or (as it reads Excel's) on its first entry.
  const showValue = attr(el, 'show-value') !== 'false' && attr(entries[0], 'show-value') !== 'false';
  return { type: 'iconSet', set, stops: stops as Cfvo[], showValue, reverse: attr(el, 'reverse') === 'true' };
}

/** The differential styles rules apply, by the cell style they name (its own properties, not its parents'). */
export class DxfList {
  readonly list: DifferentialStyle[] = [];
  private readonly known = new Map<string, number | undefined>();
  private byDisplay?: Map<string, XmlElement>;

  constructor(private readonly sources: StyleSources) {}

  index(name: string | undefined): number | undefined {
    if (!name || name === 'Default') return undefined;
    if (this.known.has(name)) return this.known.get(name);
    let style = this.sources.style('table-cell', name);
    if (!style) {
      this.byDisplay ??= new Map([...this.sources.styles.values()].filter((s) => attr(s, 'family') === 'table-cell' && attr(s, 'display-name')).map((s) => [attr(s, 'display-name')!, s]));
      style = this.byDisplay.get(name);
    }
    const dxf = style ? this.dxfOf(style) : undefined;
    const index = dxf ? this.list.push(dxf) - 1 : undefined;
    this.known.set(name, index);
    return index;
  }

  private dxfOf(style: XmlElement): DifferentialStyle | undefined {
    const cell = child(style, 'table-cell-properties')?.attrs ?? {};
    const text = child(style, 'text-properties')?.attrs ?? {};
    const dxf: DifferentialStyle = {};
    const fill = hexColor(cell['background-color']);
    if (fill) dxf.fill = fill;
    const color = hexColor(text['color']);
    if (color) dxf.color = color;
    if (text['font-weight']) dxf.bold = text['font-weight'] === 'bold' || Number(text['font-weight']) >= 600;
    if (text['font-style']) dxf.italic = text['font-style'] === 'italic' || text['font-style'] === 'oblique';
    if (text['text-underline-style']) dxf.underline = text['text-underline-style'] !== 'none';
    if (text['text-line-through-style']) dxf.strike = text['text-line-through-style'] !== 'none';
    const borders: NonNullable<DifferentialStyle['borders']> = {};
    for (const side of ['left', 'right', 'top', 'bottom'] as const) {
      const b = borderSide(cell[`border-${side}`] ?? cell['border']);
      if (b) borders[side] = b;
    }
    if (Object.keys(borders).length) dxf.borders = borders;
    return Object.keys(dxf).length ? dxf : undefined;
  }
}

/** The cell part of "Sheet1.B3" or "'My sheet'.$B$3". */
function baseCell(address: string | undefined): { row: number; col: number } | undefined {
  if (!address) return undefined;
  let dot = -1;
  let quoted = false;
  for (let i = 0; i < address.length; i++) {
    if (address[i] === "'") quoted = !quoted;
    else if (address[i] === '.' && !quoted) dot = i;
  }
  return cellRef(address.slice(dot + 1));
}

/** A relative reference counted from the base cell, moved to count from the first range's corner (as the model counts). */
function rebased(c: CfCondition, base: { row: number; col: number } | undefined, corner: Range): CfCondition {
  if (!base || (base.row === corner.top && base.col === corner.left)) return c;
  const move = (o: CfOperand): CfOperand => (o.kind === 'ref' ? { ...o, row: o.absRow ? o.row : o.row - base.row + corner.top, col: o.absCol ? o.col : o.col - base.col + corner.left } : o);
  if (c.type === 'cellIs') return { ...c, operands: c.operands.map(move) };
  if (c.type === 'expression') return { ...c, operand: move(c.operand) };
  return c;
}

/** A table's calcext:conditional-formats as rules, in the order LibreOffice applies them. */
export function readConditional(formats: XmlElement[], dxfs: DxfList, rangesOf: (address: string | undefined) => Range[]): ConditionalFormat[] | undefined {
  const out: ConditionalFormat[] = [];
  let ranges = 0;
  for (const list of formats) {
    for (const format of children(list, 'conditional-format')) {
      const within = rangesOf(attr(format, 'target-range-address')).slice(0, Math.max(0, CF_RANGES_MAX - ranges));
      ranges += within.length;
      if (!within.length) continue;
      for (const el of format.children) {
        if (typeof el === 'string') continue;
        if (out.length >= CF_RULES_MAX) return out;
        let condition: CfCondition | undefined;
        let dxf: number | undefined;
        if (el.name === 'condition') {
          condition = conditionOf(attr(el, 'value') ?? '');
          if (condition) condition = rebased(condition, baseCell(attr(el, 'base-cell-address')), within[0]!);
          dxf = dxfs.index(attr(el, 'apply-style-name'));
          // A condition that applies no style of its own prints nothing.
          if (dxf === undefined) continue;
        } else if (el.name === 'color-scale') condition = scaleOf(el);
        else if (el.name === 'data-bar') condition = barOf(el);
        else if (el.name === 'icon-set') condition = iconsOf(el);
        if (!condition) continue;
        out.push({ ranges: within, priority: out.length + 1, stopIfTrue: false, ...(dxf !== undefined ? { dxf } : {}), condition });
      }
    }
  }
  return out.length ? out : undefined;
}
