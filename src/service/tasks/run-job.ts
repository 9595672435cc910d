/**
 * The engine side of a task step (in the PDF and convert Workers): reads the inputs the consumer
 * streams over, runs the operation with the engines healed on a trap (engines/health.ts), sends the
 * result back through the consumer's hooks, and answers with the outcome and what it cost. It
 * classifies its own failures, since an error's class does not survive the trip over RPC.
 */
import { WorkerEntrypoint } from 'cloudflare:workers';
import { takeMupdfMessages } from '../../pdf/mupdf';
import { enginesHeapBytes, jsHeapBytes, retireGrownEngines, withEngineRetry } from '../../lib/engine-health';
import { failureOf } from '../../pdf/classify';
import { WriteInstead } from './result-writer';
import { facesFrom, type AssetFetcher } from '../../fonts/face-shelf';
import type { FaceSource } from '../../contracts/faces';
import { readAll, streamOf, type EngineHooks, type EngineJob, type EngineMeta, type EngineReply, type TaskEngine } from '../../contracts/rpc';
import type { FanOut, Operation, OperationResult, RunContext, Scratch, StreamedOperationResult } from '../../operations/define';

export type Operations = ReadonlyMap<string, Operation>;

/** A reply before its measurements are added (they are taken once the run, retries included, ends). */
type Unmeasured = Omit<Extract<EngineReply, { outcome: 'next' }>, 'meta'> | Omit<Extract<EngineReply, { outcome: 'stored' }>, 'meta'>;

function hookedScratch(hooks: EngineHooks): Scratch {
  return {
    put: (name, bytes) => hooks.scratchPut(name, bytes.length, streamOf(bytes)),
    get: (name) => hooks.scratchGet(name),
  };
}

/**
 * Sends a result made while it is written: the producer writes into a stream the consumer stores
 * as it comes. A producer's own error (a trap included) is rethrown as it was, so that the engine
 * retry sees it; a producer that asks for other bytes instead (WriteInstead) gets them stored.
 */
async function storeProduced(hooks: EngineHooks, result: StreamedOperationResult): Promise<number> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  let producerError: unknown;
  const producing = (async () => {
    try {
      // A producer may reuse its chunk once write resolves: what crosses is a copy.
      await result.produce((chunk) => writer.write(chunk.slice()));
      await writer.close();
    } catch (err) {
      // The stream just ends: an error sent down it would surface as unhandled rejections on both
      // sides. What was stored is then replaced by the retry, or deleted with the task's failure.
      producerError = err;
      await writer.close().catch(() => {});
    }
  })();
  let stored: { size: number } | undefined;
  let storeError: unknown;
  try {
    stored = await hooks.storeResult(result.ext, result.contentType, null, readable);
  } catch (err) {
    storeError = err;
  }
  await producing;
  if (producerError instanceof WriteInstead) {
    const bytes = producerError.bytes;
    return (await hooks.storeResult(result.ext, result.contentType, bytes.length, streamOf(bytes))).size;
  }
  if (producerError !== undefined) throw producerError;
  if (storeError !== undefined || !stored) throw new StoreFailed(storeError);
  return stored.size;
}

/** The consumer could not store the result (its own storage hiccup: it retries the message). */
class StoreFailed extends Error {
  constructor(cause: unknown) {
    super('the consumer could not store the result', { cause });
    this.name = 'StoreFailed';
  }
}

/** The faces of an engine Worker without a FONTS binding: a run that asks for one fails, saying so. */
const NO_FACES: FaceSource = {
  coverage: () => Promise.reject(new Error('this engine Worker has no FONTS binding (its wrangler.toml [assets])')),
  load: () => Promise.reject(new Error('this engine Worker has no FONTS binding (its wrangler.toml [assets])')),
};

