/**
 * The registry of runs, for the engine Workers: each operation's spec with its run, by path. An
 * engine Worker takes the ones of its engine family (src/workers/). The API Worker never imports
 * this file (a dependency rule says so), so no run reaches its bundle.
 */
import type { z } from 'zod';
import type { EngineFamily, Operation } from './define';
import * as addPageNumbers from './add-page-numbers';
import * as compress from './compress';
import * as deletePages from './delete-pages';
import * as extractPages from './extract-pages';
import * as flatten from './flatten';
import * as htmlToPdf from './html-to-pdf';
import * as jpgToPdf from './jpg-to-pdf';
import * as merge from './merge';
import * as ocr from './ocr';
import * as photoToPdf from './photo-to-pdf';
import * as protect from './protect';
import * as reorderPages from './reorder-pages';
import * as rotate from './rotate';
import * as sign from './sign';
import * as split from './split';
import * as toJpg from './to-jpg';
import * as toTxt from './to-txt';
import * as unlock from './unlock';
import * as watermark from './watermark';
import * as wordToPdf from './word-to-pdf';
import * as xlsxToPdf from './xlsx-to-pdf';
import * as pptxToPdf from './pptx-to-pdf';

/** A module's spec and run, checked against each other by the compiler (the run takes the spec's parameters). */
const paired = <S extends z.ZodObject>({ spec, run }: Operation<S>): Operation<S> => ({ spec, run });

const ALL: readonly Operation[] = [
  paired(merge), paired(split), paired(deletePages), paired(extractPages), paired(flatten), paired(rotate), paired(reorderPages), paired(toTxt),
  paired(compress), paired(addPageNumbers), paired(protect), paired(sign), paired(unlock), paired(watermark), paired(wordToPdf), paired(jpgToPdf),
  paired(photoToPdf), paired(toJpg), paired(ocr), paired(htmlToPdf), paired(xlsxToPdf), paired(pptxToPdf),
];

/** The operations an engine Worker of `family` runs, by path. */
export function operationsOf(family: EngineFamily): ReadonlyMap<string, Operation> {
  return new Map(ALL.filter((op) => op.spec.engine === family).map((op) => [op.spec.path, op]));
}
