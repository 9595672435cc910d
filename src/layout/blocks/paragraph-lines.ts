/** The line breaker: a paragraph broken into lines as Word and LibreOffice break them, and the shapes of what the lines hold. */
import type * as Mupdf from 'mupdf';
import type { Crop, FieldName, Look, ParagraphBlock } from './model';
import type { FontBook } from '../text/font-book';
import { cutToFit, fragmentsOf, tabWidth, type Fragment } from './fragments';
import { LineBuilder, type Placed } from './line-assembly';

/** What the line breaker needs of a conversion: the faces, whether single lines leave out the faces' line gap, and the field values. */
export interface LineContext {
  fonts: FontBook;
  noLeading?: boolean;
  /** Drawing text's line spacing (line-box.ts). */
  spacingAbove?: boolean;
  fontIndependentLines?: boolean;
  fields: Partial<Record<FieldName, string>>;
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
  /** Bidirectional level: odd for right-to-left text, whose glyphs are drawn in reverse (layout/text/bidi.ts visualOrder, applied by layout/display/draw-lines.ts). */
  level?: number;
}

/** An inline picture on its line: its bottom on the baseline. */
export interface PlacedPicture {
  data: Uint8Array;
  contentType: string;
  crop?: Crop;
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
export function paragraphLines(p: ParagraphBlock, width: number, ctx: LineContext): Line[] {
  const props = p.props;
  const indentLeft = props.indentLeft ?? 0;
  const firstLine = props.firstLine ?? 0;
  const right = width - (props.indentRight ?? 0);
  const tabs = props.tabs ?? [];
  const frags = fragmentsOf(p, ctx);
  const builder = new LineBuilder(p, width, right, !!props.bidi || frags.some((f) => f.level), ctx);
  const lines: Line[] = [];
  let i = 0;
  let first = true;
  while (i < frags.length || first) {
    const start = first ? indentLeft + firstLine : indentLeft;
    let x = start;
    const placed: Placed[] = [];
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
      const { end: j, visible } = breakGroup(frags, i, right - indentLeft);
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
        const gw = placedWidth(g, right - indentLeft);
        placed.push({ f: g, x, width: gw });
        x += gw + g.space;
      }
      i = j;
    }
    lines.push(builder.line(placed, ended !== 'wrap', start));
    first = false;
    if (ended === 'end' && i >= frags.length) break;
  }
  return lines;
}

/** A fragment's width on the line: a picture no wider than the room between the indents (`room`). */
const placedWidth = (g: Fragment, room: number): number => (g.kind === 'picture' ? Math.min(g.width, room) : g.width);

/**
 * The fragments from `i` up to the next place a line may break, placed together or not at all:
 * where they end, and the width they show (the spaces after the last left out).
 */
function breakGroup(frags: Fragment[], i: number, room: number): { end: number; visible: number } {
  let j = i;
  let w = 0;
  let visible = 0;
  for (; j < frags.length; j++) {
    const g = frags[j]!;
    if (g.kind === 'tab' || g.kind === 'break') break;
    const gw = placedWidth(g, room);
    if (gw > 0 || g.text) visible = w + gw;
    w += gw + g.space;
    if (g.breakAfter) {
      j++;
      break;
    }
  }
  return { end: j, visible };
}
