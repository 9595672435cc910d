/**
 * The registry of specs: HTTP routes, OpenAPI, MCP tools, queue routing and history types all
 * derive from this list. It imports each operation's `spec` only, so the API Worker's bundle
 * carries no run (operations/define.ts); the engine Workers pair them with runs in runs.ts.
 */
import type { OperationSpec } from './define';
import { spec as addPageNumbers } from './add-page-numbers';
import { spec as compress } from './compress';
import { spec as deletePages } from './delete-pages';
import { spec as extractPages } from './extract-pages';
import { spec as flatten } from './flatten';
import { spec as htmlToPdf } from './html-to-pdf';
import { spec as jpgToPdf } from './jpg-to-pdf';
import { spec as merge } from './merge';
import { spec as ocr } from './ocr';
import { spec as photoToPdf } from './photo-to-pdf';
import { spec as protect } from './protect';
import { spec as reorderPages } from './reorder-pages';
import { spec as rotate } from './rotate';
import { spec as sign } from './sign';
import { spec as split } from './split';
import { spec as toJpg } from './to-jpg';
import { spec as toTxt } from './to-txt';
import { spec as unlock } from './unlock';
import { spec as watermark } from './watermark';
import { spec as wordToPdf } from './word-to-pdf';
import { spec as xlsxToPdf } from './xlsx-to-pdf';
import { spec as pptxToPdf } from './pptx-to-pdf';

export const OPERATIONS: readonly OperationSpec[] = [merge, split, deletePages, extractPages, flatten, rotate, reorderPages, toTxt, compress, addPageNumbers, protect, sign, unlock, watermark, wordToPdf, jpgToPdf, photoToPdf, toJpg, ocr, htmlToPdf, xlsxToPdf, pptxToPdf];

export const operationByPath = new Map(OPERATIONS.map((op) => [op.path, op]));
export const operationByType = new Map(OPERATIONS.map((op) => [op.type, op]));
