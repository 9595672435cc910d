/** A page as the pager (paginate.ts) fills it: its lines, table cells, footnotes and the floats anchored on it. */
import type { PlacedLine } from '../blocks/paragraph-stack';
import type { PlacedRect } from '../blocks/borders';

/** The footnotes at a page's foot: their lines below the separator, `height` the whole area. */
export interface NotesArea {
  lines: PlacedLine[];
  height: number;
}

export interface FlowPage {
  lines: PlacedLine[];
  /** Table cells' shading and borders, drawn under the lines (frame coordinates). */
  rects: PlacedRect[];
  /** Footnote ids whose bodies go at this page's foot, in order. */
  notes: string[];
  notesArea?: NotesArea;
  /** Floats anchored in paragraphs that start on this page (the converter draws them where they float). */
  floats: PlacedFloat[];
}

/** A float anchored at its paragraph's top left (text-area coordinates): `ref` the converter's (InlineItem 'float'). */
export interface PlacedFloat {
  ref: number;
  x: number;
  y: number;
  /** Anchored in a table cell: the cell's text width. */
  cellWidth?: number;
}

/** The footnote separator (Word's and LibreOffice's): a 2-inch rule 0.5 pt thick, 6 pt below the text above and 4 pt above the notes. */
export const NOTE_SEPARATOR = { above: 6, thickness: 0.5, below: 4, width: 144 };

/** A page with nothing on it yet. */
export const emptyPage = (): FlowPage => ({ lines: [], rects: [], notes: [], floats: [] });

/** The floats of the paragraphs these lines start: each at its paragraph's first line, from the paragraph's indent. */
export function floatsOf(lines: PlacedLine[]): PlacedFloat[] {
  const out: PlacedFloat[] = [];
  for (const l of lines) {
    const p = l.opens;
    if (!p) continue;
    for (const it of p.items) {
      if (it.kind === 'float') out.push({ ref: it.ref, x: (l.x ?? 0) + (p.props.indentLeft ?? 0), y: l.y, cellWidth: l.cellWidth });
    }
  }
  return out;
}
