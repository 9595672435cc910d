/** The dashboard's signed-in account, from the session cookie only (never an API key). */
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppEnv } from '../app-env';
import { SESSION_COOKIE, sessionAccount } from '../../service/auth/sessions';

export type DashboardContext = Context<AppEnv>;

export function currentAccount(c: DashboardContext): Promise<string | null> {
  return sessionAccount(c.env.DB, getCookie(c, SESSION_COOKIE));
}
