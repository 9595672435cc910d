/**
 * A sheet's header or footer codes ("&L&\"Arial,Bold\"&14Report&C&A&RPage &P of &N") as the three
 * sections a page prints: left, centre and right, each a list of runs with their own font changes,
 * the page's fields filled in (&P page, &N pages, &D date, &T time, &A sheet, &F file), && an
 * ampersand; each section starts in the default font. Pictures (&G) print nothing yet.
 */

export interface HeaderRun {
  text: string;
  /** Font changes the codes made: a family ("-" keeps the current one), bold, italic, underline, size in points. */
  font?: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  size?: number;
  /** RRGGBB (&K). */
  color?: string;
}

export interface HeaderSections {
  left: HeaderRun[];
  center: HeaderRun[];
  right: HeaderRun[];
}

export interface HeaderFields {
  page: number;
  pages: number;
  sheet: string;
  file: string;
  /** The date and time printed by &D and &T, as the converter shows them. */
  date: string;
  time: string;
}

type Style = Omit<HeaderRun, 'text'>;

/** A header or footer's sections with this page's fields. */
export function headerSections(codes: string, fields: HeaderFields): HeaderSections {
  const out: HeaderSections = { left: [], center: [], right: [] };
  let section: keyof HeaderSections = 'center';
  let style: Style = {};
  let text = '';
  const flush = () => {
    if (text) out[section].push({ text, ...style });
    text = '';
  };
  const change = (next: Style) => {
    flush();
    style = { ...style, ...next };
  };
  for (let i = 0; i < codes.length; i++) {
    const ch = codes[i]!;
    if (ch !== '&') {
      text += ch;
      continue;
    }
    const code = codes[i + 1] ?? '';
    i++;
    if (code === '&') text += '&';
    else if (code === 'L' || code === 'C' || code === 'R') {
      flush();
      // Each section starts in the default font, as Excel prints it.
      style = {};
      section = code === 'L' ? 'left' : code === 'C' ? 'center' : 'right';
    } else if (code === 'P') text += String(fields.page);
    else if (code === 'N') text += String(fields.pages);
    else if (code === 'A') text += fields.sheet;
    else if (code === 'F') text += fields.file;
    else if (code === 'D') text += fields.date;
    else if (code === 'T') text += fields.time;
    else if (code === 'B') change({ bold: !style.bold });
    else if (code === 'I') change({ italic: !style.italic });
    else if (code === 'U' || code === 'E') change({ underline: !style.underline });
    else if (code === 'S') change({ strike: !style.strike });
    else if (code === 'K') {
      const hex = /^[0-9A-Fa-f]{6}/.exec(codes.slice(i + 1))?.[0];
      if (hex) change({ color: hex.toUpperCase() });
      i += hex ? 6 : 0;
    } else if (code === '"') {
      const end = codes.indexOf('"', i + 1);
      const [family = '-', face = ''] = codes.slice(i + 1, end < 0 ? codes.length : end).split(',');
      const lower = face.toLowerCase();
      change({ ...(family !== '-' ? { font: family } : {}), bold: /bold|полужирный/.test(lower), italic: /italic|курсив/.test(lower) });
      i = end < 0 ? codes.length : end;
    } else if (/\d/.test(code)) {
      const digits = /^\d+/.exec(codes.slice(i))![0];
      const size = Number(digits);
      if (size >= 1 && size <= 409) change({ size });
      i += digits.length - 1;
    }
    // Other codes (&G pictures, &Z path, &O and &H outline and shadow) print nothing here.
  }
  flush();
  return out;
}
