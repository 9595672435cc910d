/**
 * Options for an inflate whose output size is known (declared by the file, so not trusted): at
 * most that many bytes, into one output buffer of that size when it is not bigger than
 * MAX_CHUNK_BYTES. workerd's synchronous node:zlib calls hand the whole input to C++ at once
 * whatever the chunk size; Node's loop over 16 KiB chunks in JavaScript and joins them, which took
 * half of a 30 MB inflate's time there (17 ms against 8), so without this the Node benchmarks
 * counted work the Worker does not do.
 */
export function knownSizeInflate(size: number): { maxOutputLength: number; chunkSize: number } {
  return { maxOutputLength: Math.min(size, MAX_OUTPUT_BYTES), chunkSize: Math.min(Math.max(MIN_CHUNK_BYTES, size), MAX_CHUNK_BYTES) };
}

/** workerd refuses a larger maxOutputLength (a RangeError, whatever the data); no Worker holds more anyway. */
const MAX_OUTPUT_BYTES = 128 * 1024 * 1024;

/** zlib's Z_MIN_CHUNK: both runtimes refuse a smaller chunk. */
const MIN_CHUNK_BYTES = 64;
/** A size a damaged or hostile file declares is not allocated up front beyond this. */
const MAX_CHUNK_BYTES = 16 * 1024 * 1024;
