/**
 * A drawn shape's ODF text (text:p and text:h, text:list with its items and nested lists) as the
 * Office parts' paragraphs: each span in its text style over its paragraph's over what the shape
 * gives at the paragraph's list level; a list item's first paragraph numbered or bulleted by the
 * level of its list style (text:list-level-style-bullet's character, -number's format, in the
 * label's own font, colour and relative size), its margin and hanging indent from that level's
 * space before and label width (or its label alignment); numbers counted per level across the
 * shape's text, as PowerPoint and Impress count them.
 */
import { attr, child, type XmlElement } from '../../../codecs/xml';
import type { TextParagraph, TextRun } from '../model';
import { autoNumber, BulletNumbers } from '../drawingml/bullets';
import { fontOf, lengthPoints, paragraphText, type StyleSources, type TextLook } from './styles';

/** ODF list levels (text:level 1-10): lists nested deeper print at the tenth. */
const LIST_LEVELS = 10;
const PARAGRAPHS_MAX = 2_000;

/** What the shape gives its text at a list level (1 outside lists): text and paragraph properties, and the list style of lists that name none. */
export interface ShapeText {
  text(level: number): Record<string, string>;
  paragraph(level: number): Record<string, string>;
  listStyle?: XmlElement;
  base: TextLook;
}

/** Text properties over others: a colour of its own clears the window's font colour under it, and the other way round. */
export function over(base: Record<string, string>, own: Record<string, string> | undefined): Record<string, string> {
  const out = { ...base, ...own };
  if (own?.['color'] && !own['use-window-font-color']) delete out['use-window-font-color'];
  if (own?.['use-window-font-color'] === 'true' && !own['color']) delete out['color'];
  return out;
}

/** A style chain's property element (`text-properties`...) merged, the nearest last. */
const merged = (chain: XmlElement[], element: string, base: Record<string, string> = {}) => chain.reduce((out, s) => over(out, child(s, element)?.attrs), base);

const ALIGN: Record<string, TextParagraph['align']> = { start: 'left', left: 'left', center: 'center', end: 'right', right: 'right', justify: 'justify' };
const NUMBER_SCHEMES: Record<string, string> = { '1': 'arabic', a: 'alphaLc', A: 'alphaUc', i: 'romanLc', I: 'romanUc' };
/** Symbol faces LibreOffice names for its own bullets: their characters are ordinary Unicode, printed in the text's face. */
const SYMBOL_FACES = /^(starsymbol|opensymbol)$/i;

/** A list style's level element (text:list-level-style-bullet, -number, -image) for `level`. */
function levelStyle(list: XmlElement | undefined, level: number): XmlElement | undefined {
  for (const c of list?.children ?? []) if (typeof c !== 'string' && Number(attr(c, 'level')) === level) return c;
  return undefined;
}

/** A list level's margin and hanging indent: its label alignment's, else its space before and label width. */
function levelIndents(style: XmlElement | undefined): { margin: number; indent: number } {
  const props = child(style, 'list-level-properties');
  const aligned = child(props, 'list-level-label-alignment');
  if (attr(props, 'list-level-position-and-space-mode') === 'label-alignment' && aligned) {
    return { margin: lengthPoints(attr(aligned, 'margin-left')) ?? 0, indent: lengthPoints(attr(aligned, 'text-indent')) ?? 0 };
  }
  const before = lengthPoints(attr(props, 'space-before')) ?? 0, label = lengthPoints(attr(props, 'min-label-width')) ?? 0;
  return { margin: before + label, indent: -label };
}

