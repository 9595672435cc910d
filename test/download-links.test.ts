/**
 * Issue 40: a free result reads unavailable once its one download is spent; a once-valid download
 * link that expired (or whose result was removed) answers 410 result_deleted, a made-up one 404;
 * links start with PUBLIC_BASE_URL when it is set, whatever the Host header says.
 */
import { describe, expect, it } from 'vitest';
import { SELF, env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { BASE, markerPdf, newAccount, runOp, uploadOk, type TaskRecord, type TestAccount } from './helpers';
import { newTaskId, queuedTask } from './fixtures';
import { createApp } from '../src/api/app';
import { publicBaseUrl } from '../src/service/env';
import type { TaskObject } from '../src/service/tasks/task-object';
import type { TaskState } from '../src/service/tasks/types';

async function expectProblem(res: Response, status: number, code: string): Promise<string> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
  const body = await res.json<{ code: string; detail: string }>();
  expect(body.code).toBe(code);
  return body.detail;
}

/** A done task of `acct` whose result is a small PDF in R2, finished by hand (no queue). */
async function doneTask(acct: TestAccount, plan: 'free' | 'standard', webhookUrl: string | null = null, baseUrl = BASE) {
  const taskId = newTaskId();
  if (webhookUrl || baseUrl !== BASE) {
    await env.TASK.get(env.TASK.idFromName(taskId)).create({
      task_id: taskId, account_id: acct.accountId, key_id: acct.keyId, plan, op_path: 'rotate', operation_type: 'rotate_pdf', inputs: [],
      params_json: '{}', webhook_url: webhookUrl, base_url: baseUrl, charge_kopecks: 0, charge_units: 1, included: false,
    });
  } else await queuedTask(acct, plan, { taskId });
  const stub = env.TASK.get(env.TASK.idFromName(taskId));
  const bytes = await markerPdf(1, 'D');
  const r2Key = `results/${acct.accountId}/${taskId}/d_service.pdf`;
  await env.FILES.put(r2Key, bytes);
  return { taskId, stub, bytes, finish: () => stub.finish({ r2_key: r2Key, filename: 'd_service.pdf', content_type: 'application/pdf', size: bytes.length }) };
}

/** Changes the stored state and makes the object read it afresh. */
async function edit(stub: DurableObjectStub<TaskObject>, change: (task: TaskState) => void): Promise<void> {
  await runInDurableObject(stub, async (instance: TaskObject, state) => {
    const task = (await state.storage.get<TaskState>('task'))!;
    change(task);
    await state.storage.put('task', task);
    (instance as unknown as { cached: unknown }).cached = null;
  });
}

const record = async (acct: TestAccount, taskId: string) => (await acct.api(`/v1/tasks/${taskId}`)).json<TaskRecord>();

describe('free plan: the one download', () => {
  it('after it the record says result_available false and download_url null at once; a second download is 410', async () => {
    const acct = await newAccount({ plan: 'free' });
    const up = await uploadOk(acct, await markerPdf(1, 'F'), 'f.pdf');
    const rec = await runOp(acct, 'rotate', { file_id: up.file_id, angle: 90 });
    expect(rec).toMatchObject({ status: 'done', result_available: true });
    const first = await SELF.fetch(rec.download_url!);
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    // Straight after the download, before the cleanup has removed anything.
    expect(await record(acct, rec.task_id)).toMatchObject({ status: 'done', result_available: false, download_url: null });
    await expectProblem(await SELF.fetch(rec.download_url!), 410, 'result_deleted');
    await expectProblem(await acct.api(`/v1/tasks/${rec.task_id}/result`), 410, 'result_deleted');
  });

  it('the same with the key download (GET /v1/tasks/{id}/result); the cleanup then removes the bytes', async () => {
    const acct = await newAccount({ plan: 'free' });
    const t = await doneTask(acct, 'free');
    await t.finish();
    const before = await record(acct, t.taskId);
    expect(before.result_available).toBe(true);
    const res = await acct.api(`/v1/tasks/${t.taskId}/result`);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(t.bytes);
    expect(await record(acct, t.taskId)).toMatchObject({ result_available: false, download_url: null });
    await expectProblem(await SELF.fetch(before.download_url!), 410, 'result_deleted');
    await edit(t.stub, (task) => (task.deadlines.cleanup = Date.now() - 1));
    await runDurableObjectAlarm(t.stub);
    expect(await env.FILES.head(`results/${acct.accountId}/${t.taskId}/d_service.pdf`)).toBeNull();
    await expectProblem(await SELF.fetch(before.download_url!), 410, 'result_deleted');
  });
});

