import { z } from 'zod';
import { defineSpec, type NextStep, type OperationResult, type RunOf } from './define';
import { loadMupdf } from '../pdf/mupdf';
import { printWorkbookLoadingFaces, SLICE_PAGES } from '../convert/sheet';
import { concatenatePdfs } from '../pdf/concatenate';
import { keepSlice, slicesBefore } from './slices';
import { joinChunks } from '../lib/bytes';
import { converterFailure } from './converter-failure';

/**
 * Spreadsheets (XLS, XLSX, ODS; XLTX and XLSM read as XLSX) → PDF through our own spreadsheet converter
 * (src/convert/sheet/) on the shared layout engine, in the office Worker: every visible sheet
 * printed by its own print settings. The converter's errors become task failures here.
 */
export const spec = defineSpec({
  path: 'xlsx-to-pdf',
  type: 'xlsx_to_pdf',
  summary: 'Convert a spreadsheet (XLS, XLSX, ODS) to PDF, sheets, print area and scale as the file sets them',
  accepts: ['xls', 'xlsx', 'ods'],
  inputs: { kind: 'file_id' },
  params: z.object({}),
  engine: 'office',
});

const CONVERTER_FAILED =
  'Our converter could not handle something in this workbook (the file itself did not look damaged): the failure was logged for a fix and the payment returned. ' +
  'Saving it again from Excel as .xlsx may avoid the part that failed.';

const WORKBOOK_DAMAGED = 'The workbook is damaged or incomplete (for example a download that was cut off): open it in Excel or LibreOffice, save it again as .xlsx and upload it again.';

/**
 * A workbook of more than SLICE_PAGES pages prints a slice per step, each step reading the
 * workbook again and keeping its slice in the task's scratch space; the last joins them.
 */
export async function run({ inputs, log, faces, step, scratch, progress }: RunOf<typeof spec>): Promise<OperationResult | NextStep> {
  const mupdf = await loadMupdf();
  const input = inputs[0]!;
  try {
    const onProblem = (p: { part: string; reason: string }) => log('sheet_part_unreadable', { part: p.part, reason: p.reason });
    const print = await printWorkbookLoadingFaces(input.bytes, { mupdf, faces, onProblem, fileName: input.file.filename });
    const slices = Math.max(1, Math.ceil(print.pages / SLICE_PAGES));
    if (slices === 1) return { chunks: print.write(), ext: 'pdf', contentType: 'application/pdf' };
    const from = step * SLICE_PAGES;
    const slice = joinChunks(print.write([from, Math.min(print.pages, from + SLICE_PAGES)]));
    progress(Math.min(print.pages, from + SLICE_PAGES), print.pages);
    if (step < slices - 1) {
      await keepSlice(scratch, step, slice);
      return { next: true };
    }
    return concatenatePdfs([...(await slicesBefore(scratch, step)), { bytes: slice }]);
  } catch (err) {
    return failed(err, log);
  }
}

/** The converter's errors as task failures (operations/converter-failure.ts). */
function failed(err: unknown, log: RunOf<typeof spec>['log']): never {
  return converterFailure(err, log, { event: 'sheet_converter_failed', failed: CONVERTER_FAILED, damaged: WORKBOOK_DAMAGED, passwordMessage: true });
}
