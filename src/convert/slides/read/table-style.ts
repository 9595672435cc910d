/**
 * PPTX table styles (a:tableStyleId of a table's a:tblPr): the deck's ppt/tableStyles.xml (an
 * a:tblStyleLst of a:tblStyle by styleId), else PowerPoint's built-ins (table-style-builtins.ts),
 * and what a style gives one cell: its fill, its text's weight, slant, colour and font, and its
 * borders. The parts apply as PowerPoint and LibreOffice (oox tablecell.cxx) apply them, each over
 * the one before where it says something: the whole table, the column bands, the row bands (data
 * rows only: the header and total rows are not banded), the last and first columns, the last and
 * first rows, then the corner cells. The table's flags (firstRow, bandRow...) switch parts on.
 */
import { attr, child, elements, parseXml, textOf, type XmlElement } from '../../../codecs/xml';
import { colorIn, shapeFill } from '../../office/drawing-color';
import type { Package } from '../../office/package';
import type { Theme } from '../../office/theme';
import { BUILT_IN_TABLE_STYLES } from './table-style-builtins';

/** Styles a deck's tableStyles.xml gives at most. */
const STYLES_MAX = 500;
const EMU_PER_POINT = 12_700;
/** Line widths of the theme's line styles by a:lnRef idx (Office themes: 0.75, 2 and 3 pt), points. */
const REF_LINE_WIDTHS = [0, 0.75, 2, 3];

export type TableStyles = ReadonlyMap<string, XmlElement>;
export interface TableLine {
  color: string;
  width: number;
}
type Side = 'left' | 'right' | 'top' | 'bottom';
type Edge = Side | 'insideH' | 'insideV';
export interface TextLook {
  bold?: boolean;
  italic?: boolean;
  color?: string;
  font?: string;
}
/** What a style gives a cell; undefined where it says nothing, null where it says "none". */
export interface CellLook {
  fill?: string | null;
  text: TextLook;
  sides: Partial<Record<Side, TableLine | null>>;
}
/** A style part (a:wholeTbl, a:firstRow...) with its colours resolved through the theme. */
interface StylePart {
  fill?: string | null;
  text: TextLook;
  edges: Partial<Record<Edge, TableLine | null>>;
}
const PARTS = ['wholeTbl', 'band1H', 'band2H', 'band1V', 'band2V', 'firstCol', 'lastCol', 'firstRow', 'lastRow', 'seCell', 'swCell', 'neCell', 'nwCell'] as const;
type PartName = (typeof PARTS)[number];
export type ResolvedStyle = Partial<Record<PartName, StylePart>>;
export type TableFlags = Record<'firstRow' | 'firstCol' | 'lastRow' | 'lastCol' | 'bandRow' | 'bandCol', boolean>;
/** A cell's place on the table's grid: its first and last row and column (spans), of `rows` × `cols`. */
export interface CellPlace {
  row: number;
  col: number;
  lastRow: number;
  lastCol: number;
  rows: number;
  cols: number;
}

/** The deck's table styles, read once per deck however many tables use them. */
const deckStyles = new WeakMap<Package, TableStyles>();

/** The deck's ppt/tableStyles.xml (the presentation's "tableStyles" relationship) by style id, at most STYLES_MAX. */
export function deckTableStyles(pkg: Package): TableStyles {
  const cached = deckStyles.get(pkg);
  if (cached) return cached;
  const styles = new Map<string, XmlElement>();
  const presentation = pkg.relTarget('', '/officeDocument') ?? 'ppt/presentation.xml';
  const path = pkg.relTarget(presentation, '/tableStyles');
  const list = path ? pkg.xml(path) : undefined;
  for (const style of elements(list)) {
    if (styles.size >= STYLES_MAX) break;
    const id = attr(style, 'styleId');
    if (style.name === 'tblStyle' && id && !styles.has(id.toUpperCase())) styles.set(id.toUpperCase(), style);
  }
  deckStyles.set(pkg, styles);
  return styles;
}

