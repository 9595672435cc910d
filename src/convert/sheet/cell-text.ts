/**
 * A cell's value as the text a page prints: formatted by its number format (number-format.ts),
 * laid out by layout's own line breaker as a paragraph in the cell's font (fallback faces, bidi
 * and wrapping come with it), aligned as Excel aligns it (text left, numbers right, booleans and
 * errors centred unless the cell says otherwise; at the foot unless it says otherwise), shrunk to
 * fit or repeated to fill when the cell asks, and cut at the edges of the room it may use: its own
 * box, or the empty neighbours an unwrapped text runs into (the caller decides, draw-page.ts).
 */
import { textItems } from '../../layout/blocks/text-items';
import { substituteFamily, type Family } from '../../fonts/catalog';
import type { ParagraphBlock } from '../../layout/blocks/model';
import { paragraphLines, type Line, type LineContext, type PlacedText } from '../../layout/blocks/paragraph-lines';
import type { PlacedLine } from '../../layout/blocks/paragraph-stack';
import type { Cell, CellStyle, Font, Workbook } from './model';
import { formatValue } from './number-format';

/** Room between a cell's edges and its text, points at 100% (Excel's 2 pixels). */
export const PADDING = 1.5;

export type Horizontal = 'left' | 'center' | 'right' | 'justify' | 'fill';

/** What a cell shows, before it is placed. */
export interface CellShown {
  text: string;
  color?: string;
  horizontal: Horizontal;
  /** Numbers never run into their neighbours: they print as #### instead. */
  numeric: boolean;
  /** A number in the General format: shortened to fit its cell before it turns to ####. */
  general?: number;
  /** What an indent level measures (indented cells only): three spaces of the workbook's default font, or a fixed step. */
  indentBy?: { font: Font; step?: number };
}

/**
 * Characters a cell prints at most: Excel's limit for a cell's text. A file may hold more (a 10 MB
 * string); laid out whole, its line boxes took an isolate's heap to 486 MB.
 */
export const CELL_TEXT_MAX = 32_767;

/** The formatted value and its alignment (undefined: the cell shows nothing). */
export function cellShown(cell: Cell, style: CellStyle, workbook: Workbook): CellShown | undefined {
  if (!cell.value) return undefined;
  const formatted = formatValue(cell.value, style.format, workbook.date1904);
  if (!formatted.text) return undefined;
  if (formatted.text.length > CELL_TEXT_MAX) formatted.text = formatted.text.slice(0, CELL_TEXT_MAX);
  const kind = cell.value.kind;
  const natural: Horizontal = kind === 'number' ? 'right' : kind === 'text' ? 'left' : 'center';
  const h = style.horizontal;
  const horizontal: Horizontal = !h || h === 'general' ? natural : h === 'centerContinuous' ? 'center' : h === 'distributed' ? 'justify' : h;
  const general = kind === 'number' && /^\s*general\s*$/i.test(style.format || 'General') ? { general: (cell.value as { value: number }).value } : {};
  return { text: formatted.text, ...(formatted.color ?? style.font.color ? { color: formatted.color ?? style.font.color } : {}), horizontal, numeric: kind === 'number', ...general, ...(style.indent ? { indentBy: { font: workbook.defaultFont, ...(workbook.indentStep ? { step: workbook.indentStep } : {}) } } : {}) };
}

export interface Face {
  family: Family;
  bold: boolean;
  italic: boolean;
  size: number;
}

export const faceOf = (style: CellStyle, zoom: number): Face => ({ family: substituteFamily(style.font.name), bold: !!style.font.bold, italic: !!style.font.italic, size: style.font.size * zoom });

/**
 * How far an indented cell's text moves in: three spaces of the workbook's default font per level,
 * whatever the cell's own font, as LibreOffice imports XLSX (oox's Unit::Space: 7.5 pt a level with
 * Calibri 11, for an 11 and a 25 pt cell alike); its XLS filter's fixed step otherwise.
 */
export function indentOf(shown: CellShown, style: CellStyle, ctx: LineContext, zoom: number): number {
  const by = shown.indentBy;
  if (!style.indent || !by) return 0;
  const step = by.step ?? 3 * ctx.fonts.measure(' ', substituteFamily(by.font.name), !!by.font.bold, !!by.font.italic, by.font.size);
  return style.indent * step * zoom;
}

export function paragraph(text: string, shown: CellShown, style: CellStyle, face: Face, indent: number): ParagraphBlock {
  const font = style.font;
  const look = { rise: 0, ...(shown.color ? { color: shown.color } : {}), ...(font.underline ? { underline: true } : {}), ...(font.strike ? { strike: true } : {}) };
  const align = shown.horizontal === 'fill' ? 'left' : shown.horizontal;
  const indents = indent ? (align === 'right' ? { indentRight: indent } : { indentLeft: indent }) : {};
  return {
    kind: 'paragraph',
    props: { align, markFace: { family: face.family, size: face.size }, ...indents },
    items: textItems(text, { face: { ...face, kern: false }, look, sizes: { family: face.family, size: face.size } }),
  };
}

