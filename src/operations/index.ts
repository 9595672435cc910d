import type { OperationDef } from './define';
import addPageNumbers from './add-page-numbers';
import compress from './compress';
import deletePages from './delete-pages';
import extractPages from './extract-pages';
import flatten from './flatten';
import jpgToPdf from './jpg-to-pdf';
import merge from './merge';
import ocr from './ocr';
import htmlToPdf from './html-to-pdf';
import photoToPdf from './photo-to-pdf';
import protect from './protect';
import reorderPages from './reorder-pages';
import rotate from './rotate';
import sign from './sign';
import split from './split';
import toJpg from './to-jpg';
import toTxt from './to-txt';
import unlock from './unlock';
import watermark from './watermark';
import wordToPdf from './word-to-pdf';

/** The registry: HTTP routes, OpenAPI, queue routing and history types all derive from this list. */
export const OPERATIONS: readonly OperationDef[] = [merge, split, deletePages, extractPages, flatten, rotate, reorderPages, toTxt, compress, addPageNumbers, protect, sign, unlock, watermark, wordToPdf, jpgToPdf, photoToPdf, toJpg, ocr, htmlToPdf] as unknown as OperationDef[];

export const operationByPath = new Map(OPERATIONS.map((op) => [op.path, op]));
export const operationByType = new Map(OPERATIONS.map((op) => [op.type, op]));