/** Built-ins parsed on first use. */
const builtIns = new Map<string, XmlElement>();

/** The style a table names: the deck's own definition, else PowerPoint's built-in of that id; none when it names none. */
export function tableStyleOf(tblPr: XmlElement | undefined, styles: TableStyles): XmlElement | undefined {
  const id = textOf(child(tblPr, 'tableStyleId')).slice(0, 64).trim().toUpperCase();
  if (!id) return undefined;
  const own = styles.get(id);
  if (own) return own;
  const xml = BUILT_IN_TABLE_STYLES.get(id);
  if (!xml) return undefined;
  if (!builtIns.has(id)) builtIns.set(id, parseXml(xml.replace('<a:tblStyle ', '<a:tblStyle xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ')));
  return builtIns.get(id);
}

export function tableFlags(tblPr: XmlElement | undefined): TableFlags {
  const on = (name: string) => attr(tblPr, name) === '1' || attr(tblPr, name) === 'true';
  return { firstRow: on('firstRow'), firstCol: on('firstCol'), lastRow: on('lastRow'), lastCol: on('lastCol'), bandRow: on('bandRow'), bandCol: on('bandCol') };
}

/** A border holder (a:left, a:insideH...): its a:ln (no fill: none) or its a:lnRef to the theme's line styles. */
function edgeLine(holder: XmlElement | undefined, theme: Theme): TableLine | null | undefined {
  if (!holder) return undefined;
  const ln = child(holder, 'ln');
  if (ln) {
    if (!child(ln, 'solidFill')) return null;
    const color = colorIn(child(ln, 'solidFill'), theme);
    const w = Number(attr(ln, 'w') ?? EMU_PER_POINT);
    return color ? { color, width: Number.isFinite(w) ? Math.min(Math.max(w, 0), 254_000) / EMU_PER_POINT : 1 } : null;
  }
  const ref = child(holder, 'lnRef');
  const idx = Math.min(Math.max(Number(attr(ref, 'idx') ?? 0) || 0, 0), 3);
  const color = ref && idx > 0 ? colorIn(ref, theme) : undefined;
  return ref ? (color ? { color, width: REF_LINE_WIDTHS[idx]! } : null) : undefined;
}

const flag = (v: string | undefined) => (v === 'on' ? true : v === 'off' ? false : undefined);

/** A part's text style (a:tcTxStyle): b/i "on" or "off", its colour (else its a:fontRef's), its font. */
function textLook(tcTxStyle: XmlElement | undefined, theme: Theme): TextLook {
  if (!tcTxStyle) return {};
  const fontRef = child(tcTxStyle, 'fontRef');
  const refFont = attr(fontRef, 'idx') === 'major' ? theme.majorFont : attr(fontRef, 'idx') === 'minor' ? theme.minorFont : undefined;
  const look: TextLook = { bold: flag(attr(tcTxStyle, 'b')), italic: flag(attr(tcTxStyle, 'i')), color: colorIn(tcTxStyle, theme) ?? colorIn(fontRef, theme), font: attr(child(child(tcTxStyle, 'font'), 'latin'), 'typeface') ?? refFont };
  return Object.fromEntries(Object.entries(look).filter(([, v]) => v !== undefined));
}

/**
 * A part's cell style (a:tcStyle): its fill (a:fill, or a:fillRef drawn as its colour, which the
 * Office themes' first fill style is) and its borders (a:tcBdr).
 */
function stylePart(part: XmlElement, theme: Theme): StylePart {
  const tcStyle = child(part, 'tcStyle');
  const fillEl = child(tcStyle, 'fill');
  const fillRef = child(tcStyle, 'fillRef');
  const fill = fillEl ? shapeFill(fillEl, undefined, theme) : fillRef ? (colorIn(fillRef, theme) ?? null) : undefined;
  const edges: StylePart['edges'] = {};
  for (const name of ['left', 'right', 'top', 'bottom', 'insideH', 'insideV'] as const) {
    const line = edgeLine(child(child(tcStyle, 'tcBdr'), name), theme);
    if (line !== undefined) edges[name] = line;
  }
  return { ...(fill !== undefined ? { fill } : {}), text: textLook(child(part, 'tcTxStyle'), theme), edges };
}

