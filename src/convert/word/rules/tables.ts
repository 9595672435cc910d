/** Table rules both layout paths follow: Word's default cell margins, right-to-left cells, and how much header rows may take. */
import type { TableCell } from '../model/index';

/** Word's default cell margins when a table names none: 0.08" left and right. */
export const DEFAULT_CELL_MARGINS = { top: 0, right: 5.4, bottom: 0, left: 5.4 };

/** A cell of a right-to-left table as laid out mirrored: its left and right borders and margins swapped. */
export function mirrored(cell: TableCell): TableCell {
  const m = cell.margins;
  return { ...cell, borders: { ...cell.borders, left: cell.borders.right, right: cell.borders.left }, margins: m && { ...m, left: m.right, right: m.left } };
}

/** Header rows repeat on each page a table continues on while they take at most this share of the page's text height. */
export const MOST_FOR_HEADERS = 0.5;
