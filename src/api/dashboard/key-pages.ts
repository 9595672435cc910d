/** Pages of the dashboard's "API and MCP" section (dashboard/keys.ts), server-rendered and escaped. */
import { html, raw } from 'hono/html';
import type { KeyListing } from '../../service/storage/accounts';
import { formatRub } from '../../lib/money';
import { iso } from '../../lib/time';
import { t } from './i18n';

type Html = ReturnType<typeof html>;

export interface KeyRow extends KeyListing {
  spent_kopecks: number;
  /** When the key's period starts again (null for a key without a period). */
  renews_at: number | null;
}

const when = (ms: number | null) => (ms === null ? '—' : iso(ms).slice(0, 16).replace('T', ' ') + ' UTC');
const periodWords = (p: string) => t(({ never: 'in all', daily: 'a day', weekly: 'a week', monthly: 'a month' } as Record<string, string>)[p] ?? p);

function periodOptions(selected: string): Html {
  return html`${['never', 'daily', 'weekly', 'monthly'].map((p) => html`<option value="${p}" ${p === selected ? 'selected' : ''}>${t(p === 'never' ? 'no period (in all)' : p)}</option>`)}`;
}

function keyRow(k: KeyRow): Html {
  const limit = k.limit_kopecks === null ? t('no limit') : `${formatRub(k.limit_kopecks)} ₽ ${periodWords(k.period)}`;
  return html`<tr>
<td>${k.name}<br><small>${k.id}</small></td><td>${limit}</td><td>${formatRub(k.spent_kopecks)} ₽</td><td>${when(k.renews_at)}</td><td>${when(k.last_used_at)}</td><td>${when(k.created_at)}</td>
<td><details><summary>${t('Change')}</summary>
<form method="post" action="/dashboard/keys/${k.id}">
<label for="name-${k.id}">${t('Name')}</label><input id="name-${k.id}" name="name" value="${k.name}" required maxlength="100">
<label for="limit-${k.id}">${t('Limit in rubles (empty: none)')}</label><input id="limit-${k.id}" name="limit" inputmode="decimal" value="${k.limit_kopecks === null ? '' : formatRub(k.limit_kopecks)}">
<label for="period-${k.id}">${t('Period')}</label><select id="period-${k.id}" name="period">${periodOptions(k.period)}</select>
<button type="submit">${t('Save')}</button></form>
<form method="post" action="/dashboard/keys/${k.id}/reissue"><button type="submit">${t('Reissue the secret')}</button></form>
<p><a href="/dashboard/keys/${k.id}/delete">${t('Delete the key…')}</a></p>
</details></td></tr>`;
}

export function keysPage(view: { keys: KeyRow[]; webhookSecret: string; baseUrl: string; problem?: string }): Html {
  const mcp = JSON.stringify({ mcpServers: { 'pdf-edge': { url: `${view.baseUrl}/mcp`, headers: { 'X-API-Key': '<your key>' } } } }, null, 2);
  return html`${view.problem ? html`<p class="problem" role="alert">${view.problem}</p>` : ''}
<h2>${t('Keys')}</h2>
${view.keys.length
    ? html`<table><thead><tr><th>${t('Key')}</th><th>${t('Limit')}</th><th>${t('Spent this period')}</th><th>${t('Renews')}</th><th>${t('Last used')}</th><th>${t('Made')}</th><th></th></tr></thead><tbody>${view.keys.map(keyRow)}</tbody></table>`
    : html`<p>${t('No keys yet.')}</p>`}
<h3>${t('New key')}</h3>
<form method="post" action="/dashboard/keys">
<label for="new-name">${t('Name')}</label><input id="new-name" name="name" required maxlength="100">
<label for="new-limit">${t('Limit in rubles (empty: none)')}</label><input id="new-limit" name="limit" inputmode="decimal">
<label for="new-period">${t('Period')}</label><select id="new-period" name="period">${periodOptions('never')}</select>
<button type="submit">${t('Make the key')}</button></form>
<h2>${t('Webhook signing secret')}</h2>
<p><input readonly aria-label="${t('Webhook signing secret')}" value="${view.webhookSecret}"></p>
<p><a href="/dashboard/webhook-secret/reissue">${t('Reissue the webhook secret…')}</a></p>
<h2>${t('Use it')}</h2>
<p>${t('Base URL:')} <code>${view.baseUrl}</code></p>
<pre>curl -H "X-API-Key: &lt;your key&gt;" -F file=@document.pdf ${view.baseUrl}/v1/upload</pre>
<p>${t('MCP client configuration:')}</p><pre>${mcp}</pre>
<p><a href="/dashboard">${t('Back to the account')}</a></p>`;
}

/** The copy button's script: the one inline script of the dashboard, allowed by the CSP by its hash (no inline handlers). */
export const COPY_SCRIPT = "document.getElementById('copy').addEventListener('click',()=>navigator.clipboard.writeText(document.getElementById('secret').value))";

/** A secret shown once, selectable, with a copy button for browsers with JavaScript. */
export function secretPage(text: string, secret: string): Html {
  return html`<p>${text}</p><p><strong>${t('Copy it now: it is not shown again.')}</strong></p>
<p><input id="secret" readonly aria-label="${t('Secret')}" value="${secret}"></p>
<p><button type="button" id="copy">${t('Copy')}</button></p><script>${raw(COPY_SCRIPT)}</script>
<p><a href="/dashboard/keys">${t('Back to the keys')}</a></p>`;
}

export function confirmPage(question: string, action: string, button: string): Html {
  return html`<p>${question}</p><form method="post" action="${action}"><button type="submit">${button}</button></form><p><a href="/dashboard/keys">${t('Cancel')}</a></p>`;
}
