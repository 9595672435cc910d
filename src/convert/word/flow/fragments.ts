/**
 * A paragraph cut into what the line breaker places whole (paragraph-lines.ts): words with the
 * spaces after them in one face and look, tabs, line breaks and pictures, measured by the faces'
 * advances and pair kerning (run-fragments.ts); and the gap a tab makes up to its stop.
 */
import type * as Mupdf from 'mupdf';
import type { Family } from '../../../fonts/catalog';
import type { Inline, Paragraph, RunStyle } from '../model/index';
import { LIGATURE_LETTERS } from '../../../layout/text/font-book';
import { resolveRun, type ResolvedRun } from '../rules/runs';
import { nextStop } from '../rules/tab-stops';
import type { LineContext, Look } from './paragraph-lines';
import { lookOf, RunFragments } from './run-fragments';
import { shapeArabic } from '../../../layout/text/arabic-shaping';
import { bidiLevels, hasRightToLeft } from '../../../layout/text/bidi';

/** A piece of a paragraph the breaker places whole: text in one face and look, a space, a tab, a picture. */
export interface Fragment {
  kind: 'text' | 'tab' | 'break' | 'picture';
  /** The text shown, without the spaces after it. */
  text: string;
  width: number;
  /** The spaces after the text: their width and count (a line may break after them; justification widens them). */
  space: number;
  spaces: number;
  font?: Mupdf.Font;
  size: number;
  family?: Family;
  run?: ResolvedRun;
  look: Look;
  /** A line may break after it (it ends in spaces or a hyphen). */
  breakAfter: boolean;
  /** Where the line breaker placed it (a text fragment is its line's PlacedText: no copy per line). */
  x: number;
  span: number;
  note?: string;
  /** The run's style when its size sizes the line (text and fields, as largestRun counts them). */
  sizing?: RunStyle;
  picture?: Extract<Inline, { kind: 'image' }>;
  /** A tab's run and its stop's leader character (drawn across the gap). */
  leader?: string;
  kerns?: number[];
  /** Bidirectional embedding level (layout/text/bidi.ts): odd for right-to-left text, drawn reversed. Absent: 0. */
  level?: number;
}

const NO_LOOK: Look = { rise: 0 };

/** The characters of a run as written: ligatures as their letters (the faces do not map them), capitals when asked. */
function written(text: string, style: RunStyle): string {
  // Soft hyphens are left out (no line breaks there) and ligatures spelt out; most runs have neither (one scan).
  const letters = /[\u00ad\ufb00-\ufb04]/.test(text) ? text.replace(/\u00ad/g, '').replace(/[\ufb00-\ufb04]/g, (ch) => LIGATURE_LETTERS[ch]!) : text;
  return style.caps || style.smallCaps ? letters.toUpperCase() : letters;
}

/**
 * A paragraph's content as fragments: its list label and the separator after it, then its runs,
 * each cut where its family lacks a glyph (the fallback face draws those characters) and after
 * each space and hyphen, where a line may break.
 */
