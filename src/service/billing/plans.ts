import type { Account } from '../storage/accounts';

/** Included requests of the Business plan per month, counted from the purchase date (DECISIONS). */
export const INCLUDED_REQUESTS = 500;

/** The current included-requests month of a Business account: same day of month as the purchase. */
export function includedWindow(account: Pick<Account, 'plan' | 'purchased_at'>, now: number): { start: number; end: number } | null {
  if (account.plan !== 'business' || account.purchased_at == null) return null;
  const p = new Date(account.purchased_at);
  const at = (months: number) => {
    // Clamped to the month's length: a purchase on Jan 31 renews on Feb 28 (29).
    const y = p.getUTCFullYear();
    const m = p.getUTCMonth() + months;
    const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
    return Date.UTC(y, m, Math.min(p.getUTCDate(), last), p.getUTCHours(), p.getUTCMinutes(), p.getUTCSeconds());
  };
  if (now < account.purchased_at) return { start: account.purchased_at, end: at(1) };
  let k = Math.max(0, (new Date(now).getUTCFullYear() - p.getUTCFullYear()) * 12 + new Date(now).getUTCMonth() - p.getUTCMonth() - 1);
  while (at(k + 1) <= now) k++;
  return { start: at(k), end: at(k + 1) };
}
