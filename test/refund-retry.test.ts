/**
 * Money is never lost (issue 39): a failed task's final state and its refund are one D1 batch;
 * when that batch fails, the task object keeps the refund pending and its alarm tries again until
 * the money is back, exactly once; the cron sweep is the safety net for what an alarm missed.
 * Failures are injected for real: a SQLite trigger in the test D1 aborts every UPDATE of the
 * task's operations row, so the refund's batch (a transaction) throws and writes nothing.
 */
import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chargeOperation, refundTask } from '../src/service/billing/charge';
import { sweep, RECONCILE_MARGIN_MS } from '../src/api/cron';
import { config } from '../src/service/env';
import { getAccount } from '../src/service/storage/accounts';
import { REFUND_RETRY_FIRST_MS, type RefundPending, type TaskObject } from '../src/service/tasks/task-object';
import type { TaskState } from '../src/service/tasks/types';
import { balanceOf, newAccount, type TestAccount } from './helpers';
import { newTaskId } from './fixtures';

const HOOKS = 'https://hooks.refund.test';
type Stored = TaskState & { refund_pending?: RefundPending };

/** Webhook deliveries to HOOKS, each with the account's balance in D1 at the moment it arrived. */
let deliveries: { event: string; body: Record<string, unknown>; balanceKopecks: number }[] = [];
beforeEach(() => {
  deliveries = [];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    if (!req.url.startsWith(HOOKS)) return realFetch(input as RequestInfo, init);
    const body = JSON.parse(await req.text()) as Record<string, unknown>;
    const owner = await env.DB.prepare('SELECT a.balance_kopecks AS b FROM operations o JOIN accounts a ON a.id = o.account_id WHERE o.task_id = ?')
      .bind(body['task_id'])
      .first<{ b: number }>();
    deliveries.push({ event: req.headers.get('x-service-event')!, body, balanceKopecks: owner!.b });
    return new Response('ok');
  });
});
afterEach(() => vi.restoreAllMocks());

/** A charged task whose object exists but that no consumer will run (nothing is enqueued). */
async function paidTask(acct: TestAccount, opts: { webhook?: boolean; units?: number } = {}) {
  const account = (await getAccount(env.DB, acct.accountId))!;
  const taskId = newTaskId();
  const key = { id: acct.keyId, account_id: account.id, name: 'test key', limit_kopecks: null, period: 'never' as const };
  const charge = await chargeOperation(env.DB, account, key, { taskId, operationId: `op_${taskId}`, type: 'rotate_pdf', units: opts.units ?? 1 });
  const stub = env.TASK.get(env.TASK.idFromName(taskId));
  await stub.create({
    task_id: taskId,
    account_id: acct.accountId,
    key_id: acct.keyId,
    plan: account.plan,
    op_path: 'rotate',
    operation_type: 'rotate_pdf',
    inputs: [],
    params_json: '{}',
    webhook_url: opts.webhook ? `${HOOKS}/failed` : null,
    base_url: 'https://pdf-edge.test',
    charge_kopecks: charge.kopecks,
    charge_units: charge.units,
    included: charge.included,
  });
  return { taskId, stub };
}

/** Every UPDATE of this task's operations row aborts (so does the refund's whole batch) until dropped. */
async function breakRefundsOf(taskId: string): Promise<() => Promise<void>> {
  const name = `inject_${taskId}`;
  await env.DB.prepare(`CREATE TRIGGER ${name} BEFORE UPDATE ON operations WHEN OLD.task_id = '${taskId}' BEGIN SELECT RAISE(ABORT, 'injected'); END`).run();
  return async () => void (await env.DB.prepare(`DROP TRIGGER ${name}`).run());
}

const row = (taskId: string) =>
  env.DB.prepare('SELECT status, refunded, finished_at FROM operations WHERE task_id = ?').bind(taskId).first<{ status: string; refunded: number; finished_at: number | null }>();
const ledger = async (taskId: string) =>
  (await env.DB.prepare('SELECT kind, amount_kopecks FROM ledger WHERE task_id = ? ORDER BY id').bind(taskId).all<{ kind: string; amount_kopecks: number }>()).results;
const stored = (stub: DurableObjectStub<TaskObject>) =>
  runInDurableObject(stub, async (_i: TaskObject, state) => ({ task: (await state.storage.get<Stored>('task'))!, alarm: await state.storage.getAlarm() }));

/** The task record as the user reads it (GET /v1/tasks/{id}) and its history row (GET /v1/account/operations). */
async function userView(acct: TestAccount, taskId: string) {
  const rec = await (await acct.api(`/v1/tasks/${taskId}`)).json<{ status: string; refunded: boolean; error_message: string | null }>();
  const history = await (await acct.api('/v1/account/operations')).json<{ items: { task_id: string; status: string; refunded: boolean }[] }>();
  return { rec, history: history.items.find((i) => i.task_id === taskId)! };
}

