/**
 * The block model layout lays out: paragraphs of styled runs, tables on a grid, boxes' borders and
 * shading, floats and keeps, in no format's terms. A converter's adapter builds it from its own
 * document model (Word's: convert/word/blocks/to-blocks.ts), every run's face and look resolved
 * by the format's rules; layout breaks lines, stacks paragraphs, lays out table rows and fills
 * pages (layout/pages/) and hands paint a display list (layout/display/).
 */
import type { Family } from '../../fonts/catalog';

/** A face at a size: what sizes a line (its height and baseline, line-box.ts). */
export interface LineFace {
  family: Family;
  size: number;
}

/** The face a run is drawn in, at the size it is drawn (raised and lowered text smaller), pair-kerned or not. */
export interface RunFace extends LineFace {
  bold: boolean;
  italic: boolean;
  kern: boolean;
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

export interface TextStyle {
  face: RunFace;
  look: Look;
  /** The face that sizes the line the text is on (its full size), absent for text that sizes no line (a list label, a note's mark). */
  sizes?: LineFace;
  /** Shown in capitals. */
  upper?: boolean;
}

/** A value known only once pages are laid out: the page's number, the pages in all and in the section. */
export type FieldName = 'PAGE' | 'NUMPAGES' | 'SECTIONPAGES';

/** Where a float sits relative to what it is anchored to, and how the text goes around it. */
export interface FloatAnchor {
  x: number;
  y: number;
  relativeX: 'page' | 'margin' | 'column' | 'character';
  relativeY: 'page' | 'margin' | 'paragraph' | 'line';
  wrap: 'none' | 'square' | 'tight' | 'topAndBottom' | 'behind' | 'inFront';
  alignX?: 'left' | 'center' | 'right';
  alignY?: 'top' | 'center' | 'bottom';
  /** A member of a group: the anchor is the group's, the member `dx`, `dy` from its top-left. */
  inGroup?: { width: number; height: number; dx: number; dy: number };
}

/** The share of each side of a picture cut off. */
export interface Crop {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export type InlineItem =
  /** `note`: the id of the footnote the text calls (its body at the page's foot). */
  | { kind: 'text'; text: string; style: TextStyle; note?: string }
  | { kind: 'field'; field: FieldName; style: TextStyle }
  | { kind: 'tab'; style: TextStyle }
  | { kind: 'break' }
  | { kind: 'picture'; data: Uint8Array; contentType: string; width: number; height: number; crop?: Crop }
  /**
   * A float anchored in the paragraph: drawn where it floats by the converter (its `ref`), taking
   * no room in the lines; the text goes below it where it wraps with no room beside it.
   */
  | { kind: 'float'; ref: number; width: number; height?: number; anchor: FloatAnchor };

export interface Border {
  /** Line width in points (0 = none). */
  width: number;
  style: 'single' | 'double' | 'dotted' | 'dashed' | 'none';
  color: string;
  /** Distance from the text, points (paragraph borders). */
  space?: number;
}

/** Whether a border draws a line (a side with style none or no width draws nothing). */
export function borderShows(b: Border | undefined): b is Border {
  return !!b && b.width > 0 && b.style !== 'none';
}

export interface TabStop {
  pos: number;
  align: 'left' | 'center' | 'right' | 'decimal' | 'clear';
  leader?: 'dot' | 'hyphen' | 'underscore' | 'none';
}

export interface ParagraphStyle {
  align?: 'left' | 'center' | 'right' | 'justify';
  indentLeft?: number;
  indentRight?: number;
  /** Positive: first-line indent; negative: hanging indent. */
  firstLine?: number;
  spaceBefore?: number;
  spaceAfter?: number;
  /** auto: a multiple of single spacing (1.15, 2); exact and atLeast: points. */
  line?: { rule: 'auto' | 'exact' | 'atLeast'; value: number };
  /** Right-to-left: lines run from the right, alignment and indents name the start and end sides. */
  bidi?: boolean;
  /** With `contextualSpacing`: no space between this paragraph and a neighbour of the same style. */
  styleId?: string;
  contextualSpacing?: boolean;
  /** Kept on the page of the block after it; its lines kept on one page; no widow or orphan line. */
  keepNext?: boolean;
  keepLines?: boolean;
  widowControl?: boolean;
  /** Colour (RRGGBB) behind its lines. */
  shading?: string;
  borders?: { top?: Border; bottom?: Border; left?: Border; right?: Border; between?: Border };
  tabs?: TabStop[];
  /** What sizes its lines when it has no text (an empty paragraph's mark). */
  markFace: LineFace;
}

export interface ParagraphBlock {
  kind: 'paragraph';
  props: ParagraphStyle;
  items: InlineItem[];
}

export interface CellBlock {
  blocks: ParagraphBlock[];
  /** Number of grid columns the cell spans. */
  gridSpan: number;
  /** Vertical merge: 'restart' starts a merged cell, 'continue' is covered by the one above. */
  vMerge?: 'restart' | 'continue';
  shading?: string;
  borders: { top?: Border; bottom?: Border; left?: Border; right?: Border };
  vAlign?: 'top' | 'center' | 'bottom';
  /** Room between the cell's edges and its text, points. */
  margins: { top: number; right: number; bottom: number; left: number };
  /** Preferred width, points (where the grid gives none). */
  width?: number;
}

export interface RowBlock {
  cells: CellBlock[];
  /** Repeated at the top of each page the table continues on. */
  header?: boolean;
  height?: { rule: 'atLeast' | 'exact'; value: number };
  /** Moved to the next page whole rather than split. */
  cantSplit?: boolean;
}

export interface TableBlock {
  kind: 'table';
  /** Widths of the grid columns, points. */
  grid: number[];
  rows: RowBlock[];
  align?: 'left' | 'center' | 'right';
  /** Indent from the column's start, points. */
  indent?: number;
  /** Right to left: the first column on the right, alignment and indent from the right. */
  bidiVisual?: boolean;
  /** Not split across pages when it fits on one. */
  keepTogether?: boolean;
}

export type Block = ParagraphBlock | TableBlock;
