/**
 * One Durable Object per task: its state, progress, long-poll waiters, download tokens, the
 * webhook outbox, and the alarm that drives the deadlines: the watchdog (no task stays unfinished
 * forever), result expiry, free-plan cleanup after a download, and webhook attempts. Every
 * mutation is serialised by the object, so "exactly once" decisions (the single free download, a
 * delivery's end) are made here. The refund's "exactly once" is D1's (refundTask flips
 * operations.refunded 0 → 1 in the batch that moves the money); the object makes sure it is
 * asked until it has happened: a failure is recorded with a pending refund and a deadline in the
 * alarm, and the alarm tries the D1 batch again (30 s, then doubling up to 5 min) until it succeeds.
 * The rules of tokens and downloads are in task-downloads.ts, the webhook outbox's in task-webhook.ts:
 * they change the state this object loads and saves.
 */
import { DurableObject } from 'cloudflare:workers';
import { clearScratch } from './scratch';
import type { Env } from '../env';
import { config, publicBaseUrl } from '../env';
import { refundTask } from '../billing/charge';
import { iso } from '../../lib/time';
import { failureMessage, type TaskFailure } from '../../contracts/failures';
import { currentToken, freeDownloadSpent, retireTokens, takeDownload } from './task-downloads';
import { attemptWebhook, queueWebhook } from './task-webhook';
import type { DownloadOutcome, TaskResult, TaskSpec, TaskState, TaskView } from './types';

/** When the result's bytes were removed, for the history row; null while they are still stored. */
function resultRemovedAt(state: TaskState, now: number): number | null {
  if (state.result_removed_at) return state.result_removed_at;
  // A state from before result_removed_at: removal cleared every deadline; a spent free result keeps its cleanup.
  return !state.result_available && state.deadlines.result_expiry === null && state.deadlines.cleanup === null ? now : null;
}

const TERMINAL = new Set(['done', 'failed']);

/** First retry of a refund whose D1 batch failed, and the longest wait between retries. */
export const REFUND_RETRY_FIRST_MS = 30_000;
export const REFUND_RETRY_MAX_MS = 5 * 60_000;
export const refundRetryDelay = (attempts: number): number => Math.min(REFUND_RETRY_FIRST_MS * 2 ** Math.max(0, attempts - 1), REFUND_RETRY_MAX_MS);

/** A failed task whose refund (with the history row's final state) is not written to D1 yet. */
export interface RefundPending {
  /** Attempts of the D1 batch that threw. */
  attempts: number;
  /** When the alarm tries again. */
  next_at: number;
  last_error: string | null;
}

/** What TaskObject.reconcile found and did (the cron sweep's safety net). */
export type Reconciled = 'missing' | 'running' | 'done' | 'refunded' | 'refund_pending';

type State = TaskState & { refund_pending?: RefundPending };

export class TaskObject extends DurableObject<Env> {
  private cached: State | null = null;
  private waiters: (() => void)[] = [];
  /** The refund attempt in flight, if any: one at a time, and views wait for it. */
  private refunding: Promise<void> | null = null;

  private async load(): Promise<State | null> {
    this.cached ??= (await this.ctx.storage.get<State>('task')) ?? null;
    return this.cached;
  }

