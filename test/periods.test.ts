import { describe, expect, it } from 'vitest';
import { periodEnd, periodStart } from '../src/service/billing/charge';
import { includedWindow } from '../src/service/billing/plans';

const t = (s: string) => Date.parse(s);
const at = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('key limit periods (UTC)', () => {
  const now = t('2026-11-22T15:30:00Z'); // a Sunday
  it('daily, weekly from Monday 00:00, monthly from the 1st, never', () => {
    expect(at(periodStart('daily', now))).toBe('2026-11-22T00:00:00.000Z');
    expect(at(periodEnd('daily', now))).toBe('2026-11-23T00:00:00.000Z');
    expect(at(periodStart('weekly', now))).toBe('2026-11-16T00:00:00.000Z');
    expect(at(periodEnd('weekly', now))).toBe('2026-11-23T00:00:00.000Z');
    expect(at(periodStart('weekly', t('2026-11-23T00:00:00Z')))).toBe('2026-11-23T00:00:00.000Z');
    expect(at(periodStart('monthly', now))).toBe('2026-11-01T00:00:00.000Z');
    expect(at(periodEnd('monthly', t('2026-12-31T23:59:59Z')))).toBe('2027-01-01T00:00:00.000Z');
    expect(periodStart('never', now)).toBe(0);
    expect(periodEnd('never', now)).toBeNull();
  });
});

describe('Business included-requests month, from the purchase date', () => {
  it('renews on the purchase day each month, clamped to short months', () => {
    const plan = 'business' as const;
    const w = includedWindow({ plan, purchased_at: t('2026-01-31T10:00:00Z') }, t('2026-02-28T12:00:00Z'))!;
    expect([at(w.start), at(w.end)]).toEqual(['2026-02-28T10:00:00.000Z', '2026-03-31T10:00:00.000Z']);
    const v = includedWindow({ plan, purchased_at: t('2026-09-15T00:00:00Z') }, t('2026-11-22T00:00:00Z'))!;
    expect([at(v.start), at(v.end)]).toEqual(['2026-11-15T00:00:00.000Z', '2026-12-15T00:00:00.000Z']);
    expect(includedWindow({ plan: 'standard', purchased_at: t('2026-09-15T00:00:00Z') }, Date.now())).toBeNull();
  });
});
