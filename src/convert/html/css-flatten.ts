/**
 * Modern style sheets brought down to what MuPDF's CSS reader takes (html-to-pdf): nested rules
 * (CSS nesting, `&`) written out flat, custom properties (`--name`, `var()`) replaced by their
 * values, and @page margin boxes (`@top-left` and kin, which MuPDF cannot draw) dropped from @page.
 * A print style sheet from WeasyPrint's samples uses all three; MuPDF gave up on each and lost the
 * rules after it (colours, alignment, sizes).
 */

import { DEFAULT_MEDIA, matchesPrint, supportsHolds, type PrintedMedia } from './css-media';

interface Block {
  /** The selector or at-rule prelude, trimmed. */
  prelude: string;
  declarations: string[];
  children: Block[];
}

/** Reads `css` into a tree of blocks: `{ … }` nested as written; comments dropped, strings kept whole. */
function parse(css: string): Block {
  const root: Block = { prelude: '', declarations: [], children: [] };
  const stack = [root];
  let buffer = '';
  for (let i = 0; i < css.length; i++) {
    const ch = css[i]!;
    if (ch === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      i = end < 0 ? css.length : end + 1;
      continue;
    }
    if (ch === '"' || ch === "'") {
      // To the closing quote by indexOf (a data: URL in quotes runs to megabytes), past escaped ones.
      let j = css.indexOf(ch, i + 1);
      while (j > 0 && isEscaped(css, j)) j = css.indexOf(ch, j + 1);
      if (j < 0) j = css.length;
      buffer += css.slice(i, j + 1);
      i = j;
      continue;
    }
    if ((ch === 'u' || ch === 'U') && /^url\(\s*[^"'\s]/i.test(css.slice(i, i + 6))) {
      // An unquoted url() is one token: a data: URL's `;base64,` does not end the declaration.
      const end = css.indexOf(')', i);
      const stop = end < 0 ? css.length : end + 1;
      buffer += css.slice(i, stop);
      i = stop - 1;
      continue;
    }
    const top = stack[stack.length - 1]!;
    if (ch === '{') {
      const block: Block = { prelude: buffer.trim(), declarations: [], children: [] };
      top.children.push(block);
      stack.push(block);
      buffer = '';
    } else if (ch === ';' || ch === '}') {
      if (buffer.trim()) top.declarations.push(buffer.trim());
      buffer = '';
      if (ch === '}' && stack.length > 1) stack.pop();
    } else buffer += ch;
  }
  if (buffer.trim()) stack[stack.length - 1]!.declarations.push(buffer.trim());
  return root;
}

/** Whether the character at `at` follows an odd number of backslashes. */
function isEscaped(text: string, at: number): boolean {
  let count = 0;
  for (let k = at - 1; k >= 0 && text[k] === '\\'; k--) count++;
  return count % 2 === 1;
}

/** The selector of `inner` nested in `outer`: `&` stands for the outer selector, else it is a descendant. */
function nest(outer: string, inner: string): string {
  if (!outer) return inner;
  const outers = outer.split(',').map((s) => s.trim());
  return inner
    .split(',')
    .map((s) => s.trim())
    .flatMap((part) => outers.map((o) => (part.includes('&') ? part.replaceAll('&', o) : `${o} ${part}`)))
    .join(', ');
}

/** Flat CSS of a block's children, under the selector `within`. */
function write(block: Block, within: string, vars: Map<string, string>, media: PrintedMedia & { forMupdf?: boolean }): string {
  let out = '';
  for (const child of block.children) {
    const declarations = child.declarations.filter((d) => !d.startsWith('--') && (!media.forMupdf || readable(d))).map((d) => resolveVars(d, vars));
    if (child.prelude.startsWith('@')) {
      const name = /^@([\w-]+)/.exec(child.prelude)?.[1]?.toLowerCase() ?? '';
      // Margin boxes dropped; named pages (`@page chapter`) too: MuPDF's reader stumbles on the
      // name and loses the rule after it.
      if (name === 'page') {
        // Backgrounds too: MuPDF paints an @page background it cannot read (a picture) black.
        const kept = declarations.filter((d) => !/^background/i.test(d));
        const unnamed = /^@page\s*(:(first|left|right|blank))?\s*$/i.test(child.prelude);
        if ((unnamed || !media.forMupdf) && kept.length) out += `${child.prelude}{${kept.join(';')}}`;
      }
      // MuPDF skips @media and @supports blocks whole: those that hold for print are written out
      // in place, the others dropped (css-media.ts).
      else if (name === 'media') out += matchesPrint(child.prelude.slice(6), media) ? write(child, within, vars, media) : '';
      else if (name === 'supports') out += supportsHolds(child.prelude.slice(9)) ? write(child, within, vars, media) : '';
      else if (!within) out += `${child.prelude}{${declarations.join(';')}}`; // @font-face and the like
      continue;
    }
    const selector = nest(within, child.prelude);
    if (declarations.length) out += `${selector}{${declarations.join(';')}}`;
    out += write(child, selector, vars, media);
  }
  return out;
}

/**
 * Whether MuPDF's reader takes the declaration without losing what follows: not the print-only
 * properties it does not know (`string-set`, bookmarks) nor values with an empty function call
 * (`content()`), on which its recovery skips the next rule; nor generated content it cannot work out.
 */
function readable(declaration: string): boolean {
  if (/^(string-set|bookmark-[\w-]+)\s*:/i.test(declaration)) return false;
  if (/^content\s*:.*\bcounters?\(/i.test(declaration)) return false; // MuPDF prints the word 'counter'
  // Generated content MuPDF would print as the function's name (`target-text(attr(href))`).
  if (/^content\s*:.*\b(target-[\w-]+|string|element|leader|attr)\(/i.test(declaration)) return false;
  return !/[\w-]\(\s*\)/.test(declaration.replace(/url\([^)]*\)/gi, ''));
}

/** Custom properties declared anywhere (the last declaration wins), by name. */
function customProperties(block: Block, into = new Map<string, string>()): Map<string, string> {
  for (const d of block.declarations) {
    const m = /^(--[\w-]+)\s*:\s*([\s\S]*)$/.exec(d);
    if (m) into.set(m[1]!, m[2]!.replace(/\s*!important\s*$/i, '').trim());
  }
  for (const child of block.children) customProperties(child, into);
  return into;
}

/** `var(--name)` and `var(--name, fallback)` replaced by the value (values may use var() too). */
export function resolveVars(text: string, vars: Map<string, string>, depth = 0): string {
  if (depth > 8 || !text.includes('var(')) return text;
  const replaced = text.replace(/var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*))?\)/g, (_, name: string, fallback?: string) => vars.get(name) ?? fallback?.trim() ?? '');
  return resolveVars(replaced, vars, depth + 1);
}

