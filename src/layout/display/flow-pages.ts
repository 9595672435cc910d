/**
 * A page the pager laid out as a display list (contracts/display.ts): table cells' shading
 * and borders, the body's lines, and the footnotes at the text area's foot under their separator.
 */
import type { DisplayItem, FilledBox } from '../../contracts/display';
import type { ParagraphBlock } from '../blocks/model';
import { displayLines, ruleBox } from './draw-lines';
import { NOTE_SEPARATOR, type FlowPage } from '../pages/flow-page';

/** The part of a page the pager fills: its text area (left, top, width, height) on a page `pageHeight` tall. */
export interface TextArea {
  left: number;
  top: number;
  width: number;
  height: number;
  pageHeight: number;
}

/** What a page shows of a stretch the pager paged; `paragraphAt` hears where paragraphs landed. */
export function displayFlowPage(laid: FlowPage, area: TextArea, paragraphAt: (p: ParagraphBlock, y: number) => void): DisplayItem[] {
  // Table cells' shading, then their borders, under the text.
  const cells = laid.rects.map((r): FilledBox => ({ kind: 'fill', x0: area.left + r.x0, y0: area.top + r.y0, x1: area.left + r.x1, y1: area.top + r.y1, color: r.color }));
  const body = displayLines(laid.lines, area.left, area.top, paragraphAt);
  const notes = laid.notesArea;
  if (!notes) return [...cells, ...body];
  const top = area.top + area.height - notes.height;
  const separator = ruleBox(area.left, top + NOTE_SEPARATOR.above, Math.min(NOTE_SEPARATOR.width, area.width), NOTE_SEPARATOR.thickness);
  return [...cells, ...body, separator, ...displayLines(notes.lines, area.left, top, paragraphAt)];
}
