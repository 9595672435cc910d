/**
 * A run's text and look as HTML for MuPDF's HTML engine: escaped, its spaces kept, its CSS, and
 * split by the faces that draw it; and the font a paragraph's <p> is given so its runs need no span.
 */
import type { Family } from '../../../fonts/catalog';
import type { Paragraph, RunStyle } from '../model/index';
import { resolveRun, type ResolvedRun, type RunDefaults } from '../rules/runs';
import { cssFamily, LIGATURE_LETTERS, type FontBook } from '../../../layout/text/font-book';
import { RIGHT_TO_LEFT } from '../../../lib/complex-script';
import { pt } from './css-units';

const SPECIAL = /[&<>"]/;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** Text or an attribute value as XHTML (most text has nothing to escape: it is returned as it is). */
export const esc = (s: string) => (SPECIAL.test(s) ? s.replace(/[&<>"]/g, (c) => ESCAPES[c]!) : s);

/**
 * Text with Word's spacing kept: HTML collapses runs of spaces, so every space after the first
 * (and a leading one) becomes a no-break space. Single spaces stay real spaces: with CSS
 * pre-wrap MuPDF writes every space as U+00A0, which breaks search and copy in the PDF.
 */
export const keepSpaces = (s: string) => s.replace(/ {2,}/g, (run) => ` ${'\u00a0'.repeat(run.length - 1)}`).replace(/^ /, '\u00a0');

/**
 * The font and size most of a paragraph's text is in, when that text has no other style: set on
 * the <p>, its runs are written without a span (ctx.paragraphCss). Each element costs MuPDF's HTML
 * parser a match against every rule of its default style sheet: GASU.docx's areas and pages had
 * 10,119 such spans of 22,000 elements. Others keep their spans, which give their own font and size.
 */
export function paragraphCss(p: Paragraph, ctx: RunDefaults): string | undefined {
  // Not where MuPDF places text by its parent's font: a superscript or subscript is raised by the
  // parent's size, and right-to-left text is reordered within its parent (both moved, stress004 and 008).
  if (p.props.bidi || p.inlines.some((it) => it.kind === 'noteRef' || (it.kind === 'text' && (it.style.vertAlign || RIGHT_TO_LEFT.test(it.text))))) return undefined;
  const chars = new Map<string, number>();
  const texts = p.props.list ? [{ text: p.props.list.label, style: p.props.list.style }, ...p.inlines] : p.inlines;
  for (const it of texts) {
    if ('kind' in it && it.kind !== 'text') continue;
    if (it.style.hidden || !it.text) continue;
    const css = runCss(it.style, resolveRun(it.style, ctx));
    if (PLAIN_CSS.test(css)) chars.set(css, (chars.get(css) ?? 0) + it.text.length);
  }
  let best: string | undefined;
  for (const [css, n] of chars) if (!best || n > chars.get(best)!) best = css;
  return best;
}

const PLAIN_CSS = /^font-family:[^;]*;font-size:[^;]*$/;

export function runCss(style: RunStyle, run: ResolvedRun): string {
  const css = [`font-family:${cssFamily(run.family, run.kern)}`, `font-size:${pt(run.size)}`];
  if (run.bold) css.push('font-weight:bold');
  if (run.italic) css.push('font-style:italic');
  const deco = [style.underline && style.underline !== 'none' ? 'underline' : '', style.strike || style.doubleStrike ? 'line-through' : ''].filter(Boolean);
  if (deco.length) css.push(`text-decoration:${deco.join(' ')}`);
  if (style.color && style.color !== 'auto') css.push(`color:#${style.color}`);
  if (style.highlight) css.push(`background-color:#${style.highlight}`);
  if (style.vertAlign) css.push(`vertical-align:${style.vertAlign === 'superscript' ? 'super' : 'sub'}`);
  return css.join(';');
}

export function transform(text: string, style: RunStyle): string {
  // Ligature characters as their letters: the faces do not map them (font-book.ts).
  const letters = text.replace(/[\ufb00-\ufb04]/g, (ch) => LIGATURE_LETTERS[ch]!);
  return style.caps || style.smallCaps ? letters.toUpperCase() : letters;
}

/**
 * Text split where the family lacks glyphs (Caladea has no Cyrillic): each piece names the family
 * that draws it, so MuPDF and our measuring agree.
 */
export function pieces(text: string, run: ResolvedRun, fonts: FontBook): { text: string; family: Family }[] {
  // Most runs are drawn whole by their own family: found without building the text again char by char.
  let i = 0;
  while (i < text.length) {
    const cp = text.codePointAt(i)!;
    if (fonts.familyFor(run.family, cp) !== run.family) break;
    i += cp > 0xffff ? 2 : 1;
  }
  if (i >= text.length) return [{ text, family: run.family }];
  const out: { text: string; family: Family }[] = i ? [{ text: text.slice(0, i), family: run.family }] : [];
  for (const ch of text.slice(i)) {
    const family = fonts.familyFor(run.family, ch.codePointAt(0)!);
    const last = out[out.length - 1];
    if (last && last.family === family) last.text += ch;
    else out.push({ text: ch, family });
  }
  return out;
}

