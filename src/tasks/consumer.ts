/**
 * Queue consumer: takes a task from its Durable Object, loads the inputs from R2, runs the
 * operation, stores the result and reports back. Failures are classified: bad input fails the
 * task at once (refund); out of memory or CPU is retried a bounded number of times (the task
 * object counts attempts and gives up); storage hiccups are retried with backoff.
 */
import { z } from 'zod';
import type { Env } from '../env';
import { takeMupdfMessages } from '../engines/mupdf';
import { resultName } from '../lib/names';
import { TaskError, failureOf } from './failures';
import { enginesHeapBytes, jsHeapBytes, retireGrownEngines, withEngineRetry } from '../engines/health';
import type { TaskState } from './types';
import type { FanOut, OperationDef, OperationResult } from '../operations/define';

/** The operations a Worker runs, by path: each consumer Worker passes its own. */
export type Operations = ReadonlyMap<string, OperationDef>;
import { scratchOf } from './scratch';
import { ResultStorageError, writeStreamed, type StreamedResult } from './result-writer';

export const TaskMessage = z.object({
  task_id: z.string().min(1).max(100),
  step: z.number().int().min(0).optional(),
  /** A fanned-out part (an OCR page), on the OCR Worker's messages. */
  part: z.number().int().min(0).optional(),
});

const taskStub = (env: Env, taskId: string) => env.TASK.get(env.TASK.idFromName(taskId));

const resultKey = (state: TaskState, ext: string) => `results/${state.account_id}/${state.task_id}/${resultName(state.inputs[0]!.filename, ext)}`;

async function loadInputs(env: Env, state: TaskState) {
  return Promise.all(
    state.inputs.map(async (file) => {
      const object = await env.FILES.get(file.r2_key);
      if (!object) throw new TaskError({ reason: 'input_expired' });
      return { file, bytes: new Uint8Array(await object.arrayBuffer()) };
    }),
  );
}

/** Writes the result's chunks to R2 as one object without joining them first. */
async function putChunks(env: Env, key: string, chunks: Uint8Array[], contentType: string): Promise<number> {
  const size = chunks.reduce((n, c) => n + c.length, 0);
  if (chunks.length === 1) {
    await env.FILES.put(key, chunks[0]!, { httpMetadata: { contentType } });
    return size;
  }
  const { readable, writable } = new FixedLengthStream(size);
  const writing = (async () => {
    const writer = writable.getWriter();
    for (const c of chunks) await writer.write(c);
    await writer.close();
  })();
  await Promise.all([env.FILES.put(key, readable, { httpMetadata: { contentType } }), writing]);
  return size;
}

