/** Pages of the dashboard's Balance and History sections, with spend charts as inline SVG. */
import { html, raw } from 'hono/html';
import type { HistoryRow } from '../../service/storage/history';
import type { KeyListing } from '../../service/storage/accounts';
import { formatRub } from '../../lib/money';
import { iso } from '../../lib/time';
import { OPERATIONS } from '../../operations';
import { t } from './i18n';

type Html = ReturnType<typeof html>;

export function balancePage(plan: string, record: Record<string, unknown>): Html {
  const row = (label: string, value: unknown) => html`<dt>${label}</dt><dd>${value === null || value === undefined ? '—' : String(value)}</dd>`;
  return html`<dl>
${row(t('Plan'), plan)}${row(t('Balance'), `${record.balance} ₽`)}${row(t('Spent this month'), `${record.spent_month} ₽`)}
${row(t('Price of a request'), t('{price} ₽ per {mb} MB', { price: String(record.request_price), mb: String(record.request_unit_mb) }))}
${plan === 'business' ? html`${row(t('Included requests'), t('{used} of {limit} used, {left} left', { used: String(record.included_used), limit: String(record.included_limit), left: String(record.included_remaining) }))}${row(t('Included requests renew'), record.included_resets_at)}` : ''}
</dl><p><a href="/dashboard">${t('Back to the account')}</a></p>`;
}

export interface HistoryView {
  rows: HistoryRow[];
  /** The query string of the next page, or null on the last one. */
  nextQuery: string | null;
  filter: { type: string; key: string; status: string; from: string; to: string };
  keys: KeyListing[];
  /** Spend per UTC day: [day start, kopecks]. */
  days: [number, number][];
  /** Spend per operation type over the same days: [type, kopecks]. */
  byType: [string, number][];
}

/** Vertical bars, one per day, with the day's spend as each bar's title (a tooltip and for screen readers). */
function dayChart(days: [number, number][]): Html {
  const [w, h, pad] = [600, 160, 20];
  const top = Math.max(1, ...days.map(([, v]) => v));
  const bar = (w - 2 * pad) / days.length;
  const bars = days.map(([day, v], i) => {
    const bh = ((h - 2 * pad) * v) / top;
    return `<rect x="${(pad + i * bar + 1).toFixed(1)}" y="${(h - pad - bh).toFixed(1)}" width="${(bar - 2).toFixed(1)}" height="${bh.toFixed(1)}" fill="#3b6fd8"><title>${iso(day).slice(0, 10)}: ${formatRub(v)} ₽</title></rect>`;
  });
  const label = t('Spend per day over the last {n} days, at most {top} ₽ a day', { n: days.length, top: formatRub(top) });
  return html`<svg role="img" aria-label="${label}" viewBox="0 0 ${w} ${h}" width="100%">${raw(bars.join(''))}<line x1="${pad}" y1="${h - pad}" x2="${w - pad}" y2="${h - pad}" stroke="#999"/><text x="${pad}" y="${pad - 6}" font-size="11">${formatRub(top)} ₽</text><text x="${pad}" y="${h - 4}" font-size="11">${iso(days[0]![0]).slice(0, 10)}</text><text x="${w - pad}" y="${h - 4}" font-size="11" text-anchor="end">${iso(days[days.length - 1]![0]).slice(0, 10)}</text></svg>`;
}

/** Horizontal bars, one per operation type. */
function typeChart(byType: [string, number][]): Html {
  if (!byType.length) return html`<p>${t('Nothing spent in these days.')}</p>`;
  const [w, rowH, labelW] = [600, 22, 170];
  const top = Math.max(1, ...byType.map(([, v]) => v));
  const rows = byType.map(([type, v], i) => {
    const bw = ((w - labelW - 80) * v) / top;
    const y = i * rowH;
    return `<text x="0" y="${y + 15}" font-size="12">${type}</text><rect x="${labelW}" y="${y + 4}" width="${bw.toFixed(1)}" height="${rowH - 8}" fill="#3b6fd8"/><text x="${(labelW + bw + 6).toFixed(1)}" y="${y + 15}" font-size="12">${formatRub(v)} ₽</text>`;
  });
  return html`<svg role="img" aria-label="${t('Spend per operation type')}" viewBox="0 0 ${w} ${byType.length * rowH}" width="100%">${raw(rows.join(''))}</svg>`;
}

export function historyPage(v: HistoryView): Html {
  const option = (value: string, label: string, selected: string) => html`<option value="${value}" ${value === selected ? 'selected' : ''}>${label}</option>`;
  return html`<h2>${t('Spend')}</h2>${dayChart(v.days)}${typeChart(v.byType)}
<h2>${t('Operations')}</h2>
<form method="get" action="/dashboard/history">
<label for="f-type">${t('Operation')}</label><select id="f-type" name="type">${option('', t('all'), v.filter.type)}${OPERATIONS.map((o) => option(o.type, o.type, v.filter.type))}</select>
<label for="f-key">${t('Key')}</label><select id="f-key" name="key">${option('', t('all'), v.filter.key)}${v.keys.map((k) => option(k.id, k.name, v.filter.key))}</select>
<label for="f-status">${t('Status')}</label><select id="f-status" name="status">${['', 'done', 'failed', 'processing', 'queued'].map((s) => option(s, t(s || 'all'), v.filter.status))}</select>
<label for="f-from">${t('From (day)')}</label><input id="f-from" name="from" type="date" value="${v.filter.from}">
<label for="f-to">${t('To (day)')}</label><input id="f-to" name="to" type="date" value="${v.filter.to}">
<button type="submit">${t('Show')}</button></form>
${v.rows.length
    ? html`<table><thead><tr><th>${t('When (UTC)')}</th><th>${t('Operation')}</th><th>${t('Status')}</th><th>${t('Charge')}</th><th>${t('Key')}</th><th>${t('Task')}</th></tr></thead><tbody>
${v.rows.map((r) => html`<tr><td>${iso(r.created_at).slice(0, 19).replace('T', ' ')}</td><td>${r.type}</td><td>${r.status}</td><td>${r.refunded ? html`<s>${formatRub(r.charge_kopecks)} ₽</s> ${t('refunded')}` : r.included ? t('included') : `${formatRub(r.charge_kopecks)} ₽`}</td><td>${r.key_name ?? r.key_id}</td><td><small>${r.task_id}</small></td></tr>`)}
</tbody></table>`
    : html`<p>${t('No operations match.')}</p>`}
${v.nextQuery ? html`<p><a href="/dashboard/history?${v.nextQuery}">${t('Older operations')}</a></p>` : ''}
<p><a href="/dashboard">${t('Back to the account')}</a></p>`;
}
