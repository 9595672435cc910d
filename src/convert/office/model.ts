/**
 * The Office parts' own model (DrawingML, VML and OfficeArt outlines and line ends), shared by
 * Word, spreadsheets and slides: each format's model uses these types, none of them is Word's.
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
}

/** A part of an outline, filled and stroked or not (a VML path's nf/ns, a DrawingML path's fill="none"). */
export interface PathPart {
  ops: PathOp[];
  fill: boolean;
  stroke: boolean;
}

export type PathOp = ['M', number, number] | ['L', number, number] | ['C', number, number, number, number, number, number] | ['Z'];