export async function runTask(env: Env, operations: Operations, taskId: string, step = 0): Promise<'done' | 'failed' | 'skipped'> {
  const stub = taskStub(env, taskId);
  const state = await stub.start(step);
  if (!state) return 'skipped';
  const op = operations.get(state.op_path);
  if (!op) {
    await stub.fail({ reason: 'internal' });
    return 'failed';
  }
  const startedAt = Date.now();
  takeMupdfMessages(); // start this task's count from zero
  let inputBytes = 0;
  let outputBytes = 0;
  let extraOutputBytes = 0;
  /** The operation's own time (inputs loaded, result not yet stored): what benchmarks compare. */
  let runMs: number | undefined;
  try {
    let inputs;
    try {
      inputs = await loadInputs(env, state);
    } catch (err) {
      if (!(err instanceof TaskError)) throw err; // storage hiccup: retried
      await stub.fail(err.failure);
      return 'failed';
    }
    let out: OperationResult | { streamed: StreamedResult; key: string; ext: string; contentType: string } | null = null;
    let fanOut: FanOut['fanOut'] | undefined;
    const log = (event: string, fields: Record<string, unknown>) => console.log(JSON.stringify({ event, task_id: taskId, op: op.path, ...fields }));
    try {
      inputBytes = inputs.reduce((n, i) => n + i.bytes.length, 0);
      const params = op.params.parse(JSON.parse(state.params_json));
      let lastReport = 0;
      const runStartedAt = Date.now();
      // A trap inside an engine (or memory running out) replaces the engines and runs the task once
      // more on fresh ones; a second fault fails it. Nothing of a failed run is kept.
      out = await withEngineRetry(async () => {
        const result = await op.run({
          inputs,
          params,
          step,
          scratch: scratchOf(env, taskId),
          progress: (done, total) => {
            // At most one progress write per 500 ms: progress is for humans, not a log.
            if (Date.now() - lastReport < 500 && done < total) return;
            lastReport = Date.now();
            void stub.progress(done, total);
          },
          log,
        });
        // A streamed result is made while it is written: its making is part of the run.
        if ('next' in result) {
          if ('fanOut' in result) fanOut = (result as FanOut).fanOut;
          return null;
        }
        if (!('produce' in result)) return result;
        const key = resultKey(state, result.ext);
        const written = await writeStreamed(env.FILES, key, result.contentType, result.produce);
        extraOutputBytes = written.heldBytes;
        return { streamed: written, key, ext: result.ext, contentType: result.contentType };
      }, log);
      runMs = Date.now() - runStartedAt;
    } catch (err) {
      if (err instanceof ResultStorageError) throw err.cause ?? err; // storage hiccup: retried
      const { failure, ours } = failureOf(err);
      // Our own faults are logged with their stack, to be fixed; the user reads that it was ours.
      if (ours) console.error(JSON.stringify({ event: 'task_internal_fault', task_id: taskId, op: op.path, error: String(err), cause: String((err as Error)?.cause ?? ''), stack: (err as Error)?.stack }));
      await stub.fail(failure);
      return 'failed';
    }
    // Storage errors from here on are transient: they propagate and the message is retried.
    if (!out) {
      // This step is done; the next runs from its own message, or its parts from theirs.
      if (fanOut) await stub.fanOut(step + 1, fanOut);
      else await stub.advance(step + 1);
      return 'done';
    }
    const filename = resultName(state.inputs[0]!.filename, out.ext);
    const key = resultKey(state, out.ext);
    if ('streamed' in out) outputBytes = out.streamed.size;
    else {
      // Chunks that are the input buffers or views of them (incremental updates, a DOCX's photos) cost no extra memory.
      const inputBuffers = new Set<ArrayBufferLike>(inputs.map((i) => i.bytes.buffer));
      extraOutputBytes = out.chunks.filter((c) => !inputBuffers.has(c.buffer)).reduce((n, c) => n + c.length, 0);
      outputBytes = await putChunks(env, key, out.chunks, out.contentType);
    }
    const finished = await stub.finish({ r2_key: key, filename, content_type: out.contentType, size: outputBytes });
    if (!finished) await env.FILES.delete(key); // the watchdog ended the task meanwhile
    return 'done';
  } finally {
    // Peak isolate memory of this task: the engines' heaps (WASM memory never shrinks), the JS
    // heap where the runtime tells it, else the input and output buffers the task held.
    const heap = enginesHeapBytes();
    const js = jsHeapBytes();
    console.log(
      JSON.stringify({
        event: 'task_memory',
        task_id: taskId,
        op: op.path,
        wasm_heap_bytes: heap,
        js_heap_bytes: js ?? null,
        input_bytes: inputBytes,
        output_bytes: outputBytes,
        peak_estimate_bytes: heap + (js ?? 0) + inputBytes + extraOutputBytes,
        ms: Date.now() - startedAt,
        run_ms: runMs,
        mupdf_messages: takeMupdfMessages(),
      }),
    );
    // An engine whose heap grew past its bound is replaced: the next task starts from a fresh one.
    const retired = retireGrownEngines();
    if (retired.length) console.log(JSON.stringify({ event: 'engines_retired', task_id: taskId, engines: retired }));
  }
}

export async function handleQueue(batch: MessageBatch<unknown>, env: Env, operations: Operations): Promise<void> {
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
