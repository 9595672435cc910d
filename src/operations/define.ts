import type { z } from 'zod';
import type { FileKind } from '../lib/detect';
import type { FieldProblem } from '../lib/errors';

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
}

/** Everything about one operation lives in its own module; the framework derives the rest. */
export interface OperationDef<S extends z.ZodObject = z.ZodObject> {
  /** `POST /v1/pdf/<path>` */
  path: string;
  /** Operation type: the MCP tool name of SPEC's table, also the history type. */
  type: string;
  summary: string;
  accepts: readonly FileKind[];
  /** One `file_id`, or a `file_ids` array with its bounds. */
  inputs: { kind: 'file_id' } | { kind: 'file_ids'; min: number; max: number };
  /** The operation's own parameters (file ids and `webhook_url` are added by the framework). */
  params: S;
  /**
   * Parameters that name another uploaded file (a watermark's `image_file_id`) and the kinds each
   * takes: checked at request time like the inputs, and loaded after them for `run`.
   */
  fileParams?: Record<string, readonly FileKind[]>;
  /** The price unit as SPEC's table words it, when it is not plain size ("10 MB or 10 pages"). */
  unit?: string;
  /** Price units; the default is size units of the summed input. */
  price?: (inputs: readonly InputFile[], params: z.infer<S>) => number;
  /** Request-time checks that need the upload records (page ranges and the like). */
  check?: (inputs: readonly InputFile[], params: z.infer<S>) => FieldProblem[];
  /**
   * Which consumer Worker runs it: 'pdf' the API Worker's own consumer (MuPDF), 'convert' the
   * convert Worker (workers/convert/: the Word converter and its faces), whose queue it is sent to.
   */
  engine: 'pdf' | 'convert';
  run(ctx: RunContext<z.infer<S>>): Promise<OperationResult | StreamedOperationResult | NextStep>;
}

export function defineOperation<S extends z.ZodObject>(def: OperationDef<S>): OperationDef<S> {
  return def;
}