/** The label a list level prints before the item's first paragraph, or undefined (an image, a format of none). */
function labelOf(style: XmlElement, sources: StyleSources, level: number, numbers: BulletNumbers, start: number | undefined): TextParagraph['bullet'] {
  let text: string | undefined;
  if (style.name === 'list-level-style-bullet') text = (attr(style, 'bullet-char') ?? '•').slice(0, 4);
  else if (style.name === 'list-level-style-image') text = '•';
  else if (style.name === 'list-level-style-number' && NUMBER_SCHEMES[attr(style, 'num-format') ?? '']) {
    const from = start ?? Math.max(1, Math.min(Number(attr(style, 'start-value') ?? 1) || 1, 32767));
    const n = numbers.next(level - 1, from);
    text = `${attr(style, 'num-prefix') ?? ''}${autoNumber(`${NUMBER_SCHEMES[attr(style, 'num-format')!]}Plain`, n)}${attr(style, 'num-suffix') ?? ''}`;
  }
  if (!text) return undefined;
  const props = child(style, 'text-properties')?.attrs ?? {};
  const face = sources.fontFamily(props);
  const color = props['use-window-font-color'] === 'true' ? undefined : /^#[0-9a-f]{6}$/i.test(props['color'] ?? '') ? props['color']!.slice(1).toUpperCase() : undefined;
  const percent = Number(/^(\d+(?:\.\d+)?)%$/.exec(props['font-size'] ?? attr(style, 'bullet-relative-size') ?? '')?.[1]);
  return { text, ...(face && !SYMBOL_FACES.test(face) ? { font: face } : {}), ...(color ? { color } : {}), ...(percent >= 25 && percent <= 400 && percent !== 100 ? { scale: percent / 100 } : {}) };
}

/** Where a paragraph stands in its lists: its level, its list style, and whether it is its item's first (the one labelled). */
interface ListPlace {
  level: number;
  list?: XmlElement;
  labelled: boolean;
  start?: number;
}

/** Text as fo:text-transform shows it (a title style in capitals keeps its text in mixed case). */
function cased(text: string, transform: string | undefined): string {
  return transform === 'uppercase' ? text.toUpperCase() : transform === 'lowercase' ? text.toLowerCase() : text;
}

/**
 * A paragraph's space above and below (fo:margin-top, fo:margin-bottom) and its line spacing
 * (fo:line-height as a share or a fixed height; style:line-height-at-least as a fixed height, which
 * is what it comes to for one size of text).
 */
function spacingOf(props: Record<string, string>): Pick<TextParagraph, 'spaceBefore' | 'spaceAfter' | 'line'> {
  const out: Pick<TextParagraph, 'spaceBefore' | 'spaceAfter' | 'line'> = {};
  const points = (v: string | undefined) => {
    const n = lengthPoints(v);
    return n !== undefined && n > 0 && n < 2000 ? n : undefined;
  };
  const before = points(props['margin-top']);
  const after = points(props['margin-bottom']);
  if (before) out.spaceBefore = before;
  if (after) out.spaceAfter = after;
  const share = /^(\d+(?:\.\d+)?)%$/.exec(props['line-height'] ?? '')?.[1];
  const fixed = points(props['line-height']) ?? points(props['line-height-at-least']);
  if (share !== undefined && Number(share) > 0 && Number(share) <= 1000) out.line = { rule: 'auto', value: Number(share) / 100 };
  else if (fixed) out.line = { rule: 'exact', value: fixed };
  return out;
}

/** Reads a shape's paragraphs in document order, against one budget of characters. */
class ParagraphReader {
  readonly out: TextParagraph[] = [];
  private readonly numbers = new BulletNumbers();

  constructor(private readonly sources: StyleSources, private readonly look: ShapeText, private readonly budget: { left: number }) {}

