import type { Family } from '../../../fonts/catalog';
import type { Inline, Paragraph, RunStyle } from '../model/index';
import { LIGATURE_LETTERS, slotOf } from '../../../layout/text/font-book';
import { resolveRun, type ResolvedRun } from '../rules/runs';
import { nextStop } from '../rules/tab-stops';
import type * as Mupdf from 'mupdf';
import type { LineContext, Look } from './paragraph-lines';
import { shapeArabic } from '../../../layout/text/arabic-shaping';
import { bidiLevels, hasRightToLeft } from '../../../layout/text/bidi';

// A paragraph cut into what the line breaker places whole (paragraph-lines.ts): words with the
// spaces after them in one face and look, tabs, line breaks and pictures, measured by the faces'
// advances and pair kerning.

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
  /** Bidirectional embedding level (flow/bidi.ts): odd for right-to-left text, drawn reversed. Absent: 0. */
  level?: number;
}

const NO_LOOK: Look = { rise: 0 };

/** The characters of a run as written: ligatures as their letters (the faces do not map them), capitals when asked. */
function written(text: string, style: RunStyle): string {
  // Soft hyphens are left out (no line breaks there) and ligatures spelt out; most runs have neither (one scan).
  const letters = /[\u00ad\ufb00-\ufb04]/.test(text) ? text.replace(/\u00ad/g, '').replace(/[\ufb00-\ufb04]/g, (ch) => LIGATURE_LETTERS[ch]!) : text;
  return style.caps || style.smallCaps ? letters.toUpperCase() : letters;
}

function lookOf(style: RunStyle, size: number): Look {
  const full = style.size ?? size;
  return {
    color: style.color && style.color !== 'auto' ? style.color : undefined,
    underline: !!style.underline && style.underline !== 'none',
    strike: !!(style.strike || style.doubleStrike),
    highlight: style.highlight,
    // Word raises superscript by a third of the size and lowers subscript by about a seventh of it.
    rise: style.vertAlign === 'superscript' ? full * 0.33 : style.vertAlign === 'subscript' ? -full * 0.14 : 0,
    link: style.link,
  };
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
  const { fonts } = ctx;
  // Each item's text as placed: runs as written, fields' values, notes' labels; other items hold
  // the object replacement character (a neutral that joins nothing) for shaping and levels.
  const texts = items.map((it) => (it.kind === 'text' ? (it.style.hidden || !it.text ? '' : written(it.text, it.style)) : it.kind === 'field' ? (ctx.fields[it.field] ?? '1') : it.kind === 'noteRef' ? it.label : '\ufffc'));
  // Right-to-left text: Arabic letters in their contextual forms, and every character's level.
  const bidi = !!p.props.bidi || texts.some(hasRightToLeft);
  const placed = bidi ? shapeArabic(texts) : texts;
  const levels = bidi ? bidiLevels(placed.join(''), !!p.props.bidi) : undefined;
  /** Where the text being cut starts in `levels`. */
  let offset = 0;
  const text = (t: string, style: RunStyle, note?: string, sizing: RunStyle | undefined = style) => {
    const run = resolveRun(style, ctx);
    const look = lookOf(style, ctx.defaultSize);
    let start = 0;
    // The family drawing the current piece, its face and advances, and the piece's width so far (em).
    let family = run.family;
    let font = fonts.face(family, run.bold, run.italic);
    let table = fonts.advanceTable(family, run.bold, run.italic);
    let em = 0;
    let spaceEm: number | undefined; // a space's advance in the run's own face
    const use = (fam: Family) => {
      family = fam;
      font = fonts.face(fam, run.bold, run.italic);
      table = fonts.advanceTable(fam, run.bold, run.italic);
      if (run.kern) kerning = fonts.kerning(fam, run.bold, run.italic);
    };
    // Pair kerning where the run asks for it (resolveRun's rule): within a word, as MuPDF shapes words.
    let kerning = run.kern ? fonts.kerning(family, run.bold, run.italic) : undefined;
    let kerns: number[] | undefined;
    let previous = -1; // glyph id of the last character of the piece
    const push = (end: number, breakAfter: boolean) => {
      if (end <= start) return;
      out.push({ kind: 'text', text: t.slice(start, end), width: em * run.size, space: 0, spaces: 0, x: 0, span: 0, font, size: run.size, family, run, look, breakAfter, note, kerns, sizing, level: levels?.[offset + start] });
      start = end;
      em = 0;
      kerns = undefined;
      previous = -1;
    };
    const advance = (cp: number) => {
      const slot = slotOf(cp);
      const a = slot >= 0 ? table[slot]! : NaN;
      return a === a ? a : fonts.advanceOf(table, family, run.bold, run.italic, cp);
    };
    const coverage = fonts.coverageTable(run.family);
    for (let i = 0; i < t.length; ) {
      let cp = t.charCodeAt(i);
      if (cp === 32) {
        // Spaces run together after the text before them (a line breaks after the last).
        let j = i;
        while (t.charCodeAt(j) === 32) j++;
        spaceEm ??= fonts.measure(' ', run.family, run.bold, run.italic, 1);
        const space = spaceEm;
        const last = out.at(-1);
        push(i, true);
        const host = start === i && out.at(-1) !== last ? out.at(-1)! : undefined;
        if (host) {
          host.space = space * (j - i) * run.size;
          host.spaces = j - i;
        } else {
          // Spaces that open the run: a fragment of no text.
          out.push({ kind: 'text', text: '', width: 0, space: space * (j - i) * run.size, spaces: j - i, x: 0, span: 0, font, size: run.size, family: run.family, run, look, breakAfter: true, sizing, level: levels?.[offset + i] });
        }
        start = i = j;
        previous = -1;
        continue;
      }
      if (cp >= 0xd800 && cp < 0xdc00) cp = t.codePointAt(i)!;
      const fam = cp < 0x80 || coverage[slotOf(cp)] === 1 ? run.family : fonts.familyFor(run.family, cp);
      if (fam !== family) {
        push(i, false);
        use(fam);
      }
      // Text of another direction starts a fragment of its own (a line turns it around whole).
      if (levels && i > start && levels[offset + i] !== levels[offset + start]) push(i, false);
      // Pairs are kerned in drawing order: not in right-to-left text, drawn reversed.
      if (kerning && !(levels && levels[offset + i]! & 1)) {
        const gid = fonts.glyphId(family, run.bold, run.italic, cp);
        const k = previous >= 0 ? kerning.pair(previous, gid) : 0;
        if (k) {
          em += k;
          (kerns ??= []).push(i - start, k);
        }
        previous = gid;
      }
      em += advance(cp);
      i += cp > 0xffff ? 2 : 1;
      if (cp === 0x2d || cp === 0x2010) push(i, true);
    }
    push(t.length, false);
    if (note) out[out.length - 1]!.note = note;
  };
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
