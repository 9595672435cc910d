/**
 * The Word document model: what both readers (DOCX in ./docx, DOC in ./doc) produce and the layout
 * (./layout) consumes. Readers resolve everything Word resolves before layout: style inheritance,
 * theme fonts and colours, list numbering (labels are final strings), field results. The layout
 * sees only concrete values.
 *
 * Units: every length is in points (1/72 inch). Colours are 6-digit hex without '#' ("1F3864").
 */
import type { Anchor, PictureCrop, Shape as OfficeShape } from '../../office/model';
export type { FreeformPath, LineEnd, PathOp, PathPart, PictureCrop } from '../../office/model';
export { shownCrop } from '../../office/model';

export interface WordDocument {
  sections: Section[];
  /** Footnote and endnote bodies by the id their reference carries. */
  notes: Map<string, Block[]>;
  /** Font of the document defaults: used where a run names none. */
  defaultFont: string;
  defaultSize: number;
  /**
   * How the space after one paragraph and the space before the next combine: the larger of the two
   * (default; what LibreOffice's renderings of DOCX show) or their sum (its renderings of DOC).
   */
  paragraphSpacing?: 'larger' | 'sum';
  /**
   * Single line height leaves out the font's line gap (external leading): the compatibility option
   * "don't add leading between rows of text" (w:noLeading, Copts80.fNoLeading), which Word and
   * LibreOffice both follow. LibreOffice writes it into every DOCX and DOC it saves.
   */
  noLeading?: boolean;
  /**
   * The page colour (RRGGBB) under every page: w:background of a DOCX whose settings show it
   * (w:displayBackgroundShape), as LibreOffice's renderings and Word's print layout do.
   */
  pageColor?: string;
}

export interface PageGeometry {
  width: number;
  height: number;
  marginTop: number;
  marginRight: number;
  marginBottom: number;
  marginLeft: number;
  /** Distance of the header's top from the page's top edge, and the footer's bottom from the bottom edge. */
  header: number;
  footer: number;
}

export interface HeaderFooterSet {
  default?: Block[];
  first?: Block[];
  even?: Block[];
}

export interface Section {
  page: PageGeometry;
  /** Number of equal text columns (1 when absent). */
  columns?: number;
  columnGap?: number;
  /** The first page of the section uses the `first` header and footer. */
  titlePage?: boolean;
  /** Even pages use the `even` header and footer (document-wide setting evenAndOddHeaders). */
  evenAndOdd?: boolean;
  headers: HeaderFooterSet;
  footers: HeaderFooterSet;
  /** The page number the section starts with, when it restarts numbering. */
  pageNumberStart?: number;
  /** How the section starts: on a new page (default), continuous, or next odd/even page. */
  start?: 'nextPage' | 'continuous' | 'oddPage' | 'evenPage' | 'nextColumn';
  /** A border around the pages (w:pgBorders, sprmSBrc*). */
  pageBorders?: PageBorders;
  blocks: Block[];
}

/**
 * Page borders. `space` of each side is its distance (points) from the page edge (offsetFrom
 * 'page') or from the text, which they surround with the header and footer (offsetFrom 'text').
 */
export interface PageBorders {
  top?: Border;
  left?: Border;
  bottom?: Border;
  right?: Border;
  offsetFrom: 'page' | 'text';
  /** Which of the section's pages show them. */
  display: 'allPages' | 'firstPage' | 'notFirstPage';
}

export type Block = Paragraph | Table;

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

/**
 * A text frame: consecutive paragraphs with the same frame form one box, positioned like a
 * floating text box. Word's "Insert page numbers" (97-2003) made a framed number in the header or footer.
 */
export interface ParagraphFrame {
  /** Box size, points; none: as wide as its text (its height is its text's in any case, or at least `height` unless exact). */
  width?: number;
  height?: number;
  heightRule?: 'exact' | 'atLeast' | 'auto';
  /** Offset from the anchors, points (ignored on an axis with an alignment). */
  x: number;
  y: number;
  xAlign?: 'left' | 'center' | 'right' | 'inside' | 'outside';
  yAlign?: 'top' | 'center' | 'bottom' | 'inside' | 'outside';
  /** 'text': the column (horizontally), the paragraph after the frame (vertically). */
  hAnchor: 'page' | 'margin' | 'text';
  vAnchor: 'page' | 'margin' | 'text';
  wrap?: 'around' | 'notBeside' | 'none' | 'tight' | 'through' | 'auto';
  /** A drop cap: left where it is (the letter as a paragraph of its own). */
  dropCap?: boolean;
}

