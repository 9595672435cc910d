/**
 * Excel number formats: a cell's cached value as Excel prints it with its format code ("0.00",
 * "#,##0;[Red]-#,##0", "dd.mm.yyyy h:mm", "0%", "0.00E+00", "# ?/?", "@"). Sections are chosen by
 * sign or condition, colours ([Red], [Color10]) come back beside the text. Separators are en-US,
 * as the codes are stored, unless the section names a locale ([$-419]; a currency tag [$₽-419] names
 * only its symbol) or is written in
 * a comma-decimal locale's own syntax ("# ##0,00"): then that locale's (number-locale.ts).
 */
import type { CellValue } from './model';
import { indexedColor } from './read/xlsx/colors';
import { dateText, isDateSection } from './date-format';
import { asEnglishMask, EN_US, LOCALIZED_CODES, localeOfTag, withSeparators, writtenLocalized, type NumberLocale } from './number-locale';

export interface Formatted {
  text: string;
  /** RRGGBB from the section's colour, when it names one. */
  color?: string;
}

const COLORS: Record<string, string> = { black: '000000', white: 'FFFFFF', red: 'FF0000', green: '00FF00', blue: '0000FF', yellow: 'FFFF00', magenta: 'FF00FF', cyan: '00FFFF' };

/** The code's sections, split at semicolons outside quotes, brackets and escapes. */
export function sections(code: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    const closing = ch === '"' ? '"' : ch === '[' ? ']' : undefined;
    if (ch === '\\') i++;
    else if (closing) {
      const end = code.indexOf(closing, i + 1);
      i = end < 0 ? code.length : end;
    } else if (ch === ';') {
      out.push(code.slice(start, i));
      start = i + 1;
    }
  }
  out.push(code.slice(start));
  return out.slice(0, 4);
}

type Condition = { op: string; value: number };
const CONDITION = /\[(<=|>=|<>|<|>|=)(-?\d+(?:\.\d+)?)\]/;
const holds = (c: Condition, n: number) =>
  c.op === '<' ? n < c.value : c.op === '>' ? n > c.value : c.op === '<=' ? n <= c.value : c.op === '>=' ? n >= c.value : c.op === '=' ? n === c.value : n !== c.value;

/** The section a number prints with, and whether its sign is shown by the section rather than a minus. */
function sectionFor(parts: string[], n: number): { part: string; signed: boolean } {
  const conditions = parts.map((p) => CONDITION.exec(p)).map((m) => (m ? { op: m[1]!, value: Number(m[2]) } : undefined));
  if (conditions.some(Boolean)) {
    for (let i = 0; i < Math.min(parts.length, 3); i++) if (conditions[i] && holds(conditions[i]!, n)) return { part: parts[i]!, signed: i > 0 && n < 0 };
    const rest = parts.findIndex((_, i) => i < 3 && !conditions[i]);
    return { part: parts[rest >= 0 ? rest : 0]!, signed: false };
  }
  if (parts.length === 1 || (parts.length >= 2 && n > 0) || (parts.length === 2 && n === 0)) return { part: parts[0]!, signed: false };
  if (n < 0) return { part: parts[1]!, signed: true };
  return { part: parts[2] ?? parts[0]!, signed: false };
}

/** The section's colour and locale, and the section without its bracketed parts (a currency tag's symbol kept as text). */
function bracketsOf(part: string): { body: string; color?: string; locale?: NumberLocale } {
  let color: string | undefined;
  let locale: NumberLocale | undefined;
  const body = part.replace(/\[([^\]]*)\]/g, (whole, inner: string) => {
    const name = inner.toLowerCase();
    if (inner.startsWith('$')) {
      const symbol = /^\$([^-]*)/.exec(inner)![1]!;
      // A locale tag alone prints the number in that locale; a currency's tag only names its symbol (LibreOffice prints [$₽-419] with the code's own separators).
      if (!symbol) locale = localeOfTag(inner) ?? locale;
      return symbol ? `"${symbol.replace(/"/g, '')}"` : '';
    }
    if (COLORS[name]) color = COLORS[name];
    else if (/^color\s*\d+$/.test(name)) color = indexedColor(Number(name.replace(/\D/g, '')) - 1 + 8);
    else if (/^(h+|m+|s+)$/.test(name)) return whole; // elapsed time: kept for the date formatter
    return '';
  });
  return { body, ...(color ? { color } : {}), ...(locale ? { locale } : {}) };
}

