/** The one roman-numeral writer the list and counter converters share (src/lib/numerals.ts). */
import { describe, expect, it } from 'vitest';
import { romanNumeral } from '../src/lib/numerals';

describe('romanNumeral', () => {
  it('writes 1–3999 in capitals with subtractive pairs; other numbers as digits', () => {
    expect([1, 4, 9, 14, 40, 90, 400, 1999, 2026, 3999].map(romanNumeral)).toEqual(['I', 'IV', 'IX', 'XIV', 'XL', 'XC', 'CD', 'MCMXCIX', 'MMXXVI', 'MMMCMXCIX']);
    expect([0, -3, 4000, 2.5].map(romanNumeral)).toEqual(['0', '-3', '4000', '2.5']);
  });
});
