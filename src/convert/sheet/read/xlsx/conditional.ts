/**
 * Conditional formatting of an XLSX worksheet (<conditionalFormatting sqref> with its <cfRule>s,
 * and the x14 extension list's data bars and icon sets Excel 2010 writes) and the differential
 * formats of styles.xml (<dxfs>). Rules whose formulas need recalculation are left out.
 */
import { attr, child, children, descendants, textOf, type XmlElement } from '../../../../codecs/xml';
import type { Theme } from '../../../office/theme';
import type { CellIsOperator, CfCondition, CfOperand, Cfvo, ConditionalFormat, DifferentialStyle } from '../../conditional-model';
import type { BorderSide, Range } from '../../model';
import { cellRef, rangeRef } from './cells';
import { colorOf } from './colors';
import { STYLE_LIST_MAX, truthy } from './styles';

/** Rules and ranges a sheet may hold here. */
export const CF_RULES_MAX = 10_000;
export const CF_RANGES_MAX = 100_000;

const OPERATORS = new Set<CellIsOperator>(['lessThan', 'lessThanOrEqual', 'equal', 'notEqual', 'greaterThanOrEqual', 'greaterThan', 'between', 'notBetween']);
const CFVO_TYPES = new Set<Cfvo['type']>(['min', 'max', 'num', 'percent', 'percentile', 'formula', 'autoMin', 'autoMax']);

/** A formula that is a constant or one cell reference; undefined otherwise. */
export function operandOf(formula: string): CfOperand | undefined {
  const f = formula.trim().replace(/^=/, '');
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(f)) return { kind: 'number', value: Number(f) };
  const text = /^"((?:[^"]|"")*)"$/.exec(f);
  if (text) return { kind: 'text', value: text[1]!.replace(/""/g, '"') };
  if (/^(TRUE|FALSE)$/i.test(f)) return { kind: 'bool', value: f.toUpperCase() === 'TRUE' };
  const ref = /^(\$?)([A-Za-z]{1,3})(\$?)(\d{1,7})$/.exec(f);
  const at = ref && cellRef(f);
  if (ref && at) return { kind: 'ref', ...at, absCol: ref[1] === '$', absRow: ref[3] === '$' };
  return undefined;
}

function cfvoOf(el: XmlElement): Cfvo | undefined {
  const type = attr(el, 'type') as Cfvo['type'];
  if (!CFVO_TYPES.has(type)) return undefined;
  // x14 writes the value as <xm:f>; the main namespace as val="".
  const raw = attr(el, 'val') ?? (child(el, 'f') ? textOf(child(el, 'f')) : undefined);
  const value = raw !== undefined && raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : undefined;
  if ((type === 'num' || type === 'percent' || type === 'percentile' || type === 'formula') && value === undefined) return undefined;
  return { type: type === 'formula' ? 'num' : type, ...(value !== undefined ? { value } : {}), ...(attr(el, 'gte') === '0' ? { gte: false } : {}) };
}

const kids = children;

