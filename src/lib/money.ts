/** Money is integer kopecks inside and a two-decimal string on the wire (DECISIONS: Conventions). */

export const UNIT_PRICE_KOPECKS = 125;
export const UNIT_BYTES = 10_000_000;

export function formatRub(kopecks: number): string {
  const sign = kopecks < 0 ? '-' : '';
  const abs = Math.abs(kopecks);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "12.5", "12.50", 12.5 → 1250; null when it is not a non-negative amount with at most two places. */
export function parseRub(value: unknown): number | null {
  const s = typeof value === 'number' ? String(value) : value;
  if (typeof s !== 'string' || !/^\d{1,12}(\.\d{1,2})?$/.test(s.trim())) return null;
  const [r, k = ''] = s.trim().split('.');
  return Number(r) * 100 + Number(k.padEnd(2, '0'));
}

export const sizeUnitsOf = (bytes: number): number => Math.max(1, Math.ceil(bytes / UNIT_BYTES));
