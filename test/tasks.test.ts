import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { BASE, balanceOf, download, inspect, markerPdf, newAccount, runOp, uploadOk, waitTask, type TaskRecord } from './helpers';
import { damagedPdf, encryptPdf, expectProblem, queuedTask } from './fixtures';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const get = (url: string) => SELF.fetch(url);

describe('task status record', () => {
  it('has exactly the fields of DECISIONS.md with consistent values once done', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(2, 'T'), 'report.pdf');
    const rec = (await runOp(acct, 'rotate', { file_id: up.file_id })) as TaskRecord & Record<string, unknown>;
    expect(Object.keys(rec).sort()).toEqual(
      ['task_id', 'operation_type', 'status', 'created_at', 'started_at', 'finished_at', 'progress', 'charge', 'charge_units', 'included',
        'refunded', 'filename', 'content_type', 'size', 'download_url', 'result_expires_at', 'result_available', 'error_message'].sort(),
    );
    expect(rec).toMatchObject({ operation_type: 'rotate_pdf', status: 'done', charge: '1.25', charge_units: 1, included: false, refunded: false,
      filename: 'report_service.pdf', content_type: 'application/pdf', result_available: true, error_message: null });
    expect(rec.task_id).toMatch(/^task_[0-9a-f]{32}$/);
    for (const f of ['created_at', 'started_at', 'finished_at', 'result_expires_at']) expect(rec[f]).toMatch(ISO);
    expect(Date.parse(rec.result_expires_at as string) - Date.parse(rec.finished_at as string)).toBe(3600_000);
    expect(rec.progress.done).toBe(rec.progress.total);
    expect(rec.download_url!.startsWith(`${BASE}/v1/download/`)).toBe(true);
    expect(rec.size).toBe((await download(rec)).length);
  });

  it('a queued task has null result fields, and chaining or downloading it is 409', async () => {
    const acct = await newAccount();
    const id = await queuedTask(acct);
    const rec = await (await acct.api(`/v1/tasks/${id}`)).json<Record<string, unknown>>();
    expect(rec).toMatchObject({ status: 'queued', started_at: null, finished_at: null, filename: null, content_type: null, size: null,
      download_url: null, result_expires_at: null, result_available: false, error_message: null });
    await expectProblem(await acct.api(`/v1/upload/from-task/${id}`, { method: 'POST' }), 409, 'task_not_finished');
    await expectProblem(await acct.api(`/v1/tasks/${id}/result`), 409, 'task_not_finished');
  });

  it("another account's task, an unknown and a malformed id are 404 not_found", async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const up = await uploadOk(owner, await markerPdf(1, 'N'), 'n.pdf');
    const rec = await runOp(owner, 'rotate', { file_id: up.file_id });
    await expectProblem(await other.api(`/v1/tasks/${rec.task_id}`), 404, 'not_found');
    await expectProblem(await other.api(`/v1/tasks/${rec.task_id}/result`), 404, 'not_found');
    await expectProblem(await other.api(`/v1/upload/from-task/${rec.task_id}`, { method: 'POST' }), 404, 'not_found');
    await expectProblem(await owner.api(`/v1/tasks/task_${'0'.repeat(32)}`), 404, 'not_found');
    await expectProblem(await owner.api('/v1/tasks/nonsense'), 404, 'not_found');
  });

  it('?wait=N answers when the task ends, or after N seconds; bad values are 422', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(1, 'W'), 'w.pdf');
    const { task_id } = await (await acct.json('/v1/pdf/rotate', { file_id: up.file_id })).json<{ task_id: string }>();
    let t0 = Date.now();
    const ended = await (await acct.api(`/v1/tasks/${task_id}?wait=60`)).json<TaskRecord>();
    expect(ended.status).toBe('done');
    expect(Date.now() - t0).toBeLessThan(30_000);

    const queued = await queuedTask(acct);
    t0 = Date.now();
    const still = await (await acct.api(`/v1/tasks/${queued}?wait=2`)).json<TaskRecord>();
    expect(still.status).toBe('queued');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1900);
    for (const bad of ['61', '-1', '1.5', 'abc']) await expectProblem(await acct.api(`/v1/tasks/${task_id}?wait=${bad}`), 422, 'validation_error');
  });
});

