/** Word's default cell margins, which both layout paths give a cell that names none. */

/** Word's default cell margins when a table names none: 0.08" left and right. */
export const DEFAULT_CELL_MARGINS = { top: 0, right: 5.4, bottom: 0, left: 5.4 };
