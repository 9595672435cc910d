/** protect: AES-256 (R6) written by us; any password works; owner password and permissions as DECISIONS says. */
import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { balanceOf, download, inspect, markerPdf, newAccount, runOp, uploadOk, type TestAccount } from './helpers';
import { expectProblem } from './fixtures';

async function opened(bytes: Uint8Array, password: string) {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF()!;
  try {
    const needed = doc.needsPassword();
    const as = doc.authenticatePassword(password);
    const encrypt = doc.getTrailer().get('Encrypt');
    return {
      needed,
      as, // 0 wrong, 2 user, 4 owner
      revision: encrypt.get('R').asNumber(),
      cipher: encrypt.get('CF').get('StdCF').get('CFM').asName(),
      text: as ? doc.loadPage(0).toStructuredText('preserve-whitespace').asText() : '',
      may: Object.fromEntries((['print', 'copy', 'edit', 'annotate'] as const).map((p) => [p, doc.hasPermission(p)])) as Record<'print' | 'copy' | 'edit' | 'annotate', boolean>,
    };
  } finally {
    doc.destroy();
  }
}

async function protect(acct: TestAccount, bytes: Uint8Array, body: Record<string, unknown>) {
  const up = await uploadOk(acct, bytes, 'report.pdf');
  return runOp(acct, 'protect', { file_id: up.file_id, ...body });
}

describe('protect', () => {
  it('AES-256 (R6): the password is needed to open it, the text is kept, 1.25 charged', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const rec = await protect(acct, await markerPdf(2, 'S'), { password: 'open sesame' });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    expect(rec.operation_type).toBe('protect_pdf');
    const out = await download(rec);
    const wrong = await opened(out, 'nope');
    expect(wrong).toMatchObject({ needed: true, as: 0, revision: 6, cipher: 'AESV3' });
    const right = await opened(out, 'open sesame');
    expect(right.as).toBe(2);
    expect(right.text).toContain('MARK-S-1');
    expect(await balanceOf(acct)).toBe('8.75');
  });

  it('owner_password lifts the restrictions that allow leaves on', async () => {
    const acct = await newAccount();
    const out = await download(await protect(acct, await markerPdf(1, 'P'), { password: 'reader', owner_password: 'boss', allow: ['print'] }));
    const reader = await opened(out, 'reader');
    expect(reader.as).toBe(2);
    expect(reader.may).toEqual({ print: true, copy: false, edit: false, annotate: false });
    expect((await opened(out, 'boss')).as).toBe(4);
  });

  it('a password with commas, quotes, spaces and Cyrillic: protected, then unlocked with the same password', async () => {
    const acct = await newAccount();
    const password = 'пароль, "с" запятой и пробелами';
    const locked = await protect(acct, await markerPdf(2, 'Q'), { password });
    expect((await opened(await download(locked), password)).as).toBe(2);
    const chained = await (await acct.api(`/v1/upload/from-task/${locked.task_id}`, { method: 'POST' })).json<{ file_id: string }>();
    const unlocked = await runOp(acct, 'unlock', { file_id: chained.file_id, password });
    expect(unlocked.status, unlocked.error_message ?? '').toBe('done');
    expect((await inspect(await download(unlocked))).markers).toEqual(['MARK-Q-1', 'MARK-Q-2']);
  });

  it('password missing, empty or over 128 characters, or an unknown permission: 422, nothing charged', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'X'), 'x.pdf');
    const post = (body: Record<string, unknown>) => acct.json('/v1/pdf/protect', { file_id: up.file_id, ...body });
    expect((await expectProblem(await post({}), 422, 'validation_error')).errors).toContainEqual({ path: 'password', message: 'password is required' });
    await expectProblem(await post({ password: '' }), 422, 'validation_error');
    await expectProblem(await post({ password: 'x'.repeat(129) }), 422, 'validation_error');
    const unknown = await expectProblem(await post({ password: 'ok', allow: ['print', 'fly'] }), 422, 'validation_error');
    expect(unknown.errors![0]).toMatchObject({ path: 'allow[1]', message: expect.stringMatching(/one of "print", "modify", "copy", "annotate", "fill_forms", "assemble"/) });
    expect(await balanceOf(acct)).toBe('5.00');
  });
});
