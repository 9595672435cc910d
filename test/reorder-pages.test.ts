import { describe, expect, it } from 'vitest';
import { balanceOf, download, inspect, markerPdf, newAccount, runOp, uploadOk } from './helpers';
import { loadMupdf } from '../src/pdf/mupdf';

/**
 * markerPdf's pages under two intermediate page-tree nodes, the first of which gives its pages a
 * 300 × 400 MediaBox and a 90° rotation by inheritance (the pages' own entries removed).
 */
async function nestedTreePdf(): Promise<Uint8Array> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(await markerPdf(4, 'N'), 'application/pdf').asPDF()!;
  try {
    const root = doc.getTrailer().get('Root').get('Pages');
    const kids = root.get('Kids');
    const pages = [0, 1, 2, 3].map((i) => kids.get(i));
    const node = (members: typeof pages, extra: (n: ReturnType<typeof doc.newDictionary>) => void) => {
      const dict = doc.newDictionary();
      dict.put('Type', doc.newName('Pages'));
      const list = doc.newArray();
      for (const p of members) list.push(p);
      dict.put('Kids', list);
      dict.put('Count', members.length);
      dict.put('Parent', root);
      extra(dict);
      const ref = doc.addObject(dict);
      for (const p of members) p.put('Parent', ref);
      return ref;
    };
    for (const p of pages.slice(0, 2)) (p.delete('MediaBox'), p.delete('Rotate'));
    const box = doc.newArray();
    for (const v of [0, 0, 300, 400]) box.push(v);
    const first = node(pages.slice(0, 2), (d) => (d.put('MediaBox', box), d.put('Rotate', 90)));
    const second = node(pages.slice(2), () => {});
    const top = doc.newArray();
    top.push(first);
    top.push(second);
    root.put('Kids', top);
    return savedAndFreed(doc, '');
  } catch (e) {
    doc.destroy();
    throw e;
  }
}
import { expectProblem, savedAndFreed } from './fixtures';

describe('reorder-pages', () => {
  it('puts the listed pages first, then the rest in their original order', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(5, 'O'), 'slides.pdf');
    const rec = await runOp(acct, 'reorder-pages', { file_id: up.file_id, new_order: [4, 2] });
    expect(rec.status).toBe('done');
    expect(rec.operation_type).toBe('reorder_pages');
    expect(rec.filename).toBe('slides_service.pdf');
    expect(rec.charge).toBe('1.25');
    const out = await inspect(await download(rec));
    expect(out.markers).toEqual(['MARK-O-4', 'MARK-O-2', 'MARK-O-1', 'MARK-O-3', 'MARK-O-5']);
    expect(await balanceOf(acct)).toBe('8.75');
  });

  it('a full order is applied as given; every page is kept once', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(4, 'P', { rotate: [90, 0, 0, 0] }), 'p.pdf');
    const rec = await runOp(acct, 'reorder-pages', { file_id: up.file_id, new_order: [3, 4, 1, 2] });
    const out = await inspect(await download(rec));
    expect(out.markers).toEqual(['MARK-P-3', 'MARK-P-4', 'MARK-P-1', 'MARK-P-2']);
    expect(out.rotations).toEqual([0, 0, 90, 0]);
  });

  it('refuses duplicates and pages past the end with 422 and charges nothing', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, await markerPdf(3, 'Q'), 'q.pdf');
    const reorder = (new_order: unknown) => acct.json('/v1/pdf/reorder-pages', { file_id: up.file_id, new_order });
    const dup = await expectProblem(await reorder([2, 1, 2]), 422, 'validation_error');
    expect(dup.errors).toEqual([{ path: 'new_order[2]', message: 'page 2 is listed twice' }]);
    const past = await expectProblem(await reorder([3, 4]), 422, 'validation_error');
    expect(past.errors).toEqual([{ path: 'new_order[1]', message: 'page 4 does not exist: the document has 3 pages' }]);
    await expectProblem(await reorder([]), 422, 'validation_error');
    await expectProblem(await reorder([0, 1]), 422, 'validation_error');
    await expectProblem(await acct.json('/v1/pdf/reorder-pages', { file_id: up.file_id, pages: [2, 1] }), 422, 'validation_error');
    expect(await balanceOf(acct)).toBe('5.00');
  });

  it('a nested page tree: pages keep what they inherited, and the result is the original with an update appended', async () => {
    const acct = await newAccount();
    const original = await nestedTreePdf();
    const before = await inspect(original);
    expect(before.rotations).toEqual([90, 90, 0, 0]);
    const up = await uploadOk(acct, original, 'nested.pdf');
    const rec = await runOp(acct, 'reorder-pages', { file_id: up.file_id, new_order: [4, 3, 2, 1] });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    const bytes = await download(rec);
    const out = await inspect(bytes);
    expect(out.markers).toEqual(['MARK-N-4', 'MARK-N-3', 'MARK-N-2', 'MARK-N-1']);
    expect(out.rotations).toEqual([0, 0, 90, 90]);
    expect(out.sizes[2]).toEqual(before.sizes[1]);
    expect(out.sizes[0]).toEqual(before.sizes[3]);
    // Every page kept: appended to the untouched original instead of rewritten.
    expect(bytes.subarray(0, original.length)).toEqual(original);
  });
});
