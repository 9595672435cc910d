/**
 * A task's failure from whatever its run threw: our errors (TaskError, LimitExceeded), engine faults
 * (engines/health.ts) and MuPDF's own damage errors. Engine-side: the engine Workers classify their
 * own failures, since an error's class does not cross RPC.
 */
import { EngineFault, isEngineTrap, isOutOfMemory } from '../lib/engine-health';
import { findLimitExceeded } from '../lib/limits';
import { TaskError, type TaskFailure } from '../contracts/failures';

/**
 * Out of memory, or a trap inside an engine: a poison pill, not a transient error (the task runner
 * replaces the engines and runs the task once more on fresh ones). Recognised by walking `cause`.
 */
export function isResourceExhaustion(err: unknown): boolean {
  return isEngineTrap(err) || isOutOfMemory(err);
}

/**
 * Words of MuPDF's own errors when a file is damaged (thrown as plain Errors by its glue). Only these
 * are told to the user as damage; any other exception is ours.
 */
const MUPDF_DAMAGE =
  /syntax error|cannot (find|load|parse|read|recognize|open)|startxref|xref|object out of range|no objects found|expected '?(obj|endobj|stream|endstream)|premature end|unexpected end|end of (file|data)|zlib|corrupt|damaged|broken|malformed|invalid (page|object|key|file|data|stream|header|image|jpeg|png)|unknown (keyword|filter|compression|colorspace|image)|page tree|truncated/i;

export function signalsPdfDamage(err: unknown): boolean {
  return err instanceof Error && err.constructor === Error && MUPDF_DAMAGE.test(err.message);
}

/** A task's failure from what its run threw (engine faults and limits included): exhaustive. */
export function failureOf(err: unknown): { failure: TaskFailure; ours: boolean } {
  if (err instanceof TaskError) return { failure: err.failure, ours: false };
  const limit = findLimitExceeded(err);
  if (limit) return { failure: { reason: 'limit_exceeded', message: limit.message }, ours: false };
  if (err instanceof EngineFault) return { failure: err.kind === 'out_of_memory' ? { reason: 'out_of_memory' } : { reason: 'internal_fault' }, ours: err.kind === 'trap' };
  if (signalsPdfDamage(err)) return { failure: { reason: 'corrupt' }, ours: false };
  return { failure: { reason: 'internal_fault' }, ours: true };
}
