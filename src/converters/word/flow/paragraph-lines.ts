import type * as Mupdf from 'mupdf';
import type { Family } from '../../fonts/catalog';
import type { Inline, Paragraph, RunStyle } from '../model';
import { LIGATURE_LETTERS, type FontBook } from '../layout/font-book';
import { largestRun, resolveRun, type ResolvedRun } from '../layout/inline-html';
import { lineBox } from '../layout/block-html';
import { nextStop } from '../layout/tab-stops';

/** What the line breaker needs of a conversion: the faces, the defaults, and the field values. */
export interface LineContext {
  fonts: FontBook;
  defaultFont: string;
  defaultSize: number;
  noLeading?: boolean;
  fields: { PAGE?: string; NUMPAGES?: string; SECTIONPAGES?: string };
}

/** How a stretch of text looks, beyond its face and size: what the drawing needs. */
export interface Look {
  color?: string;
  underline?: boolean;
  strike?: boolean;
  highlight?: string;
  /** Raised (positive) or lowered from the baseline, points: superscript and subscript. */
  rise: number;
  link?: string;
}

/** Text in one face, size and look, placed on its line: x from the column's left edge. */
export interface PlacedText {
  font: Mupdf.Font;
  size: number;
  text: string;
  x: number;
  width: number;
  /** The width its underline, highlight or link covers: the text and, within the line, the spaces after it. */
  span: number;
  look: Look;
  /** Pair kerning: [index in text, adjustment in em before that character, …] (runs that ask for it). */
  kerns?: number[];
}

/** An inline picture on its line: its bottom on the baseline. */
export interface PlacedPicture {
  data: Uint8Array;
  contentType: string;
  x: number;
  width: number;
  height: number;
}

export interface Line {
  height: number;
  /** The baseline's distance from the line's top. */
  baseline: number;
  /**
   * Space below the text that may hang past the foot of a page: what proportional spacing (1.15,
   * double) adds to a single line. LibreOffice fits a line whose text fits (stress008's pages end up
   * to 1.1 pt from the margin with 1.15 lines whose spacing would not fit).
   */
  trailing: number;
  /** Paragraph shading (RRGGBB) behind the line, across the column as the HTML path's paragraph box. */
  shade?: { color: string; width: number };
  texts: PlacedText[];
  pictures: PlacedPicture[];
  /** Footnotes this line calls, in order. */
  notes: string[];
}

/** A piece of a paragraph the breaker places whole: text in one face and look, a space, a tab, a picture. */
interface Fragment {
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
  note?: string;
  /** The run's style when its size sizes the line (text and fields, as largestRun counts them). */
  sizing?: RunStyle;
  picture?: Extract<Inline, { kind: 'image' }>;
  /** A tab's run and its stop's leader character (drawn across the gap). */
  leader?: string;
  kerns?: number[];
}

const NO_LOOK: Look = { rise: 0 };