/** A General number shortened until it fits: fewer decimals, then scientific with fewer digits (undefined: nothing fits). */
export function generalToFit(n: number, fits: (text: string) => boolean): string | undefined {
  const int = Math.trunc(Math.abs(n));
  if (int < 1e11) {
    for (let decimals = 9; decimals >= 0; decimals--) {
      const text = String(Number(n.toFixed(decimals)));
      if (!/e/i.test(text) && fits(text)) return text;
    }
  }
  for (let digits = 5; digits >= 0; digits--) {
    const [mantissa, exponent] = n.toExponential(digits).split('e');
    const e = Number(exponent);
    const text = `${mantissa!.replace(/\.?0+$/, '')}E${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
    if (fits(text)) return text;
  }
  return undefined;
}

/** The box a cell's text is set in (page coordinates relative to the grid's top-left) and the band it may be cut to. */
export interface TextBox {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Where the text may print from and to (its own box, or the empty neighbours it runs into). */
  clip: [number, number];
}

/**
 * The cell's lines placed in `box`: wrapped to the room, or on one line aligned in the room (and
 * running past it as far as the clip lets it), set at the top, centre or foot of the box.
 */
export function placeCellText(shown: CellShown, style: CellStyle, box: TextBox, ctx: LineContext, zoom: number): PlacedLine[] {
  const pad = PADDING * zoom;
  const room = Math.max(1, box.width - 2 * pad);
  let face = faceOf(style, zoom);
  const measure = (t: string, f: Face) => ctx.fonts.measure(t, f.family, f.bold, f.italic, f.size);
  let text = shown.text;
  const wrap = !!style.wrap || shown.horizontal === 'justify';
  if (!wrap && style.shrink) {
    const natural = measure(text, face);
    if (natural > room) face = { ...face, size: Math.max(1, (face.size * room) / natural) };
  }
  if (shown.numeric && !wrap && measure(text, face) > room + 0.01) {
    // A General number is rounded to fit its cell (fewer decimals, then scientific), as both programs show it; otherwise, or when
    // nothing fits, it prints as #### across the cell, as Excel prints it.
    const fits = (t: string) => measure(t, face) <= room + 0.01;
    text = (shown.general !== undefined ? generalToFit(shown.general, fits) : undefined) ?? '#'.repeat(Math.max(1, Math.floor(room / Math.max(0.1, measure('#', face)))));
  } else if (shown.horizontal === 'fill') {
    const once = Math.max(0.1, measure(text, face));
    text = text.repeat(Math.max(1, Math.floor(room / once)));
  }
  const block = paragraph(text, shown, style, face, indentOf(shown, style, ctx, zoom));
  const laid = wrap ? paragraphLines(block, room, ctx) : paragraphLines({ ...block, props: { ...block.props, align: 'left' } }, 100_000, ctx);
  const total = laid.reduce((sum, l) => sum + l.height, 0);
  const vertical = style.vertical ?? 'bottom';
  let top = vertical === 'top' ? box.y + pad / 2 : vertical === 'center' || vertical === 'justify' || vertical === 'distributed' ? box.y + (box.height - total) / 2 : box.y + box.height - total - pad / 2;
  const out: PlacedLine[] = [];
  for (const line of laid) {
    const width = lineWidth(line);
    const align = block.props.align;
    const shift = wrap ? 0 : align === 'right' ? room - width : align === 'center' ? (room - width) / 2 : 0;
    const x = box.x + pad + shift;
    // Wrapped lines taller than the row print above and below it, as LibreOffice prints them; each is cut at the edges the text may reach.
    out.push({ line: clipLine(line, box.clip[0] - x, box.clip[1] - x), y: top, x });
    top += line.height;
  }
  return out;
}

const lineWidth = (line: Line): number => line.texts.reduce((w, t) => Math.max(w, t.x + t.width), 0);

/** A line's pieces cut to [from, to] (line coordinates): pieces outside dropped, a piece across an edge cut to the glyphs within. */
export function clipLine(line: Line, from: number, to: number): Line {
  if (line.texts.every((t) => t.x >= from - 0.01 && t.x + t.width <= to + 0.01)) return line;
  const texts: PlacedText[] = [];
  for (const t of line.texts) {
    if (t.x + t.width <= from || t.x >= to) continue;
    texts.push(cutPiece(t, from, to));
  }
  return { ...line, texts };
}

/** The glyphs of a piece that lie wholly within [from, to]. */
function cutPiece(t: PlacedText, from: number, to: number): PlacedText {
  if (t.x >= from - 0.01 && t.x + t.width <= to + 0.01) return t;
  const chars = [...t.text];
  let x = t.x;
  let start = -1;
  let end = chars.length;
  let startX = t.x;
  let endX = t.x;
  for (let i = 0; i < chars.length; i++) {
    const advance = t.font.advanceGlyph(t.font.encodeCharacter(chars[i]!.codePointAt(0)!), 0) * t.size;
    if (start < 0 && x >= from - 0.01) [start, startX] = [i, x];
    if (x + advance > to + 0.01) {
      end = i;
      break;
    }
    x += advance;
    endX = x;
  }
  if (start < 0 || end <= start) return { ...t, text: '', width: 0, span: 0 };
  const kept = chars.slice(start, end).join('');
  const { kerns: _dropped, ...rest } = t;
  return { ...rest, text: kept, x: startX, width: endX - startX, span: endX - startX };
}

export { textItems };