export interface ParagraphProps {
  align?: 'left' | 'center' | 'right' | 'justify';
  indentLeft?: number;
  indentRight?: number;
  /** Positive: first-line indent; negative: hanging indent. */
  firstLine?: number;
  spaceBefore?: number;
  spaceAfter?: number;
  /**
   * The space before (after) is Word's HTML-like auto spacing (w:beforeAutospacing, 14 pt), which
   * Word leaves out at the top (bottom) of a table cell and before the document's first paragraph.
   */
  autoSpaceBefore?: boolean;
  autoSpaceAfter?: boolean;
  /** auto: a multiple of single spacing (1.15, 2); exact and atLeast: points. */
  line?: { rule: 'auto' | 'exact' | 'atLeast'; value: number };
  /**
   * Right-to-left paragraph (w:bidi): lines run from the right, and its left/right alignment and
   * indents name the start and end sides (the right and left edges), as transitional OOXML means them.
   */
  bidi?: boolean;
  /** Word's contextualSpacing: no space between paragraphs of the same style. */
  contextualSpacing?: boolean;
  styleId?: string;
  pageBreakBefore?: boolean;
  /** Starts at the top of the next column: the part of a paragraph after a column break (layout/flows.ts). */
  columnBreakBefore?: boolean;
  keepNext?: boolean;
  keepLines?: boolean;
  /**
   * Widow and orphan control: DOCX paragraphs have it unless w:widowControl turns it off in the
   * paragraph or its styles (LibreOffice's DOCX import sets two lines by default, as Word does; the
   * .doc reader leaves it off). Applied by layout's pager (layout/pages/pager.ts).
   */
  widowControl?: boolean;
  shading?: string;
  borders?: { top?: Border; bottom?: Border; left?: Border; right?: Border; between?: Border };
  tabs?: TabStop[];
  /** Outline level 0..8 for headings (bookmarks), when known. */
  outlineLevel?: number;
  /** Bookmarks that start in the paragraph (w:bookmarkStart): the targets of links within the document ("#name"). */
  bookmarks?: string[];
  /** A text frame (w:framePr, .doc sprmPPc...): placed apart from the text, like a text box. */
  frame?: ParagraphFrame;
  /** The run properties of the paragraph mark: they size an empty paragraph. */
  markStyle?: RunStyle;
  /** The resolved list label ("1.2.", "•", "a)") with its own run style, followed by a tab or a space. */
  list?: { label: string; style: RunStyle; suffix: 'tab' | 'space' | 'nothing' };
}

export interface RunStyle {
  font?: string;
  /** Font for Cyrillic/Greek/other non-ASCII text when it differs (w:rFonts hAnsi/cs/eastAsia). */
  fontOther?: string;
  size?: number;
  bold?: boolean;
  italic?: boolean;
  underline?: 'single' | 'double' | 'dotted' | 'dashed' | 'wave' | 'none';
  strike?: boolean;
  doubleStrike?: boolean;
  color?: string;
  /** Highlight or run shading colour. */
  highlight?: string;
  vertAlign?: 'superscript' | 'subscript';
  caps?: boolean;
  smallCaps?: boolean;
  hidden?: boolean;
  /** Extra letter spacing, points. */
  spacing?: number;
  /**
   * Pair kerning from this font size up, points (w:kern, sprmCHpsKern); absent or 0: none. Word
   * kerns only when asked, and LibreOffice likewise (its autokern is set only by these).
   */
  kern?: number;
  /** Hyperlink target (URL, or '#bookmark'). */
  link?: string;
}

export type Inline =
  | { kind: 'text'; text: string; style: RunStyle }
  | { kind: 'tab'; style: RunStyle }
  | { kind: 'break'; type: 'line' | 'page' | 'column' }
  | { kind: 'image'; data: Uint8Array; contentType: string; width: number; height: number; floating?: FloatingPlacement; crop?: PictureCrop }
  | { kind: 'field'; field: 'PAGE' | 'NUMPAGES' | 'SECTIONPAGES'; style: RunStyle }
  | { kind: 'noteRef'; id: string; label: string; style: RunStyle }
  /** A text box or shape with text: laid out as a block of its own. */
  | { kind: 'textbox'; blocks: Block[]; width: number; height?: number; floating?: FloatingPlacement; /** Room for text when the box does not grow to it: what does not fit is not shown. */ textRoom?: number }
  | Shape;

/**
 * A drawn shape (DrawingML wps:wsp, VML v:rect/v:oval/v:line..., a .doc OfficeArt shape): the Office
 * parts' shape (office/model.ts) whose text is Word's blocks.
 */
export type Shape = OfficeShape<Block>;

/** Where a floating object is anchored, relative to what Word says (approximated by the layout): the Office parts' anchor. */
export type FloatingPlacement = Anchor;

export interface Paragraph {
  kind: 'paragraph';
  props: ParagraphProps;
  inlines: Inline[];
}

export interface TableCell {
  blocks: Block[];
  /** Number of grid columns the cell spans. */
  gridSpan: number;
  /** Vertical merge: 'restart' starts a merged cell, 'continue' is covered by the one above. */
  vMerge?: 'restart' | 'continue';
  shading?: string;
  borders: { top?: Border; bottom?: Border; left?: Border; right?: Border };
  vAlign?: 'top' | 'center' | 'bottom';
  /** Cell margins (padding), points. */
  margins?: { top: number; right: number; bottom: number; left: number };
  /** Preferred width, points. */
  width?: number;
}

export interface TableRow {
  cells: TableCell[];
  /** Repeated at the top of each page the table continues on. */
  header?: boolean;
  height?: { rule: 'atLeast' | 'exact'; value: number };
  cantSplit?: boolean;
  /** Grid columns skipped before the first cell (w:gridBefore). */
  gridBefore?: number;
}

export interface Table {
  kind: 'table';
  /** Widths of the grid columns, points. */
  grid: number[];
  rows: TableRow[];
  align?: 'left' | 'center' | 'right';
  /** Indent from the text margin, points. */
  indent?: number;
  /** Right-to-left table (w:bidiVisual): the first column is on the right; alignment and indent count from the right margin. */
  bidiVisual?: boolean;
  /** Space between cells and around them (w:tblCellSpacing), points: each cell is framed apart from the others. */
  cellSpacing?: number;
}
