/**
 * The locale a number format prints in. Excel stores codes in en-US syntax and tags a locale with
 * [$-419]: LibreOffice then prints the number with that locale's separators and, for dates, its
 * month and day names (a currency tag, [$₽-419], names only its symbol). Some generators (1C, older
 * exporters in a Russian locale) write the code itself localized: "# ##0,00" — digits grouped by
 * a space and a decimal comma with no point — which is read as that locale's code would be.
 */

export interface NumberLocale {
  decimal: string;
  group: string;
  months?: readonly string[];
  /** Month names as a date with its day prints them ("15 марта"). */
  monthsOf?: readonly string[];
  shortMonths?: readonly string[];
  days?: readonly string[];
  shortDays?: readonly string[];
}

export const EN_US: NumberLocale = { decimal: '.', group: ',' };

const NBSP = '\u00a0';
const RUSSIAN: NumberLocale = {
  decimal: ',',
  group: NBSP,
  months: ['январь', 'февраль', 'март', 'апрель', 'май', 'июнь', 'июль', 'август', 'сентябрь', 'октябрь', 'ноябрь', 'декабрь'],
  monthsOf: ['января', 'февраля', 'марта', 'апреля', 'мая', 'июня', 'июля', 'августа', 'сентября', 'октября', 'ноября', 'декабря'],
  shortMonths: ['янв', 'фев', 'мар', 'апр', 'май', 'июн', 'июл', 'авг', 'сен', 'окт', 'ноя', 'дек'],
  days: ['воскресенье', 'понедельник', 'вторник', 'среда', 'четверг', 'пятница', 'суббота'],
  shortDays: ['Вс', 'Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб'],
};

/** Separators by primary language of a Windows LCID (its low 10 bits). */
const BY_LANGUAGE: Record<number, NumberLocale> = {
  0x19: RUSSIAN,
  0x22: { decimal: ',', group: NBSP }, // Ukrainian
  0x23: { decimal: ',', group: NBSP }, // Belarusian
  0x3f: { decimal: ',', group: NBSP }, // Kazakh
  0x07: { decimal: ',', group: '.' }, // German
  0x0c: { decimal: ',', group: '\u202f' }, // French
  0x10: { decimal: ',', group: '.' }, // Italian
  0x0a: { decimal: ',', group: '.' }, // Spanish
  0x13: { decimal: ',', group: '.' }, // Dutch
  0x15: { decimal: ',', group: NBSP }, // Polish
  0x05: { decimal: ',', group: NBSP }, // Czech
  0x16: { decimal: ',', group: '.' }, // Portuguese
  0x1f: { decimal: ',', group: '.' }, // Turkish
};

/** The locale a [$…-LCID] tag names (undefined: none, or one printed as en-US). */
export function localeOfTag(inner: string): NumberLocale | undefined {
  const m = /^\$[^-]*-([0-9a-f]{1,8})$/i.exec(inner);
  if (!m) return undefined;
  const lcid = parseInt(m[1]!, 16);
  return BY_LANGUAGE[lcid & 0x3ff];
}

/** Whether a numeric section's digits are written in a comma-decimal locale's own syntax ("# ##0,00", "0,0"). */
export function writtenLocalized(mask: string): boolean {
  if (mask.includes('.')) return false;
  // A comma before three placeholders ("#,##0") is en-US grouping; before one, two or four and more at the end ("0,00") it is a decimal comma.
  return /[0#?][ \u00a0][0#?]/.test(mask) || /[0#?],(?:[0#?]{1,2}|[0#?]{4,})[^0#?,]*$/.test(mask);
}

/** A localized section's digit mask in en-US syntax: space grouping as commas, the decimal comma (the last comma, before the last digits) as a point. Same length, so positions stay. */
export function asEnglishMask(mask: string): string {
  const spaced = /[0#?][ \u00a0][0#?]/.test(mask);
  const decimal = (spaced ? /,[0#?]+[^0#?,]*$/ : /,(?:[0#?]{1,2}|[0#?]{4,})[^0#?,]*$/).exec(mask);
  const pointed = decimal ? mask.slice(0, decimal.index) + '.' + mask.slice(decimal.index + 1) : mask;
  return pointed.replace(/([0#?])[ \u00a0](?=[0#?])/g, '$1,');
}

/** The locale localized codes are read in: Russian, the one such files come from. */
export const LOCALIZED_CODES = RUSSIAN;

/** en-US digits ("1,234.50") in another locale's separators. */
export function withSeparators(digits: string, locale: NumberLocale): string {
  if (locale === EN_US) return digits;
  return digits.replace(/[,.]/g, (ch) => (ch === ',' ? locale.group : locale.decimal));
}