/**
 * `media.forMupdf` (the default) also leaves out what MuPDF's reader stumbles on (readable); the
 * rewrite's own reading of the rules keeps it (generated content with counters, for one).
 */
export function flattenCss(css: string, media: PrintedMedia & { forMupdf?: boolean } = { ...DEFAULT_MEDIA, forMupdf: true }): string {
  // `<!--` and `-->` around a style sheet (old pages, Word's) are no part of it (CSS ignores them).
  const tree = parse(css.replace(/<!--|-->/g, ' '));
  return write(tree, '', customProperties(tree), media);
}

/** One style rule of a flat style sheet: its selector list and its declarations as [property, value, important]. */
export interface StyleRule {
  selector: string;
  declarations: Declaration[];
}
export type Declaration = [property: string, value: string, important: boolean];

/** `prop: value` pairs of a declaration block, property names lower-cased, `!important` noted. */
export function declarations(texts: string[]): Declaration[] {
  const out: Declaration[] = [];
  for (const text of texts) {
    const colon = text.indexOf(':');
    if (colon <= 0) continue;
    const value = text.slice(colon + 1).trim();
    const important = /!\s*important\s*$/i.test(value);
    out.push([text.slice(0, colon).trim().toLowerCase(), important ? value.replace(/!\s*important\s*$/i, '').trim() : value, important]);
  }
  return out;
}