/** The characters of a run as written: ligatures as their letters (the faces do not map them), capitals when asked. */
function written(text: string, style: RunStyle): string {
  const letters = /[\ufb00-\ufb04]/.test(text) ? text.replace(/[\ufb00-\ufb04]/g, (ch) => LIGATURE_LETTERS[ch]!) : text;
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
function fragmentsOf(p: Paragraph, ctx: LineContext): Fragment[] {
  const out: Fragment[] = [];
  const list = p.props.list;
  const items: Inline[] = list
    ? [{ kind: 'text', text: list.label, style: list.style }, ...(list.suffix === 'tab' ? [{ kind: 'tab', style: list.style } as Inline] : list.suffix === 'space' ? [{ kind: 'text', text: ' ', style: list.style } as Inline] : []), ...p.inlines]
    : p.inlines;
  const { fonts } = ctx;
  const text = (t: string, style: RunStyle, note?: string, sizing: RunStyle | undefined = style) => {
    const run = resolveRun(style, ctx);
    const look = lookOf(style, ctx.defaultSize);
    let start = 0;
    // The family drawing the current piece, its face and advances, and the piece's width so far (em).
    let family = run.family;
    let font = fonts.face(family, run.bold, run.italic);
    let table = fonts.advanceTable(family, run.bold, run.italic);
    let em = 0;
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
      out.push({ kind: 'text', text: t.slice(start, end), width: em * run.size, space: 0, spaces: 0, font, size: run.size, family, run, look, breakAfter, note, kerns, sizing });
      start = end;
      em = 0;
      kerns = undefined;
      previous = -1;
    };
    const advance = (cp: number) => {
      const a = cp < 0x10000 ? table[cp]! : NaN;
      return a === a ? a : fonts.advanceOf(table, family, run.bold, run.italic, cp);
    };
    const coverage = fonts.coverageTable(run.family);
    for (let i = 0; i < t.length; ) {
      let cp = t.charCodeAt(i);
      if (cp === 32) {
        // Spaces run together after the text before them (a line breaks after the last).
        let j = i;
        while (t.charCodeAt(j) === 32) j++;
        const space = fonts.advanceTable(run.family, run.bold, run.italic)[32]! || fonts.measure(' ', run.family, run.bold, run.italic, 1);
        const last = out.at(-1);
        push(i, true);
        const host = start === i && out.at(-1) !== last ? out.at(-1)! : undefined;
        if (host) {
          host.space = space * (j - i) * run.size;
          host.spaces = j - i;
        } else {
          // Spaces that open the run: a fragment of no text.
          out.push({ kind: 'text', text: '', width: 0, space: space * (j - i) * run.size, spaces: j - i, font, size: run.size, family: run.family, run, look, breakAfter: true, sizing });
        }
        start = i = j;
        previous = -1;
        continue;
      }
      if (cp >= 0xd800 && cp < 0xdc00) cp = t.codePointAt(i)!;
      const fam = cp < 0x80 || (cp < 0x10000 && coverage[cp] === 1) ? run.family : fonts.familyFor(run.family, cp);
      if (fam !== family) {
        push(i, false);
        use(fam);
      }
      if (kerning) {
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
  for (const it of items) {
    switch (it.kind) {
      case 'text':
        if (list && it.style === list.style) {
          // The list label and the space after it: not counted in the line's size (largestRun leaves them out).
          if (!it.style.hidden && it.text) text(written(it.text, it.style), it.style, undefined, undefined);
          break;
        }
        if (!it.style.hidden && it.text) text(written(it.text.includes('\u00ad') ? it.text.replace(/\u00ad/g, '') : it.text, it.style), it.style);
        break;
      case 'field':
        text(ctx.fields[it.field] ?? '1', it.style);
        break;
      case 'noteRef':
        text(it.label, { ...it.style, vertAlign: 'superscript' }, it.id, undefined);
        break;
      case 'tab': {
        const run = resolveRun(it.style, ctx);
        out.push({ kind: 'tab', text: '', width: 0, space: 0, spaces: 0, size: run.size, run, family: run.family, look: lookOf(it.style, ctx.defaultSize), breakAfter: true });
        break;
      }
      case 'break':
        if (it.type === 'line') out.push({ kind: 'break', text: '', width: 0, space: 0, spaces: 0, size: 0, look: NO_LOOK, breakAfter: true });
        break;
      case 'image': {
        out.push({ kind: 'picture', text: '', width: it.width, space: 0, spaces: 0, size: 0, look: NO_LOOK, breakAfter: true, picture: it });
        break;
      }
    }
  }
  return out;
}

/** The paragraph's lines broken to fit `width` (the column), as Word breaks them: after spaces and hyphens. */
export function paragraphLines(p: Paragraph, width: number, ctx: LineContext): Line[] {
  const props = p.props;
  const indentLeft = props.indentLeft ?? 0;
  const firstLine = props.firstLine ?? 0;
  const right = width - (props.indentRight ?? 0);
  const tabs = props.tabs ?? [];
  const boxContext = { fonts: ctx.fonts, defaultFont: ctx.defaultFont, defaultSize: ctx.defaultSize, noLeading: ctx.noLeading } as Parameters<typeof lineBox>[1];
  const box = lineBox(p, boxContext);
  const size = largestRun(p, ctx).size;
  const baseline = 0.8 * size + (box.height - size) / 2 - box.raise;
  const proportional = props.line?.rule === 'auto' && props.line.value > 1;
  const trailing = proportional ? Math.max(0, box.height - lineBox({ ...p, props: { ...props, line: undefined } }, boxContext).height) : 0;
  /** The line box of a line whose largest text is in `style` (the paragraph's props otherwise). */
  const lineBoxOf = (style: RunStyle) => {
    const alone: Paragraph = { kind: 'paragraph', props: { ...props, markStyle: style }, inlines: [{ kind: 'text', text: 'x', style }] };
    const b = lineBox(alone, boxContext);
    const s = largestRun(alone, ctx).size;
    const t = proportional ? Math.max(0, b.height - lineBox({ ...alone, props: { ...alone.props, line: undefined } }, boxContext).height) : 0;
    return { height: b.height, baseline: 0.8 * s + (b.height - s) / 2 - b.raise, trailing: t };
  };
  const shade = props.shading && props.shading !== 'auto' ? { color: props.shading, width } : undefined;
  const frags = fragmentsOf(p, ctx);
  const lines: Line[] = [];
  /** A line of placed fragments: aligned (or justified, unless `last`), its text, pictures and notes gathered. */
  const lineOf = (placed: { f: Fragment; x: number; width: number }[], last: boolean, start: number): Line => {
    // The spaces after the line's last fragment hang past the margin: they take no room in the alignment.
    const n = placed.length;
    const used = n ? placed[n - 1]!.x + placed[n - 1]!.width : start;
    const extra = right - used;
    const align = props.align ?? 'left';
    /** Extra width of each space (justified lines), and from which fragment on spaces widen (after the last tab). */
    let each = 0;
    let from = 0;
    if (extra > 0.01 && (align === 'center' || align === 'right')) {
      const shift = align === 'center' ? extra / 2 : extra;
      for (const q of placed) q.x += shift;
    } else if (extra > 0.01 && align === 'justify' && !last) {
      for (let k = 0; k < n; k++) if (placed[k]!.f.kind === 'tab') from = k + 1;
      let spaces = 0;
      for (let k = from; k < n - 1; k++) spaces += placed[k]!.f.spaces;
      if (spaces) {
        each = extra / spaces;
        let shift = 0;
        for (let k = from; k < n; k++) {
          placed[k]!.x += shift;
          shift += each * placed[k]!.f.spaces;
        }
      }
    }
    // Each line is as tall as its own largest text, as in Word and LibreOffice (MuPDF sizes a
    // paragraph's lines alike): a line without the paragraph's one large run is shorter.
    let sizing: RunStyle | undefined;
    let largest = -1;
    for (const { f } of placed) {
      if (!f.sizing || !f.text) continue;
      const full = f.sizing.size ?? ctx.defaultSize;
      if (full > largest) {
        largest = full;
        sizing = f.sizing;
      }
    }
    const own = sizing && largest < size - 0.01 ? lineBoxOf(sizing) : undefined;
    const line: Line = own ? { height: own.height, baseline: own.baseline, trailing: own.trailing, texts: [], pictures: [], notes: [] } : { height: box.height, baseline, trailing, texts: [], pictures: [], notes: [] };
    if (shade) line.shade = shade;
    for (let k = 0; k < n; k++) {
      const { f, x, width: w } = placed[k]!;
      if (f.note) line.notes.push(f.note);
      if (f.kind === 'picture') {
        const pic = f.picture!;
        const h = pic.width > 0 ? (pic.height * w) / pic.width : pic.height;
        line.pictures.push({ data: pic.data, contentType: pic.contentType, x, width: w, height: h });
        // A picture taller than the text above the baseline makes its line taller, as in Word.
        if (h > line.baseline) {
          line.height += h - line.baseline;
          line.baseline = h;
        }
      } else if (f.kind === 'text') {
        // Underlines, highlights and links run on through the spaces after the text, but for the line's last.
        const look = f.look;
        const through = k < n - 1 && (look.underline || look.strike || look.highlight || look.link) ? f.space + (k >= from ? each * f.spaces : 0) : 0;
        if (f.text || through) line.texts.push({ font: f.font!, size: f.size, text: f.text, x, width: w, span: w + through, look, kerns: f.kerns });
      } else if (f.kind === 'tab' && f.leader && f.run) {
        const dot = ctx.fonts.measure(f.leader, f.run.family, f.run.bold, f.run.italic, f.run.size);
        const count = dot > 0 ? Math.floor((w - 0.5) / dot) : 0;
        const font = ctx.fonts.face(f.run.family, f.run.bold, f.run.italic);
        // The leader ends at the text after it, as Word and LibreOffice draw it.
        if (count > 0 && font) line.texts.push({ font, size: f.run.size, text: f.leader.repeat(count), x: x + w - count * dot, width: count * dot, span: count * dot, look: { ...f.look, underline: false } });
      }
    }
    return line;
  };

  let i = 0;
  let first = true;
  while (i < frags.length || first) {
    const start = first ? indentLeft + firstLine : indentLeft;
    let x = start;
    const placed: { f: Fragment; x: number; width: number }[] = [];
    let ended: 'break' | 'end' | 'wrap' = 'end';
    while (i < frags.length) {
      const f = frags[i]!;
      if (f.kind === 'break') {
        i++;
        ended = 'break';
        break;
      }
      if (f.kind === 'tab') {
        const w = tabWidth(frags, i, x, right, tabs, indentLeft, firstLine, ctx);
        placed.push({ f: { ...f, leader: w.leader }, x, width: w.width });
        x += w.width;
        i++;
        continue;
      }
      // The fragments up to the next place a line may break: placed together or not at all.
      let j = i;
      let w = 0;
      let visible = 0;
      for (; j < frags.length; j++) {
        const g = frags[j]!;
        if (g.kind === 'tab' || g.kind === 'break') break;
        const gw = g.kind === 'picture' ? Math.min(g.width, right - indentLeft) : g.width;
        if (gw > 0 || g.text) visible = w + gw;
        w += gw + g.space;
        if (g.breakAfter) {
          j++;
          break;
        }
      }
      if (placed.length && x + visible > right + 0.01) {
        ended = 'wrap';
        break;
      }
      if (!placed.length && x + visible > right + 0.01 && j - i === 1 && frags[i]!.kind === 'text' && frags[i]!.text.length > 1) {
        // A word longer than the line: cut where it stops fitting, as Word does.
        const cut = cutToFit(frags[i]!, right - x, ctx);
        if (cut) {
          frags.splice(i, 1, cut[0], cut[1]);
          placed.push({ f: cut[0], x, width: cut[0].width });
          x += cut[0].width;
          i++;
          ended = 'wrap';
          break;
        }
      }
      for (let k = i; k < j; k++) {
        const g = frags[k]!;
        const gw = g.kind === 'picture' ? Math.min(g.width, right - indentLeft) : g.width;
        placed.push({ f: g, x, width: gw });
        x += gw + g.space;
      }
      i = j;
    }
    lines.push(lineOf(placed, ended !== 'wrap', start));
    first = false;
    if (ended === 'end' && i >= frags.length) break;
  }
  return lines;
}

/** A text fragment cut into the characters that fit `room` and the rest (at least one character goes first). */
function cutToFit(f: Fragment, room: number, ctx: LineContext): [Fragment, Fragment] | undefined {
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
    { ...f, text: head, width: w, space: 0, spaces: 0, breakAfter: true, kerns: undefined },
    { ...f, text: tail, width: f.width - w, kerns: undefined },
  ];
}

/** The gap a tab at `x` makes up to its stop: right, centre and decimal stops align the text after it (to the next tab or break). */
function tabWidth(frags: Fragment[], at: number, x: number, right: number, tabs: NonNullable<Paragraph['props']['tabs']>, indentLeft: number, firstLine: number, ctx: LineContext): { width: number; leader?: string } {
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
