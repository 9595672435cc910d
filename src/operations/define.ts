import type { z } from 'zod';
import type { FileKind } from '../lib/detect';
import type { InputFile, NextStep, OperationResult, RunContext, StreamedOperationResult } from '../contracts/operation';

export type { FanOut, InputFile, NextStep, OperationResult, RunContext, Scratch, StreamedOperationResult } from '../contracts/operation';
import type { FieldProblem } from '../lib/errors';

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
