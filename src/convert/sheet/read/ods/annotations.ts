/**
 * A table's cell comments (office:annotation in a table:table-cell), as LibreOffice prints them:
 * listed after the sheet's pages when the page style prints comments (style:print "annotations"),
 * and the shown ones (office:display="true") drawn as note boxes where svg:x and svg:y put them
 * (from the sheet's corner), as LibreOffice prints a shown comment whatever that setting.
 */
import { attr, type XmlElement } from '../../../../codecs/xml';
import type { CellAnchor, Font, PrintSettings, SheetDrawing, SheetNote } from '../../model';
import { noteDrawings, NOTES_MAX, SHOWN_NOTES_MAX } from '../note-drawings';
import type { Locate } from './drawings';
import { paragraphs } from '../../../office/odf/shapes';
import { NOTE_TEXT_MAX } from '../xlsx/comments';
import { lengthPoints, paragraphText, type StyleSources } from './styles';

export interface AnnotationAt {
  el: XmlElement;
  row: number;
  col: number;
}

const length = (v: string | undefined) => Math.max(0, Math.min(lengthPoints(v) ?? 0, 1e6)) || 0;

/** The comments' list for the pages after the sheet (when it prints them) and the shown ones' drawings. */
export function readAnnotations(found: AnnotationAt[], mode: PrintSettings['comments'], sources: StyleSources, font: Font, locate: { col: Locate; row: Locate }): { notes?: SheetNote[]; drawings: SheetDrawing[] } {
  const kept = found.slice(0, NOTES_MAX);
  const at = (x: number, y: number): CellAnchor => {
    const [c, r] = [locate.col(x), locate.row(y)];
    return { col: c.index, colOffset: c.offset, row: r.index, rowOffset: r.offset };
  };
  const drawings = kept.filter(({ el }) => attr(el, 'display') === 'true').slice(0, SHOWN_NOTES_MAX).flatMap(({ el, row, col }) => {
    const [x, y] = [length(attr(el, 'x')), length(attr(el, 'y'))];
    const box = { from: at(x, y), to: at(x + length(attr(el, 'width')), y + length(attr(el, 'height'))) };
    return noteDrawings({ row, col, ...box, paragraphs: paragraphs(el, sources, attr(el, 'style-name'), font) });
  });
  if (mode !== 'atEnd' || !kept.length) return { drawings };
  // All comments' text together at most NOTE_TEXT_MAX characters, as the XLSX reader keeps.
  let left = NOTE_TEXT_MAX;
  const textOf = (el: XmlElement) => {
    const text = el.children.flatMap((p) => (typeof p !== 'string' && p.name === 'p' && left > 0 ? [paragraphText(p, left)] : [])).join('\n').slice(0, Math.max(0, left));
    left -= text.length;
    return text;
  };
  const notes = kept.map(({ el, row, col }) => ({ row, col, text: textOf(el) })).sort((a, b) => a.row - b.row || a.col - b.col);
  return { notes, drawings };
}