describe('a refund whose D1 write fails', () => {
  it('is kept pending, retried by the alarm until it succeeds, then the webhook goes out; money back exactly once', async () => {
    const acct = await newAccount({ balance: '2.00' });
    const { taskId, stub } = await paidTask(acct, { webhook: true });
    expect(await balanceOf(acct)).toBe('0.75');
    await stub.start();
    const repair = await breakRefundsOf(taskId);

    const before = Date.now();
    expect(await stub.fail({ reason: 'corrupt' })).toBe(true); // does not throw: the failure is recorded
    // The user sees the failure at once, with its message; the refund is not claimed before it happened.
    let seen = await userView(acct, taskId);
    expect(seen.rec).toMatchObject({ status: 'failed', refunded: false });
    expect(seen.rec.error_message).toMatch(/damaged/);
    expect(await balanceOf(acct)).toBe('0.75');
    expect(await ledger(taskId)).toEqual([{ kind: 'charge', amount_kopecks: -125 }]);
    expect(await row(taskId)).toMatchObject({ status: 'queued', refunded: 0, finished_at: null }); // the batch wrote nothing
    let s = await stored(stub);
    expect(s.task.refund_pending).toMatchObject({ attempts: 1 });
    expect(s.task.webhook).toBeNull(); // no task.failed before the refund
    expect(s.alarm).toBe(s.task.refund_pending!.next_at);
    expect(s.alarm! - before).toBeGreaterThanOrEqual(REFUND_RETRY_FIRST_MS);

    // A second failure report changes nothing; an alarm while D1 still refuses keeps it pending, later.
    expect(await stub.fail({ reason: 'internal' })).toBe(false);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    s = await stored(stub);
    expect(s.task.refund_pending).toMatchObject({ attempts: 2 });
    expect(s.alarm! - Date.now()).toBeGreaterThan(REFUND_RETRY_FIRST_MS); // backoff: 60 s after the second attempt
    expect(await balanceOf(acct)).toBe('0.75');
    expect(deliveries).toHaveLength(0);

    // D1 works again: the next alarm refunds, ends the history row and sends the webhook.
    await repair();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await balanceOf(acct)).toBe('2.00');
    expect(await ledger(taskId)).toEqual([
      { kind: 'charge', amount_kopecks: -125 },
      { kind: 'refund', amount_kopecks: 125 },
    ]);
    s = await stored(stub);
    expect(s.task.refund_pending).toBeUndefined();
    expect(s.task.refunded).toBe(true);
    expect(await row(taskId)).toEqual({ status: 'failed', refunded: 1, finished_at: s.task.finished_at });
    seen = await userView(acct, taskId);
    expect(seen.rec).toMatchObject({ status: 'failed', refunded: true });
    expect(seen.history).toMatchObject({ status: 'failed', refunded: true });
    expect(deliveries.map((d) => d.event)).toEqual(['task.failed']);
    expect(deliveries[0]!.body).toMatchObject({ task_id: taskId, status: 'failed' });
    expect(deliveries[0]!.balanceKopecks).toBe(200); // the receiver reading the balance sees the money back

    // Whoever asks again, however often: no second refund, no second webhook.
    expect(await stub.fail({ reason: 'timed_out' })).toBe(false);
    await runDurableObjectAlarm(stub);
    await runDurableObjectAlarm(stub);
    expect(await stub.reconcile()).toBe('refunded');
    expect(await refundTask(env.DB, taskId)).toBe(false);
    expect(await balanceOf(acct)).toBe('2.00');
    expect((await ledger(taskId)).filter((l) => l.kind === 'refund')).toHaveLength(1);
    expect(deliveries).toHaveLength(1);
  });

  it('an included request is given back only once the batch goes through', async () => {
    const acct = await newAccount({ plan: 'business', balance: '0.00', purchasedAt: new Date().toISOString() });
    const { taskId, stub } = await paidTask(acct);
    const used = async () => (await (await acct.api('/v1/api-keys/balance')).json<{ included_used: number }>()).included_used;
    expect(await used()).toBe(1);
    const repair = await breakRefundsOf(taskId);
    await stub.fail({ reason: 'corrupt' });
    expect(await used()).toBe(1);
    await repair();
    await runDurableObjectAlarm(stub);
    expect(await used()).toBe(0);
    expect(await row(taskId)).toMatchObject({ status: 'failed', refunded: 1 });
    expect(await ledger(taskId)).toEqual([]); // nothing was paid, nothing moves
    expect((await stub.view())!.state.refunded).toBe(true);
  });

  it('concurrent failure reports, alarms and reconciles refund once', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const { taskId, stub } = await paidTask(acct, { units: 2 });
    expect(await balanceOf(acct)).toBe('2.50');
    const outcomes = await Promise.all([
      stub.fail({ reason: 'corrupt' }),
      stub.fail({ reason: 'internal' }),
      stub.reconcile(),
      runDurableObjectAlarm(stub),
      stub.fail({ reason: 'timed_out' }),
    ]);
    const failed = [outcomes[0], outcomes[1], outcomes[4]];
    expect(failed.filter((o) => o === true)).toHaveLength(1); // one report ended the task, the others found it ended
    expect(await balanceOf(acct)).toBe('5.00');
    expect(await ledger(taskId)).toEqual([
      { kind: 'charge', amount_kopecks: -250 },
      { kind: 'refund', amount_kopecks: 250 },
    ]);
    expect((await stub.view())!.state).toMatchObject({ status: 'failed', refunded: true });
  });
});

