import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { chargeOperation } from '../src/service/billing/charge';
import { getAccount } from '../src/service/storage/accounts';
import type { TaskObject } from '../src/service/tasks/task-object';
import type { TaskState } from '../src/service/tasks/types';
import { balanceOf, newAccount } from './helpers';
import { newTaskId, queuedTask } from './fixtures';

/** A paid task that no consumer will pick up (nothing is enqueued): the object alone decides its fate. */
async function paidTask(balance: string) {
  const acct = await newAccount({ balance });
  const account = (await getAccount(env.DB, acct.accountId))!;
  const taskId = newTaskId();
  const key = { id: acct.keyId, account_id: account.id, name: 'test key', limit_kopecks: null, period: 'never' as const };
  await chargeOperation(env.DB, account, key, { taskId, operationId: `op_${taskId}`, type: 'rotate_pdf', units: 1 });
  await queuedTask(acct, 'standard', { taskId, chargeKopecks: 125 });
  const stub = env.TASK.get(env.TASK.idFromName(taskId));
  return { acct, taskId, stub };
}

describe('no task stays unfinished', () => {
  it('a consumer that dies every time: after MAX_TASK_ATTEMPTS starts the task fails and is refunded once', async () => {
    const { acct, stub } = await paidTask('2.00');
    expect(await balanceOf(acct)).toBe('0.75');
    for (let attempt = 1; attempt <= 3; attempt++) expect((await stub.start())?.attempts).toBe(attempt);
    expect(await stub.start()).toBeNull();
    const view = (await stub.view())!;
    expect(view.state.status).toBe('failed');
    expect(view.state.refunded).toBe(true);
    expect(view.state.error_message).toMatch(/failed 3 times/);
    expect(await balanceOf(acct)).toBe('2.00');
    // A late duplicate failure report changes nothing.
    expect(await stub.fail({ reason: 'internal' })).toBe(false);
    expect(await balanceOf(acct)).toBe('2.00');
  });

  it('the watchdog alarm fails a task stuck in processing and refunds it', async () => {
    const { acct, stub } = await paidTask('1.25');
    await stub.start();
    await runInDurableObject(stub, async (_instance: TaskObject, state) => {
      const task = (await state.storage.get<TaskState>('task'))!;
      task.deadlines.watchdog = Date.now() - 1;
      await state.storage.put('task', task);
      await state.storage.setAlarm(Date.now() + 60_000);
    });
    // A fresh instance reads the changed deadline from storage.
    await runInDurableObject(stub, (instance: TaskObject) => ((instance as unknown as { cached: unknown }).cached = null));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const view = (await stub.view())!;
    expect(view.state.status).toBe('failed');
    expect(view.state.error_message).toMatch(/did not finish in time/);
    expect(await balanceOf(acct)).toBe('1.25');
    const ledger = await env.DB.prepare('SELECT kind, amount_kopecks FROM ledger WHERE task_id = ? ORDER BY id').bind(view.state.task_id).all();
    expect(ledger.results).toEqual([
      { kind: 'charge', amount_kopecks: -125 },
      { kind: 'refund', amount_kopecks: 125 },
    ]);
  });

  it('a finished task cannot be failed afterwards (no refund of a delivered result)', async () => {
    const { acct, stub } = await paidTask('1.25');
    await stub.start();
    expect(await stub.finish({ r2_key: 'results/x', filename: 'x_service.pdf', content_type: 'application/pdf', size: 10 })).toBe(true);
    expect(await stub.fail({ reason: 'timed_out' })).toBe(false);
    expect(await balanceOf(acct)).toBe('0.00');
  });
});
