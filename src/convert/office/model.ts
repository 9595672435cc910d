/**
 * The Office parts' own model (DrawingML, VML and OfficeArt shapes, their outlines, fills, line ends,
 * pictures and placement, and charts), shared by Word, spreadsheets and slides: each format's model
 * uses these types, none of them is Word's. A shape's text is the one thing a format brings: its
 * blocks (Word's paragraphs and tables) are the type parameter of Shape.
 *
 * Units: lengths in points (1/72 inch); colours 6-digit hex without '#' ("1F3864").
 */

/**
 * An arrowhead or other mark at an end of a line or open outline (DrawingML a:headEnd/a:tailEnd,
 * VML's startarrow/endarrow): its kind, and its width and length as multiples of the line's width.
 */
export interface LineEnd {
  type: 'triangle' | 'stealth' | 'arrow' | 'diamond' | 'oval';
  width: number;
  length: number;
}

/** A shape's outline in a space of its own (width × height), stretched over the shape's box. */
export interface FreeformPath {
  width: number;
  height: number;
  parts: PathPart[];
  /**
   * Its parts painted one after another, each filled then stroked (a preset's paths: a cloud
   * callout's bubbles over the cloud's outline); else all the fills under all the strokes.
   */
  ordered?: boolean;
}

/** A part of an outline, filled and stroked or not (a VML path's nf/ns, a DrawingML path's fill="none"). */
export interface PathPart {
  ops: PathOp[];
  fill: boolean;
  stroke: boolean;
  /** Filled in the shape's fill made darker or lighter (a DrawingML path's fill="darken"…): a can's lid, a ribbon's folds. */
  shade?: Shade;
}

/** DrawingML's shaded path fills, as LibreOffice draws them: 40 % (darken, lighten) or 20 % (…Less) darker or lighter. */
export type Shade = 'darken' | 'darkenLess' | 'lighten' | 'lightenLess';

export type PathOp = ['M', number, number] | ['L', number, number] | ['C', number, number, number, number, number, number] | ['Z'];

/** What a shape's outline is: the four drawn directly, or a freeform (Shape.path). */
export type ShapeGeometry = 'rect' | 'roundRect' | 'ellipse' | 'line' | 'path';

/** A shape's stroked outline (a:ln, VML's stroke): colour, width in points, and the marks at its ends. */
export interface Outline {
  color: string;
  width: number;
  /** Dashes and gaps in line widths (a:prstDash), solid when absent. */
  dash?: number[];
  start?: LineEnd;
  end?: LineEnd;
}