describe('the cron sweep as the safety net', () => {
  const longAgo = () => Date.now() - config(env).taskWatchdogSeconds * 1000 - RECONCILE_MARGIN_MS - 60_000;
  const backdate = (taskId: string) => env.DB.prepare('UPDATE operations SET created_at = ? WHERE task_id = ?').bind(longAgo(), taskId).run();

  it('a task object whose alarm never came back: the sweep finds its open row and the refund happens', async () => {
    const acct = await newAccount({ balance: '3.00' });
    const { taskId, stub } = await paidTask(acct, { webhook: true });
    await backdate(taskId);
    const repair = await breakRefundsOf(taskId);
    await stub.fail({ reason: 'corrupt' });
    await runInDurableObject(stub, (_i: TaskObject, state) => state.storage.deleteAlarm()); // the alarm is lost
    await repair();
    expect(await balanceOf(acct)).toBe('1.75');
    const report = await sweep(env);
    expect(report.reconciled.refunded).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(acct)).toBe('3.00');
    expect(await row(taskId)).toMatchObject({ status: 'failed', refunded: 1 });
    expect((await stub.view())!.state.refunded).toBe(true);
    // Its webhook is queued after the refund and delivered by the alarm the refund re-armed.
    await runDurableObjectAlarm(stub);
    expect(deliveries.map((d) => [d.event, d.balanceKopecks])).toEqual([['task.failed', 300]]);
    await sweep(env);
    expect((await ledger(taskId)).filter((l) => l.kind === 'refund')).toHaveLength(1);
  });

  it('a history row failed but not refunded (a task object from before) is refunded, and the object says so', async () => {
    const acct = await newAccount({ balance: '3.00' });
    const { taskId, stub } = await paidTask(acct);
    // What the old fail() left when its refund threw: the object failed without a refund, the row failed.
    await runInDurableObject(stub, async (_i: TaskObject, state) => {
      const task = (await state.storage.get<Stored>('task'))!;
      Object.assign(task, { status: 'failed', finished_at: Date.now(), error_message: 'x', refunded: false });
      task.deadlines.watchdog = null;
      await state.storage.put('task', task);
      await state.storage.deleteAlarm();
    });
    await runInDurableObject(stub, (instance: TaskObject) => ((instance as unknown as { cached: unknown }).cached = null));
    await env.DB.prepare("UPDATE operations SET status = 'failed' WHERE task_id = ?").bind(taskId).run();
    const report = await sweep(env);
    expect(report.refunds).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(acct)).toBe('3.00');
    expect(await ledger(taskId)).toHaveLength(2);
    expect((await stub.view())!.state.refunded).toBe(true);
    expect(await row(taskId)).toMatchObject({ status: 'failed', refunded: 1 });
  });

  it('a charged row with no task object (the request died before creating it) is failed and refunded', async () => {
    const acct = await newAccount({ balance: '3.00' });
    const account = (await getAccount(env.DB, acct.accountId))!;
    const taskId = newTaskId();
    const key = { id: acct.keyId, account_id: account.id, name: 'test key', limit_kopecks: null, period: 'never' as const };
    await chargeOperation(env.DB, account, key, { taskId, operationId: `op_${taskId}`, type: 'rotate_pdf', units: 1 });
    await backdate(taskId);
    expect(await balanceOf(acct)).toBe('1.75');
    const report = await sweep(env);
    expect(report.reconciled.refunded).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(acct)).toBe('3.00');
    expect(await row(taskId)).toMatchObject({ status: 'failed', refunded: 1 });
  });

  it('a task past its own watchdog whose alarm was lost is failed and refunded; one within its watchdog is left running', async () => {
    const acct = await newAccount({ balance: '5.00' });
    const stuck = await paidTask(acct);
    const running = await paidTask(acct);
    for (const t of [stuck, running]) {
      await t.stub.start();
      await backdate(t.taskId);
    }
    await runInDurableObject(stuck.stub, async (_i: TaskObject, state) => {
      const task = (await state.storage.get<Stored>('task'))!;
      task.deadlines.watchdog = Date.now() - 1;
      await state.storage.put('task', task);
      await state.storage.deleteAlarm();
    });
    await runInDurableObject(stuck.stub, (instance: TaskObject) => ((instance as unknown as { cached: unknown }).cached = null));
    await sweep(env);
    expect((await stuck.stub.view())!.state).toMatchObject({ status: 'failed', refunded: true, error_message: expect.stringMatching(/did not finish in time/) });
    expect((await running.stub.view())!.state.status).toBe('processing');
    expect(await row(stuck.taskId)).toMatchObject({ status: 'failed', refunded: 1 });
    expect(await row(running.taskId)).toMatchObject({ status: 'queued', refunded: 0 });
    expect(await balanceOf(acct)).toBe('3.75');
  });
});
