/**
 * Account holders' passwords: PBKDF2-SHA-256 through WebCrypto, 100,000 iterations (the most a
 * deployed Worker's WebCrypto accepts; local workerd accepts more), a 16-byte random salt. The
 * scheme and count are stored with each hash, so a later count still verifies older hashes.
 */
import { base64url, timingSafeEqual } from '../../lib/ids';

const SCHEME = 'pbkdf2-sha256';
export const PBKDF2_ITERATIONS = 100_000;
/** What a password must be: long enough to resist guessing, short enough to hash quickly. */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits']);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, 256));
}

export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return `${SCHEME}$${iterations}$${base64url(salt)}$${base64url(await derive(password, salt, iterations))}`;
}

function fromBase64url(s: string): Uint8Array {
  const b = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
}

/** Whether `password` matches `stored`; false for a hash of another scheme or a malformed one. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, count, salt, hash] = (stored ?? '').split('$');
  const iterations = Number(count);
  if (scheme !== SCHEME || !Number.isInteger(iterations) || iterations < 1 || iterations > 10_000_000 || !salt || !hash) return false;
  return timingSafeEqual(base64url(await derive(password, fromBase64url(salt), iterations)), hash);
}
