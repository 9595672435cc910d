import { z } from 'zod';
import { defineSpec, type OperationResult, type RunOf } from './define';
import { loadMupdf } from '../pdf/mupdf';
import { convertSheetToPdfChunksLoadingFaces, ConversionError } from '../convert/sheet';
import { TaskError } from '../contracts/failures';
import { isResourceExhaustion } from '../pdf/classify';
import { findLimitExceeded } from '../lib/limits';

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

export async function run({ inputs, log, faces }: RunOf<typeof spec>): Promise<OperationResult> {
  const mupdf = await loadMupdf();
  const input = inputs[0]!;
  try {
    const onProblem = (p: { part: string; reason: string }) => log('sheet_part_unreadable', { part: p.part, reason: p.reason });
    const chunks = await convertSheetToPdfChunksLoadingFaces(input.bytes, { mupdf, faces, onProblem, fileName: input.file.filename });
    return { chunks, ext: 'pdf', contentType: 'application/pdf' };
  } catch (err) {
    if (isResourceExhaustion(err)) throw err; // retried a bounded number of times by the consumer
    if (findLimitExceeded(err)) throw err; // failed with the limit's message and refunded, not retried
    if (!(err instanceof ConversionError)) {
      log('sheet_converter_failed', { error: String(err), stack: (err as Error)?.stack });
      throw new TaskError({ reason: 'document_unreadable', message: CONVERTER_FAILED });
    }
    if (err.problem === 'password') throw new TaskError({ reason: 'document_password', message: err.message });
    if (err.problem === 'corrupt') throw new TaskError({ reason: 'document_corrupt', message: WORKBOOK_DAMAGED });
    throw new TaskError({ reason: 'document_unreadable', message: err.message });
  }
}
