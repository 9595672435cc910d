/** A page as our own pager (paginate.ts) fills it: its lines, table cells, footnotes and the floating objects anchored on it. */
import type { Inline } from '../model/index';
import type { PlacedLine } from './paragraph-stack';
import type { PlacedRect } from './table-rows';

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
  /** Floating objects anchored in paragraphs that start on this page (render.ts draws them where they float). */
  floats: PlacedFloat[];
}

/** A floating object that floatsApart, anchored at its paragraph's top left (text-area coordinates). */
export interface PlacedFloat {
  item: Extract<Inline, { kind: 'shape' | 'image' | 'textbox' }>;
  x: number;
  y: number;
  /** Anchored in a table cell: the cell's text width. */
  cellWidth?: number;
}

/** Word's footnote separator: a 2-inch rule 0.5 pt thick, 6 pt below the text above and 4 pt above the notes. */
export const NOTE_SEPARATOR = { above: 6, thickness: 0.5, below: 4, width: 144 };

/** A page with nothing on it yet. */
export const emptyPage = (): FlowPage => ({ lines: [], rects: [], notes: [], floats: [] });

/** The floating objects of the paragraphs these lines start: each at its paragraph's first line, from the paragraph's indent. */
export function floatsOf(lines: PlacedLine[]): PlacedFloat[] {
  const out: PlacedFloat[] = [];
  for (const l of lines) {
    const p = l.opens;
    if (!p) continue;
    for (const it of p.inlines) {
      if ((it.kind === 'shape' || it.kind === 'image' || it.kind === 'textbox') && it.floating) out.push({ item: it, x: (l.x ?? 0) + (p.props.indentLeft ?? 0), y: l.y, cellWidth: l.cellWidth });
    }
  }
  return out;
}
