/**
 * OpenDocument data styles (number:number-style, currency, percentage, date, time, boolean and
 * text styles) as the Excel format codes number-format.ts prints: "#,##0.00", "0%", "dd.mm.yyyy",
 * "[h]:mm:ss", '#,##0.00 "₽"', "[Red]-0.00". A style's style:map conditions name the styles of its
 * other sections; the usual ones (value()>=0; >0 and <0; >0, <0 and =0 before a text style) become
 * Excel's positional sections, whose negative section prints no minus of its own, as LibreOffice's
 * do not; any other condition is written as Excel's [>100] brackets.
 */
import { attr, child, children, textOf, type XmlElement } from '../../../../codecs/xml';
import { indexedColor } from '../xlsx/colors';

/** Conditions a style may map to other sections (Excel has at most four sections). */
const MAPS_MAX = 3;

/** Currency symbols of a locale whose number:currency-symbol is empty ("the locale's own"), by country. */
const CURRENCY_BY_COUNTRY: Record<string, string> = {
  US: '$', CA: '$', AU: '$', NZ: '$', GB: '£', RU: '₽', UA: '₴', BY: 'Br', KZ: '₸', PL: 'zł', CZ: 'Kč', CH: 'CHF', JP: '¥', CN: '¥', IN: '₹', TR: '₺', BR: 'R$', KR: '₩', IL: '₪', SE: 'kr', NO: 'kr', DK: 'kr',
  DE: '€', FR: '€', IT: '€', ES: '€', NL: '€', BE: '€', AT: '€', FI: '€', PT: '€', IE: '€', GR: '€', SK: '€', SI: '€', EE: '€', LV: '€', LT: '€', LU: '€',
};

/** The colours number-format.ts knows by name, then the indexed palette as [ColorN]. */
const NAMED_COLORS: Record<string, string> = { '000000': 'Black', FFFFFF: 'White', FF0000: 'Red', '00FF00': 'Green', '0000FF': 'Blue', FFFF00: 'Yellow', FF00FF: 'Magenta', '00FFFF': 'Cyan' };