function conditionOf(rule: XmlElement, theme: Theme): CfCondition | undefined {
  const type = attr(rule, 'type');
  const formulas = kids(rule, 'formula').map((f) => textOf(f));
  switch (type) {
    case 'cellIs': {
      const operator = attr(rule, 'operator') as CellIsOperator;
      const operands = formulas.map(operandOf);
      const need = operator === 'between' || operator === 'notBetween' ? 2 : 1;
      if (!OPERATORS.has(operator) || operands.length < need || operands.slice(0, need).some((o) => !o)) return undefined;
      return { type, operator, operands: operands.slice(0, need) as CfOperand[] };
    }
    case 'expression': {
      const operand = formulas[0] !== undefined ? operandOf(formulas[0]) : undefined;
      return operand ? { type, operand } : undefined;
    }
    case 'containsText':
    case 'notContainsText':
    case 'beginsWith':
    case 'endsWith': {
      const text = attr(rule, 'text');
      return text !== undefined ? { type, text } : undefined;
    }
    case 'top10': {
      const rank = Number(attr(rule, 'rank') ?? 10);
      return rank > 0 && rank <= 1_000_000 ? { type, rank, bottom: truthy(attr(rule, 'bottom')), percent: truthy(attr(rule, 'percent')) } : undefined;
    }
    case 'aboveAverage': {
      const stdDev = Number(attr(rule, 'stdDev') ?? 0);
      return { type, below: attr(rule, 'aboveAverage') === '0' || attr(rule, 'aboveAverage') === 'false', equal: truthy(attr(rule, 'equalAverage')), stdDev: stdDev >= 0 && stdDev <= 3 ? stdDev : 0 };
    }
    case 'duplicateValues':
    case 'uniqueValues':
    case 'containsBlanks':
    case 'notContainsBlanks':
    case 'containsErrors':
    case 'notContainsErrors':
      return { type };
    case 'colorScale': {
      const scale = kids(rule, 'colorScale')[0];
      const stops = kids(scale, 'cfvo').map(cfvoOf);
      const colors = kids(scale, 'color').map((c) => colorOf(c, theme));
      if ((stops.length !== 2 && stops.length !== 3) || colors.length !== stops.length || stops.some((s) => !s) || colors.some((c) => !c)) return undefined;
      return { type, stops: stops as Cfvo[], colors: colors as string[] };
    }
    case 'dataBar': {
      const bar = kids(rule, 'dataBar')[0];
      // An end given by a formula not read here (a defined name over a table's column) is the range's own lowest or highest value.
      const [min, max] = kids(bar, 'cfvo').map((el, k) => cfvoOf(el) ?? (CFVO_TYPES.has(attr(el, 'type') as Cfvo['type']) ? { type: k ? 'max' : 'min' } as Cfvo : undefined));
      const color = colorOf(kids(bar, 'color')[0] ?? kids(bar, 'fillColor')[0], theme);
      if (!min || !max || !color) return undefined;
      const length = (name: string) => (Number(attr(bar, name)) >= 0 && Number(attr(bar, name)) <= 100 && attr(bar, name) !== undefined ? { [name]: Number(attr(bar, name)) } : {});
      return { type, min, max, color, showValue: attr(bar, 'showValue') !== '0', gradient: attr(bar, 'gradient') !== '0', ...length('minLength'), ...length('maxLength') };
    }
    case 'iconSet': {
      const set = kids(rule, 'iconSet')[0];
      const stops = kids(set, 'cfvo').map(cfvoOf);
      const name = attr(set, 'iconSet') ?? '3TrafficLights1';
      if (stops.length < 3 || stops.length > 5 || stops.some((s) => !s) || Number(name[0]) !== stops.length) return undefined;
      return { type, set: name, stops: stops as Cfvo[], showValue: attr(set, 'showValue') !== '0', reverse: truthy(attr(set, 'reverse')) };
    }
    default:
      return undefined;
  }
}

function rangesOf(sqref: string, room: number): Range[] {
  const parts = sqref.trim().split(/\s+/).slice(0, Math.max(0, room));
  return parts.flatMap((p) => rangeRef(p) ?? []);
}

