/**
 * Engines heal: a trap inside MuPDF (here a real one: its HTML layout overflows on ten nested
 * tables) replaces the instance, the task that hit it runs once more on a fresh one, and a task
 * that traps every time fails as our fault with its payment returned. The next task in the same
 * isolate converts.
 */
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { dropMupdf, loadMupdf, mupdfHeapBytes } from '../src/pdf/mupdf';
import { EngineFault, isEngineTrap, isOutOfMemory, retireGrownEngines, withEngineRetry } from '../src/lib/engine-health';
import { failureMessage } from '../src/contracts/failures';
import { failureOf } from '../src/pdf/classify';
import { runTask } from '../src/service/tasks/consumer';
import { runJob } from '../src/service/tasks/run-job';
import { operationByPath } from '../src/operations';
import { chargeOperation } from '../src/service/billing/charge';
import { getAccount, keyOfAccount } from '../src/service/storage/accounts';
import { findLiveFiles } from '../src/service/storage/files';
import { newId } from '../src/lib/ids';
import { balanceOf, markerPdf, newAccount, runOp, uploadOk, waitTask, type TestAccount } from './helpers';
import * as rotate from '../src/operations/rotate';
import type { Operation } from '../src/operations/define';
import { LimitExceeded } from '../src/lib/limits';

type Mupdf = Awaited<ReturnType<typeof loadMupdf>>;

/** What MuPDF's HTML layout does with tables nested ten deep: "memory access out of bounds". */
function trap(mupdf: Mupdf): never {
  const html = '<table><tr><td>'.repeat(12) + 'deep' + '</td></tr></table>'.repeat(12);
  const doc = mupdf.Document.openDocument(new TextEncoder().encode(html), 'text/html');
  doc.countPages();
  doc.loadPage(0).toStructuredText('preserve-whitespace').asText();
  throw new Error('expected the nested tables to trap MuPDF');
}

async function pagesWith(mupdf: Mupdf): Promise<number> {
  const doc = mupdf.Document.openDocument(await markerPdf(3, 'heal'), 'application/pdf');
  try {
    return doc.countPages();
  } finally {
    doc.destroy();
  }
}

// Tests share their isolate (vitest's isolate: false): each starts from a fresh MuPDF, whatever a
// file before it left (a trapped instance answers "calloc failed" instead of trapping again).
beforeEach(() => dropMupdf());

describe('engine instances', () => {
  it('a trap inside MuPDF is recognised, and the next instance is a new, sound one', async () => {
    const first = await loadMupdf();
    let thrown: unknown;
    try {
      trap(first);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(WebAssembly.RuntimeError);
    expect(isEngineTrap(thrown)).toBe(true);
    expect(isOutOfMemory(thrown)).toBe(false);
    dropMupdf();
    const second = await loadMupdf();
    expect(second).not.toBe(first);
    expect(await pagesWith(second)).toBe(3);
  });

  it('withEngineRetry runs a task once more on a fresh instance after a trap', async () => {
    const used: Mupdf[] = [];
    const events: string[] = [];
    const pages = await withEngineRetry(
      async () => {
        const mupdf = await loadMupdf();
        used.push(mupdf);
        if (used.length === 1) trap(mupdf);
        return pagesWith(mupdf);
      },
      (event) => events.push(event),
    );
    expect(pages).toBe(3);
    expect(used).toHaveLength(2);
    expect(used[1]).not.toBe(used[0]);
    expect(events).toEqual(['engine_fault']);
  });

  it('a second trap is an EngineFault, told as our fault; damage and limits are told as what they are', async () => {
    const fault = await withEngineRetry(async () => trap(await loadMupdf()), () => {}).catch((e: unknown) => e);
    expect(fault).toBeInstanceOf(EngineFault);
    expect(failureOf(fault)).toEqual({ failure: { reason: 'internal_fault' }, ours: true });
    expect(failureMessage(failureOf(fault).failure)).toMatch(/fault in our converter.*payment was returned/);
    expect(failureOf(new TypeError("Cannot read properties of undefined (reading 'x')")).failure.reason).toBe('internal_fault');
    expect(failureOf(new Error('cannot find startxref')).failure.reason).toBe('corrupt');
    const limit = failureOf(new Error('wrapped', { cause: new LimitExceeded('table_nesting', 'the document nests tables 300 deep; Word opens at most 63') }));
    expect(failureMessage(limit.failure)).toMatch(/^The document nests tables 300 deep; Word opens at most 63: /);
    expect(await pagesWith(await loadMupdf())).toBe(3);
  });

  it('an instance whose heap grew past its bound is replaced after the task', async () => {
    const mupdf = await loadMupdf();
    const before = mupdfHeapBytes();
    // A pixmap of 60 MB grows the heap past the 28 MiB bound; freed, the heap stays grown.
    const pix = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, 5000, 4000], false);
    pix.destroy();
    expect(mupdfHeapBytes()).toBeGreaterThan(48 * 1024 * 1024);
    expect(retireGrownEngines().map((r) => r.name)).toContain('mupdf');
    const fresh = await loadMupdf();
    expect(fresh).not.toBe(mupdf);
    expect(mupdfHeapBytes()).toBeLessThanOrEqual(Math.max(before, 30 * 1024 * 1024));
  });
});

