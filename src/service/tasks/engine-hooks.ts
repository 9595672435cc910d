/**
 * The consumer's side of an engine call: what the engine Worker may do with the task's storage
 * while it runs a step (report progress, keep scratch between steps, store the result), passed to
 * it as an RpcTarget. Only this task's objects are reachable through it: its scratch prefix and
 * its result key.
 */
import { RpcTarget } from 'cloudflare:workers';
import type { Env } from '../env';
import type { EngineHooks } from '../../contracts/rpc';
import { resultName } from '../../lib/names';
import { scratchKey, scratchOf } from './scratch';
import { writeStreamed } from './result-writer';
import type { TaskState } from './types';

export const resultKey = (state: TaskState, ext: string) => `results/${state.account_id}/${state.task_id}/${resultName(state.inputs[0]!.filename, ext)}`;

export class TaskHooks extends RpcTarget implements EngineHooks {
  /** A storage failure on this side: the message is retried, whatever the engine answers. */
  storageError: unknown;
  /** Where the result went, once stored. */
  stored: { key: string; size: number } | undefined;

  constructor(
    private readonly env: Env,
    private readonly state: TaskState,
    private readonly onProgress: (done: number, total: number) => void,
  ) {
    super();
  }

  progress(done: number, total: number): void {
    this.onProgress(done, total);
  }

  async scratchPut(name: string, size: number, body: ReadableStream<Uint8Array>): Promise<void> {
    await this.guard(() => putSized(this.env.FILES, scratchKey(this.state.task_id, name), size, body));
  }

  scratchGet(name: string): Promise<ReadableStream<Uint8Array> | null> {
    return this.guard(() => scratchOf(this.env, this.state.task_id).get(name));
  }

  async storeResult(ext: string, contentType: string, size: number | null, body: ReadableStream<Uint8Array>): Promise<{ size: number }> {
    const key = resultKey(this.state, ext);
    let stored: number;
    if (size === null) {
      const written = await this.guard(() =>
        writeStreamed(this.env.FILES, key, contentType, async (write) => {
          for await (const chunk of chunksOf(body)) await write(chunk);
        }),
      );
      stored = written.size;
    } else {
      await this.guard(() => putSized(this.env.FILES, key, size, body, contentType));
      stored = size;
    }
    this.stored = { key, size: stored };
    return { size: stored };
  }

  /** Runs a storage call, remembering a failure of storage (not of the engine's stream) for the retry. */
  private async guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof SourceFailed)) this.storageError ??= err;
      throw err;
    }
  }
}

/** The engine's stream failed (its producer threw, a trap included): the engine's fault, not storage's. */
class SourceFailed extends Error {
  constructor(cause: unknown) {
    super(`the engine's stream failed: ${String(cause)}`, { cause });
    this.name = 'SourceFailed';
  }
}

async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  for (;;) {
    let read;
    try {
      read = await reader.read();
    } catch (err) {
      throw new SourceFailed(err);
    }
    if (read.done) return;
    yield read.value;
  }
}

/** Stores a stream of known length as one R2 object (R2 wants the length of a streamed body). */
async function putSized(bucket: R2Bucket, key: string, size: number, body: ReadableStream<Uint8Array>, contentType?: string): Promise<void> {
  const fixed = new FixedLengthStream(size);
  const writer = fixed.writable.getWriter();
  let sourceError: unknown;
  const pumping = (async () => {
    try {
      for await (const chunk of chunksOf(body)) await writer.write(chunk);
      await writer.close();
    } catch (err) {
      sourceError = err;
      await writer.abort(err).catch(() => {});
    }
  })();
  try {
    await bucket.put(key, fixed.readable, contentType ? { httpMetadata: { contentType } } : undefined);
  } catch (err) {
    await pumping;
    throw sourceError instanceof SourceFailed ? sourceError : err;
  }
  await pumping;
  if (sourceError) throw sourceError;
}
