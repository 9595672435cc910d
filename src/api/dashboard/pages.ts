/**
 * The dashboard's pages as server-rendered HTML (hono/html escapes every interpolated value):
 * plain forms with labels, usable by keyboard and without JavaScript.
 */
import { html, raw } from 'hono/html';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../service/auth/passwords';
import { lang, t } from './i18n';

type Html = ReturnType<typeof html>;

/** The dashboard's one inline style sheet; the CSP allows it by its hash (routes.ts). */
export const STYLE_CSS = `
body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;margin:.75rem 0 .25rem}input{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}
button{font:inherit;padding:.4rem 1rem;margin-top:1rem}.problem{color:#a00;font-weight:600}
form.inline{display:inline}dl{display:grid;grid-template-columns:max-content auto;gap:.25rem 1rem}
`;
const STYLE = raw(`<style>${STYLE_CSS}</style>`);

export function page(title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="${lang()}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · pdf-edge</title>${STYLE}</head>
<body><main><h1>${title}</h1>${body}</main>
<footer><p><a href="?lang=en" lang="en">English</a> · <a href="?lang=ru" lang="ru">Русский</a></p></footer></body></html>`;
}

const problemLine = (problem?: string) => (problem ? html`<p class="problem" role="alert">${problem}</p>` : '');

export function signInPage(problem?: string, email = ''): Html {
  return html`${problemLine(problem)}
<form method="post" action="/dashboard/sign-in">
<label for="email">${t('Email')}</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}">
<label for="password">${t('Password')}</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">${t('Sign in')}</button>
</form>
<p>${t('No password yet, or forgotten? Ask for a sign-in link: it signs you in once and lets you set one.')}</p>`;
}

export function signUpPage(problem?: string, email = ''): Html {
  return html`${problemLine(problem)}
<form method="post" action="/dashboard/sign-up">
<label for="email">${t('Email')}</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}">
<label for="password">${t('Password ({min} to {max} characters)', { min: PASSWORD_MIN, max: PASSWORD_MAX })}</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN}" required>
<label for="again">${t('The same password again')}</label><input id="again" name="again" type="password" autocomplete="new-password" required>
<button type="submit">${t('Open the account')}</button>
</form><p>${t('The account starts on the free plan.')} <a href="/dashboard/sign-in">${t('Sign in if you have one.')}</a></p>`;
}

export function passwordPage(problem?: string): Html {
  return html`${problemLine(problem)}
<form method="post" action="/dashboard/password">
<label for="password">${t('New password ({min} to {max} characters)', { min: PASSWORD_MIN, max: PASSWORD_MAX })}</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN}" maxlength="${PASSWORD_MAX}" required>
<label for="again">${t('The same password again')}</label>
<input id="again" name="again" type="password" autocomplete="new-password" required>
<button type="submit">${t('Set the password')}</button>
</form>`;
}

export function overviewPage(account: { email: string; plan: string; balance: string }): Html {
  return html`<dl><dt>${t('Email')}</dt><dd>${account.email}</dd><dt>${t('Plan')}</dt><dd>${account.plan}</dd><dt>${t('Balance')}</dt><dd>${account.balance} ₽</dd></dl>
<p><a href="/dashboard/keys">${t('API keys, webhook secret and MCP')}</a> · <a href="/dashboard/balance">${t('Balance')}</a> · <a href="/dashboard/history">${t('History and spend')}</a> · <a href="/dashboard/password">${t('Change the password')}</a></p>
<form class="inline" method="post" action="/dashboard/sign-out"><button type="submit">${t('Sign out')}</button></form>
<form class="inline" method="post" action="/dashboard/sign-out-everywhere"><button type="submit">${t('Sign out everywhere')}</button></form>`;
}

/** A sign-in link's page: the link is spent only by this button, not by opening it. */
export function signInLinkPage(token: string): Html {
  return html`<p>${t('This link signs you in once; then you set a password.')}</p>
<form method="post" action="/dashboard/link/${encodeURIComponent(token)}">
<button type="submit">${t('Sign in and set a password')}</button>
</form>`;
}

export function messagePage(text: string): Html {
  return html`<p>${text}</p><p><a href="/dashboard/sign-in">${t('Sign in')}</a></p>`;
}
