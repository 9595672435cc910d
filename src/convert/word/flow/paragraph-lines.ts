import type * as Mupdf from 'mupdf';
import type { Paragraph, PictureCrop, RunStyle } from '../model/index';
import type { FontBook } from '../../../layout/text/font-book';
import { largestRun } from '../rules/runs';
import { lineBox } from '../rules/line-box';
import { cutToFit, fragmentsOf, tabWidth, type Fragment } from './fragments';

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
  /** Bidirectional level: odd for right-to-left text, whose glyphs are drawn in reverse (flow/bidi.ts visualOrder). */
  level?: number;
}

/** An inline picture on its line: its bottom on the baseline. */
export interface PlacedPicture {
  data: Uint8Array;
  contentType: string;
  crop?: PictureCrop;
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

/** The paragraph's lines broken to fit `width` (the column), as Word breaks them: after spaces and hyphens. */
export function paragraphLines(p: Paragraph, width: number, ctx: LineContext): Line[] {
  const props = p.props;
  const indentLeft = props.indentLeft ?? 0;
  const firstLine = props.firstLine ?? 0;
  const right = width - (props.indentRight ?? 0);
  const tabs = props.tabs ?? [];
  const boxContext = { fonts: ctx.fonts, defaultFont: ctx.defaultFont, defaultSize: ctx.defaultSize, noLeading: ctx.noLeading };
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
  /** Text of both directions, or a right-to-left paragraph: lines are laid out from their start and put in visual order. */
  const bidi = !!props.bidi || frags.some((f) => f.level);
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
    if (bidi) orderVisually(placed, width, !!props.bidi);
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
        line.pictures.push({ data: pic.data, contentType: pic.contentType, crop: pic.crop, x, width: w, height: h });
        // A picture taller than the text above the baseline makes its line taller, as in Word.
        if (h > line.baseline) {
          line.height += h - line.baseline;
          line.baseline = h;
        }
      } else if (f.kind === 'text') {
        // Underlines, highlights and links run on through the spaces after the text, but for the line's last.
        const look = f.look;
        const through = k < n - 1 && (look.underline || look.strike || look.highlight || look.link) ? f.space + (k >= from ? each * f.spaces : 0) : 0;
        if (f.text || through) {
          f.x = x;
          f.span = w + through;
          line.texts.push(f as PlacedText);
        }
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

/**
 * A line laid out in logical order from its start edge, put in visual order (rule L2): a
 * right-to-left paragraph's line is mirrored in the column (its start, indents, tab stops and
 * alignment on the right), and from the highest level down, each stretch at that level or above
 * is turned around within the room it takes. Fragments of text carry their level; tabs and
 * pictures are at the paragraph's.
 */
function orderVisually(placed: { f: Fragment; x: number; width: number }[], width: number, rtl: boolean): void {
  const base = rtl ? 1 : 0;
  const levelOf = (q: { f: Fragment }) => (q.f.kind === 'text' ? (q.f.level ?? base) : base);
  if (rtl) for (const q of placed) q.x = width - q.x - q.width;
  let highest = base;
  for (const q of placed) highest = Math.max(highest, levelOf(q));
  for (let level = highest; level > base; level--) {
    for (let k = 0; k < placed.length; ) {
      if (levelOf(placed[k]!) < level) {
        k++;
        continue;
      }
      let j = k;
      while (j < placed.length && levelOf(placed[j]!) >= level) j++;
      let lo = Infinity;
      let hi = -Infinity;
      for (let m = k; m < j; m++) {
        lo = Math.min(lo, placed[m]!.x);
        hi = Math.max(hi, placed[m]!.x + placed[m]!.width);
      }
      for (let m = k; m < j; m++) placed[m]!.x = lo + hi - placed[m]!.x - placed[m]!.width;
      k = j;
    }
  }
}