/**
 * The rules and at-rules of a flat style sheet (flattenCss's output) that apply when printing:
 * top-level rules, those inside @media for print or all (not screen-only) and @supports. At-rules
 * such as @page and @font-face come back with their prelude as the selector.
 */
export function printRules(css: string): StyleRule[] {
  const rules: StyleRule[] = [];
  const walk = (block: Block): void => {
    for (const child of block.children) {
      const media = /^@media\s+([\s\S]*)$/i.exec(child.prelude)?.[1];
      if (media !== undefined) {
        if (matchesPrint(media)) walk(child);
      } else if (/^@supports\b/i.test(child.prelude)) {
        if (supportsHolds(child.prelude.slice(9))) walk(child);
      }
      else rules.push({ selector: child.prelude, declarations: declarations(child.declarations) });
    }
  };
  walk(parse(css));
  return rules;
}


/** An @page rule as written: its selector (`@page`, `@page :first`), declarations and margin boxes (`top-left`, …). */
export interface PageRule {
  selector: string;
  declarations: Declaration[];
  boxes: { name: string; declarations: Declaration[] }[];
}

/** The @page rules of a style sheet with their margin boxes, custom properties resolved (top level and @media print). */
export function pageRules(css: string): PageRule[] {
  const tree = parse(css);
  const vars = customProperties(tree);
  const rules: PageRule[] = [];
  const walk = (block: Block): void => {
    for (const child of block.children) {
      const media = /^@media\s+([\s\S]*)$/i.exec(child.prelude)?.[1];
      if (media !== undefined && matchesPrint(media)) walk(child);
      if (!/^@page\b/i.test(child.prelude)) continue;
      const resolved = (texts: string[]) => declarations(texts.map((d) => resolveVars(d, vars)));
      rules.push({
        selector: child.prelude.replace(/\s+/g, ' '),
        declarations: resolved(child.declarations),
        boxes: child.children.filter((b) => b.prelude.startsWith('@')).map((b) => ({ name: b.prelude.slice(1).toLowerCase(), declarations: resolved(b.declarations) })),
      });
    }
  };
  walk(tree);
  return rules;
}

/**
 * CSS pixels as points: MuPDF reads `1px` as a point, where browsers (and CSS) make it 0.75 pt, so
 * every length in px came out a third too large; `rem` likewise (16 px, 12 pt, at the root's
 * default size). Strings and url() are left alone.
 */
export function pxToPt(css: string): string {
  return css.replace(/(url\([^)]*\)|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(-?\d*\.?\d+)(px|rem)\b/gi, (all, kept: string | undefined, n: string | undefined, unit: string | undefined) =>
    kept ? kept : `${Number((Number(n) * (unit!.toLowerCase() === 'rem' ? 12 : 0.75)).toFixed(3))}pt`,
  );
}

/** The custom properties a style sheet declares (anywhere; the last declaration wins), by name. */
export function customPropertiesOf(css: string): Map<string, string> {
  return customProperties(parse(css));
}

/**
 * A style attribute with its var() resolved: its own custom properties first, then the style
 * sheets' (`sheetVars`). MuPDF's reader knows no var(), so `style="color: var(--brand)"` lost its colour.
 */
export function resolveInlineVars(style: string, sheetVars: Map<string, string>): string {
  if (!style.includes('var(')) return style;
  const own = customProperties(parse(style));
  return resolveVars(style, own.size ? new Map([...sheetVars, ...own]) : sheetVars);
}
