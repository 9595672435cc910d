/**
 * Every 422 says what a field must be (src/lib/messages.ts, one error map for all operations),
 * with its exact path; list parameters are bounded and checked before anything is charged.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describe as describeSchema } from '../src/lib/messages';
import { OPERATIONS } from '../src/operations';
import { balanceOf, download, inspect, markerPdf, newAccount, runOp, uploadOk, type TestAccount } from './helpers';
import { expectProblem } from './fixtures';

async function problemsOf(acct: TestAccount, op: string, body: unknown) {
  const problem = await expectProblem(await acct.json(`/v1/pdf/${op}`, body), 422, 'validation_error');
  return problem.errors!;
}

describe('validation messages say what is expected', () => {
  it.each([
    ['rotate', { file_id: 123 }, 'file_id', 'file_id must be a string of 1 to 100 characters, not a whole number'],
    ['rotate', { file_id: undefined }, 'file_id', 'file_id is required'],
    ['rotate', { angle: '90' }, 'angle', 'angle must be one of 90, 180, 270'],
    ['rotate', { angle: 45 }, 'angle', 'angle must be one of 90, 180, 270'],
    ['rotate', { pages: '1,2' }, 'pages', 'pages must be a list of page numbers or "all"'],
    ['rotate', { pages: [1.5] }, 'pages', 'pages must be a list of page numbers or "all"'],
    ['extract-pages', { pages: 'all' }, 'pages', 'pages must be a list of page numbers (1 to 10,000 entries), not a string'],
    ['extract-pages', { pages: [1, 'two'] }, 'pages[1]', 'pages[1] must be a page number (1 for the first page), not a string'],
    ['to-txt', { mode: 'xml' }, 'mode', 'mode must be one of "text", "blocks", "words"'],
    ['split', { mode: 'ranges', ranges: [[1]] }, 'ranges[0]', 'ranges[0] must be a range [first page, last page]'],
    ['merge', { file_ids: 'a,b' }, 'file_ids', 'file_ids must be a list of strings of 1 to 100 characters (2 to 20 entries), not a string'],
  ])('%s %j → %s: %s', async (op, extra, path, message) => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(2, 'V'), 'v.pdf');
    const body = op === 'merge' ? extra : { file_id: up.file_id, ...extra };
    const errors = await problemsOf(acct, op, body);
    expect(errors).toContainEqual({ path, message });
  });

  it('every operation answers a wrong-typed input id with what it must be', async () => {
    const acct = await newAccount();
    for (const op of OPERATIONS) {
      const field = op.inputs.kind === 'file_id' ? 'file_id' : 'file_ids';
      const errors = await problemsOf(acct, op.path, { [field]: 5 });
      expect(errors[0], op.path).toMatchObject({ path: field, message: expect.stringMatching(new RegExp(`^${field} must be .*, not a whole number$`)) });
    }
  });

  it('the map describes numbers with their bounds', () => {
    expect(describeSchema(z.number().int().min(6).max(72))).toBe('a whole number between 6 and 72');
    expect(describeSchema(z.number().min(0).max(1))).toBe('a number between 0 and 1');
    expect(describeSchema(z.enum(['low', 'medium', 'high']))).toBe('one of "low", "medium", "high"');
    expect(describeSchema(z.array(z.string()).max(4))).toBe('a list of strings (at most 4 entries)');
  });
});

describe('bounded lists', () => {
  it('a page list over 10,000 entries is refused before charging', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(2, 'L'), 'l.pdf');
    const errors = await problemsOf(acct, 'extract-pages', { file_id: up.file_id, pages: Array(10_001).fill(1) });
    expect(errors).toContainEqual({ path: 'pages', message: 'list at most 10,000 pages' });
    expect(await balanceOf(acct)).toBe('10.00');
  });

  it('extract-pages with 1,000 entries of a 2-page file gives 1,000 pages, not "damaged"', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(2, 'X'), 'x.pdf');
    const rec = await runOp(acct, 'extract-pages', { file_id: up.file_id, pages: Array.from({ length: 1000 }, (_, i) => (i % 2) + 1) });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    const info = await inspect(await download(rec));
    expect(info.markers).toHaveLength(1000);
    expect(info.markers.slice(0, 3)).toEqual(["MARK-X-1", "MARK-X-2", "MARK-X-1"]);
  });
});
