/**
 * A reader's or engine's limit that a file went past, where the content cannot be shown in a
 * lesser form (deeper tables are laid out flat instead, and raise nothing). Thrown by libraries
 * (converters, readers, codecs), which know nothing of tasks: the task runner turns it into a
 * failure whose message names the limit, refunds the task and does not retry it (the same file
 * goes past the same limit every time).
 */
export class LimitExceeded extends Error {
  /**
   * @param limit short name of the limit, for logs and tests ("table_nesting", "zip_entry_size").
   * @param message what a person reads: what the file holds and what the limit is, e.g. "the
   *   document nests tables 300 deep; Word opens at most 63".
   */
  constructor(
    readonly limit: string,
    message: string,
  ) {
    super(message);
    this.name = 'LimitExceeded';
  }
}

/** The LimitExceeded in an error's `cause` chain, if any. */
export function findLimitExceeded(err: unknown): LimitExceeded | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof LimitExceeded) return e;
  }
  return undefined;
}

/** Throws LimitExceeded when `value` is over `max`: for declared sizes, checked before allocating. */
export function requireAtMost(value: number, max: number, limit: string, message: () => string): void {
  if (!(value <= max)) throw new LimitExceeded(limit, message());
}