describe('an engine Worker the platform ends at its limit', () => {
  it('CPU limit: the task fails at once naming it, refunded, not retried; a lost connection is retried', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(1, 'k'), 'in.pdf');
    // What the caller of a service binding gets when the platform ends the callee (workerd's words).
    const ended = (message: string) => () => ({ run: async () => Promise.reject(new Error(message)) });
    const taskId = await acceptedTask(acct, up.file_id);
    expect(await runTask(env, operationByPath, taskId, 0, ended('Worker exceeded CPU time limit.'))).toBe('failed');
    const rec = await waitTask(acct, taskId);
    expect(rec.error_message).toMatch(/^Working on this file took more processor time than one task may use \(5 minutes\): the file goes past what this service reads/);
    expect(rec.refunded).toBe(true);
    expect(await balanceOf(acct)).toBe('10.00');
    const memory = await acceptedTask(acct, up.file_id);
    expect(await runTask(env, operationByPath, memory, 0, ended('Worker exceeded memory limit.'))).toBe('failed');
    expect((await waitTask(acct, memory)).error_message).toMatch(/ran out of memory/);
    const lost = await acceptedTask(acct, up.file_id);
    await expect(runTask(env, operationByPath, lost, 0, ended('Network connection lost.'))).rejects.toThrow(/connection lost/);
  });
});

/** A task of `op` accepted and charged as the API does, but run here by runTask instead of the queue. */
async function acceptedTask(acct: TestAccount, fileId: string): Promise<string> {
  const account = (await getAccount(env.DB, acct.accountId))!;
  const key = (await keyOfAccount(env.DB, acct.accountId, acct.keyId))!;
  const inputs = [...(await findLiveFiles(env.DB, acct.accountId, [fileId])).values()];
  const taskId = newId('task');
  const charge = await chargeOperation(env.DB, account, key, { taskId, operationId: newId('op'), type: 'rotate_pdf', units: 1 });
  await env.TASK.get(env.TASK.idFromName(taskId)).create({
    task_id: taskId, account_id: account.id, key_id: key.id, plan: account.plan, op_path: 'rotate', operation_type: 'rotate_pdf',
    inputs, params_json: JSON.stringify({ pages: 'all', angle: 90 }), webhook_url: null, base_url: 'https://pdf-edge.test',
    charge_kopecks: charge.kopecks, charge_units: charge.units, included: charge.included,
  });
  return taskId;
}

describe('the task runner heals', () => {
  it('a task that traps MuPDF every time fails as our fault, refunded; the next task in the isolate converts', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(2, 'p'), 'in.pdf');
    let runs = 0;
    const trapping = new Map<string, Operation>([['rotate', { spec: rotate.spec, run: async () => (runs++, trap(await loadMupdf())) }]]);
    const taskId = await acceptedTask(acct, up.file_id);
    expect(await balanceOf(acct)).toBe('8.75');
    expect(await runTask(env, operationByPath, taskId, 0, () => ({ run: (job, hooks) => runJob(trapping, job, hooks) }))).toBe('failed');
    expect(runs).toBe(2); // once, then once more on a fresh instance
    const rec = await waitTask(acct, taskId);
    expect(rec.status).toBe('failed');
    expect(rec.error_message).toMatch(/fault in our converter/);
    expect(rec.error_message).not.toMatch(/damaged/);
    expect(rec.refunded).toBe(true);
    expect(await balanceOf(acct)).toBe('10.00');
    // The same isolate, through the service: a normal rotate is done.
    const next = await runOp(acct, 'rotate', { file_id: up.file_id, angle: 90 });
    expect(next.status, next.error_message ?? '').toBe('done');
  });

  it('a task that traps once is done on the fresh instance, charged once', async () => {
    const acct = await newAccount({ balance: '10.00' });
    const up = await uploadOk(acct, await markerPdf(2, 'p'), 'in.pdf');
    let runs = 0;
    const once = new Map<string, Operation>([['rotate', { spec: rotate.spec, run: async (ctx: Parameters<typeof rotate.run>[0]) => (runs++ === 0 ? trap(await loadMupdf()) : rotate.run(ctx)) }]]);
    const taskId = await acceptedTask(acct, up.file_id);
    expect(await runTask(env, operationByPath, taskId, 0, () => ({ run: (job, hooks) => runJob(once, job, hooks) }))).toBe('done');
    const rec = await waitTask(acct, taskId);
    expect(rec.status, rec.error_message ?? '').toBe('done');
    expect(rec.refunded).toBe(false);
    expect(await balanceOf(acct)).toBe('8.75');
  });
});

describe('a trap swallowed on the way', () => {
  it('still marks the instance: the run is tried again on a fresh one, and the broken one is not kept', async () => {
    const used: Mupdf[] = [];
    const pages = await withEngineRetry(async () => {
      const mupdf = await loadMupdf();
      used.push(mupdf);
      if (used.length === 1) {
        try {
          trap(mupdf);
        } catch {
          // a reader's fallback that swallows everything
        }
      }
      return pagesWith(mupdf);
    }, () => {});
    expect(pages).toBe(3);
    expect(used).toHaveLength(2);
    expect(used[1]).not.toBe(used[0]);
  });

  it('after a task, an instance a swallowed trap passed through is replaced', async () => {
    const mupdf = await loadMupdf();
    try {
      trap(mupdf);
    } catch {
      // swallowed
    }
    expect(retireGrownEngines()).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'mupdf', why: 'trapped' })]));
    expect(await loadMupdf()).not.toBe(mupdf);
  });
});
