/** Roman numerals in capitals (list labels, CSS counters): 1–3999; other numbers as digits. */
export function romanNumeral(n: number): string {
  if (!Number.isInteger(n) || n <= 0 || n >= 4000) return String(n);
  let s = '';
  for (const [value, letters] of ROMAN) {
    for (; n >= value; n -= value) s += letters;
  }
  return s;
}

const ROMAN: readonly [number, string][] = [
  [1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'],
  [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I'],
];

/** Letters counting as spreadsheet columns and CSS upper-alpha count (bijective base 26): 1 → A, 26 → Z, 27 → AA; '' below 1. */
export function alphabeticNumeral(n: number): string {
  let s = '';
  for (let k = Math.floor(n); k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(65 + ((k - 1) % 26)) + s;
  return s;
}