/** Distances of a shape's text from its box's sides, points. */
export interface Insets {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The part of a picture shown (DrawingML a:srcRect, VML's cropleft…, the .doc PICF's crop): what is
 * cut off each side, as fractions of the picture's width and height. The box the picture is drawn in shows that part.
 */
export interface PictureCrop {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A crop that leaves something to show and cuts something off, or undefined (the picture fills its box whole). */
export function shownCrop(crop: PictureCrop): PictureCrop | undefined {
  if (crop.left + crop.right >= 0.99 || crop.top + crop.bottom >= 0.99) return undefined;
  return crop.left || crop.top || crop.right || crop.bottom ? crop : undefined;
}

/** A raster or metafile picture: its bytes, their media type, and the part of it shown. */
export interface Picture {
  data: Uint8Array;
  contentType: string;
  crop?: PictureCrop;
  /** How opaque it is drawn (a:blip's a:alphaModFix), 0 to 1; opaque when absent. */
  opacity?: number;
  /** Drawn in greys (a:blip's a:grayscl). */
  grayscale?: boolean;
}

/** WordArt (VML v:textpath, OfficeArt gtext): text stretched over a shape's box in its fill colour. */
export interface WordArt {
  text: string;
  font: string;
  bold?: boolean;
  italic?: boolean;
  opacity?: number;
}

/**
 * Where a floating object is anchored (DrawingML's wp:anchor, VML's mso-position-*, a .doc FSPA),
 * relative to the frames a text flow has: the page, its margins, the column, the paragraph or line
 * the anchor is in. A format without a flow (a slide) places its objects from the page.
 */
export interface Anchor {
  /** Offset from the horizontal reference (page, margin, column), points. */
  x: number;
  y: number;
  relativeX: 'page' | 'margin' | 'column' | 'character';
  relativeY: 'page' | 'margin' | 'paragraph' | 'line';
  wrap: 'none' | 'square' | 'tight' | 'topAndBottom' | 'behind' | 'inFront';
  alignX?: 'left' | 'center' | 'right';
  alignY?: 'top' | 'center' | 'bottom';
  /** In a table cell, "column" means the cell (wp:anchor layoutInCell). */
  layoutInCell?: boolean;
  /** Offsets as fractions of the reference's width/height (wp14:pctPosHOffset), over x/y when given. */
  percentX?: number;
  percentY?: number;
  /**
   * A member of a floating group: the placement above is the group's (its alignment is the
   * group's), and the member sits `dx`, `dy` from the group's top-left corner.
   */
  inGroup?: { width: number; height: number; dx: number; dy: number };
}

/**
 * A drawn shape (DrawingML wps:wsp/p:sp, VML v:rect/v:oval/v:line..., OfficeArt): its outline filled
 * and/or stroked in its box, and the text it holds (`Block`, the format's own) laid out inside the
 * box less the insets. A line runs from the box's top-left to its bottom-right corner (top-right to
 * bottom-left when flipped one way).
 */
export interface Shape<Block = never> {
  kind: 'shape';
  geometry: ShapeGeometry;
  /** geometry 'path': the outline in its own space, stretched over the box (preset-geometry.ts). */
  path?: FreeformPath;
  width: number;
  height: number;
  fill?: string;
  /** How opaque the fill is, 0 to 1 (its colour's a:alpha); opaque when absent. */
  fillOpacity?: number;
  /** An outer shadow (a:outerShdw): the shape's outline filled again under it, moved by dx, dy points, in its colour and opacity (its blur not drawn). */
  shadow?: { dx: number; dy: number; color: string; opacity: number };
  /** A linear gradient drawn in place of `fill` (its average colour) where the painter can. */
  gradient?: Gradient;
  line?: Outline;
  flipH?: boolean;
  flipV?: boolean;
  /** Clockwise, degrees, about the box's centre. */
  rotation?: number;
  floating?: Anchor;
  blocks?: Block[];
  textInsets?: Insets;
  /** Vertical placement of the text in the box. */
  textAnchor?: 'top' | 'center' | 'bottom';
  /** Text set in columns (a:bodyPr numCol, spcCol: the gap, points), filled one after another. */
  textColumns?: { count: number; gap: number };
  /** Text shrunk until it fits the box when it runs past it (a:normAutofit without a saved fontScale: PowerPoint's "shrink text on overflow" left to the reader). */
  shrinksText?: boolean;
  /** Text set turned in the shape (a:bodyPr vert): 90 reads top to bottom (vert, eaVert), 270 bottom to top (vert270). */
  textTurn?: 90 | 270;
  /** Lines run on past the box's width (a:bodyPr wrap="none"), not wrapped to it. */
  unwrapped?: boolean;
  /** The box keeps its size whatever its text (DrawingML without spAutoFit, VML without mso-fit-shape-to-text): text past it is not shown. */
  clipsText?: boolean;
  /** Stacking order among floating shapes (wp:anchor relativeHeight): higher is drawn later. */
  z?: number;
  /** A raster picture that fills the box (a floating picture drawn out of the text's flow). */
  picture?: Picture;
  /** WordArt: the text stretched over the box in the fill colour, in place of the outline. */
  wordArt?: WordArt;
  /**
   * A group: the shapes it holds, drawn over the group's box (which has no fill or outline
   * of its own), each placed by its floating.inGroup offset from the box's top-left corner.
   */
  members?: Shape<Block>[];
}

/** A run of a DrawingML text body (a:r, a:fld; a:br is a '\n'): its characters and how they look, sizes in points. */
export interface TextRun {
  text: string;
  font: string;
  size: number;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  /** RRGGBB. */
  color: string;
  /** Where the run links to (a:hlinkClick's external target): kept as a link in the PDF. */
  link?: string;
}

/** A paragraph of a shape's text (a:p): its runs, aligned; `size` sizes its line when it has no text. */
export interface TextParagraph {
  align: 'left' | 'center' | 'right' | 'justify';
  runs: TextRun[];
  size: number;
  font: string;
  /** Left margin and first-line indent (a:pPr marL, indent), points. */
  marginLeft?: number;
  indent?: number;
  /** The bullet or number printed before the text (at marL + indent, the text at marL): in its own font and colour where given, scaled to the text (buSzPct). */
  bullet?: { text: string; font?: string; color?: string; scale?: number };
  /** Tab stops (a:tabLst), from the text's left edge, points. */
  tabs?: { pos: number; align: 'left' | 'center' | 'right' | 'decimal' }[];
  /** A right-to-left paragraph (a:pPr rtl="1"): its lines run from the right; `align` still names the side (DrawingML's l and r are not logical). */
  rtl?: boolean;
  /** Space above and below the paragraph (a:spcBef, a:spcAft), points. */
  spaceBefore?: number;
  spaceAfter?: number;
  /** Line spacing (a:lnSpc): `auto` a multiple of single spacing (a:spcPct), `exact` points (a:spcPts). */
  line?: { rule: 'auto' | 'exact'; value: number };
}

/** A linear gradient: its angle (degrees clockwise from the x axis) and its colour stops (0 to 1 along it). */
export interface Gradient {
  /** Radial: the stops run from the centre (0) out to the corners (1); the angle is not used. */
  radial?: boolean;
  angle: number;
  stops: { at: number; color: string }[];
}

/** A shape and its box in the frame it is drawn in (points): a slide, or a sheet drawing's anchor that the frame is stretched over. */
export interface FramedShape<Block = never> {
  box: { x: number; y: number; width: number; height: number };
  shape: Shape<Block>;
}

/**
 * A floating object that text does not wrap around (in front of it or behind it): drawn where it is
 * placed, out of the flow.
 */
export const outOfFlow = (floating: Anchor | undefined): boolean => floating?.wrap === 'inFront' || floating?.wrap === 'behind';

export type ChartKind = 'bar' | 'line' | 'pie' | 'doughnut' | 'area' | 'scatter';

/** One series of a chart: its name, colour and values (by category), from the part's caches. */
export interface ChartSeries {
  name: string;
  color?: string;
  values: (number | undefined)[];
  /** Per-point colours (c:dPt), used by pies. */
  pointColors: (string | undefined)[];
  /** A scatter series' x values (c:xVal numbers): its points placed by them on a value axis, not by category. */
  xValues?: (number | undefined)[];
  /** Its line is not drawn (a:ln noFill, ODF draw:stroke none): markers alone. */
  noLine?: boolean;
  /** Its points are marked, this size in points (c:marker, chart:symbol-type). */
  marker?: number;
}

/** An axis's bounds and step as the chart fixes them (c:scaling c:min/c:max, c:majorUnit); automatic where absent. */
export interface AxisBounds {
  min?: number;
  max?: number;
  step?: number;
}

/** A DrawingML chart (c:chartSpace) as its cached values show it. */
export interface Chart {
  kind: ChartKind;
  /** Bars run horizontally (c:barDir bar). */
  horizontal: boolean;
  grouping: 'clustered' | 'stacked' | 'percentStacked' | 'standard';
  categories: string[];
  series: ChartSeries[];
  title?: string;
  legend?: 'b' | 't' | 'l' | 'r' | 'tr';
  /** accent1..6 of the document theme: unstyled series take these in order. */
  palette: string[];
  /** A scatter chart's x and y axes' fixed bounds. */
  xAxis?: AxisBounds;
  yAxis?: AxisBounds;
}

/** What a chart is drawn with, in points: filled polygons, stroked polylines and text at a baseline point. */
export type ChartMark =
  | { t: 'poly'; pts: [number, number][]; fill: string }
  | { t: 'line'; pts: [number, number][]; stroke: string; width: number }
  | { t: 'text'; x: number; y: number; text: string; size: number; anchor: 'start' | 'middle' | 'end'; fill: string };
