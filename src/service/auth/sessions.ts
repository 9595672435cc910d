/**
 * Dashboard sessions and one-time sign-in links. A session is a random token in an HttpOnly,
 * Secure, SameSite=Strict cookie; D1 keeps only its SHA-256, its account and its expiry, so a
 * database leak opens no session. A sign-in link (issued by the admin API for first access or a
 * password reset) is single use: spending it and checking it are one UPDATE.
 */
import { newSecret, sha256Hex } from '../../lib/ids';

export const SESSION_COOKIE = 'pdf_edge_session';
export const SESSION_DAYS = 14;
export const SIGN_IN_LINK_MINUTES = 30;

/** A new session for the account: the token for the cookie and when it ends. */
export async function createSession(db: D1Database, accountId: string): Promise<{ token: string; expiresAt: number }> {
  const token = newSecret('ses');
  const now = Date.now();
  const expiresAt = now + SESSION_DAYS * 86_400_000;
  await db.prepare('INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)').bind(await sha256Hex(token), accountId, now, expiresAt).run();
  return { token, expiresAt };
}

/** The account a live session token belongs to, or null. */
export async function sessionAccount(db: D1Database, token: string | undefined): Promise<string | null> {
  if (!token?.startsWith('ses_')) return null;
  const row = await db.prepare('SELECT account_id FROM sessions WHERE token_hash = ? AND expires_at > ?').bind(await sha256Hex(token), Date.now()).first<{ account_id: string }>();
  return row?.account_id ?? null;
}

export async function endSession(db: D1Database, token: string): Promise<void> {
  await db.prepare('DELETE FROM sessions WHERE token_hash = ?').bind(await sha256Hex(token)).run();
}

/** Signs the account out everywhere: every session of it ends. */
export async function endAllSessions(db: D1Database, accountId: string): Promise<void> {
  await db.prepare('DELETE FROM sessions WHERE account_id = ?').bind(accountId).run();
}

/** Every session of the account but the one of `keepToken` ends (a password change signs out the others). */
export async function endOtherSessions(db: D1Database, accountId: string, keepToken: string | undefined): Promise<void> {
  await db.prepare('DELETE FROM sessions WHERE account_id = ? AND token_hash <> ?').bind(accountId, keepToken ? await sha256Hex(keepToken) : '').run();
}

/** A one-time sign-in link for the account, valid SIGN_IN_LINK_MINUTES. */
export async function issueSignInLink(db: D1Database, accountId: string, baseUrl: string): Promise<{ url: string; expiresAt: number }> {
  const token = newSecret('sil');
  const now = Date.now();
  const expiresAt = now + SIGN_IN_LINK_MINUTES * 60_000;
  await db.prepare('INSERT INTO sign_in_links (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)').bind(await sha256Hex(token), accountId, now, expiresAt).run();
  return { url: `${baseUrl}/dashboard/link/${token}`, expiresAt };
}

/** Spends a sign-in link: its account, or null when it is unknown, used or expired. */
/** Whether a sign-in link could still be spent (unused, not expired), without spending it. */
export async function signInLinkUsable(db: D1Database, token: string): Promise<boolean> {
  if (!token.startsWith('sil_')) return false;
  const row = await db.prepare('SELECT 1 AS ok FROM sign_in_links WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?').bind(await sha256Hex(token), Date.now()).first<{ ok: number }>();
  return row !== null;
}

export async function spendSignInLink(db: D1Database, token: string): Promise<string | null> {
  if (!token.startsWith('sil_')) return null;
  const now = Date.now();
  const row = await db
    .prepare('UPDATE sign_in_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING account_id')
    .bind(now, await sha256Hex(token), now)
    .first<{ account_id: string }>();
  return row?.account_id ?? null;
}
