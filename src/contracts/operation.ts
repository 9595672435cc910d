/**
 * What an operation and the code that runs it agree on: its inputs, its context, its results.
 * Imports nothing of the project but the file kinds, so any layer may import it (engines, storage,
 * billing) without reaching up into operations/.
 */
import type { FileKind } from '../lib/detect';
import type { FaceSource } from './faces';

/** An input file as the operation sees it (the upload record of DECISIONS plus storage details). */
export interface InputFile {
  file_id: string;
  filename: string;
  size: number;
  kind: FileKind;
  content_type: string;
  pages: number | null;
  encrypted: boolean;
  r2_key: string;
}

export interface OperationResult {
  /** The result's bytes in order; several chunks let an operation append to its input without copying it. */
  chunks: Uint8Array[];
  ext: string;
  contentType: string;
}

/**
 * A result too large to hold whole: `produce` writes it chunk by chunk (each chunk may be reused
 * once `write` resolves) and the consumer sends it to R2 as it comes (tasks/result-writer.ts).
 */
export interface StreamedOperationResult {
  produce(write: (chunk: Uint8Array) => Promise<void>): Promise<void>;
  ext: string;
  contentType: string;
}

/** Ends a step of an operation run in steps: the next step runs in another invocation (its own queue message). */
export interface NextStep {
  next: true;
}

/**
 * Ends a step by handing parts of the work to another Worker (OCR: a message per page to the OCR
 * Worker's queue); the task object gathers them and sends the step after next when all are done.
 */
export interface FanOut extends NextStep {
  fanOut: ({ part: number } & Record<string, unknown>)[];
}

/** Storage for what a task's steps hand on to each other (R2 objects under the task's own prefix, deleted when the task ends). */
export interface Scratch {
  put(name: string, bytes: Uint8Array): Promise<void>;
  get(name: string): Promise<ReadableStream<Uint8Array> | null>;
}

export interface RunContext<P> {
  inputs: { file: InputFile; bytes: Uint8Array }[];
  params: P;
  /** Which step this is (0 for the first); an operation that returns NextStep is run again with step + 1. */
  step: number;
  scratch: Scratch;
  /** Reports progress of a long task; cheap to call often. */
  progress(done: number, total: number): void;
  /** Writes one event to the task's log (with the task id and operation): what a run did without, and why. */
  log(event: string, fields: Record<string, unknown>): void;
  /** The font faces of the engine Worker (its FONTS assets), loaded when a run asks for them. */
  faces: FaceSource;
}
