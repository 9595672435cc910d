/**
 * A shown cell comment (note) as the sheet prints it "as displayed": its box where the file places
 * it, pale yellow with a thin black frame and a shadow, its text inside, and the callout line from
 * the box to the cell's top-right corner with an arrowhead at the cell, as Excel and LibreOffice
 * draw one. The XLSX, XLS and ODS readers each bring the box and text; the drawings are the same.
 */
import type { Shape, TextParagraph } from '../../office/model';
import type { CellAnchor, SheetDrawing } from '../model';

/** Excel's note fill (VML fillcolor="#ffffe1"), where the file names none. */
export const NOTE_FILL = 'FFFFE1';
/** How far the shadow falls right and down, in hundredths of the box (Excel's is 2 px whatever the box: 1.5 pt on a 100 pt box). */
const SHADOW = 1.5;
/** Comments a sheet lists at most at the end. */
export const NOTES_MAX = 10_000;
/** Shown comments a sheet draws at most (as many as its other drawings: xlsx/drawings.ts DRAWINGS_MAX). */
export const SHOWN_NOTES_MAX = 1_000;

export interface ShownNote {
  row: number;
  col: number;
  /** The box: its top-left and bottom-right corners. */
  from: CellAnchor;
  to: CellAnchor;
  paragraphs: TextParagraph[];
  fill?: string;
}

const before = (a: CellAnchor, b: CellAnchor, axis: 'col' | 'row'): boolean => {
  const offset = axis === 'col' ? 'colOffset' : 'rowOffset';
  return a[axis] < b[axis] || (a[axis] === b[axis] && a[offset] < b[offset]);
};

const rect = (fill: string, line?: Shape['line']): Shape<TextParagraph> => ({ kind: 'shape', geometry: 'rect', width: 1, height: 1, fill, ...(line ? { line } : {}) });

/** The callout: a line anchored between the cell's corner and the box's, flipped so that it starts at the cell. */
function callout(cell: CellAnchor, box: CellAnchor): SheetDrawing {
  const [flipH, flipV] = [before(box, cell, 'col'), before(box, cell, 'row')];
  const [left, right] = flipH ? [box, cell] : [cell, box];
  const [top, bottom] = flipV ? [box, cell] : [cell, box];
  const line: Shape<TextParagraph> = { kind: 'shape', geometry: 'line', width: 1, height: 1, flipH, flipV, line: { color: '000000', width: 0.75, start: { type: 'triangle', width: 2, length: 2 } } };
  return {
    from: { col: left.col, colOffset: left.colOffset, row: top.row, rowOffset: top.rowOffset },
    to: { col: right.col, colOffset: right.colOffset, row: bottom.row, rowOffset: bottom.rowOffset },
    content: { kind: 'shapes', frame: { width: 1, height: 1 }, shapes: [{ box: { x: 0, y: 0, width: 1, height: 1 }, shape: line }] },
  };
}

/** The box with its shadow and text, and the line to its cell. */
export function noteDrawings(note: ShownNote): SheetDrawing[] {
  const cell: CellAnchor = { col: note.col + 1, colOffset: 0, row: note.row, rowOffset: 0 };
  const box: Shape<TextParagraph> = { ...rect(note.fill ?? NOTE_FILL, { color: '000000', width: 0.75 }), blocks: note.paragraphs, textInsets: { left: 3.6, top: 3.6, right: 3.6, bottom: 3.6 }, clipsText: true };
  // The frame is the box in hundredths; the shadow lies a little right and below, under the box.
  const frame = { width: 100, height: 100 };
  const shadow = { box: { x: SHADOW, y: SHADOW, width: 100, height: 100 }, shape: rect('000000') };
  return [callout(cell, note.from), { from: note.from, to: note.to, content: { kind: 'shapes', frame, shapes: [shadow, { box: { x: 0, y: 0, width: 100, height: 100 }, shape: box }] } }];
}
