/**
 * A WEBP given as a task's input (a photo, a logo, a signature): decoded by the codec
 * (codecs/webp.ts), or the task failing with a message that says what to send instead.
 */
import { TaskError } from '../contracts/failures';
import { LimitExceeded } from '../lib/limits';
import { webpToPng } from '../codecs/webp';

/** webpToPng, or the task failing with what went wrong and `advice` (what to send instead). */
export async function webpToPngOrFail(bytes: Uint8Array, what: string, advice: string): Promise<Uint8Array> {
  try {
    return await webpToPng(bytes, `the WEBP ${what}`);
  } catch (e) {
    if (e instanceof LimitExceeded) throw e; // the task fails naming the limit, refunded, not retried
    throw new TaskError({ reason: 'document_unreadable', message: `The WEBP ${what} could not be read (${(e as Error).message}): ${advice} (the payment was returned).` });
  }
}
