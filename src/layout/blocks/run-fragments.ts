/**
 * A run of text cut into fragments for the line breaker (fragments.ts): where its family lacks a
 * glyph (the fallback face draws those characters), where its direction changes, and after each
 * space and hyphen, where a line may break; each measured by its face's advances and pair kerning.
 */
import type * as Mupdf from 'mupdf';
import type { Family } from '../../fonts/catalog';
import { slotOf, type FontBook } from '../text/font-book';
import type { Look, RunFace, TextStyle } from './model';
import type { Fragment } from './fragments';
import type { LineContext } from './paragraph-lines';

/** One run being cut: the piece being measured (from `start`), in the family that draws it. */
export class RunFragments {
  private readonly fonts: FontBook;
  private readonly run: RunFace;
  private readonly look: Look;
  /** The face the run sizes its line with, when it does. */
  private readonly sizing: TextStyle['sizes'];
  private start = 0;
  // The family drawing the current piece, its face and advances, and the piece's width so far (em).
  private family: Family;
  private font: Mupdf.Font | undefined;
  private table: Float32Array;
  private em = 0;
  /** A space's advance in the run's own face. */
  private spaceEm: number | undefined;
  /** Pair kerning where the run asks for it (RunFace.kern): within a word, as MuPDF shapes words. */
  private kerning: ReturnType<FontBook['kerning']>;
  private kerns: number[] | undefined;
  /** Glyph id of the last character of the piece. */
  private previous = -1;

  /**
   * `out`: the paragraph's fragments so far, which this run's are added to; `levels`: every
   * character's bidirectional level in the paragraph, the run's text from `offset` on.
   */
  constructor(
    private readonly out: Fragment[],
    private readonly t: string,
    style: TextStyle,
    ctx: LineContext,
    private readonly levels: Uint8Array | undefined,
    private readonly offset: number,
    private readonly note: string | undefined,
  ) {
    this.fonts = ctx.fonts;
    const run = (this.run = style.face);
    this.sizing = style.sizes;
    this.look = style.look;
    this.family = run.family;
    this.font = this.fonts.face(run.family, run.bold, run.italic);
    this.table = this.fonts.advanceTable(run.family, run.bold, run.italic);
    this.kerning = run.kern ? this.fonts.kerning(run.family, run.bold, run.italic) : undefined;
  }

  /** Cuts the whole run, adding its fragments to `out`. */
  cut(): void {
    const { t, run, fonts, levels, offset } = this;
    const coverage = fonts.coverageTable(run.family);
    for (let i = 0; i < t.length; ) {
      let cp = t.charCodeAt(i);
      if (cp === 32) {
        i = this.spaces(i);
        continue;
      }
      if (cp >= 0xd800 && cp < 0xdc00) cp = t.codePointAt(i)!;
      const fam = cp < 0x80 || coverage[slotOf(cp)] === 1 ? run.family : fonts.familyFor(run.family, cp);
      if (fam !== this.family) {
        this.push(i, false);
        this.use(fam);
      }
      // Text of another direction starts a fragment of its own (a line turns it around whole).
      if (levels && i > this.start && levels[offset + i] !== levels[offset + this.start]) this.push(i, false);
      // Pairs are kerned in drawing order: not in right-to-left text, drawn reversed.
      if (this.kerning && !(levels && levels[offset + i]! & 1)) this.kern(i, cp);
      this.em += this.advance(cp);
      i += cp > 0xffff ? 2 : 1;
      if (cp === 0x2d || cp === 0x2010) this.push(i, true);
    }
    this.push(t.length, false);
    if (this.note) this.out[this.out.length - 1]!.note = this.note;
  }

  /** The piece up to `end` as a fragment (if it holds anything); the next starts there. */
  private push(end: number, breakAfter: boolean): void {
    if (end <= this.start) return;
    const { run } = this;
    this.out.push({ kind: 'text', text: this.t.slice(this.start, end), width: this.em * run.size, space: 0, spaces: 0, x: 0, span: 0, font: this.font, size: run.size, family: this.family, run, look: this.look, breakAfter, note: this.note, kerns: this.kerns, sizing: this.sizing, level: this.levels?.[this.offset + this.start] });
    this.start = end;
    this.em = 0;
    this.kerns = undefined;
    this.previous = -1;
  }

  /** The pieces after this are drawn by family `fam`. */
  private use(fam: Family): void {
    const { run } = this;
    this.family = fam;
    this.font = this.fonts.face(fam, run.bold, run.italic);
    this.table = this.fonts.advanceTable(fam, run.bold, run.italic);
    if (run.kern) this.kerning = this.fonts.kerning(fam, run.bold, run.italic);
  }

  /** Spaces run together after the text before them (a line breaks after the last): returns where they end. */
  private spaces(i: number): number {
    const { t, run } = this;
    let j = i;
    while (t.charCodeAt(j) === 32) j++;
    this.spaceEm ??= this.fonts.measure(' ', run.family, run.bold, run.italic, 1);
    const space = this.spaceEm;
    const last = this.out.at(-1);
    this.push(i, true);
    const host = this.start === i && this.out.at(-1) !== last ? this.out.at(-1)! : undefined;
    if (host) {
      host.space = space * (j - i) * run.size;
      host.spaces = j - i;
    } else {
      // Spaces that open the run: a fragment of no text.
      this.out.push({ kind: 'text', text: '', width: 0, space: space * (j - i) * run.size, spaces: j - i, x: 0, span: 0, font: this.font, size: run.size, family: run.family, run, look: this.look, breakAfter: true, sizing: this.sizing, level: this.levels?.[this.offset + i] });
    }
    this.start = j;
    this.previous = -1;
    return j;
  }

  /** The kerning between the piece's last character and `cp`, at `i`. */
  private kern(i: number, cp: number): void {
    const { run } = this;
    const gid = this.fonts.glyphId(this.family, run.bold, run.italic, cp);
    const k = this.previous >= 0 ? this.kerning!.pair(this.previous, gid) : 0;
    if (k) {
      this.em += k;
      (this.kerns ??= []).push(i - this.start, k);
    }
    this.previous = gid;
  }

  private advance(cp: number): number {
    const slot = slotOf(cp);
    const a = slot >= 0 ? this.table[slot]! : NaN;
    return a === a ? a : this.fonts.advanceOf(this.table, this.family, this.run.bold, this.run.italic, cp);
  }
}
