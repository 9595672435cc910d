/**
 * A line of the line breaker (paragraph-lines.ts) put together from the fragments placed on it:
 * aligned or justified, in visual order, as tall as its own largest text, its texts, pictures, tab
 * leaders and notes gathered.
 */
import type { LineFace, ParagraphBlock } from './model';
import { largestFace, lineBoxOf } from './line-box';
import type { Fragment } from './fragments';
import type { Line, LineContext, PlacedText } from './paragraph-lines';

/** A fragment placed on the line being built: x from the column's left edge. */
export interface Placed {
  f: Fragment;
  x: number;
  width: number;
}

/** A line's height, its baseline's distance from its top, and the space below its text that may hang past a page's foot. */
type LineSize = Pick<Line, 'height' | 'baseline' | 'trailing'>;

export class LineBuilder {
  /** Proportional spacing (1.15, double): the space it adds below a single line trails (Line.trailing). */
  private readonly proportional: boolean;
  /** The paragraph's line size (by its largest text), and that text's size. */
  private readonly sized: LineSize;
  private readonly size: number;
  private readonly shade?: { color: string; width: number };

  constructor(
    private readonly p: ParagraphBlock,
    private readonly width: number,
    private readonly right: number,
    /** Text of both directions, or a right-to-left paragraph: lines are laid out from their start and put in visual order. */
    private readonly bidi: boolean,
    private readonly ctx: LineContext,
  ) {
    const props = p.props;
    this.proportional = props.line?.rule === 'auto' && props.line.value > 1 && !ctx.spacingAbove;
    const largest = largestFace(p);
    this.sized = this.sizeOf(largest);
    this.size = largest.size;
    this.shade = props.shading && props.shading !== 'auto' ? { color: props.shading, width } : undefined;
  }

  /** The line size of a line whose largest text is in `face`, with the paragraph's spacing: its line box, its baseline, and what trails. */
  private sizeOf(face: LineFace): LineSize {
    const b = lineBoxOf(face, this.p.props.line, this.ctx);
    const s = face.size;
    const trailing = this.proportional ? Math.max(0, b.height - lineBoxOf(face, undefined, this.ctx).height) : 0;
    return { height: b.height, baseline: 0.8 * s + (b.height - s) / 2 - b.raise, trailing };
  }

  /** A line of placed fragments: aligned (or justified, unless `last`), its text, pictures and notes gathered. */
  line(placed: Placed[], last: boolean, start: number): Line {
    const spacing = this.align(placed, last, start);
    if (this.bidi) orderVisually(placed, this.width, !!this.p.props.bidi);
    const line = this.emptyLine(placed);
    if (this.shade) line.shade = this.shade;
    this.fill(line, placed, spacing);
    return line;
  }

  /**
   * Centres, right-aligns or justifies the placed fragments in the room left on the line. Returns
   * the extra width of each space (justified lines), and from which fragment on spaces widen (after the last tab).
   */
  private align(placed: Placed[], last: boolean, start: number): { each: number; from: number } {
    // The spaces after the line's last fragment hang past the margin: they take no room in the alignment.
    const n = placed.length;
    const used = n ? placed[n - 1]!.x + placed[n - 1]!.width : start;
    const extra = this.right - used;
    const align = this.p.props.align ?? 'left';
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
    return { each, from };
  }

  /**
   * Each line is as tall as its own largest text, as in Word and LibreOffice (MuPDF sizes a
   * paragraph's lines alike): a line without the paragraph's one large run is shorter.
   */
  private emptyLine(placed: Placed[]): Line {
    let sizing: LineFace | undefined;
    let largest = -1;
    for (const { f } of placed) {
      if (!f.sizing || !f.text) continue;
      const full = f.sizing.size;
      if (full > largest) {
        largest = full;
        sizing = f.sizing;
      }
    }
    const own = sizing && largest < this.size - 0.01 ? this.sizeOf(sizing) : this.sized;
    return { height: own.height, baseline: own.baseline, trailing: own.trailing, texts: [], pictures: [], notes: [] };
  }

  /** The line's notes, pictures (a tall one makes the line taller), texts and tab leaders. */
  private fill(line: Line, placed: Placed[], { each, from }: { each: number; from: number }): void {
    const n = placed.length;
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
      } else if (f.kind === 'tab' && f.leader && f.run) this.leader(line, f, x, w);
    }
  }

  /** A tab's leader dots across its gap, ending at the text after it, as Word and LibreOffice draw it. */
  private leader(line: Line, f: Fragment, x: number, w: number): void {
    const run = f.run!;
    const dot = this.ctx.fonts.measure(f.leader!, run.family, run.bold, run.italic, run.size);
    const count = dot > 0 ? Math.floor((w - 0.5) / dot) : 0;
    const font = this.ctx.fonts.face(run.family, run.bold, run.italic);
    if (count > 0 && font) line.texts.push({ font, size: run.size, text: f.leader!.repeat(count), x: x + w - count * dot, width: count * dot, span: count * dot, look: { ...f.look, underline: false } });
  }
}

/**
 * A line laid out in logical order from its start edge, put in visual order (rule L2): a
 * right-to-left paragraph's line is mirrored in the column (its start, indents, tab stops and
 * alignment on the right), and from the highest level down, each stretch at that level or above
 * is turned around within the room it takes. Fragments of text carry their level; tabs and
 * pictures are at the paragraph's.
 */
function orderVisually(placed: Placed[], width: number, rtl: boolean): void {
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