export function fragmentsOf(p: Paragraph, ctx: LineContext): Fragment[] {
  const out: Fragment[] = [];
  const list = p.props.list;
  const items: Inline[] = list
    ? [{ kind: 'text', text: list.label, style: list.style }, ...(list.suffix === 'tab' ? [{ kind: 'tab', style: list.style } as Inline] : list.suffix === 'space' ? [{ kind: 'text', text: ' ', style: list.style } as Inline] : []), ...p.inlines]
    : p.inlines;
  // Each item's text as placed: runs as written, fields' values, notes' labels; other items hold
  // the object replacement character (a neutral that joins nothing) for shaping and levels.
  const texts = items.map((it) => (it.kind === 'text' ? (it.style.hidden || !it.text ? '' : written(it.text, it.style)) : it.kind === 'field' ? (ctx.fields[it.field] ?? '1') : it.kind === 'noteRef' ? it.label : '\ufffc'));
  // Right-to-left text: Arabic letters in their contextual forms, and every character's level.
  const bidi = !!p.props.bidi || texts.some(hasRightToLeft);
  const placed = bidi ? shapeArabic(texts) : texts;
  const levels = bidi ? bidiLevels(placed.join(''), !!p.props.bidi) : undefined;
  /** Where the text being cut starts in `levels`. */
  let offset = 0;
  const text = (t: string, style: RunStyle, note?: string, sizing: RunStyle | undefined = style) => new RunFragments(out, t, style, ctx, levels, offset, note, sizing).cut();
  items.forEach((it, k) => {
    const shown = placed[k]!;
    switch (it.kind) {
      case 'text':
        if (list && it.style === list.style) {
          // The list label and the space after it: not counted in the line's size (largestRun leaves them out).
          if (shown) text(shown, it.style, undefined, undefined);
          break;
        }
        if (shown) text(shown, it.style);
        break;
      case 'field':
        text(shown, it.style);
        break;
      case 'noteRef':
        text(shown, { ...it.style, vertAlign: 'superscript' }, it.id, undefined);
        break;
      case 'tab': {
        const run = resolveRun(it.style, ctx);
        out.push({ kind: 'tab', text: '', width: 0, space: 0, spaces: 0, x: 0, span: 0, size: run.size, run, family: run.family, look: lookOf(it.style, ctx.defaultSize), breakAfter: true });
        break;
      }
      case 'break':
        if (it.type === 'line') out.push({ kind: 'break', text: '', width: 0, space: 0, spaces: 0, x: 0, span: 0, size: 0, look: NO_LOOK, breakAfter: true });
        break;
      case 'image': {
        // A floating picture is drawn where it floats (render.ts), taking no room in the line.
        if (it.floating) break;
        out.push({ kind: 'picture', text: '', width: it.width, space: 0, spaces: 0, x: 0, span: 0, size: 0, look: NO_LOOK, breakAfter: true, picture: it });
        break;
      }
    }
    offset += shown.length;
  });
  return out;
}

/** A text fragment cut into the characters that fit `room` and the rest (at least one character goes first). */
export function cutToFit(f: Fragment, room: number, ctx: LineContext): [Fragment, Fragment] | undefined {
  const chars = [...f.text];
  let w = 0;
  let n = 0;
  for (; n < chars.length; n++) {
    const cw = ctx.fonts.measure(chars[n]!, f.family!, f.run!.bold, f.run!.italic, f.size);
    if (n > 0 && w + cw > room) break;
    w += cw;
  }
  if (n >= chars.length) return undefined;
  const head = chars.slice(0, n).join('');
  const tail = chars.slice(n).join('');
  return [
    { ...f, text: head, width: w, space: 0, spaces: 0, x: 0, span: 0, breakAfter: true, kerns: undefined },
    { ...f, text: tail, width: f.width - w, kerns: undefined },
  ];
}

/** The gap a tab at `x` makes up to its stop: right, centre and decimal stops align the text after it (to the next tab or break). */
export function tabWidth(frags: Fragment[], at: number, x: number, right: number, tabs: NonNullable<Paragraph['props']['tabs']>, indentLeft: number, firstLine: number, ctx: LineContext): { width: number; leader?: string } {
  if (x >= right) return { width: frags[at]!.run ? ctx.fonts.measure(' ', frags[at]!.run!.family, false, false, frags[at]!.size) : 3 };
  const stop = nextStop(x, tabs, indentLeft, firstLine);
  const pos = Math.min(stop.pos, right);
  let following = 0;
  if (stop.align !== 'left') {
    for (let k = at + 1; k < frags.length; k++) {
      const g = frags[k]!;
      if (g.kind === 'tab' || g.kind === 'break') break;
      if (stop.align === 'decimal' && g.kind === 'text' && /[.,]/.test(g.text)) {
        const head = g.text.slice(0, g.text.search(/[.,]/));
        following += ctx.fonts.measure(head, g.family!, g.run!.bold, g.run!.italic, g.size);
        break;
      }
      following += g.width + g.space;
    }
  }
  const target = stop.align === 'center' ? pos - following / 2 : stop.align === 'left' ? pos : pos - following;
  const width = Math.max(target - x, stop.align === 'left' ? 0 : 1);
  const leader = stop.leader === 'dot' ? '.' : stop.leader === 'hyphen' ? '-' : stop.leader === 'underscore' ? '_' : undefined;
  return { width, leader };
}