describe('download links that stopped working', () => {
  it('an expired link is 410 result_deleted even after a fresh one was issued; a made-up one is 404', async () => {
    const acct = await newAccount();
    const t = await doneTask(acct, 'standard');
    await t.finish();
    const old = (await record(acct, t.taskId)).download_url!;
    await edit(t.stub, (task) => {
      for (const k of Object.keys(task.tokens)) task.tokens[k] = Date.now() - 1;
    });
    const fresh = (await record(acct, t.taskId)).download_url!; // retires the expired one, issues another
    expect(fresh).not.toBe(old);
    expect(await expectProblem(await SELF.fetch(old), 410, 'result_deleted')).toMatch(/expired/);
    const ok = await SELF.fetch(fresh);
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    await expectProblem(await SELF.fetch(`${BASE}/v1/download/${t.taskId}.madeUpTokenThatWasNeverIssued`), 404, 'not_found');
    await expectProblem(await SELF.fetch(`${BASE}/v1/download/${newTaskId()}.whatever`), 404, 'not_found');
  });

  it('once the result expired every link it had is 410, and an unknown one still 404', async () => {
    const acct = await newAccount();
    const t = await doneTask(acct, 'standard');
    await t.finish();
    const link = (await record(acct, t.taskId)).download_url!;
    await edit(t.stub, (task) => {
      task.deadlines.result_expiry = Date.now() - 1;
      task.result_expires_at = Date.now() - 1;
    });
    await runDurableObjectAlarm(t.stub);
    expect(await record(acct, t.taskId)).toMatchObject({ result_available: false, download_url: null });
    expect(await expectProblem(await SELF.fetch(link), 410, 'result_deleted')).toMatch(/deleted/);
    await expectProblem(await SELF.fetch(`${BASE}/v1/download/${t.taskId}.neverIssued`), 404, 'not_found');
  });
});

describe('PUBLIC_BASE_URL', () => {
  it('publicBaseUrl: the configured base (trailing slash dropped), else the request origin', () => {
    expect(publicBaseUrl({ PUBLIC_BASE_URL: 'https://pdf.example.com/' }, 'https://evil.example')).toBe('https://pdf.example.com');
    expect(publicBaseUrl({ PUBLIC_BASE_URL: '' }, 'https://evil.example')).toBe('https://evil.example');
    expect(publicBaseUrl({}, 'https://evil.example')).toBe('https://evil.example');
    expect(publicBaseUrl({ PUBLIC_BASE_URL: 'javascript:alert(1)' }, 'https://x.test')).toBe('https://x.test');
  });

  it('download_url uses the configured base even when the request says Host: evil.example; unset, the request origin', async () => {
    const acct = await newAccount();
    const t = await doneTask(acct, 'standard');
    await t.finish();
    const app = createApp();
    const configured = { ...env, PUBLIC_BASE_URL: 'https://pdf.example.com' } as typeof env;
    const ask = (e: typeof env) => app.fetch(new Request(`https://evil.example/v1/tasks/${t.taskId}`, { headers: { 'x-api-key': acct.secret, host: 'evil.example' } }), e);
    const rec = await (await ask(configured)).json<TaskRecord>();
    expect(rec.download_url).toMatch(/^https:\/\/pdf\.example\.com\/v1\/download\/task_/);
    const unset = await (await ask({ ...env, PUBLIC_BASE_URL: '' } as typeof env)).json<TaskRecord>();
    expect(unset.download_url).toMatch(/^https:\/\/evil\.example\/v1\/download\//);
  });

  it("the webhook's download_url uses the configured base, not the origin the task was created from", async () => {
    const acct = await newAccount();
    const t = await doneTask(acct, 'standard', 'https://hooks.example.test/done', 'https://evil.example');
    await runInDurableObject(t.stub, (instance: TaskObject) => {
      const self = instance as unknown as { env: typeof env };
      self.env = { ...self.env, PUBLIC_BASE_URL: 'https://pdf.example.com' } as typeof env;
    });
    await t.finish();
    const body = await runInDurableObject(t.stub, async (_i: TaskObject, state) => JSON.parse((await state.storage.get<TaskState>('task'))!.webhook!.body) as { download_url: string });
    expect(body.download_url).toMatch(/^https:\/\/pdf\.example\.com\/v1\/download\/task_/);
  });
});
