// The spreadsheets npm run fidelity -- --xlsx scores and npm run bench:sheet times: the workbooks
// of ../shared/corpus/{xlsx,xls} (and ods when that directory exists), plus held-out ones from a
// directory (--dir DIR), and how the encrypted ones (no reference) must be refused.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const SHEET_OPERATION = 'xlsx-to-pdf';
export const SHEET_EXT = /\.(xlsx|xlsm|xltx|xltm|xls|xlt|ods|ots)$/i;

// Encrypted workbooks: refused as password-protected. The XLSX is an OLE EncryptedPackage that the
// upload refuses already; the two XLS are BIFF8 with a FILEPASS record (CryptoAPI, XOR).
export const SHEET_EXPECTED_FAILURES = {
  'poi__protected_passtika.xlsx': 'password',
  'poi__35897-type4.xls': 'password',
  'poi__xor-encryption-abc.xls': 'password',
};

/** The corpus categories there are: xlsx and xls, and ods once ../shared/corpus/ods exists. */
export const sheetCategories = (corpus) => ['xlsx', 'xls', ...(existsSync(join(corpus, 'ods')) ? ['ods'] : [])];

/** The workbooks of the corpus (and of `heldout`, category 'heldout'), sorted, filtered by `only` substrings. */
export function sheetFiles(corpus, { only = [], heldout } = {}) {
  const dirs = sheetCategories(corpus).map((category) => ({ category, dir: join(corpus, category) }));
  if (heldout) dirs.push({ category: 'heldout', dir: heldout });
  return dirs.flatMap(({ category, dir }) =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => SHEET_EXT.test(f) && (!only.length || only.some((s) => f.includes(s))))
          .sort()
          .map((name) => ({ category, name, file: join(dir, name) }))
      : [],
  );
}

/** A refusal's message that tells the user to use Word or .docx, and says nothing of Excel or spreadsheets. */
export const speaksOfWord = (message) => /\bWord\b|\.docx?\b/.test(message) && !/Excel|spreadsheet|workbook|XLSX/i.test(message);
