/**
 * Paper sizes by the code a sheet's page setup names: SpreadsheetML's paperSize and BIFF's SETUP
 * iPaperSize are the same Windows DMPAPER numbers, so the XLSX and XLS readers share the table.
 */

/** Paper sizes by paper code, in points (portrait). */
export const PAPER: Record<number, { width: number; height: number }> = {
  1: { width: 612, height: 792 }, // Letter (also the default when the sheet names none)
  3: { width: 792, height: 1224 }, // Tabloid
  5: { width: 612, height: 1008 }, // Legal
  8: { width: 841.89, height: 1190.55 }, // A3
  9: { width: 595.28, height: 841.89 }, // A4
  11: { width: 419.53, height: 595.28 }, // A5
  12: { width: 728.5, height: 1031.81 }, // B4 (JIS)
  13: { width: 515.91, height: 728.5 }, // B5 (JIS)
};

/** The paper of a code, Letter for codes not in the table. */
export const paperOf = (code: number) => PAPER[code] ?? PAPER[1]!;