/** Excel's General: up to 11 significant digits, scientific where the number is too long for that. */
export function general(n: number): string {
  if (n === 0) return '0';
  const abs = Math.abs(n);
  if (abs >= 1e11 || abs < 1e-9) {
    const [mantissa, exponent] = n.toExponential(5).split('e');
    const trimmed = mantissa!.replace(/\.?0+$/, '');
    const e = Number(exponent);
    return `${trimmed}E${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  const digits = Math.max(0, 10 - Math.floor(Math.log10(abs)));
  return String(Number(n.toFixed(Math.min(digits, 20))));
}

/** Literal text of a section: quoted strings, escaped characters, _x spaces; fill characters (*x) left out. */
function literal(body: string, i: number): { text: string; next: number } | undefined {
  const ch = body[i]!;
  if (ch === '"') {
    const end = body.indexOf('"', i + 1);
    return { text: body.slice(i + 1, end < 0 ? body.length : end), next: end < 0 ? body.length : end + 1 };
  }
  if (ch === '\\') return { text: body[i + 1] ?? '', next: i + 2 };
  if (ch === '_') return { text: ' ', next: i + 2 };
  if (ch === '*') return { text: '', next: i + 2 };
  return undefined;
}

/** A number by a numeric section: digits (0 # ?), a decimal point, thousands, percent, scientific, fractions. */
function numberText(written: string, n: number, tagged?: NumberLocale): string {
  if (/\?\s*\/\s*[?\d]/.test(written)) return fractionText(written, n);
  const writtenMask = written.replace(/"[^"]*"|\\.|_.|\*./g, (m) => '\u0000'.repeat(m.length));
  // A code in a comma-decimal locale's syntax is read as en-US and printed in that locale.
  const localized = writtenLocalized(writtenMask);
  const mask = localized ? asEnglishMask(writtenMask) : writtenMask;
  const body = localized ? [...written].map((ch, i) => (mask[i] !== writtenMask[i] ? mask[i] : ch)).join('') : written;
  const locale = tagged ?? (localized ? LOCALIZED_CODES : EN_US);
  const percent = (body.match(/%/g) ?? []).length;
  let value = Math.abs(n) * 100 ** percent;
  const scientific = /E[+-]/i.exec(body);
  const intEnd = scientific ? scientific.index : mask.length;
  const point = mask.slice(0, intEnd).indexOf('.');
  const intMask = mask.slice(0, point >= 0 ? point : intEnd);
  const fracMask = point >= 0 ? mask.slice(point + 1, intEnd) : '';
  // Commas right after the last digit scale by thousands; others group the integer digits.
  const lastDigit = intMask.search(/[0#?][^0#?]*$/);
  const trailing = lastDigit >= 0 ? (/^[0#?](,+)/.exec(intMask.slice(lastDigit))?.[1]?.length ?? 0) : 0;
  value /= 1000 ** trailing;
  const grouped = /[0#?],+[0#?]/.test(intMask);
  const fracDigits = (fracMask.match(/[0#?]/g) ?? []).length;
  let exponent = 0;
  if (scientific && value !== 0) {
    const intDigits = Math.max(1, (intMask.match(/[0#?]/g) ?? []).length);
    exponent = Math.floor(Math.log10(value));
    exponent -= intDigits > 1 ? ((exponent % intDigits) + intDigits) % intDigits : 0;
    value /= 10 ** exponent;
  }
  const [intPart, fracPart = ''] = value.toFixed(fracDigits).split('.');
  const minInt = (intMask.match(/0/g) ?? []).length;
  let int = intPart === '0' && minInt === 0 ? '' : intPart!.padStart(minInt, '0');
  if (grouped) int = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  // Optional decimals (#) drop trailing zeros; required ones (0) keep them.
  const required = (fracMask.match(/0/g) ?? []).length;
  let frac = fracPart;
  while (frac.length > required && frac.endsWith('0')) frac = frac.slice(0, -1);
  const digits = int + (point >= 0 ? '.' + frac : '');
  const expText = scientific ? `E${exponent < 0 ? '-' : scientific[0]![1] === '+' ? '+' : ''}${String(Math.abs(exponent)).padStart((body.slice(scientific.index + 2).match(/^0+/)?.[0].length ?? 1), '0')}` : '';
  return weave(body, withSeparators(digits, locale) + expText);
}

/** The section's literal text around the digits: what precedes the first digit placeholder, then the digits, then what follows the last. */
function weave(body: string, digits: string): string {
  let before = '';
  let after = '';
  let seenDigits = false;
  for (let i = 0; i < body.length; ) {
    const lit = literal(body, i);
    const ch = body[i]!;
    if (lit) {
      if (seenDigits) after += lit.text;
      else before += lit.text;
      i = lit.next;
    } else if (/[0#?.,]/.test(ch) || (/[Ee]/.test(ch) && /[+-]/.test(body[i + 1] ?? ''))) {
      // Placeholders, the point, grouping commas and the exponent's E+ are the digits' own.
      if (/[0#?]/.test(ch)) seenDigits = true;
      i += /[Ee]/.test(ch) ? 2 : 1;
    } else {
      if (seenDigits) after += ch;
      else before += ch;
      i++;
    }
  }
  return before + digits + after;
}

/** "# ?/?", "# ??/??", "?/4": the nearest fraction with the denominator's digits (or the fixed one). */
function fractionText(body: string, n: number): string {
  const m = /(\?+|\d+)\s*$/.exec(body.slice(body.indexOf('/') + 1).replace(/[^?\d].*$/, ''));
  const whole = /[0#?]+\s+[?0#]+\s*\//.test(body);
  const abs = Math.abs(n);
  const int = whole ? Math.floor(abs) : 0;
  const rest = abs - int;
  let [num, den] = [0, 1];
  if (m && /^\d+$/.test(m[1]!)) [num, den] = [Math.round(rest * Number(m[1])), Number(m[1])];
  else {
    const maxDen = 10 ** (m?.[1]!.length ?? 1) - 1;
    let best = Infinity;
    for (let d = 1; d <= maxDen; d++) {
      const k = Math.round(rest * d);
      if (Math.abs(rest - k / d) < best - 1e-12) [best, num, den] = [Math.abs(rest - k / d), k, d];
    }
  }
  if (num === den) return String(int + 1);
  const frac = num ? `${num}/${den}` : '';
  return [whole && (int || !num) ? String(int) : '', frac].filter(Boolean).join(' ') || '0';
}

/** A cell's value printed with its format code, as Excel shows it. */
export function formatValue(value: CellValue, code: string, date1904 = false): Formatted {
  if (value.kind === 'bool') return { text: value.value ? 'TRUE' : 'FALSE' };
  if (value.kind === 'error') return { text: value.value };
  const parts = sections(code || 'General');
  if (value.kind === 'text') {
    const textPart = parts.length === 4 ? parts[3]! : parts.find((p) => p.includes('@'));
    if (!textPart) return { text: value.value };
    const { body, color } = bracketsOf(textPart);
    let text = '';
    for (let i = 0; i < body.length; ) {
      const lit = literal(body, i);
      if (lit) [text, i] = [text + lit.text, lit.next];
      else [text, i] = [text + (body[i] === '@' ? value.value : body[i]), i + 1];
    }
    return { text, ...(color ? { color } : {}) };
  }
  const n = value.value;
  const { part, signed } = sectionFor(parts, n);
  const { body, color, locale } = bracketsOf(part);
  const withColor = (text: string): Formatted => ({ text, ...(color ? { color } : {}) });
  if (/^\s*general\s*$/i.test(body) || !body.trim()) return withColor(body.trim() || parts.length === 1 ? general(n) : '');
  if (isDateSection(body)) return withColor(dateText(body, n, date1904, locale));
  const text = /[0#?]/.test(body) ? numberText(body, n, locale) : weave(body, '');
  return withColor(n < 0 && !signed && /[0#?]/.test(body) ? '-' + text : text);
}