  private async save(state: State): Promise<void> {
    this.cached = state;
    await this.ctx.storage.put('task', state);
    const times = [...Object.values(state.deadlines), state.webhook?.next_at ?? null, state.refund_pending?.next_at ?? null].filter((t): t is number => t !== null);
    if (times.length) await this.ctx.storage.setAlarm(Math.min(...times));
    else await this.ctx.storage.deleteAlarm();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  async create(spec: TaskSpec): Promise<void> {
    if (await this.load()) return; // idempotent
    const now = Date.now();
    await this.save({
      ...spec,
      status: 'queued',
      created_at: now,
      started_at: null,
      finished_at: null,
      progress: { done: 0, total: 1 },
      attempts: 0,
      refunded: false,
      error_message: null,
      result: null,
      result_expires_at: null,
      result_available: false,
      downloads: 0,
      tokens: {},
      deadlines: { watchdog: now + config(this.env).taskWatchdogSeconds * 1000, result_expiry: null, cleanup: null },
      webhook: null,
    });
  }

  async view(): Promise<TaskView | null> {
    // A refund being written right now: answer once it is (refunded true), not in between.
    if (this.refunding) await this.refunding;
    const state = await this.load();
    if (!state) return null;
    if (!state.result_available) return { state, token: null };
    const { token, issued } = currentToken(state, Date.now(), config(this.env).downloadUrlTtlSeconds * 1000);
    if (issued) await this.save(state);
    return { state, token };
  }

  /** Long poll: answers when the task ends or after `seconds`. */
  async wait(seconds: number): Promise<TaskView | null> {
    const state = await this.load();
    if (state && !TERMINAL.has(state.status) && seconds > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, seconds * 1000);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.view();
  }

  /**
   * The consumer takes the task's step `step`. Null when there is nothing to run: ended, out of
   * attempts, or a message for another step than the one due (a duplicate or a stale retry).
   */
  async start(step = 0): Promise<TaskState | null> {
    const state = await this.load();
    if (!state || TERMINAL.has(state.status) || (state.step ?? 0) !== step) return null;
    const { maxTaskAttempts, taskWatchdogSeconds } = config(this.env);
    if (state.attempts >= maxTaskAttempts) {
      await this.fail({ reason: 'gave_up', attempts: state.attempts });
      return null;
    }
    state.attempts += 1;
    state.status = 'processing';
    state.started_at ??= Date.now();
    state.deadlines.watchdog = Date.now() + taskWatchdogSeconds * 1000;
    await this.save(state);
    return state;
  }

  /**
   * Step `next - 1` ended and step `next` is due: recorded (its attempts counted afresh), then its
   * message sent. Should the send fail, the step is taken back and the error thrown, so that the
   * finished step's message is retried and sends it again. False when the task is no longer there to continue.
   */
  async advance(next: number): Promise<boolean> {
    const state = await this.load();
    if (!state || TERMINAL.has(state.status) || (state.step ?? 0) !== next - 1) return false;
    state.step = next;
    state.attempts = 0;
    state.deadlines.watchdog = Date.now() + config(this.env).taskWatchdogSeconds * 1000;
    await this.save(state);
    try {
      await this.env.TASKS.send({ task_id: state.task_id, step: next });
    } catch (err) {
      state.step = next - 1;
      await this.save(state);
      throw err;
    }
    return true;
  }

  /**
   * Step `step - 1` ended by handing out parts (OCR pages): step `step` is recorded with them all
   * pending, and a message per part goes to the OCR Worker's queue. partDone counts them in; the
   * last one sends step `step + 1` to the task queue. As with advance, a failed send takes the step back.
   */
  async fanOut(step: number, parts: ({ part: number } & Record<string, unknown>)[]): Promise<boolean> {
    const state = await this.load();
    if (!state || TERMINAL.has(state.status) || (state.step ?? 0) !== step - 1) return false;
    state.step = step;
    state.attempts = 0;
    state.fan = { pending: parts.map((p) => p.part), total: parts.length };
    state.progress = { done: 0, total: parts.length };
    state.deadlines.watchdog = Date.now() + config(this.env).taskWatchdogSeconds * 1000;
    await this.save(state);
    try {
      // sendBatch takes at most 100 messages: OCR takes at most 100 pages.
      await this.env.OCR_TASKS.sendBatch(parts.map((p) => ({ body: { ...p, task_id: state.task_id, step } })));
    } catch (err) {
      state.step = step - 1;
      delete state.fan;
      await this.save(state);
      throw err;
    }
    return true;
  }

  /** Whether part `part` of step `step` is still to be done (not for a duplicate message or an ended task). */
  async partDue(step: number, part: number): Promise<boolean> {
    const state = await this.load();
    return !!state && !TERMINAL.has(state.status) && state.step === step && !!state.fan?.pending.includes(part);
  }

  /** Part `part` of step `step` is done: counted once; when it is the last, the next step is sent. */
  async partDone(step: number, part: number): Promise<void> {
    const state = await this.load();
    if (!state || TERMINAL.has(state.status) || state.step !== step || !state.fan?.pending.includes(part)) return;
    state.status = 'processing';
    state.started_at ??= Date.now();
    state.fan.pending = state.fan.pending.filter((p) => p !== part);
    state.progress = { done: state.fan.total - state.fan.pending.length, total: state.fan.total };
    state.deadlines.watchdog = Date.now() + config(this.env).taskWatchdogSeconds * 1000;
    if (state.fan.pending.length) return this.save(state);
    delete state.fan;
    await this.save(state);
    await this.advance(step + 1);
  }

  /** Best effort: what a stepped task left in R2 must not stop it from ending (a leftover is only storage). */
  private async clearScratch(taskId: string): Promise<void> {
    await clearScratch(this.env.FILES, taskId).catch((err) => console.error(JSON.stringify({ event: 'scratch_not_cleared', task_id: taskId, error: String(err) })));
  }

  async progress(done: number, total: number): Promise<void> {
    const state = await this.load();
    if (!state || TERMINAL.has(state.status)) return;
    state.progress = { done: Math.min(done, total), total };
    await this.save(state);
  }

  async finish(result: TaskResult): Promise<boolean> {
    const state = await this.load();
    if (!state || TERMINAL.has(state.status)) return false;
    const now = Date.now();
    const expires = now + config(this.env).resultTtlSeconds * 1000;
    Object.assign(state, { status: 'done', finished_at: now, result, result_available: true, result_expires_at: expires });
    state.progress = { done: state.progress.total, total: state.progress.total };
    state.deadlines = { watchdog: null, result_expiry: expires, cleanup: null };
    if (state.webhook_url) {
      const { token } = currentToken(state, now, config(this.env).downloadUrlTtlSeconds * 1000);
      queueWebhook(state, 'task.done', { download_url: `${publicBaseUrl(this.env, state.base_url)}/v1/download/${token}`, filename: result.filename }, now);
    }
    await this.save(state);
    if (state.step) await this.clearScratch(state.task_id);
    await this.env.DB.prepare("UPDATE operations SET status = 'done', finished_at = ?, result_key = ?, result_expires_at = ? WHERE task_id = ?")
      .bind(now, result.r2_key, expires, state.task_id)
      .run();
    this.wake();
    return true;
  }

  /**
   * Ends the task as failed and returns the charge. The failure is recorded first (the status
   * reads failed with its error_message, refunded false) with a pending refund whose retry
   * deadline is in the alarm; then the D1 batch that ends the history row and refunds is tried.
   * Should it throw, the alarm tries it again until it succeeds (settleRefund). False when the
   * task had already ended.
   */
  async fail(failure: TaskFailure): Promise<boolean> {
    const state = await this.load();
    if (!state || TERMINAL.has(state.status)) return false;
    const now = Date.now();
    state.status = 'failed';
    state.finished_at = now;
    state.error_message = failureMessage(failure);
    state.deadlines = { watchdog: null, result_expiry: null, cleanup: null };
    state.refund_pending = { attempts: 0, next_at: now + REFUND_RETRY_FIRST_MS, last_error: null };
    await this.save(state);
    await this.settleRefund(state);
    if (state.step) await this.clearScratch(state.task_id);
    this.wake();
    return true;
  }

  /** One attempt at the pending refund, or the one already in flight. Never throws. */
  private settleRefund(state: State): Promise<void> {
    this.refunding ??= this.attemptRefund(state).finally(() => {
      this.refunding = null;
    });
    return this.refunding;
  }

  private async attemptRefund(state: State): Promise<void> {
    const pending = state.refund_pending;
    if (!pending || state.status !== 'failed') return;
    let refundedNow: boolean;
    try {
      // One transaction: the history row failed with finished_at, balance back, ledger entry, refunded flag.
      refundedNow = await refundTask(this.env.DB, state.task_id, state.finished_at ?? Date.now());
    } catch (err) {
      pending.attempts += 1;
      pending.next_at = Date.now() + refundRetryDelay(pending.attempts);
      pending.last_error = String(err);
      console.error(JSON.stringify({ event: 'refund_retry_scheduled', task_id: state.task_id, attempts: pending.attempts, next_at: iso(pending.next_at), error: String(err) }));
      await this.save(state);
      return;
    }
    // The batch went through: the row is refunded now, or was before (whoever asked first).
    delete state.refund_pending;
    state.refunded = true;
    console.log(JSON.stringify({ event: 'task_refunded', task_id: state.task_id, by_this_call: refundedNow, attempts: pending.attempts + 1 }));
    // The webhook goes out after the refund: a receiver that reads the balance sees the money back.
    if (state.webhook_url && !state.webhook) queueWebhook(state, 'task.failed', { error_message: state.error_message ?? '' }, Date.now());
    await this.save(state);
    this.wake();
  }

  /**
   * The cron sweep's safety net for a task whose history row is still open (or failed and not
   * refunded) long after it should have ended: a failed task's refund is tried now; a task past its
   * own watchdog is failed (and refunded); a done task's history row is written again; a task
   * still within its watchdog keeps running (its alarm re-armed).
   */
  async reconcile(): Promise<Reconciled> {
    const state = await this.load();
    if (!state) return 'missing';
    const now = Date.now();
    if (state.status === 'failed') {
      // Also a task failed before refunds were kept pending (refunded false, no marker).
      if (!state.refunded) {
        state.refund_pending ??= { attempts: 0, next_at: now + REFUND_RETRY_FIRST_MS, last_error: null };
        await this.settleRefund(state);
      }
      return state.refunded ? 'refunded' : 'refund_pending';
    }
    if (state.status === 'done') {
      await this.env.DB.prepare(
        "UPDATE operations SET status = 'done', finished_at = ?, result_key = ?, result_expires_at = ?, result_deleted_at = ? WHERE task_id = ? AND status <> 'done'",
      )
        .bind(state.finished_at, state.result?.r2_key ?? null, state.result_expires_at, resultRemovedAt(state, now), state.task_id)
        .run();
      return 'done';
    }
    if (state.deadlines.watchdog !== null && state.deadlines.watchdog <= now) {
      await this.fail({ reason: 'timed_out' }); // its webhook, once refunded, is delivered by the alarm
      return state.refunded ? 'refunded' : 'refund_pending';
    }
    await this.save(state); // re-arms the alarm (watchdog) should it have been lost
    return 'running';
  }

  /** A download by token or by the owner's key (token null): see takeDownload. */
  async download(token: string | null): Promise<DownloadOutcome> {
    const state = await this.load();
    if (!state) return { ok: false, code: 'not_found' };
    const outcome = takeDownload(state, token, config(this.env).freeCleanupSeconds * 1000);
    if (outcome.ok) await this.save(state);
    return outcome;
  }

  /** The result as the input of a chained operation: not a download, nothing changes. */
  async chainSource(): Promise<{ status: string; result: TaskResult | null; available: boolean } | null> {
    const state = await this.load();
    if (!state) return null;
    return { status: state.status, result: state.result, available: state.result_available && !freeDownloadSpent(state) };
  }

  override async alarm(): Promise<void> {
    const state = await this.load();
    if (!state) return;
    const due = (t: number | null | undefined) => t != null && t <= Date.now();
    if (due(state.deadlines.watchdog) && !TERMINAL.has(state.status)) {
      await this.fail({ reason: 'timed_out' }); // once refunded, queues the task.failed webhook, delivered below
    } else if (state.refund_pending) {
      // A refund still owed: tried at every alarm (its own deadline is what normally sets it).
      await this.settleRefund(state);
    }
    if (due(state.webhook?.next_at)) await attemptWebhook(this.env, state);
    if (due(state.deadlines.result_expiry) || due(state.deadlines.cleanup)) await this.dropResult(state);
    await this.save(state); // re-arms the alarm for the next deadline
  }

  private async dropResult(state: TaskState): Promise<void> {
    if (state.result) await this.env.FILES.delete(state.result.r2_key);
    state.result_available = false;
    state.result_removed_at = Date.now();
    retireTokens(state, Object.keys(state.tokens));
    state.deadlines = { watchdog: null, result_expiry: null, cleanup: null };
    await this.env.DB.prepare('UPDATE operations SET result_deleted_at = ? WHERE task_id = ?').bind(Date.now(), state.task_id).run();
  }

  /** Cron safety net: removes the result if its time has come (the alarm normally does it). */
  async expireIfDue(): Promise<void> {
    const state = await this.load();
    const now = Date.now();
    // A free result already downloaded reads unavailable but is removed only here or by the alarm.
    const due = (state?.result_expires_at != null && state.result_expires_at <= now) || (state?.deadlines.cleanup != null && state.deadlines.cleanup <= now);
    if (state?.status === 'done' && state.result && !state.result_removed_at && (state.result_available || state.deadlines.cleanup !== null) && due) {
      await this.dropResult(state);
      await this.save(state);
    }
  }
}
