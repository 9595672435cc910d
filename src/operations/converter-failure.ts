import { TaskError } from '../contracts/failures';
import { isResourceExhaustion } from '../pdf/classify';
import { findLimitExceeded } from '../lib/limits';
import { ConversionError } from '../convert/errors';

/**
 * A document converter's error as the task's failure, the same for Word, sheets and slides:
 * resource exhaustion and limits go up as they are (retried a bounded number of times; failed with
 * the limit's message and refunded); a failure of ours on a file that did not look damaged is
 * logged as `event` and told as `failed`; the converter's own problems (password, damage, a file
 * it does not take) as their reasons, with the converter's password message and `damaged` where given.
 */
export function converterFailure(err: unknown, log: (event: string, fields: Record<string, unknown>) => void, how: { event: string; failed: string; damaged?: string; passwordMessage?: boolean }): never {
  if (isResourceExhaustion(err)) throw err;
  if (findLimitExceeded(err)) throw err;
  if (!(err instanceof ConversionError)) {
    // Our converter failed on a file it did not find damaged: not the user's fault, and not "damaged".
    log(how.event, { error: String(err), stack: (err as Error)?.stack });
    throw new TaskError({ reason: 'document_unreadable', message: how.failed });
  }
  if (err.problem === 'password') throw new TaskError({ reason: 'document_password', ...(how.passwordMessage ? { message: err.message } : {}) });
  if (err.problem === 'corrupt') throw new TaskError({ reason: 'document_corrupt', ...(how.damaged ? { message: how.damaged } : {}) });
  throw new TaskError({ reason: 'document_unreadable', message: err.message });
}