/** "#c9211e" as the nearest colour an Excel code can name: [Red], or [Color10] from the palette. */
export function colorCode(hex: string | undefined): string {
  if (!hex || !/^#[0-9a-f]{6}$/i.test(hex)) return '';
  const rgb = hex.slice(1).toUpperCase();
  if (NAMED_COLORS[rgb]) return `[${NAMED_COLORS[rgb]}]`;
  const channels = (c: string) => [0, 2, 4].map((i) => parseInt(c.slice(i, i + 2), 16));
  const [r, g, b] = channels(rgb) as [number, number, number];
  let best = { n: 1, distance: Infinity };
  for (let n = 1; n <= 56; n++) {
    const [pr, pg, pb] = channels(indexedColor(n + 7)!) as [number, number, number];
    const distance = (r - pr) ** 2 + (g - pg) ** 2 + (b - pb) ** 2;
    if (distance < best.distance) best = { n, distance };
  }
  const named = Object.entries(NAMED_COLORS).find(([value]) => value === indexedColor(best.n + 7));
  return named ? `[${named[1]}]` : `[Color${best.n}]`;
}

type Kind = 'number' | 'date' | 'text';

/** Literal text, quoted where Excel would read it as a code; % unquoted in a percentage style, where it multiplies. */
function literal(text: string, kind: Kind, percent: boolean): string {
  const raw = kind === 'date' ? ' -()+:/$,.' : ' -()+$';
  let out = '';
  let quoted = '';
  const flush = () => {
    if (quoted) out += `"${quoted}"`;
    quoted = '';
  };
  for (const ch of text) {
    if (raw.includes(ch) || (percent && ch === '%')) (flush(), (out += ch));
    else if (ch === '"') (flush(), (out += '\\"'));
    else quoted += ch;
  }
  flush();
  return out;
}

const int = (el: XmlElement, name: string, fallback: number, max = 30) => {
  const v = Number(attr(el, name));
  return attr(el, name) !== undefined && Number.isInteger(v) && v >= 0 ? Math.min(v, max) : fallback;
};

/** The integer digits: min-integer-digits zeros, # before them where grouping or embedded text needs places. */
function integerMask(el: XmlElement, kind: Kind): string {
  const minInt = int(el, 'min-integer-digits', 0);
  const grouping = attr(el, 'grouping') === 'true';
  // number:position counts the integer digits to the text's right.
  const embedded = children(el, 'embedded-text').slice(0, 30).map((e) => ({ position: int(e, 'position', 0, 30), text: literal(textOf(e), kind, false) }));
  const width = Math.max(minInt, 1, grouping ? 4 : 0, ...embedded.map((e) => e.position + 1));
  let out = '';
  for (let i = width - 1; i >= 0; i--) {
    for (const e of embedded) if (e.position === i + 1) out += e.text;
    out += i < minInt ? '0' : '#';
    if (grouping && i === 3) out += ',';
  }
  for (const e of embedded) if (e.position === 0) out += e.text;
  return out;
}

function decimals(el: XmlElement): string {
  const places = int(el, 'decimal-places', 0);
  const required = Math.min(int(el, 'min-decimal-places', places), places);
  return places ? '.' + '0'.repeat(required) + '#'.repeat(places - required) : '';
}

/** number:number: LibreOffice's General when it gives no decimal places; thousands scaling by trailing commas. */
function numberCode(el: XmlElement, kind: Kind): string {
  if (attr(el, 'decimal-places') === undefined && !children(el, 'embedded-text').length) return 'General';
  const factor = Number(attr(el, 'display-factor') ?? 1);
  const scaling = factor > 1 ? ','.repeat(Math.min(6, Math.round(Math.log10(factor) / 3))) : '';
  return integerMask(el, kind) + decimals(el) + scaling;
}

function scientificCode(el: XmlElement, kind: Kind): string {
  const interval = int(el, 'exponent-interval', 1, 10);
  const minInt = int(el, 'min-integer-digits', 1);
  const mantissa = '#'.repeat(Math.max(0, interval - minInt)) + '0'.repeat(Math.max(1, minInt));
  const sign = attr(el, 'forced-exponent-sign') === 'false' ? '-' : '+';
  return (interval > 1 ? mantissa : integerMask(el, kind)) + decimals(el) + 'E' + sign + '0'.repeat(Math.max(1, int(el, 'min-exponent-digits', 2)));
}

function fractionCode(el: XmlElement): string {
  const whole = attr(el, 'min-integer-digits') !== undefined ? (int(el, 'min-integer-digits', 0) ? '0'.repeat(int(el, 'min-integer-digits', 0)) : '#') + ' ' : '';
  const numerator = '?'.repeat(Math.max(1, int(el, 'min-numerator-digits', 1)));
  const fixed = int(el, 'denominator-value', 0, 1e6);
  const maxDen = int(el, 'max-denominator-value', 0, 1e6);
  const denominator = fixed ? String(fixed) : '?'.repeat(Math.max(1, int(el, 'min-denominator-digits', 1), maxDen ? String(maxDen).length : 0));
  return `${whole}${numerator}/${denominator}`;
}

/** A date or time part: long forms doubled, textual months as names; elapsed time in brackets where the style does not wrap at 24 hours. */
function datePart(el: XmlElement, elapsed: { first: boolean }): string {
  const long = attr(el, 'style') === 'long';
  const bracket = (code: string) => {
    if (!elapsed.first) return code;
    elapsed.first = false;
    return `[${code}]`;
  };
  switch (el.name) {
    case 'day':
      return long ? 'dd' : 'd';
    case 'month':
      return attr(el, 'textual') === 'true' ? (long ? 'mmmm' : 'mmm') : long ? 'mm' : 'm';
    case 'year':
      return long ? 'yyyy' : 'yy';
    case 'day-of-week':
      return long ? 'dddd' : 'ddd';
    case 'hours':
      return bracket(long ? 'hh' : 'h');
    case 'minutes':
      return bracket(long ? 'mm' : 'm');
    case 'seconds': {
      const places = int(el, 'decimal-places', 0, 9);
      return bracket(long ? 'ss' : 's') + (places ? '.' + '0'.repeat(places) : '');
    }
    case 'am-pm':
      return 'AM/PM';
    default:
      return ''; // era, quarter, week of year: Excel has no code for them
  }
}

/** The Excel format codes of a package's data styles, by style name. */
export class DataStyles {
  private readonly codes = new Map<string, string>();
  private readonly country: string;

  constructor(
    private readonly styles: Map<string, XmlElement>,
    defaultCellStyle: XmlElement | undefined,
  ) {
    this.country = attr(child(defaultCellStyle, 'text-properties'), 'country') ?? 'US';
  }

  /** The code of the data style a cell style names (none: General). */
  code(name: string | undefined): string {
    if (name === undefined) return 'General';
    let code = this.codes.get(name);
    if (code === undefined) {
      const el = this.styles.get(name);
      code = el ? this.styleCode(el) : 'General';
      this.codes.set(name, code);
    }
    return code;
  }

  private styleCode(el: XmlElement): string {
    // A number in a boolean style prints as LibreOffice's TRUE or FALSE (its formula results are numbers so).
    if (el.name === 'boolean-style') return '"TRUE";"TRUE";"FALSE"';
    const main = this.sectionCode(el);
    const maps = children(el, 'map')
      .slice(0, MAPS_MAX)
      .flatMap((m) => {
        const c = /^value\(\)\s*(<=|>=|!=|<>|<|>|=)\s*(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)$/i.exec((attr(m, 'condition') ?? '').trim());
        const target = this.styles.get(attr(m, 'apply-style-name') ?? '');
        return c && target ? [{ op: c[1] === '!=' ? '<>' : c[1]!, value: Number(c[2]), code: this.sectionCode(target) }] : [];
      });
    if (!maps.length) return main;
    const text = el.name === 'text-style';
    const zeroOps = maps.every((m) => m.value === 0) ? maps.map((m) => m.op).sort().join(' ') : '';
    const find = (op: string) => maps.find((m) => m.op === op)!.code;
    const numeric = text ? undefined : main;
    let sections: string[];
    // value()<=1.79E+308 (LibreOffice's "every number", from Excel's "mm/dd/yy;@"): one numeric section.
    const everyNumber = maps.length === 1 && ((maps[0]!.op === '<=' && maps[0]!.value >= 1e300) || (maps[0]!.op === '>=' && maps[0]!.value <= -1e300));
    if (everyNumber) sections = [maps[0]!.code, main];
    else if (zeroOps === '>=') sections = [find('>='), numeric ?? 'General'];
    else if (zeroOps === '<') sections = [numeric ?? 'General', find('<')];
    else if (zeroOps === '< >') sections = [find('>'), find('<'), numeric ?? 'General'];
    else if (zeroOps === '< = >') sections = [find('>'), find('<'), find('=')];
    else sections = [...maps.map((m) => `[${m.op}${m.value}]${m.code}`), ...(numeric ? [numeric] : [])];
    if (text && !everyNumber && sections.length <= 3) sections = [...sections, ...Array(3 - sections.length).fill('General'), main];
    return sections.join(';');
  }

  /** One section: its colour, then its parts in order. */
  private sectionCode(el: XmlElement): string {
    const kind: Kind = el.name === 'date-style' || el.name === 'time-style' ? 'date' : el.name === 'text-style' ? 'text' : 'number';
    const percent = el.name === 'percentage-style';
    const elapsed = { first: el.name === 'time-style' && attr(el, 'truncate-on-overflow') === 'false' };
    let code = colorCode(attr(child(el, 'text-properties'), 'color'));
    for (const part of el.children) {
      if (typeof part === 'string') continue;
      if (part.name === 'text') code += literal(textOf(part), kind, percent);
      else if (part.name === 'number') code += numberCode(part, kind);
      else if (part.name === 'scientific-number') code += scientificCode(part, kind);
      else if (part.name === 'fraction') code += fractionCode(part);
      else if (part.name === 'currency-symbol') code += `"${(textOf(part) || this.localCurrency(part)).replace(/"/g, '')}"`;
      else if (part.name === 'fill-character') code += '*' + (textOf(part)[0] ?? ' ');
      else if (part.name === 'text-content') code += '@';
      else if (kind === 'date') code += datePart(part, elapsed);
    }
    return code || 'General';
  }

  private localCurrency(symbol: XmlElement): string {
    return CURRENCY_BY_COUNTRY[(attr(symbol, 'country') ?? this.country).toUpperCase()] ?? '$';
  }
}
