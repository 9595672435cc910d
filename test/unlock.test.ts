/** unlock: the right password gives an unencrypted copy; a wrong one, or nothing to unlock, fails and refunds. */
import { describe, expect, it } from 'vitest';
import { loadMupdf } from '../src/pdf/mupdf';
import { balanceOf, download, inspect, markerPdf, newAccount, runOp, uploadOk } from './helpers';
import { encryptPdf, savedAndFreed } from './fixtures';

/** The PDF saved by MuPDF with AES-256 and these passwords. */
async function lockedWith(bytes: Uint8Array, user: string, owner: string): Promise<Uint8Array> {
  const mupdf = await loadMupdf();
  return savedAndFreed(mupdf.Document.openDocument(bytes, 'application/pdf').asPDF()!, `encrypt=aes-256,user-password=${user},owner-password=${owner}`);
}

async function isEncrypted(bytes: Uint8Array): Promise<boolean> {
  const mupdf = await loadMupdf();
  const doc = mupdf.Document.openDocument(bytes, 'application/pdf').asPDF()!;
  try {
    return doc.needsPassword() || !doc.getTrailer().get('Encrypt').isNull();
  } finally {
    doc.destroy();
  }
}

describe('unlock', () => {
  it('the user password gives an unencrypted copy with the same pages and text', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await encryptPdf(await markerPdf(3, 'U')), 'secret.pdf');
    expect(up.pages).toBeNull(); // the upload cannot read an encrypted file's pages
    const rec = await runOp(acct, 'unlock', { file_id: up.file_id, password: 'u' });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    expect(rec.operation_type).toBe('unlock_pdf');
    const out = await download(rec);
    expect(await isEncrypted(out)).toBe(false);
    expect((await inspect(out)).markers).toEqual(['MARK-U-1', 'MARK-U-2', 'MARK-U-3']);
    expect(await balanceOf(acct)).toBe('8.75');
  });

  it('the owner password works too; so does a password with spaces, quotes and Cyrillic', async () => {
    const acct = await newAccount();
    const owner = await runOp(acct, 'unlock', { file_id: (await uploadOk(acct, await encryptPdf(await markerPdf(1, 'O')), 'o.pdf')).file_id, password: 'o' });
    expect(owner.status, owner.error_message ?? '').toBe('done');
    const password = 'Пароль с "кавычками" и пробелами';
    const up = await uploadOk(acct, await lockedWith(await markerPdf(1, 'C'), password, 'owner'), 'c.pdf');
    const rec = await runOp(acct, 'unlock', { file_id: up.file_id, password });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    expect((await inspect(await download(rec))).markers).toEqual(['MARK-C-1']);
  });

  it('a wrong password fails the task with what to do, and the charge is refunded', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await encryptPdf(await markerPdf(1, 'W')), 'w.pdf');
    const rec = await runOp(acct, 'unlock', { file_id: up.file_id, password: 'not it' });
    expect(rec.status).toBe('failed');
    expect(rec.refunded).toBe(true);
    expect(rec.error_message).toMatch(/password is wrong.*case-sensitive/);
    expect(await balanceOf(acct)).toBe('10.00');
  });

  it('a PDF without a password is not "unlocked": the task says so and is refunded', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'N'), 'n.pdf');
    const rec = await runOp(acct, 'unlock', { file_id: up.file_id, password: 'anything' });
    expect(rec.status).toBe('failed');
    expect(rec.error_message).toMatch(/not password-protected/);
    expect(await balanceOf(acct)).toBe('10.00');
  });

  it('an unlocked result chains into the operations that refused the locked file', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await encryptPdf(await markerPdf(2, 'K')), 'k.pdf');
    const refused = await runOp(acct, 'rotate', { file_id: up.file_id });
    expect(refused.error_message).toMatch(/unlock it with POST \/v1\/pdf\/unlock first/);
    const unlocked = await runOp(acct, 'unlock', { file_id: up.file_id, password: 'u' });
    const chained = await (await acct.api(`/v1/upload/from-task/${unlocked.task_id}`, { method: 'POST' })).json<{ file_id: string; pages: number }>();
    expect(chained.pages).toBe(2);
    const rotated = await runOp(acct, 'rotate', { file_id: chained.file_id, angle: 90 });
    expect((await inspect(await download(rotated))).rotations).toEqual([90, 90]);
  });

  it('a PDF with an owner password alone is unlocked without a password; one that asks for a password to open gets a message saying to send it', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const ownerOnly = await uploadOk(acct, await lockedWith(await markerPdf(2, 'W'), '', 'owner'), 'owner-only.pdf');
    const rec = await runOp(acct, 'unlock', { file_id: ownerOnly.file_id });
    expect(rec.status, rec.error_message ?? '').toBe('done');
    const mupdf = await loadMupdf();
    const doc = mupdf.Document.openDocument(await download(rec), 'application/pdf').asPDF()!;
    expect(doc.getTrailer().get('Encrypt').isNull()).toBe(true);
    expect(doc.countPages()).toBe(2);
    doc.destroy();
    const locked = await uploadOk(acct, await encryptPdf(await markerPdf(1, 'L')), 'locked.pdf');
    const asks = await runOp(acct, 'unlock', { file_id: locked.file_id });
    expect(asks.status).toBe('failed');
    expect(asks.error_message).toMatch(/asks for a password to open: send it as password/);
    expect(asks.refunded).toBe(true);
  });
});
