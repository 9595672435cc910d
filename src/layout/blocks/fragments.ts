/**
 * A paragraph cut into what the line breaker places whole (paragraph-lines.ts): words with the
 * spaces after them in one face and look, tabs, line breaks and pictures, measured by the faces'
 * advances and pair kerning (run-fragments.ts); and the gap a tab makes up to its stop.
 */
import type * as Mupdf from 'mupdf';
import type { Family } from '../../fonts/catalog';
import type { InlineItem, LineFace, Look, ParagraphBlock, ParagraphStyle, RunFace, TextStyle } from './model';
import { LIGATURE_LETTERS } from '../text/font-book';
import { nextStop } from './tab-stops';
import type { LineContext } from './paragraph-lines';
import { RunFragments } from './run-fragments';
import { shapeArabic } from '../text/arabic-shaping';
import { bidiLevels, hasRightToLeft } from '../text/bidi';

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
  run?: RunFace;
  look: Look;
  /** A line may break after it (it ends in spaces or a hyphen). */
  breakAfter: boolean;
  /** Where the line breaker placed it (a text fragment is its line's PlacedText: no copy per line). */
  x: number;
  span: number;
  note?: string;
  /** The face that sizes the line, when the text sizes it (TextStyle.sizes). */
  sizing?: LineFace;
  picture?: Extract<InlineItem, { kind: 'picture' }>;
  /** A tab's run and its stop's leader character (drawn across the gap). */
  leader?: string;
  kerns?: number[];
  /** Bidirectional embedding level (layout/text/bidi.ts): odd for right-to-left text, drawn reversed. Absent: 0. */
  level?: number;
}

const NO_LOOK: Look = { rise: 0 };

/** The characters of a run as written: ligatures as their letters (the faces do not map them), capitals when asked. */
function written(text: string, style: TextStyle): string {
  // Soft hyphens are left out (no line breaks there) and ligatures spelt out; most runs have neither (one scan).
  const letters = /[\u00ad\ufb00-\ufb04]/.test(text) ? text.replace(/\u00ad/g, '').replace(/[\ufb00-\ufb04]/g, (ch) => LIGATURE_LETTERS[ch]!) : text;
  return style.upper ? letters.toUpperCase() : letters;
}

/**
 * A paragraph's content as fragments: its runs, each cut where its family lacks a glyph (the
 * fallback face draws those characters) and after each space and hyphen, where a line may break;
 * tabs, line breaks and pictures.
 */
export function fragmentsOf(p: ParagraphBlock, ctx: LineContext): Fragment[] {
  const out: Fragment[] = [];
  const items = p.items;
  // Each item's text as placed: runs as written, fields' values; other items hold the object
  // replacement character (a neutral that joins nothing) for shaping and levels.
  const texts = items.map((it) => (it.kind === 'text' ? written(it.text, it.style) : it.kind === 'field' ? (ctx.fields[it.field] ?? '1') : '\ufffc'));
  // Right-to-left text: Arabic letters in their contextual forms, and every character's level.
  const bidi = !!p.props.bidi || texts.some(hasRightToLeft);
  const placed = bidi ? shapeArabic(texts) : texts;
  const levels = bidi ? bidiLevels(placed.join(''), !!p.props.bidi) : undefined;
  /** Where the text being cut starts in `levels`. */
  let offset = 0;
  items.forEach((it, k) => {
    const shown = placed[k]!;
    switch (it.kind) {
      case 'text':
      case 'field':
        // (A note's mark with no text calls its note from the fragment before it.)
        if (shown || (it.kind === 'text' && it.note)) new RunFragments(out, shown, it.style, ctx, levels, offset, it.kind === 'text' ? it.note : undefined).cut();
        break;
      case 'tab': {
        const run = it.style.face;
        out.push({ kind: 'tab', text: '', width: 0, space: 0, spaces: 0, x: 0, span: 0, size: run.size, run, family: run.family, look: it.style.look, breakAfter: true });
        break;
      }
      case 'break':
        out.push({ kind: 'break', text: '', width: 0, space: 0, spaces: 0, x: 0, span: 0, size: 0, look: NO_LOOK, breakAfter: true });
        break;
      case 'picture':
        out.push({ kind: 'picture', text: '', width: it.width, space: 0, spaces: 0, x: 0, span: 0, size: 0, look: NO_LOOK, breakAfter: true, picture: it });
        break;
      // A float is drawn where it floats (layout/pages/flow-page.ts floatsOf), taking no room in the line.
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
export function tabWidth(frags: Fragment[], at: number, x: number, right: number, tabs: NonNullable<ParagraphStyle['tabs']>, indentLeft: number, firstLine: number, ctx: LineContext): { width: number; leader?: string } {
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
