/**
 * What an operation is. Each operation is one file (operations/<name>.ts) holding two exports:
 * `spec`, everything the request side needs (path, parameters, price, request-time checks, which
 * engine Worker runs it), and `run`, the work itself. The API Worker imports only the specs
 * (operations/index.ts), the engine Workers the runs (operations/runs.ts): esbuild drops each
 * `run` and what only it imports from the API Worker's bundle (package.json "sideEffects": false),
 * so the API never carries MuPDF or a converter, with no stub and no cast.
 */
import type { z } from 'zod';
import type { FileKind } from '../lib/detect';
import type { InputFile, NextStep, OperationResult, RunContext, StreamedOperationResult } from '../contracts/operation';
import type { FieldProblem } from '../lib/errors';

export type { FanOut, InputFile, NextStep, OperationResult, RunContext, Scratch, StreamedOperationResult } from '../contracts/operation';

/** The engine Worker that runs an operation (its queue and its service binding follow from it). */
export type EngineFamily = 'pdf' | 'office' | 'html';

export interface OperationSpec<S extends z.ZodObject = z.ZodObject> {
  /** `POST /v1/pdf/<path>` */
  path: string;
  /** Operation type: the MCP tool name of SPEC's table, also the history type. */
  type: string;
  summary: string;
  accepts: readonly FileKind[];
  /**
   * Kinds the operation is the place for but cannot read, each with what to do instead: uploaded
   * fine (so the upload is not refused as useless), refused here at request time with that message.
   */
  refuses?: Partial<Record<FileKind, string>>;
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
  /** Price units; the default is size units of the summed input. (Methods: a spec of any parameters is a spec.) */
  price?(inputs: readonly InputFile[], params: z.infer<S>): number;
  /** Request-time checks that need the upload records (page ranges and the like). */
  check?(inputs: readonly InputFile[], params: z.infer<S>): FieldProblem[];
  /** 'pdf': the PDF Worker (MuPDF, the page operations); 'office': Office documents → PDF; 'html': HTML → PDF. */
  engine: EngineFamily;
}

export type OperationOutcome = OperationResult | StreamedOperationResult | NextStep;

/** What a run is given: the context typed by its spec's parameters. */
export type RunOf<T extends OperationSpec> = RunContext<z.infer<T['params']>>;

/** An operation as an engine Worker runs it: its spec and its run, paired in operations/runs.ts. */
export interface Operation<S extends z.ZodObject = z.ZodObject> {
  spec: OperationSpec<S>;
  run(ctx: RunContext<z.infer<S>>): Promise<OperationOutcome>;
}

export function defineSpec<S extends z.ZodObject>(spec: OperationSpec<S>): OperationSpec<S> {
  return spec;
}