export async function runJob(operations: Operations, job: EngineJob, hooks: EngineHooks, faces: FaceSource = NO_FACES): Promise<EngineReply> {
  const op = operations.get(job.op_path);
  const log = (event: string, fields: Record<string, unknown>) => console.log(JSON.stringify({ event, task_id: job.task_id, op: job.op_path, ...fields }));
  takeMupdfMessages(); // this job's count starts from zero
  let inputBytes = 0;
  let extraOutputBytes = 0;
  let runMs: number | undefined;
  const meta = (): EngineMeta => {
    const heap = enginesHeapBytes();
    const js = jsHeapBytes();
    const retired = retireGrownEngines(); // a heap grown past its bound is not carried into the next job
    return {
      wasm_heap_bytes: heap,
      js_heap_bytes: js ?? null,
      input_bytes: inputBytes,
      output_bytes: extraOutputBytes,
      peak_estimate_bytes: heap + (js ?? 0) + inputBytes + extraOutputBytes,
      run_ms: runMs,
      mupdf_messages: takeMupdfMessages(),
      ...(retired.length ? { retired } : {}),
    };
  };
  try {
    if (!op) throw new Error(`this engine Worker does not run ${job.op_path}`);
    const inputs: RunContext<unknown>['inputs'] = [];
    for (const { file, body } of job.inputs) inputs.push({ file, bytes: await readAll(body) });
    inputBytes = inputs.reduce((n, i) => n + i.bytes.length, 0);
    const params = op.spec.params.parse(JSON.parse(job.params_json));
    let lastReport = 0;
    const startedAt = Date.now();
    const reply = await withEngineRetry(async (): Promise<Unmeasured | { chunks: OperationResult }> => {
      const result = await op.run({
        inputs,
        params,
        step: job.step,
        scratch: hookedScratch(hooks),
        progress: (done, total) => {
          // At most one progress call per 500 ms: progress is for humans, not a log.
          if (Date.now() - lastReport < 500 && done < total) return;
          lastReport = Date.now();
          Promise.resolve(hooks.progress(done, total)).catch(() => {});
        },
        log,
        faces,
      });
      if ('next' in result) return { outcome: 'next', ...('fanOut' in result ? { fanOut: (result as FanOut).fanOut } : {}) };
      // A streamed result is made while it is written: its making is part of the run (and of its retry).
      if ('produce' in result) {
        const size = await storeProduced(hooks, result);
        return { outcome: 'stored', ext: result.ext, contentType: result.contentType, size };
      }
      return { chunks: result };
    }, log);
    runMs = Date.now() - startedAt;
    if (!('chunks' in reply)) return { ...reply, meta: meta() };
    const out = reply.chunks;
    // Chunks that are the input buffers or views of them (incremental updates) cost no extra memory.
    const inputBuffers = new Set<ArrayBufferLike>(inputs.map((i) => i.bytes.buffer));
    extraOutputBytes = out.chunks.filter((c) => !inputBuffers.has(c.buffer)).reduce((n, c) => n + c.length, 0);
    const size = out.chunks.reduce((n, c) => n + c.length, 0);
    let stored;
    try {
      stored = await hooks.storeResult(out.ext, out.contentType, size, streamOf(...out.chunks));
    } catch (err) {
      throw new StoreFailed(err);
    }
    return { outcome: 'stored', ext: out.ext, contentType: out.contentType, size: stored.size, meta: meta() };
  } catch (err) {
    if (err instanceof StoreFailed) throw err; // the consumer knows why: its storage, retried there
    const { failure, ours } = failureOf(err);
    return { outcome: 'failed', failure, ours, error: String(err), stack: (err as Error)?.stack, meta: meta() };
  }
}

/**
 * Jobs an isolate runs one at a time. The engines' calls are synchronous, so jobs side by side
 * gain nothing but add up their memory (each holds its input, its engine's output, its decoded
 * streams) when they interleave at their awaits. The next waits for the one before to end.
 */
let lastJob: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(run: () => Promise<T>): Promise<T> {
  const next = lastJob.then(run, run);
  lastJob = next.catch(() => {});
  return next;
}

/** A task engine Worker's entrypoint over the operations it runs, with the faces of its FONTS assets. */
export function taskEngine(operations: Operations) {
  return class extends WorkerEntrypoint<{ FONTS?: AssetFetcher }> implements TaskEngine {
    run(job: EngineJob, hooks: EngineHooks): Promise<EngineReply> {
      const faces = this.env.FONTS ? facesFrom(this.env.FONTS) : NO_FACES;
      return oneAtATime(() => runJob(operations, job, hooks, faces));
    }
  };
}