  /** The paragraphs and lists among `el`'s children, `place` telling the list they are in. */
  walk(el: XmlElement, place: ListPlace | undefined): void {
    for (const c of el.children) {
      if (typeof c === 'string' || this.out.length >= PARAGRAPHS_MAX || this.budget.left <= 0) continue;
      if (c.name === 'p' || c.name === 'h') this.paragraph(c, place);
      else if (c.name === 'list') {
        const named = this.sources.listStyles.get(attr(c, 'style-name') ?? '');
        const level = Math.min((place?.level ?? 0) + 1, LIST_LEVELS);
        this.walk(c, { level, list: named ?? place?.list ?? this.look.listStyle, labelled: false });
      } else if ((c.name === 'list-item' || c.name === 'list-header') && place) {
        const override = this.sources.listStyles.get(attr(c, 'style-override') ?? '');
        const start = Number(attr(c, 'start-value'));
        this.item(c, { ...place, ...(override ? { list: override } : {}), labelled: c.name === 'list-item', ...(start >= 1 && start <= 32767 ? { start } : {}) });
      }
    }
  }

  /** A list item: its first paragraph labelled, the rest of its paragraphs and its nested lists at its level. */
  private item(el: XmlElement, place: ListPlace): void {
    let first = place.labelled;
    for (const c of el.children) {
      if (typeof c === 'string') continue;
      const isParagraph = c.name === 'p' || c.name === 'h';
      this.walk({ ...el, children: [c] }, { ...place, labelled: first && isParagraph });
      if (isParagraph || c.name === 'list') first = false;
    }
  }

  private paragraph(p: XmlElement, place: ListPlace | undefined): void {
    const level = place?.level ?? 1;
    const pChain = this.sources.chain('paragraph', attr(p, 'style-name'));
    const pText = merged(pChain, 'text-properties', this.look.text(level));
    const pProps = merged(pChain, 'paragraph-properties', this.look.paragraph(level));
    const font = fontOf(this.sources, pText, this.look.base);
    const runs: TextRun[] = [];
    const run = (text: string, props: Record<string, string>) => {
      const f = fontOf(this.sources, props, this.look.base);
      const kept = cased(text.slice(0, this.budget.left), props['text-transform']);
      this.budget.left -= kept.length;
      if (kept) runs.push({ text: kept, font: f.name, size: f.size, color: f.color ?? '000000', ...(f.bold ? { bold: true } : {}), ...(f.italic ? { italic: true } : {}), ...(f.underline ? { underline: true } : {}), ...(f.strike ? { strike: true } : {}) });
    };
    for (const c of p.children) {
      if (typeof c === 'string') run(c, pText);
      else if (c.name === 'span') run(paragraphText(c, this.budget.left), merged(this.sources.chain('text', attr(c, 'style-name')), 'text-properties', pText));
      else run(paragraphText({ ...p, children: [c] }, this.budget.left), pText);
    }
    const paragraph: TextParagraph = { align: ALIGN[pProps['text-align'] ?? 'start'] ?? 'left', runs, size: font.size, font: font.name, ...spacingOf(pProps) };
    const style = place && levelStyle(place.list, level);
    const indents = place ? levelIndents(style) : { margin: 0, indent: lengthPoints(pProps['text-indent']) ?? 0 };
    const margin = indents.margin + (lengthPoints(pProps['margin-left']) ?? 0);
    if (margin > 0 && margin < 2000) paragraph.marginLeft = margin;
    if (indents.indent && Math.abs(indents.indent) < 2000) paragraph.indent = indents.indent;
    // A paragraph without text shows no label (and does not count as a number).
    const hasText = runs.some((r) => r.text.trim());
    const bullet = place?.labelled && style && hasText ? labelOf(style, this.sources, level, this.numbers, place.start) : undefined;
    if (bullet) paragraph.bullet = bullet;
    else if (hasText) this.numbers.reset(level - 1);
    this.out.push(paragraph);
  }
}

/** The shape's paragraphs (none when none has text), at most `budget.left` characters of them. */
export function odfParagraphs(el: XmlElement, sources: StyleSources, look: ShapeText, budget: { left: number }): TextParagraph[] {
  const reader = new ParagraphReader(sources, look, budget);
  reader.walk(el, undefined);
  return reader.out.some((p) => p.runs.length) ? reader.out : [];
}