/** The rules of a worksheet's root element (its <conditionalFormatting>s and x14 extensions); undefined when it has none. */
export function readConditional(root: XmlElement, theme: Theme): ConditionalFormat[] | undefined {
  const out: ConditionalFormat[] = [];
  let ranges = 0;
  // Element names are local: the x14 lists are <conditionalFormatting>s inside <extLst><ext>.
  const x14 = descendants(child(root, 'extLst'), 'conditionalFormatting');
  const extById = new Map<string, XmlElement>();
  for (const cf of x14) for (const r of children(cf, 'cfRule')) if (attr(r, 'id')) extById.set(attr(r, 'id')!, r);
  // A main-list rule names its x14 twin (a data bar's gradient and colours): the twin is not read on its own.
  const twins = new Set<string>();
  const lists: Array<{ el: XmlElement; sqref: string; ext: boolean }> = [
    ...children(root, 'conditionalFormatting').map((el) => ({ el, sqref: attr(el, 'sqref') ?? '', ext: false })),
    ...x14.map((el) => ({ el, sqref: textOf(child(el, 'sqref')), ext: true })),
  ];
  for (const { el, sqref, ext } of lists) {
    const within = rangesOf(sqref, CF_RANGES_MAX - ranges);
    ranges += within.length;
    if (!within.length) continue;
    for (const rule of children(el, 'cfRule')) {
      if (out.length >= CF_RULES_MAX) return out;
      if (ext && twins.has(attr(rule, 'id') ?? '')) continue;
      const twinId = ext ? undefined : descendants(child(rule, 'extLst'), 'id').map((e) => textOf(e).trim())[0];
      const twin = twinId ? extById.get(twinId) : undefined;
      if (twinId) twins.add(twinId);
      const condition = conditionOf(rule, theme);
      if (!condition) continue;
      if (condition.type === 'dataBar' && twin) {
        // Excel 2010's bar: its own lengths (0 to 100% unless told) and gradient.
        const bar = child(twin, 'dataBar');
        if (attr(bar, 'gradient') === '0') condition.gradient = false;
        condition.minLength = Number(attr(bar, 'minLength') ?? 0) || 0;
        condition.maxLength = Number(attr(bar, 'maxLength') ?? 100) || 100;
      }
      const priority = Number(attr(rule, 'priority'));
      const dxf = Number(attr(rule, 'dxfId'));
      out.push({
        ranges: within,
        priority: Number.isFinite(priority) ? priority : Number.MAX_SAFE_INTEGER,
        stopIfTrue: truthy(attr(rule, 'stopIfTrue')),
        ...(attr(rule, 'dxfId') !== undefined && Number.isInteger(dxf) && dxf >= 0 ? { dxf } : {}),
        condition,
      });
    }
  }
  return out.length ? out : undefined;
}

const flag = (el: XmlElement | undefined) => (el ? attr(el, 'val') !== '0' && attr(el, 'val') !== 'false' && attr(el, 'val') !== 'none' : undefined);
const SIDES = ['left', 'right', 'top', 'bottom'] as const;

/** A <dxf>: its font colour and faces, fill (a solid pattern's colour is its bgColor, as Excel writes dxfs) and borders. */
function dxfOf(el: XmlElement, theme: Theme): DifferentialStyle {
  const out: DifferentialStyle = {};
  const font = child(el, 'font');
  const color = colorOf(child(font, 'color'), theme);
  if (color) out.color = color;
  for (const [name, key] of [['b', 'bold'], ['i', 'italic'], ['u', 'underline'], ['strike', 'strike']] as const) {
    const on = flag(child(font, name));
    if (on !== undefined) out[key] = on;
  }
  const pattern = child(child(el, 'fill'), 'patternFill');
  const type = attr(pattern, 'patternType');
  if (pattern && type !== 'none') {
    const fill = !type || type === 'solid' ? (colorOf(child(pattern, 'bgColor'), theme) ?? colorOf(child(pattern, 'fgColor'), theme)) : (colorOf(child(pattern, 'fgColor'), theme) ?? colorOf(child(pattern, 'bgColor'), theme));
    if (fill) out.fill = fill;
  }
  const border = child(el, 'border');
  if (border) {
    const borders: NonNullable<DifferentialStyle['borders']> = {};
    for (const side of SIDES) {
      const s = child(border, side);
      const style = attr(s, 'style') as BorderSide['style'] | 'none' | undefined;
      if (!s || !style || style === 'none') continue;
      const c = colorOf(child(s, 'color'), theme);
      borders[side] = c ? { style, color: c } : { style };
    }
    if (Object.keys(borders).length) out.borders = borders;
  }
  return out;
}

/** The differential formats of a styles part. */
export function readDxfs(root: XmlElement | undefined, theme: Theme): DifferentialStyle[] {
  return children(child(root, 'dxfs'), 'dxf').slice(0, STYLE_LIST_MAX).map((d) => dxfOf(d, theme));
}
