/**
 * Dates and times of Excel number formats: a serial day number (1900 system with its phantom
 * 29 February 1900, or the 1904 system) printed by y, m, d, h, s, AM/PM and elapsed [h] [m] [s]
 * tokens; "m" is minutes after an hour or before a second, the month otherwise. English month and
 * day names, as the codes are stored, or the names of the locale the code names ([$-419]), a
 * month after its day in the genitive where the language has one ("15 марта 2023").
 */
import type { NumberLocale } from './number-locale';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Whether a section (brackets of colours and conditions already removed) formats a date or time. */
export function isDateSection(body: string): boolean {
  const bare = body.replace(/"[^"]*"|\\.|_.|\*./g, '');
  return /\[(h+|m+|s+)\]/i.test(bare) || /[ydhs]|m(?!\w*[0#?])/i.test(bare.replace(/AM\/PM|A\/P/gi, 'h').replace(/E[+-]/gi, ''));
}

interface Parts {
  year: number;
  month: number;
  day: number;
  weekday: number;
  hours: number;
  minutes: number;
  seconds: number;
  fraction: number;
}

function partsOf(serial: number, date1904: boolean): Parts {
  let days = Math.floor(serial);
  let seconds = Math.round((serial - days) * 86_400 * 1000) / 1000;
  if (seconds >= 86_400) [days, seconds] = [days + 1, seconds - 86_400];
  // 1900 system: serial 60 is Excel's 29 February 1900, which never was; serials after it are a day ahead.
  const leap = !date1904 && days === 60;
  const shift = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, days < 60 ? 31 : 30);
  const date = new Date(shift + (leap ? 59 : days) * 86_400_000);
  const whole = Math.floor(seconds);
  return {
    year: date.getUTCFullYear(),
    month: leap ? 2 : date.getUTCMonth() + 1,
    day: leap ? 29 : date.getUTCDate(),
    weekday: date.getUTCDay(),
    hours: Math.floor(whole / 3600),
    minutes: Math.floor((whole % 3600) / 60),
    seconds: whole % 60,
    fraction: seconds - whole,
  };
}

type Token = { kind: 'lit'; text: string } | { kind: 'code'; text: string };

function tokens(body: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < body.length; ) {
    const ch = body[i]!;
    if (ch === '"') {
      const end = body.indexOf('"', i + 1);
      out.push({ kind: 'lit', text: body.slice(i + 1, end < 0 ? body.length : end) });
      i = end < 0 ? body.length : end + 1;
    } else if (ch === '\\' || ch === '_') {
      // An escaped character, or _x: a space as wide as x.
      out.push({ kind: 'lit', text: ch === '_' ? ' ' : (body[i + 1] ?? '') });
      i += 2;
    } else if (ch === '*') i += 2; // a fill character: nothing to repeat in a cell of our own width yet
    else {
      const m = /^(\[(h+|m+|s+)\]|AM\/PM|A\/P|y+|m+|d+|h+|s+(\.0+)?|e)/i.exec(body.slice(i));
      const text = m ? m[0] : ch;
      out.push({ kind: m ? 'code' : 'lit', text });
      i += text.length;
    }
  }
  return out;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

export function dateText(body: string, serial: number, date1904: boolean, locale?: NumberLocale): string {
  if (serial < 0) return '#'.repeat(8);
  const p = partsOf(serial, date1904);
  const list = tokens(body);
  const twelve = list.some((t) => t.kind === 'code' && /^(AM\/PM|A\/P)$/i.test(t.text));
  const codes = list.filter((t) => t.kind === 'code');
  const withDay = codes.some((t) => /^d{1,2}$/i.test(t.text));
  const months = (withDay ? locale?.monthsOf : undefined) ?? locale?.months ?? MONTHS;
  const shortMonths = locale?.shortMonths ?? MONTHS.map((m) => m.slice(0, 3));
  const days = locale?.days ?? DAYS;
  const shortDays = locale?.shortDays ?? DAYS.map((d) => d.slice(0, 3));
  return list
    .map((t) => {
      if (t.kind === 'lit') return t.text;
      const c = t.text.toLowerCase();
      const k = codes.indexOf(t);
      const minutes = c[0] === 'm' && !c.startsWith('[') && c.length <= 2 && ((codes[k - 1] && /^(h|\[h)/i.test(codes[k - 1]!.text)) || (codes[k + 1] && /^(s|\[s)/i.test(codes[k + 1]!.text)));
      if (c === '[h]' || c === '[hh]') return pad(Math.floor(serial * 24), c.length - 2);
      if (c.startsWith('[m')) return pad(Math.floor(serial * 1440), c.length - 2);
      if (c.startsWith('[s')) return pad(Math.round(serial * 86_400), c.length - 2);
      if (c === 'am/pm') return p.hours < 12 ? 'AM' : 'PM';
      if (c === 'a/p') return p.hours < 12 ? 'A' : 'P';
      if (c[0] === 'y' || c === 'e') return c.length <= 2 && c !== 'e' ? pad(p.year % 100, 2) : String(p.year);
      if (c[0] === 'd') return c.length === 1 ? String(p.day) : c.length === 2 ? pad(p.day, 2) : c.length === 3 ? shortDays[p.weekday]! : days[p.weekday]!;
      if (c[0] === 'h') {
        const h = twelve ? (p.hours % 12 || 12) : p.hours;
        return c.length === 1 ? String(h) : pad(h, 2);
      }
      if (c[0] === 's') {
        const decimals = c.includes('.') ? c.length - c.indexOf('.') - 1 : 0;
        return pad(p.seconds, c.startsWith('ss') ? 2 : 1) + (decimals ? p.fraction.toFixed(decimals).slice(1) : '');
      }
      if (minutes) return c.length === 1 ? String(p.minutes) : pad(p.minutes, 2);
      return c.length === 1 ? String(p.month) : c.length === 2 ? pad(p.month, 2) : c.length === 3 ? shortMonths[p.month - 1]! : c.length === 5 ? months[p.month - 1]![0]! : months[p.month - 1]!;
    })
    .join('');
}
