/**
 * Placed lines as a display list (contracts/display.ts), in the order they are
 * painted: each line's text, its links and its inline pictures, then paragraph shading,
 * highlights, and underlines and strike-throughs over them. Layout's last step: paint draws the
 * list (paint/display-painter.ts).
 */
import type * as Mupdf from 'mupdf';
import type { DisplayItem, FilledBox, ShownText } from '../../contracts/display';
import { visualOrder } from '../text/bidi';
import type { ParagraphBlock } from '../blocks/model';
import type { PlacedLine } from '../blocks/paragraph-stack';
import type { PlacedText } from '../blocks/paragraph-lines';

type Box = Omit<FilledBox, 'kind'>;
const filled = (boxes: Box[]): FilledBox[] => boxes.map((b) => ({ kind: 'fill', ...b }));

/** The text of a placed piece as paint shows it: right-to-left text in drawing order (its kerning is left out: blocks/fragments.ts). */
const shownText = (t: PlacedText): ShownText => ({ font: t.font, size: t.size, text: t.level && t.level & 1 ? visualOrder(t.text) : t.text, width: t.width, color: t.look.color, kerns: t.kerns });

/**
 * Laid-out lines with their top-left at (`areaLeft`, `top`). Links of one target on one line are
 * one link. `paragraphAt` hears where each paragraph's first line landed (headings, bookmarks).
 */
export function displayLines(lines: PlacedLine[], areaLeft: number, top: number, paragraphAt: (p: ParagraphBlock, y: number) => void): DisplayItem[] {
  const items: DisplayItem[] = [];
  const rules: Box[] = [];
  const fills: Box[] = [];
  const shades: Box[] = [];
  for (const { line, y, opens, x: dx } of lines) {
    const lineTop = top + y;
    const left = areaLeft + (dx ?? 0);
    const baseline = lineTop + line.baseline;
    if (opens) paragraphAt(opens, lineTop);
    if (line.shade) shades.push({ x0: left, y0: lineTop, x1: left + line.shade.width, y1: lineTop + line.height, color: line.shade.color });
    let link: { uri: string; rect: Mupdf.Rect } | undefined;
    for (const t of line.texts) {
      const x = left + t.x;
      const look = t.look;
      if (look.highlight) fills.push({ x0: x, y0: lineTop, x1: x + t.span, y1: lineTop + line.height, color: look.highlight });
      if (link && link.uri !== look.link) {
        items.push({ kind: 'link', ...link });
        link = undefined;
      }
      if (look.link) {
        if (link) link.rect[2] = x + t.width;
        else link = { uri: look.link, rect: [x, lineTop, x + t.width, lineTop + line.height] };
        if (t.span > t.width && t !== line.texts.at(-1)) link.rect[2] = x + t.span;
      }
      if (t.text.trim()) items.push({ kind: 'text', text: shownText(t), x, baseline: baseline - look.rise });
      decorate(t, x, baseline, rules);
    }
    if (link) items.push({ kind: 'link', ...link });
    for (const pic of line.pictures) items.push({ kind: 'picture', data: pic.data, contentType: pic.contentType, at: [pic.width, 0, 0, pic.height, left + pic.x, baseline - pic.height], crop: pic.crop });
  }
  return [...items, ...filled(shades), ...filled(fills), ...filled(rules)];
}

/** Underline and strike-through of text, as thin filled rectangles in the text's colour. */
function decorate(t: PlacedText, x: number, baseline: number, rules: Box[]): void {
  const { look, size } = t;
  const thickness = Math.max(0.5, size * 0.05);
  const y = baseline - look.rise;
  if (look.underline) rules.push({ x0: x, y0: y + size * 0.1, x1: x + t.span, y1: y + size * 0.1 + thickness, color: look.color });
  if (look.strike) rules.push({ x0: x, y0: y - size * 0.3, x1: x + t.span, y1: y - size * 0.3 + thickness, color: look.color });
}

/** A black rule (the separator above a page's footnotes) as a filled box. */
export const ruleBox = (x: number, y: number, width: number, thickness: number): FilledBox => ({ kind: 'fill', x0: x, y0: y, x1: x + width, y1: y + thickness });