/** The style's parts with their colours through `theme` (a table's slide's), once per table. */
export function resolveTableStyle(style: XmlElement | undefined, theme: Theme): ResolvedStyle {
  const out: ResolvedStyle = {};
  for (const part of elements(style)) if ((PARTS as readonly string[]).includes(part.name)) out[part.name as PartName] ??= stylePart(part, theme);
  // The table's background (a:tblBg) shows where no part fills a cell.
  const bg = child(style, 'tblBg');
  const bgFill = bg && (child(bg, 'fillRef') ? colorIn(child(bg, 'fillRef'), theme) : shapeFill(bg, undefined, theme));
  if (bgFill && out.wholeTbl?.fill === undefined) out.wholeTbl = { text: {}, edges: {}, ...out.wholeTbl, fill: bgFill };
  return out;
}

/** The parts that apply to a cell, in the order they apply (each over the ones before). */
function partsFor(flags: TableFlags, at: CellPlace): PartName[] {
  const [isFirstRow, isLastRow] = [flags.firstRow && at.row === 0, flags.lastRow && at.lastRow === at.rows - 1];
  const [isFirstCol, isLastCol] = [flags.firstCol && at.col === 0, flags.lastCol && at.lastCol === at.cols - 1];
  const parts: PartName[] = ['wholeTbl'];
  // Bands count from the first data column and row: the first is band 1.
  if (flags.bandCol && !isFirstCol && !isLastCol) parts.push((at.col - (flags.firstCol ? 1 : 0)) % 2 === 0 ? 'band1V' : 'band2V');
  if (flags.bandRow && !isFirstRow && !isLastRow) parts.push((at.row - (flags.firstRow ? 1 : 0)) % 2 === 0 ? 'band1H' : 'band2H');
  if (isLastCol) parts.push('lastCol');
  if (isFirstCol) parts.push('firstCol');
  if (isLastRow) parts.push('lastRow');
  if (isFirstRow) parts.push('firstRow');
  const [top, bottom, left, right] = [at.row === 0, at.lastRow === at.rows - 1, at.col === 0, at.lastCol === at.cols - 1];
  if (bottom && right) parts.push('seCell');
  if (bottom && left) parts.push('swCell');
  if (top && right) parts.push('neCell');
  if (top && left) parts.push('nwCell');
  return parts;
}

/**
 * What the style gives the cell at `at`. The whole table's outer borders (left, right, top, bottom)
 * are the table's edges, other parts' the part's cells' own; inside lines (insideH, insideV) draw
 * the cell's sides within the table where no part gives that side itself.
 */
export function cellLook(style: ResolvedStyle, flags: TableFlags, at: CellPlace): CellLook {
  const look: CellLook = { text: {}, sides: {} };
  const edges: Partial<Record<Edge, TableLine | null>> = {};
  const outer: Record<Side, boolean> = { left: at.col === 0, right: at.lastCol === at.cols - 1, top: at.row === 0, bottom: at.lastRow === at.rows - 1 };
  for (const name of partsFor(flags, at)) {
    const part = style[name];
    if (!part) continue;
    if (part.fill !== undefined) look.fill = part.fill;
    Object.assign(look.text, part.text);
    for (const [edge, line] of Object.entries(part.edges) as [Edge, TableLine | null][]) {
      if (name === 'wholeTbl' && edge in outer && !outer[edge as Side]) continue;
      edges[edge] = line;
    }
  }
  for (const side of ['left', 'right', 'top', 'bottom'] as const) {
    const inside = side === 'left' || side === 'right' ? edges.insideV : edges.insideH;
    const line = edges[side] !== undefined ? edges[side] : outer[side] ? undefined : inside;
    if (line !== undefined) look.sides[side] = line;
  }
  return look;
}
