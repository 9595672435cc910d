/**
 * Paper sizes by the code a sheet's page setup names: SpreadsheetML's paperSize and BIFF's SETUP
 * iPaperSize are the same Windows DMPAPER numbers, so the XLSX and XLS readers share the table.
 */

/** Paper sizes by paper code, in points (portrait). */
export const PAPER: Record<number, { width: number; height: number }> = {
  1: { width: 612, height: 792 }, // Letter (also the default when the sheet names none)
  3: { width: 792, height: 1224 }, // Tabloid
  5: { width: 612, height: 1008 }, // Legal
  8: { width: 842, height: 1191 }, // A3
  9: { width: 595, height: 842 }, // A4
  11: { width: 420, height: 595 }, // A5
  12: { width: 729, height: 1032 }, // B4 (JIS)
  13: { width: 516, height: 729 }, // B5 (JIS)
};

/** The paper of a code, Letter for codes not in the table. */
export const paperOf = (code: number) => PAPER[code] ?? PAPER[1]!;
