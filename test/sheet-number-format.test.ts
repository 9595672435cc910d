/** Excel number formats (src/convert/sheet/number-format.ts): each expectation is what Excel prints for the value with the code. */
import { describe, expect, it } from 'vitest';
import { formatValue, general, sections } from '../src/convert/sheet/number-format';

const num = (value: number, code: string, date1904 = false) => formatValue({ kind: 'number', value }, code, date1904);
const text = (value: number, code: string) => num(value, code).text;

describe('number formats', () => {
  it('General: up to 11 significant digits, scientific when longer', () => {
    expect(general(42)).toBe('42');
    expect(general(0.1 + 0.2)).toBe('0.3');
    expect(general(-1234.5678)).toBe('-1234.5678');
    expect(general(123456789012)).toBe('1.23457E+11');
    expect(general(0.0000000001234)).toBe('1.234E-10');
    expect(text(3.14159, 'General')).toBe('3.14159');
  });

  it('digits, decimals, grouping, thousands scaling and percent', () => {
    expect(text(1234.567, '0')).toBe('1235');
    expect(text(1234.567, '0.00')).toBe('1234.57');
    expect(text(1234.567, '#,##0.00')).toBe('1,234.57');
    expect(text(1234567, '#,##0')).toBe('1,234,567');
    expect(text(0.5, '#.##')).toBe('.5');
    expect(text(5, '000')).toBe('005');
    expect(text(1234567, '#,##0,')).toBe('1,235');
    expect(text(0.256, '0%')).toBe('26%');
    expect(text(0.256, '0.0%')).toBe('25.6%');
    expect(text(12345.678, '0.00E+00')).toBe('1.23E+04');
    expect(text(0.000123, '0.0E+0')).toBe('1.2E-4');
  });

  it('sections by sign, colours, literals and conditions', () => {
    expect(num(-1234, '#,##0;[Red]-#,##0')).toEqual({ text: '-1,234', color: 'FF0000' });
    expect(num(1234, '#,##0;[Red]-#,##0')).toEqual({ text: '1,234' });
    expect(text(-50, '#,##0.00;(#,##0.00)')).toBe('(50.00)');
    expect(text(0, '0.00;-0.00;"zero"')).toBe('zero');
    expect(text(-3, '0')).toBe('-3');
    expect(text(1500, '#,##0.00\\ "₽"')).toBe('1,500.00 ₽');
    expect(text(12, '"Total: "0" pcs"')).toBe('Total: 12 pcs');
    expect(text(150, '[>100]"big";[<=100]"small"')).toBe('big');
    expect(text(50, '[>100]"big";[<=100]"small"')).toBe('small');
    expect(text(5, '_(* #,##0_);_(* (#,##0);_(* "-"_);_(@_)')).toBe(' 5 ');
    expect(text(0, '_(* #,##0_);_(* (#,##0);_(* "-"_);_(@_)')).toBe(' - ');
    expect(sections('0;"a;b";0')).toEqual(['0', '"a;b"', '0']);
  });

  it('text: the text section with @, or the text as it is', () => {
    expect(formatValue({ kind: 'text', value: 'abc' }, '0.00')).toEqual({ text: 'abc' });
    expect(formatValue({ kind: 'text', value: 'abc' }, '0;0;0;"<"@">"')).toEqual({ text: '<abc>' });
    expect(formatValue({ kind: 'text', value: 'abc' }, '@')).toEqual({ text: 'abc' });
    expect(formatValue({ kind: 'bool', value: true }, 'General')).toEqual({ text: 'TRUE' });
    expect(formatValue({ kind: 'error', value: '#N/A' }, '0.00')).toEqual({ text: '#N/A' });
  });

  it('dates and times, with the 1900 system\'s phantom leap day and the 1904 system', () => {
    expect(text(45000, 'mm-dd-yy')).toBe('03-15-23');
    expect(text(45000, 'dd.mm.yyyy')).toBe('15.03.2023');
    expect(text(45000, 'd-mmm-yy')).toBe('15-Mar-23');
    expect(text(45000, 'dddd, mmmm d, yyyy')).toBe('Wednesday, March 15, 2023');
    expect(text(45000.75, 'h:mm AM/PM')).toBe('6:00 PM');
    expect(text(45000.5208333333, 'hh:mm:ss')).toBe('12:30:00');
    expect(text(1.5, '[h]:mm')).toBe('36:00');
    expect(text(60, 'yyyy-mm-dd')).toBe('1900-02-29');
    expect(text(61, 'yyyy-mm-dd')).toBe('1900-03-01');
    expect(text(1, 'yyyy-mm-dd')).toBe('1900-01-01');
    expect(num(0, 'yyyy-mm-dd', true).text).toBe('1904-01-01');
    expect(text(45000.0104166667, 'm/d/yy h:mm')).toBe('3/15/23 0:15');
  });

  it('fractions', () => {
    expect(text(1.25, '# ?/?')).toBe('1 1/4');
    expect(text(0.333, '# ??/??')).toBe('1/3');
    expect(text(2.5, '?/4')).toBe('10/4');
    expect(text(3, '# ?/?')).toBe('3');
  });

  it('prints in the locale a code names, or is written in: Russian separators and month names', () => {
    // [$-419]: LibreOffice prints the number in that locale (group: no-break space); a currency tag [$₽-419] only names its symbol.
    expect(text(1234.5, '[$-419]#,##0.00')).toBe('1\u00a0234,50');
    expect(text(1234.5, '[$-407]#,##0.00')).toBe('1.234,50');
    expect(text(-1234.5, '#,##0.00 [$₽-419]')).toBe('-1,234.50 ₽');
    expect(text(1234.5, '#,##0.00\\ [$€-407]')).toBe('1,234.50 €');
    expect(text(45000, '[$-419]d mmmm yyyy')).toBe('15 марта 2023');
    expect(text(45000, '[$-419]mmmm yyyy')).toBe('март 2023');
    expect(text(45000, '[$-419]d\\ mmm\\ yyyy')).toBe('15 мар 2023');
    // A code written in a Russian locale's own syntax: space grouping, decimal comma.
    expect(text(1234.5, '# ##0,00\\ "₽"')).toBe('1\u00a0234,50 ₽');
    expect(text(1234567, '# ##0')).toBe('1\u00a0234\u00a0567');
    expect(text(3.14159, '0,00')).toBe('3,14');
    // en-US codes stay en-US: a comma before three placeholders groups thousands.
    expect(text(1234567, '#,##0_);(#,##0)')).toBe('1,234,567 ');
    expect(text(1234.5, '#,##0.00')).toBe('1,234.50');
  });
});

describe('a General number shortened to fit its cell', () => {
  it('drops decimals, then turns scientific, as Excel and LibreOffice show it', async () => {
    const { generalToFit } = await import('../src/convert/sheet/cell-text');
    const within = (chars: number) => (t: string) => t.length <= chars;
    expect(generalToFit(11.666666666667, within(10))).toBe('11.6666667');
    expect(generalToFit(11.666666666667, within(4))).toBe('11.7');
    expect(generalToFit(5.05799697, within(2))).toBe('5');
    expect(generalToFit(123456789012345, within(8))).toBe('1.23E+14');
    expect(generalToFit(123456789012345, within(9))).toBe('1.235E+14');
    expect(generalToFit(123456789, within(2))).toBeUndefined();
  });
});
