import { describe, expect, it } from 'vitest';
import { PDFArray, PDFDocument, PDFName, PDFNumber } from 'pdf-lib';
import { balanceOf, download, inspect, markerPdf, newAccount, runOp, uploadOk } from './helpers';

/** A 3-page document whose page tree lists page 1's object again as page 3 (real files do this). */
async function sharedPageObject(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await markerPdf(2, 'D'));
  const pages = doc.catalog.Pages();
  const kids = pages.lookup(PDFName.of('Kids'), PDFArray);
  kids.push(kids.get(0));
  pages.set(PDFName.of('Count'), PDFNumber.of(3));
  return doc.save({ useObjectStreams: false });
}

describe('rotate', () => {
  it('turns every page 90° clockwise by default, adding to an existing rotation', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(3, 'R', { rotate: [90, 0, 0] }), 'report.pdf');
    expect(up.pages).toBe(3);
    const rec = await runOp(acct, 'rotate', { file_id: up.file_id });
    expect(rec.status).toBe('done');
    expect(rec.operation_type).toBe('rotate_pdf');
    expect(rec.filename).toBe('report_service.pdf');
    expect(rec.charge).toBe('1.25');
    const out = await inspect(await download(rec));
    expect(out.rotations).toEqual([180, 90, 90]);
    expect(out.sizes[1]).toEqual([400, 300]);
    expect(out.markers).toEqual(['MARK-R-1', 'MARK-R-2', 'MARK-R-3']);
    expect(await balanceOf(acct)).toBe('8.75');
  });

  it('rotates only the listed pages by the given angle and keeps the original bytes as a prefix', async () => {
    const acct = await newAccount();
    const input = await markerPdf(4, 'S');
    const up = await uploadOk(acct, input, 'four.pdf');
    const rec = await runOp(acct, 'rotate', { file_id: up.file_id, pages: [2, 4], angle: 270 });
    const bytes = await download(rec);
    expect((await inspect(bytes)).rotations).toEqual([0, 270, 0, 270]);
    // An incremental update: the input is untouched at the start of the output.
    expect(bytes.length).toBeGreaterThan(input.length);
    expect(bytes.subarray(0, input.length)).toEqual(input);
  });

  it('turns a page object listed twice in the page tree once, not twice', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await sharedPageObject(), 'shared.pdf');
    expect(up.pages).toBe(3);
    const out = await inspect(await download(await runOp(acct, 'rotate', { file_id: up.file_id })));
    expect(out.markers).toEqual(['MARK-D-1', 'MARK-D-2', 'MARK-D-1']);
    expect(out.rotations).toEqual([90, 90, 90]);
  });

  it('refuses a page outside the document and a bad angle with 422 and charges nothing', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, await markerPdf(2, 'T'), 'two.pdf');
    const far = await acct.json('/v1/pdf/rotate', { file_id: up.file_id, pages: [3] });
    expect(far.status).toBe(422);
    const problem = await far.json<{ code: string; errors: { path: string; message: string }[] }>();
    expect(problem.code).toBe('validation_error');
    expect(problem.errors[0]).toEqual({ path: 'pages[0]', message: 'page 3 does not exist: the document has 2 pages' });
    expect((await acct.json('/v1/pdf/rotate', { file_id: up.file_id, angle: 45 })).status).toBe(422);
    expect(await balanceOf(acct)).toBe('5.00');
  });
});
