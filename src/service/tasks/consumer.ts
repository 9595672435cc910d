/**
 * Queue consumer (the API Worker): takes a task from its Durable Object, streams its inputs from R2
 * to the engine Worker that runs its operation (contracts/rpc.ts), and records what comes back.
 * Nothing heavy runs here: the consumer awaits the engine, so HTTP requests beside it never wait.
 * Failures are classified by the engine: bad input fails the task at once (refund); an engine
 * fault is retried once on fresh engines there; storage hiccups here are retried with backoff.
 */
import { z } from 'zod';
import type { Env } from '../env';
import { resultName } from '../../lib/names';
import type { TaskState } from './types';
import type { OperationSpec } from '../../operations/define';
import type { EngineMeta, EngineReply, TaskEngine } from '../../contracts/rpc';
import type { TaskFailure } from '../../contracts/failures';
import { TaskHooks } from './engine-hooks';
import { handleOcrQueue } from './ocr-pages';

const OCR_QUEUE = 'pdf-edge-ocr';

/** The operations a Worker knows, by path (the API Worker: all of them, to pick each one's engine). */
export type Operations = ReadonlyMap<string, OperationSpec>;

export const TaskMessage = z.object({
  task_id: z.string().min(1).max(100),
  step: z.number().int().min(0).optional(),
  /** A fanned-out part (an OCR page), on the OCR queue's messages. */
  part: z.number().int().min(0).optional(),
});

const taskStub = (env: Env, taskId: string) => env.TASK.get(env.TASK.idFromName(taskId));

/** The engine Worker that runs an operation: MuPDF's, the Office documents', or the HTML pages'. */
export function engineFor(env: Env, op: OperationSpec): TaskEngine {
  return op.engine === 'office' ? env.OFFICE_ENGINE : op.engine === 'html' ? env.HTML_ENGINE : env.PDF_ENGINE;
}

class InputExpired extends Error {}

/**
 * The failure for an engine call the platform ended at one of its limits (the engine Worker's
 * `limits.cpu_ms`, or an isolate's 128 MB), from the error the caller gets; null for other errors.
 */
export function killedByLimit(err: unknown): TaskFailure | null {
  const message = String((err as Error)?.message ?? err);
  if (/exceeded (its )?CPU|CPU time limit/i.test(message)) {
    return { reason: 'limit_exceeded', message: 'working on this file took more processor time than one task may use (5 minutes)' };
  }
  if (/exceeded (its )?memory|memory limit/i.test(message)) return { reason: 'out_of_memory' };
  return null;
}

async function openInputs(env: Env, state: TaskState) {
  return Promise.all(
    state.inputs.map(async (file) => {
      const object = await env.FILES.get(file.r2_key);
      if (!object) throw new InputExpired();
      return { file, body: object.body };
    }),
  );
}

function logMemory(taskId: string, op: string, startedAt: number, meta: EngineMeta | undefined, outputBytes: number): void {
  console.log(
    JSON.stringify({
      event: 'task_memory',
      task_id: taskId,
      op,
      ...(meta ?? { wasm_heap_bytes: 0, js_heap_bytes: null, input_bytes: 0, peak_estimate_bytes: 0 }),
      output_bytes: outputBytes,
      ms: Date.now() - startedAt,
    }),
  );
}

/** `engine` picks who runs the step: the operation's engine Worker, or (a test) an engine in this isolate. */
export async function runTask(env: Env, operations: Operations, taskId: string, step = 0, engine: (op: OperationSpec) => TaskEngine = (op) => engineFor(env, op)): Promise<'done' | 'failed' | 'skipped'> {
  const stub = taskStub(env, taskId);
  const state = await stub.start(step);
  if (!state) return 'skipped';
  const op = operations.get(state.op_path);
  if (!op) {
    await stub.fail({ reason: 'internal' });
    return 'failed';
  }
  const startedAt = Date.now();
  let inputs;
  try {
    inputs = await openInputs(env, state);
  } catch (err) {
    if (!(err instanceof InputExpired)) throw err; // storage hiccup: retried
    await stub.fail({ reason: 'input_expired' });
    return 'failed';
  }
  const hooks = new TaskHooks(env, state, (done, total) => void stub.progress(done, total).catch(() => {}));
  let reply: EngineReply | undefined;
  try {
    reply = await engine(op).run({ task_id: taskId, op_path: op.path, params_json: state.params_json, step, inputs }, hooks);
  } catch (err) {
    if (hooks.storageError) throw hooks.storageError; // our storage failed under it: retried
    // The platform ended the engine's invocation at its CPU or memory limit: the same file would
    // only be ended there again, so the task fails now (refunded) instead of being retried.
    const killed = killedByLimit(err);
    if (!killed) throw err; // the engine did not answer otherwise (a deploy, a lost connection): retried
    console.error(JSON.stringify({ event: 'engine_killed', task_id: taskId, op: op.path, error: String(err) }));
    if (hooks.stored) await env.FILES.delete(hooks.stored.key);
    await stub.fail(killed);
    return 'failed';
  } finally {
    logMemory(taskId, op.path, startedAt, reply?.meta, hooks.stored?.size ?? 0);
    if (reply?.meta.retired) console.log(JSON.stringify({ event: 'engines_retired', task_id: taskId, engines: reply.meta.retired }));
  }
  if (hooks.storageError) throw hooks.storageError; // stored halfway: the message is retried
  if (reply.outcome === 'failed') {
    // Our own faults are logged with their stack, to be fixed; the user reads that it was ours.
    if (reply.ours) console.error(JSON.stringify({ event: 'task_internal_fault', task_id: taskId, op: op.path, error: reply.error, stack: reply.stack }));
    if (hooks.stored) await env.FILES.delete(hooks.stored.key);
    await stub.fail(reply.failure);
    return 'failed';
  }
  if (reply.outcome === 'next') {
    // This step is done; the next runs from its own message, or its parts from theirs.
    if (reply.fanOut) await stub.fanOut(step + 1, reply.fanOut);
    else await stub.advance(step + 1);
    return 'done';
  }
  const key = hooks.stored!.key;
  const filename = resultName(state.inputs[0]!.filename, reply.ext);
  const finished = await stub.finish({ r2_key: key, filename, content_type: reply.contentType, size: reply.size });
  if (!finished) await env.FILES.delete(key); // the watchdog ended the task meanwhile
  return 'done';
}

export async function handleQueue(batch: MessageBatch<unknown>, env: Env, operations: Operations): Promise<void> {
  if (batch.queue === OCR_QUEUE) return handleOcrQueue(batch, env);
  const dead = batch.queue.endsWith('-dead');
  for (const message of batch.messages) {
    const parsed = TaskMessage.safeParse(message.body);
    if (!parsed.success) {
      console.error(JSON.stringify({ event: 'bad_queue_message', queue: batch.queue, body: message.body }));
      message.ack();
      continue;
    }
    const { task_id } = parsed.data;
    if (dead) {
      // Retries are spent: the consumer crashed or was killed every time (an OCR page: the OCR Worker).
      const { part } = parsed.data;
      await taskStub(env, task_id).fail(part === undefined ? { reason: 'gave_up', attempts: message.attempts } : { reason: 'page_failed', page: part });
      message.ack();
      continue;
    }
    try {
      await runTask(env, operations, task_id, parsed.data.step);
      message.ack();
    } catch (err) {
      // Storage or Durable Object hiccup: transient, retry with backoff.
      console.error(JSON.stringify({ event: 'task_transient_error', task_id, error: String(err) }));
      message.retry({ delaySeconds: Math.min(30, 2 ** message.attempts) });
    }
  }
}