describe('download', () => {
  it('streams the result with Content-Type, Content-Length and an RFC 6266 Content-Disposition', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(2, 'U'), 'Отчёт.pdf');
    expect((up as unknown as { filename: string }).filename).toBe('Отчёт.pdf');
    const rec = await runOp(acct, 'rotate', { file_id: up.file_id });
    expect(rec.filename).toBe('Отчёт_service.pdf');
    const res = await get(rec.download_url!);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(bytes.length).toBe(rec.size);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="______service.pdf"; filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82_service.pdf`,
    );
    // With the key: the same bytes and headers.
    const keyed = await acct.api(`/v1/tasks/${rec.task_id}/result`);
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('content-disposition')).toBe(res.headers.get('content-disposition'));
    expect(new Uint8Array(await keyed.arrayBuffer())).toEqual(bytes);
    expect((await inspect(bytes)).rotations).toEqual([90, 90]);
  });

  it('refuses a forged or foreign token with 404', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(1, 'F'), 'f.pdf');
    const rec = await runOp(acct, 'rotate', { file_id: up.file_id });
    await expectProblem(await get(`${BASE}/v1/download/${rec.task_id}.forged`), 404, 'not_found');
    await expectProblem(await get(`${BASE}/v1/download/nothing`), 404, 'not_found');
  });

  it('free plan: one download, then 410 result_deleted; the result is removed after the cleanup delay', async () => {
    const acct = await newAccount({ plan: 'free' });
    const up = await uploadOk(acct, await markerPdf(1, 'G'), 'g.pdf');
    const rec = await runOp(acct, 'rotate', { file_id: up.file_id });
    // Chaining is not a download: it leaves the single download intact.
    expect((await acct.api(`/v1/upload/from-task/${rec.task_id}`, { method: 'POST' })).status).toBe(201);
    expect((await get(rec.download_url!)).status).toBe(200);
    await expectProblem(await get(rec.download_url!), 410, 'result_deleted');
    await expectProblem(await acct.api(`/v1/tasks/${rec.task_id}/result`), 410, 'result_deleted');
    await expectProblem(await acct.api(`/v1/upload/from-task/${rec.task_id}`, { method: 'POST' }), 410, 'result_deleted');
    let after: TaskRecord | undefined;
    for (let i = 0; i < 50 && after?.result_available !== false; i++) {
      await new Promise((r) => setTimeout(r, 200));
      after = await (await acct.api(`/v1/tasks/${rec.task_id}`)).json<TaskRecord>();
    }
    expect(after).toMatchObject({ status: 'done', result_available: false, download_url: null });
  });
});

describe('chaining', () => {
  it('POST /v1/upload/from-task/{id} makes a new file named as the result, paid separately when used', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(3, 'C'), 'report.pdf');
    const first = await runOp(acct, 'rotate', { file_id: up.file_id, pages: [1] });
    const res = await acct.api(`/v1/upload/from-task/${first.task_id}`, { method: 'POST' });
    expect(res.status).toBe(201);
    const file = await res.json<{ file_id: string; filename: string; size: number; content_type: string; pages: number; expires_at: string }>();
    expect(file).toMatchObject({ filename: 'report_service.pdf', size: first.size, content_type: 'application/pdf', pages: 3 });
    expect(file.file_id).not.toBe(up.file_id);
    expect(file.expires_at).toMatch(ISO);
    const second = await runOp(acct, 'rotate', { file_id: file.file_id, pages: [1, 2] });
    expect(second.filename).toBe('report_service.pdf');
    expect((await inspect(await download(second))).rotations).toEqual([180, 90, 0]);
    expect(await balanceOf(acct)).toBe('7.50');
  });

  it('refuses a ZIP result with 422, an unknown task with 404 and a failed task with 422', async () => {
    const acct = await newAccount();
    const up = await uploadOk(acct, await markerPdf(2, 'Z'), 'z.pdf');
    const split = await runOp(acct, 'split', { file_id: up.file_id });
    const zip = await expectProblem(await acct.api(`/v1/upload/from-task/${split.task_id}`, { method: 'POST' }), 422, 'validation_error');
    expect(zip.errors![0]!.path).toBe('task_id');
    await expectProblem(await acct.api(`/v1/upload/from-task/task_${'f'.repeat(32)}`, { method: 'POST' }), 404, 'not_found');
    const bad = await uploadOk(acct, damagedPdf(await markerPdf(2, 'Z')), 'bad.pdf');
    const failed = await runOp(acct, 'rotate', { file_id: bad.file_id });
    await expectProblem(await acct.api(`/v1/upload/from-task/${failed.task_id}`, { method: 'POST' }), 422, 'validation_error');
  });
});

describe('failed tasks', () => {
  it('a damaged PDF uploads, then its task fails with a readable message and the charge is returned', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, damagedPdf(await markerPdf(3, 'B')), 'broken.pdf');
    expect(up.pages).toBeNull();
    const rec = await runOp(acct, 'rotate', { file_id: up.file_id });
    expect(rec).toMatchObject({ status: 'failed', refunded: true, charge: '1.25', filename: null, download_url: null, result_available: false });
    expect(rec.error_message).toBe(
      'The file is damaged and could not be repaired: re-export or re-save it from the program that made it and upload it again.',
    );
    expect(await balanceOf(acct)).toBe('10.00');
  });

  it('an encrypted PDF uploads with pages null; its task fails saying to unlock first, refunded', async () => {
    const acct = await newAccount({ balance: '3.00' });
    const up = await uploadOk(acct, await encryptPdf(await markerPdf(2, 'L')), 'secret.pdf');
    expect(up.pages).toBeNull();
    const rec = await runOp(acct, 'rotate', { file_id: up.file_id });
    expect(rec.status).toBe('failed');
    expect(rec.refunded).toBe(true);
    expect(rec.error_message).toMatch(/unlock/);
    expect(rec.error_message).toContain('POST /v1/pdf/unlock');
    expect(await balanceOf(acct)).toBe('3.00');
  });

  // MuPDF "repairs" a PDF whose page tree is lost into a 0-page document: that is damage, not a
  // valid empty file. The upload reports pages null and the task fails with a refund.
  it('a PDF repaired into zero pages is not processed as a valid document', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await acct.upload((await markerPdf(3, 'Q')).slice(0, 100), 'empty.pdf');
    if (up.status === 201) {
      const res = await acct.json('/v1/pdf/rotate', { file_id: (await up.json<{ file_id: string }>()).file_id });
      if (res.status === 202) {
        const rec = await waitTask(acct, (await res.json<{ task_id: string }>()).task_id);
        expect(rec).toMatchObject({ status: 'failed', refunded: true });
      } else await expectProblem(res, 422, 'validation_error');
    } else await expectProblem(up, 422, 'validation_error');
    expect(await balanceOf(acct)).toBe('10.00');
  });
});
