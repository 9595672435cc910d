/**
 * The dashboard in English and Russian. Texts are written in English in the pages and looked up
 * here for Russian; the request's language is held for the request's duration (AsyncLocalStorage),
 * so page functions need no language argument. The language comes from ?lang=, then the
 * pdf_edge_lang cookie that ?lang= sets, then Accept-Language; English otherwise.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context, Next } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { RU } from './ru';

export type Lang = 'en' | 'ru';
const current = new AsyncLocalStorage<Lang>();
const LANG_COOKIE = 'pdf_edge_lang';

export const lang = (): Lang => current.getStore() ?? 'en';

/** `english` in the request's language, with {name} placeholders filled from `vars`. */
export function t(english: string, vars: Record<string, string | number> = {}): string {
  let text = lang() === 'ru' ? (RU[english] ?? english) : english;
  for (const [name, value] of Object.entries(vars)) text = text.replaceAll(`{${name}}`, String(value));
  return text;
}

/** Middleware: picks the request's language and runs the rest of the request in it. */
export async function withLanguage(c: Context, next: Next): Promise<void> {
  const asked = c.req.query('lang');
  let chosen: Lang;
  if (asked === 'ru' || asked === 'en') {
    chosen = asked;
    setCookie(c, LANG_COOKIE, asked, { path: '/dashboard', httpOnly: true, secure: true, sameSite: 'Strict', maxAge: 365 * 86_400 });
  } else {
    const saved = getCookie(c, LANG_COOKIE);
    chosen = saved === 'ru' || saved === 'en' ? saved : /^\s*ru\b/i.test(c.req.header('accept-language') ?? '') ? 'ru' : 'en';
  }
  await current.run(chosen, next);
}
